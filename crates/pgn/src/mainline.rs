//! A shortcut for readers that want only a game's main-line moves and its
//! result (book building): the movetext is scanned and each move matched and
//! played, without building a [`PgnGame`](crate::PgnGame) (no tag strings,
//! no move records, no comment text).
//!
//! It takes only the plain case: one well-formed game from the standard
//! start. [`scan_plain`] reads such a game straight out of a longer text (a
//! block of games) and says where the splitter ([`RawGames`]) would end it,
//! so that plain games need neither the splitter's pass nor a copy. Whatever else it meets (a `FEN` or `Variant` tag, a null move, a
//! second game in the text, anything the full parser would report as an
//! error) makes it give up, and the caller then runs
//! [`parse_games_visiting`](crate::parse_games_visiting), so that what is
//! read, and which games are skipped as broken, stays exactly the same.

use crate::parse::split_annotation;
use crate::skip::Skipped;
use crate::split::is_tag_line;
use crate::token::{Token, Tokenizer};
use crate::{GameResult, RawGame};
use chess::{Move, Position};

/// The main line of a game read by [`scan_mainline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// How the game ended: the movetext's result, else the `Result` tag's.
    pub result: GameResult,
    /// Main-line moves visited (at most the `max_plies` asked for).
    pub plies: usize,
}

/// A plain game read by [`scan_plain`] from the start of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainGame {
    /// Its main line.
    pub line: MainLine,
    /// Its length in bytes: the next game starts here (or the text ends).
    pub len: usize,
    /// The line the next game starts on.
    pub next_line: usize,
}

/// The result a `Result` tag's raw value stands for, when the value is plain
/// ASCII (anything else is left to the full parser, which unescapes it).
fn tag_result(value: &[u8]) -> Option<GameResult> {
    if !value.is_ascii() || value.contains(&b'\\') {
        return None;
    }
    std::str::from_utf8(value).ok().map(GameResult::from_tag)
}

/// Reads `raw` as the full parser with [`ReadOptions::mainline`] and
/// `max_plies` would, calling `visit` with the position before each
/// main-line move and the move. `None` when the text is not one plain,
/// well-formed game from the standard start: the caller must then forget
/// the moves visited and use the full parser.
///
/// [`ReadOptions::mainline`]: crate::ReadOptions::mainline
pub fn scan_mainline(
    raw: &RawGame,
    max_plies: Option<usize>,
    visit: &mut impl FnMut(&Position, Move),
) -> Option<MainLine> {
    scan_plain(&raw.text, raw.first_line.max(1), max_plies, visit)
        .filter(|g| g.len == raw.text.len())
        .map(|g| g.line)
}

/// Reads the game at the start of `text` (which starts where [`RawGames`]
/// would start a game, on line `first_line`) as [`scan_mainline`] would
/// read it, when it is one plain game that ends with a result and nothing
/// but blank lines and `%` lines before the next tag line or the end of
/// the text: exactly where [`RawGames`] ends it. `None` otherwise (the
/// caller then splits the game off with [`RawGames`] and reads it the
/// usual way).
///
/// [`RawGames`]: crate::RawGames
pub fn scan_plain(
    text: &[u8],
    first_line: usize,
    max_plies: Option<usize>,
    visit: &mut impl FnMut(&Position, Move),
) -> Option<PlainGame> {
    static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    let mut pos = *START.get_or_init(Position::startpos);
    let mut tokens = Tokenizer::new(text, first_line);
    // The first `Result` tag's value, as the full parser takes it.
    let mut tag_result_seen: Option<GameResult> = None;
    let mut in_movetext = false;
    let mut any_token = false;
    let mut plies = 0usize;
    let mut skipped = Skipped::default();
    let mut past_limit = false;
    let mut result = None;
    let mut tag_decides = false;

    while let Some(next) = tokens.next_token() {
        let (token, _) = next.ok()?;
        any_token = true;
        if let Token::Tag { name, value } = token {
            if in_movetext {
                return None;
            }
            match name {
                b"FEN" | b"Variant" => return None,
                b"Result" if tag_result_seen.is_none() => {
                    tag_result_seen = Some(tag_result(value)?);
                }
                _ => {}
            }
            continue;
        }
        in_movetext = true;
        if !past_limit
            && matches!(token, Token::Move(_))
            && !skipped.inside()
            && max_plies.is_some_and(|n| plies >= n)
        {
            past_limit = true;
            // The full parser then takes the result from the tags.
            tag_decides = tag_result_seen.is_some();
        }
        // The splitter ends a game at a well-formed tag line even inside a
        // comment; such games are left to it.
        if let Token::Comment(c) = token {
            if c.split(|&b| b == b'\n').skip(1).any(is_tag_line) {
                return None;
            }
        }
        if past_limit {
            if let Some(r) = skipped.past_limit(&token) {
                result = Some(r);
                break;
            }
            continue;
        }
        if skipped.inside() {
            skipped.in_variation(&token).ok()?;
            continue;
        }
        match token {
            Token::Tag { .. } => unreachable!("handled above"),
            Token::Move(word) => {
                let (san, _) = split_annotation(word);
                if matches!(san, b"--" | b"Z0" | b"0000" | b"@@@@") {
                    return None;
                }
                let mv = crate::san_match::match_san(&pos, san).ok()?;
                visit(&pos, mv);
                pos.play_unchecked(mv);
                plies += 1;
            }
            // Before any move these are errors for the full parser.
            Token::Nag(_) | Token::Open if plies == 0 => return None,
            Token::Nag(_) | Token::Comment(_) => {}
            Token::Open => skipped.enter(),
            Token::Close => return None,
            Token::Result(r) => {
                result = Some(r);
                break;
            }
        }
    }
    if !any_token || (skipped.inside() && !past_limit) {
        return None;
    }
    let (len, next_line) = if result.is_some() {
        game_end(text, tokens.offset(), tokens.line())?
    } else {
        // The text ran out: the game ends with it.
        (text.len(), tokens.line())
    };
    Some(PlainGame {
        line: MainLine {
            result: if tag_decides { None } else { result }
                .or(tag_result_seen)
                .unwrap_or(GameResult::Unknown),
            plies,
        },
        len,
        next_line,
    })
}

/// Where the game whose result ends at `from` (on line `line`) ends for the
/// splitter: at the end of the text, or at the start of the next line whose
/// first character is `[`, when only blank lines and `%` escape lines come
/// between. `None` when anything else follows the result (another headerless
/// game, a comment, junk): the full parser must see it. Returns the offset
/// and its line.
fn game_end(text: &[u8], from: usize, mut line: usize) -> Option<(usize, usize)> {
    let mut i = from;
    let mut line_start = None;
    while i < text.len() {
        match text[i] {
            b'\n' => {
                line += 1;
                i += 1;
                line_start = Some(i);
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'%' if line_start.is_some() => {
                i += text[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(text.len() - i);
            }
            b'[' => return line_start.map(|start| (start, line)),
            _ => return None,
        }
    }
    Some((text.len(), line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_games_visiting, ReadOptions};

    /// The fast path's moves and result, or `None` when it gives up.
    fn fast(text: &str, max_plies: Option<usize>) -> Option<(Vec<Move>, GameResult)> {
        let raw = RawGame {
            first_line: 1,
            text: text.as_bytes().to_vec(),
        };
        let mut moves = Vec::new();
        let line = scan_mainline(&raw, max_plies, &mut |_, m| moves.push(m))?;
        assert_eq!(line.plies, moves.len());
        Some((moves, line.result))
    }

    /// The full parser's moves and result for a text holding one good game.
    fn full(text: &str, max_plies: Option<usize>) -> Option<(Vec<Move>, GameResult)> {
        let raw = RawGame {
            first_line: 1,
            text: text.as_bytes().to_vec(),
        };
        let options = ReadOptions {
            max_plies,
            ..ReadOptions::mainline()
        };
        let games = parse_games_visiting(&raw, options, &mut |_, _| {});
        match &games[..] {
            [Ok(g)] => Some((g.mainline().collect(), g.result)),
            _ => None,
        }
    }

    #[test]
    fn plain_games_read_like_the_full_parser() {
        let texts = [
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 {c} (2. f4 exf4) Nc6 $1 3. Bb5!? a6 1-0\n",
            "[Result \"0-1\"]\n1. d4 d5 2. c4 *\n",
            "[Result \"1/2-1/2\"]\n1. d4 d5 2. c4\n",
            "[White \"A\"]\n1. e4 c5 2. Nf3 ; rest\n d6 0-1\n",
            "1. e4 e5 2. Nf3 Nc6 1/2-1/2",
            "[SetUp \"0\"]\n1. e4 (1. d4 (1. c4) d5) e5 *\n",
            "[Result \"1-0\"]\n",
        ];
        for text in texts {
            for limit in [None, Some(0), Some(1), Some(2), Some(3), Some(100)] {
                let f = fast(text, limit);
                assert!(f.is_some(), "fast path gave up on {text:?}");
                assert_eq!(f, full(text, limit), "{text:?} up to {limit:?}");
            }
        }
    }

    #[test]
    fn unusual_games_are_left_to_the_full_parser() {
        let texts = [
            "[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n1. Kb1 *\n",
            "[Variant \"Standard\"]\n1. e4 *\n",
            "[Result \"1-0\"]\n1. e4 -- 2. d4 1-0\n",
            "1. e4 e5 *\n\n1. d4 d5 *\n",
            "[Result \"1-0\"]\n1. e4 Ke7 1-0\n",
            "[Result \"1-0\"]\n1. e4 (1. d4 1-0\n",
            "[Result \"1-0\"]\n$1 1. e4 1-0\n",
            "[Result \"1-0\"]\n1. e4 ) 1-0\n",
            "[Result \"1-0\"]\n1. e4 {open\n",
            "[Result \"1-0\"]\n1. e4 [Round \"2\"] 1-0\n",
            "[Result \"1-0\"]\n1. e4 (1. d4 1-0) 1-0\n",
            "",
        ];
        for text in texts {
            assert_eq!(fast(text, None), None, "{text:?}");
        }
    }

    #[test]
    fn past_the_limit_the_tag_decides_as_in_the_full_parser() {
        let text = "[Result \"0-1\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n";
        for limit in [None, Some(0), Some(2), Some(4), Some(5)] {
            assert_eq!(fast(text, limit), full(text, limit), "{limit:?}");
        }
        assert_eq!(
            fast(text, Some(2)).map(|g| g.1),
            Some(GameResult::BlackWins)
        );
        assert_eq!(fast(text, None).map(|g| g.1), Some(GameResult::WhiteWins));
    }

    /// What `scan_plain` makes of the start of `text`: (moves, result,
    /// length, next line).
    fn plain(text: &str) -> Option<(usize, GameResult, usize, usize)> {
        let mut moves = 0;
        let g = scan_plain(text.as_bytes(), 1, None, &mut |_, _| moves += 1)?;
        Some((moves, g.line.result, g.len, g.next_line))
    }

    #[test]
    fn plain_games_end_where_the_splitter_ends_them() {
        let game = "[Result \"1-0\"]\n1. e4 e5 1-0\n";
        let next = "[Result \"0-1\"]\n1. d4 0-1\n";
        let win = GameResult::WhiteWins;
        assert_eq!(plain(game), Some((2, win, game.len(), 3)));
        let two = format!("{game}\n%escape\n  {next}");
        assert_eq!(plain(&two), Some((2, win, game.len() + 9, 5)));
        // The same cut as the splitter's.
        let split: Vec<_> = crate::RawGames::new(two.as_bytes())
            .map(|g| g.expect("in memory").first_line)
            .collect();
        assert_eq!(split, [1, 5]);
        for not_plain in [
            // Another headerless game, a comment or a tag on the result's line.
            format!("{game}1. d4 *\n"),
            format!("{game}{{after}}\n{next}"),
            "[Result \"1-0\"]\n1. e4 1-0 [Result \"0-1\"]\n".to_string(),
            // A tag line inside a comment: the splitter cuts there.
            "[Result \"1-0\"]\n1. e4 {a\n[Event \"x\"]\n} e5 1-0\n".to_string(),
            // No result before the next game's tags.
            format!("[Result \"1-0\"]\n1. e4 e5\n{next}"),
        ] {
            assert_eq!(plain(&not_plain), None, "{not_plain:?}");
        }
        // Without a result the game runs to the end of the text.
        assert_eq!(plain("[Result \"1-0\"]\n1. e4\n"), Some((1, win, 21, 3)));
    }
}
