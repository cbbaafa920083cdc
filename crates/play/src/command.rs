//! The terminal game's commands, parsed from one line of text. Anything
//! that is not a command is taken as a move.

use chess::Color;
use matchcore::time_control::TimeControl;
use std::path::PathBuf;
use thiserror::Error;

/// The help text (the `help` command).
pub const HELP: &str = "\
Moves: type them in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q).
  A pawn move to the last rank without a piece asks which one (q, r, b, n).
Game:
  new                      a new game from the start position
  undo / redo              one move back (back to your move against the engine) / forward
  history                  the moves so far, with move numbers
  board / flip             show the board / turn it round
  fen [FEN]                show the position's FEN, or set up a position
  edit                     edit mode: Ke1 / pe7 place, xe4 removes, clear, turn w|b,
                           castle KQkq|-, done, cancel
  save FILE / load FILE [N]  write the game as PGN / read game N (default 1) of a PGN file
  hint                     Kestrel's suggestion for your move (full strength), with its reason
  explain [MOVE] [line]    why the last move (or MOVE, here) is good or bad, in words;
                           with line, the engine's lines and the motifs of their moves
  resign / draw            resign / offer a draw (Kestrel accepts when it stands a pawn
                           or more worse, or when the game is level from move 30)
  time 5+3 | time off      clocks: minutes each + seconds added per move (the engine
                           plays to the clock); time alone shows them
Players:
  white human|engine, black human|engine   who plays each side
  auto on|off              engine against engine (autoplay) / you play White again
  go                       the engine plays the side to move now
  level ELO|off            the engine plays at this Elo (Stockfish's UCI_Elo scale, from
                           1350) or at full strength, both sides
  set white|black|both depth N | time SECONDS | book on|off | level ELO|off | option NAME=VALUE
                           per-side engine settings; options are the evaluator and the
                           search techniques (Evaluator=Simple, NullMove=false, Contempt=20, ...)
  settings                 show who plays and how
Engine:
  pv [next|back|N]         the engine's expected line; step through it on the board
                           (scores are from White's view: + is good for White)
  stats                    time, depth, nodes and search statistics of the last search
  showtime on|off          print the engine's time after each of its moves
  claim on|off             end the game at threefold repetition and fifty moves (default on)
  book add [FILE]          add the last move to a text book (default kestrel-book.txt)
  help, quit";

/// Which side a setting is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// One side.
    One(Color),
    /// Both sides.
    Both,
}

impl Sides {
    /// True when `color` is included.
    pub fn includes(self, color: Color) -> bool {
        match self {
            Sides::One(c) => c == color,
            Sides::Both => true,
        }
    }
}

/// One engine setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Fixed depth per move.
    Depth(i32),
    /// Fixed time per move, milliseconds.
    Time(u64),
    /// Book on or off.
    Book(bool),
    /// A search option: name and value.
    Option(String, String),
    /// A playing level (Elo), or full strength (`None`).
    Level(Option<i64>),
}

/// Moving through the principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PvStep {
    /// Show the line.
    Show,
    /// One move further along it (board shown).
    Next,
    /// One move back.
    Back,
    /// The board after this many moves of it.
    At(usize),
}

/// What `time` asks of the clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockSetting {
    /// Show both sides' time.
    Show,
    /// No clocks: the engine thinks per move again.
    Off,
    /// Clocks under this control, from now.
    Control(TimeControl),
}

/// A command typed at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Quit,
    New,
    Board,
    Flip,
    Undo,
    Redo,
    History,
    Fen(Option<String>),
    Edit,
    Save(PathBuf),
    Load(PathBuf, usize),
    Player(Color, bool),
    Auto(bool),
    Go,
    Set(Sides, Setting),
    Settings,
    Pv(PvStep),
    Stats,
    ShowTime(bool),
    Claim(bool),
    BookAdd(Option<PathBuf>),
    Hint,
    /// `explain [MOVE] [line]`: the last move (or MOVE in this position) in
    /// words; `line` adds the lines with their motifs.
    Explain {
        /// The move to explain instead of the last one.
        mv: Option<String>,
        /// The lines too.
        line: bool,
    },
    Resign,
    Draw,
    Time(ClockSetting),
    Move(String),
}

/// Why a command line was not understood.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct CommandError(pub String);

fn err<T>(text: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(text.into()))
}

fn on_off(word: Option<&str>, command: &str) -> Result<bool, CommandError> {
    match word.map(engine::parse_bool) {
        Some(Ok(on)) => Ok(on),
        _ => err(format!("'{command}' takes on or off")),
    }
}

fn side(word: &str) -> Option<Color> {
    match word {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// A level: an Elo number or `off` (the range is checked when it is set).
fn level(word: Option<&str>) -> Result<Option<i64>, CommandError> {
    match word {
        Some("off") => Ok(None),
        Some(w) => match w.parse::<i64>() {
            Ok(elo) => Ok(Some(elo)),
            Err(_) => err(format!("level '{w}' must be an Elo number or off")),
        },
        None => err("'level' takes an Elo number or off, e.g. level 1600"),
    }
}

/// Parses one line (already trimmed and not empty).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let rest = |from: usize| words.get(from..).unwrap_or_default().join(" ");
    let arg = words.get(1).copied();
    Ok(match words[0] {
        "help" | "?" => Command::Help,
        "quit" | "exit" => Command::Quit,
        "new" => Command::New,
        "board" | "show" => Command::Board,
        "flip" => Command::Flip,
        "undo" | "back" => Command::Undo,
        "redo" | "forward" => Command::Redo,
        "history" | "moves" => Command::History,
        "fen" => Command::Fen((words.len() > 1).then(|| rest(1))),
        "edit" => Command::Edit,
        "save" => match arg {
            Some(_) => Command::Save(PathBuf::from(rest(1))),
            None => return err("'save' needs a file name, e.g. save game.pgn"),
        },
        "load" => {
            let (Some(path), n) = (arg, words.get(2)) else {
                return err("'load' needs a file name, e.g. load game.pgn");
            };
            let n = match n {
                None => 1,
                Some(t) => match t.parse::<usize>() {
                    Ok(n) if n >= 1 => n,
                    _ => return err(format!("game number '{t}' must be 1 or more")),
                },
            };
            Command::Load(PathBuf::from(path), n)
        }
        "white" | "black" => {
            let color = side(words[0]).unwrap_or(Color::White);
            match arg {
                Some("human") => Command::Player(color, false),
                Some("engine" | "computer") => Command::Player(color, true),
                _ => return err(format!("'{}' takes human or engine", words[0])),
            }
        }
        "auto" => Command::Auto(on_off(arg, "auto")?),
        "level" => Command::Set(Sides::Both, Setting::Level(level(arg)?)),
        "go" => Command::Go,
        "set" => {
            let sides = match arg {
                Some("both") => Sides::Both,
                Some(w) if side(w).is_some() => Sides::One(side(w).unwrap_or(Color::White)),
                _ => return err("'set' starts with white, black or both, e.g. set black depth 6"),
            };
            let value = words.get(3).copied();
            let setting = match (words.get(2).copied(), value) {
                (Some("depth"), Some(v)) => match v.parse::<i32>() {
                    Ok(d) if (1..=64).contains(&d) => Setting::Depth(d),
                    _ => return err(format!("depth '{v}' must be from 1 to 64")),
                },
                (Some("time"), Some(v)) => match v.parse::<f64>() {
                    Ok(s) if s.is_finite() && (0.001..=3600.0).contains(&s) => {
                        Setting::Time((s * 1000.0).round() as u64)
                    }
                    _ => return err(format!("time '{v}' must be seconds, from 0.001 to 3600")),
                },
                (Some("book"), v) => Setting::Book(on_off(v, "set ... book")?),
                (Some("level"), v) => Setting::Level(level(v)?),
                (Some("option"), Some(_)) => {
                    let text = rest(3);
                    let Some((name, value)) = text.split_once('=') else {
                        return err(
                            "'set ... option' takes NAME=VALUE, e.g. option NullMove=false",
                        );
                    };
                    Setting::Option(name.trim().to_string(), value.trim().to_string())
                }
                _ => {
                    return err(
                        "'set' takes depth N, time SECONDS, book on|off, level ELO|off or option NAME=VALUE",
                    )
                }
            };
            Command::Set(sides, setting)
        }
        "settings" | "players" => Command::Settings,
        "pv" => Command::Pv(match arg {
            None => PvStep::Show,
            Some("next" | "+") => PvStep::Next,
            Some("back" | "-") => PvStep::Back,
            Some(n) => match n.parse::<usize>() {
                Ok(n) => PvStep::At(n),
                Err(_) => return err("'pv' takes next, back or a number of moves"),
            },
        }),
        "stats" => Command::Stats,
        "hint" => Command::Hint,
        "explain" | "why" => {
            let line = words.last() == Some(&"line") && words.len() > 1;
            let args = &words[1..words.len() - usize::from(line)];
            match args {
                [] => Command::Explain { mv: None, line },
                [m] => Command::Explain {
                    mv: Some((*m).to_string()),
                    line,
                },
                _ => return err("'explain' takes a move and 'line', e.g. explain Nf3 line"),
            }
        }
        "resign" => Command::Resign,
        "draw" => Command::Draw,
        "time" | "clock" => Command::Time(match arg {
            None => ClockSetting::Show,
            Some("off") => ClockSetting::Off,
            Some(tc) => match TimeControl::parse_minutes(tc) {
                Ok(tc) => ClockSetting::Control(tc),
                Err(e) => return err(e.to_string()),
            },
        }),
        "showtime" => Command::ShowTime(on_off(arg, "showtime")?),
        "claim" => Command::Claim(on_off(arg, "claim")?),
        "book" => match arg {
            Some("add") => Command::BookAdd(words.get(2).map(PathBuf::from)),
            _ => return err("'book add [FILE]' adds the last move to a text book"),
        },
        _ if words.len() == 1 => Command::Move(words[0].to_string()),
        _ => return err(format!("unknown command '{}'; type help", words[0])),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(parse("undo"), Ok(Command::Undo));
        assert_eq!(parse("Nf3"), Ok(Command::Move("Nf3".into())));
        assert_eq!(
            parse("fen 8/8/8/8/8/8/8/8 w - - 0 1"),
            Ok(Command::Fen(Some("8/8/8/8/8/8/8/8 w - - 0 1".into())))
        );
        assert_eq!(
            parse("set black option NullMove=false"),
            Ok(Command::Set(
                Sides::One(Color::Black),
                Setting::Option("NullMove".into(), "false".into())
            ))
        );
        assert_eq!(
            parse("set both time 0.5"),
            Ok(Command::Set(Sides::Both, Setting::Time(500)))
        );
        assert_eq!(parse("load g.pgn 3"), Ok(Command::Load("g.pgn".into(), 3)));
        assert_eq!(parse("pv 2"), Ok(Command::Pv(PvStep::At(2))));
        assert_eq!(parse("time off"), Ok(Command::Time(ClockSetting::Off)));
        assert!(matches!(
            parse("time 5+3"),
            Ok(Command::Time(ClockSetting::Control(_)))
        ));
        assert_eq!(parse("hint"), Ok(Command::Hint));
        assert_eq!(
            parse("explain"),
            Ok(Command::Explain {
                mv: None,
                line: false
            })
        );
        assert_eq!(
            parse("explain Nf3 line"),
            Ok(Command::Explain {
                mv: Some("Nf3".into()),
                line: true
            })
        );
        assert_eq!(
            parse("explain line"),
            Ok(Command::Explain {
                mv: None,
                line: true
            })
        );
        assert_eq!(
            parse("level 1600"),
            Ok(Command::Set(Sides::Both, Setting::Level(Some(1600))))
        );
        assert_eq!(
            parse("set white level off"),
            Ok(Command::Set(Sides::One(Color::White), Setting::Level(None)))
        );
        for bad in [
            "set purple depth 3",
            "set white depth 0",
            "white robot",
            "auto maybe",
            "load",
            "hello world",
            "level",
            "level strong",
            "set black level",
            "time 5+",
            "time fast",
            "explain Nf3 Nc6",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
