//! From tokens to games: tag pairs, the start position (`FEN`, `SetUp`,
//! `Variant`), every move replayed and checked on the board (variations from
//! the position before the move they replace), NAGs and comments attached to
//! their moves.

use crate::skip::Skipped;
use crate::token::{Place, Token, TokenError, Tokenizer};
use crate::{GameResult, PgnError, PgnErrorKind, PgnGame, PgnMove, RawGame};
use chess::Position;

/// How deep kept variations may nest: a game whose variations nest deeper
/// is refused ([`PgnErrorKind::TooDeep`]). Everything that walks a game's
/// move tree (writers, the GUI's tree, dropping the game) recurses once per
/// level, so the bound keeps their stack use small on any thread; real
/// annotated games nest a handful of levels. Variations a reader skips
/// ([`ReadOptions::variations`] false) are only counted, and may nest as deep
/// as they like.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// What the parser keeps besides the main line's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Keep (and replay) variations; when false they are skipped unchecked.
    pub variations: bool,
    /// Keep comments; when false they are skipped.
    pub comments: bool,
    /// Replay only this many plies of the main line; the rest of the movetext
    /// is skipped unchecked, and the result comes from the movetext's end or
    /// the `Result` tag. `None` replays everything.
    pub max_plies: Option<usize>,
}

impl Default for ReadOptions {
    /// Everything is kept.
    fn default() -> ReadOptions {
        ReadOptions {
            variations: true,
            comments: true,
            max_plies: None,
        }
    }
}

impl ReadOptions {
    /// Main line only: what book building and statistics need, and faster.
    pub fn mainline() -> ReadOptions {
        ReadOptions {
            variations: false,
            comments: false,
            max_plies: None,
        }
    }
}

/// Bytes from a file as text: UTF-8 when valid, else Latin-1 (old files).
pub(crate) fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// A tag value with its `\"` and `\\` escapes resolved.
fn unescape(bytes: &[u8]) -> String {
    if !bytes.contains(&b'\\') {
        return decode(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() && matches!(bytes[i + 1], b'"' | b'\\') {
            i += 1;
        }
        out.push(bytes[i]);
        i += 1;
    }
    decode(&out)
}

/// A comment's text with its whitespace runs collapsed to single spaces.
fn comment_text(bytes: &[u8]) -> String {
    let text = decode(bytes);
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A Variant tag's value in lower case, letters and digits only.
fn variant_key(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Variant tag values that mean Chess960.
pub(crate) fn is_chess960(value: &str) -> bool {
    matches!(
        variant_key(value).as_str(),
        "chess960" | "fischerandom" | "fischerrandom" | "frc" | "960"
    )
}

/// Variant tag values that mean standard chess or Chess960.
fn supported_variant(value: &str) -> bool {
    is_chess960(value)
        || matches!(
            variant_key(value).as_str(),
            "" | "standard" | "chess" | "normal" | "fromposition"
        )
}

/// One line of play being built: the main line or a variation.
struct Level {
    /// The position before the last move of this line.
    before: Position,
    /// The position after the last move of this line.
    pos: Position,
    moves: Vec<PgnMove>,
    /// Comments waiting for the next move.
    pending: Vec<String>,
}

impl Level {
    fn new(pos: Position) -> Level {
        Level {
            before: pos,
            pos,
            moves: Vec::new(),
            pending: Vec::new(),
        }
    }
}

fn token_error(e: TokenError, line: usize) -> PgnError {
    match e {
        TokenError::UnclosedComment => PgnError::new(line, b"{", PgnErrorKind::UnclosedComment),
        TokenError::BadTag(t) => PgnError::new(line, t.as_bytes(), PgnErrorKind::BadTag),
        TokenError::Unexpected(t) => PgnError::new(line, t.as_bytes(), PgnErrorKind::Unexpected),
    }
}

/// Parses the games in `raw` (usually one; several when games have no tags).
/// A broken game ends the parse of `raw`: its error is the last item.
/// Game numbers in the errors are left at 0 for the caller to fill in.
/// Every game of the text is held at once: a text of many games without
/// tags is better read with [`TextGames`], one game at a time.
pub fn parse_games(raw: &RawGame, options: ReadOptions) -> Vec<Result<PgnGame, PgnError>> {
    TextGames::new(raw, options).collect()
}

/// Like [`parse_games`], and calls `visit` with the position before each
/// main-line move and the move, as the move is replayed (so a caller that
/// wants every position need not replay the game again). The moves of a
/// game that turns out broken are visited too, up to the error.
pub fn parse_games_visiting(
    raw: &RawGame,
    options: ReadOptions,
    visit: &mut dyn FnMut(&Position, chess::Move),
) -> Vec<Result<PgnGame, PgnError>> {
    let mut games = TextGames::new(raw, options);
    std::iter::from_fn(|| games.next_visiting(visit)).collect()
}

/// The games of one raw text, parsed one at a time. Games without tags (or
/// without moves) share a text: 16 MiB of `1. e4 *` are two million games,
/// which parsed at once took 2 GB; one at a time, a reader holds the text
/// and one game. A broken game ends the text: its error is the last item.
/// Game numbers in the errors are left at 0 for the caller to fill in.
pub struct TextGames<'a> {
    text: &'a [u8],
    place: Place,
    options: ReadOptions,
    done: bool,
}

impl<'a> TextGames<'a> {
    /// The games of `raw`, read with `options`.
    pub fn new(raw: &'a RawGame, options: ReadOptions) -> TextGames<'a> {
        TextGames::resume(
            &raw.text,
            Tokenizer::new(&raw.text, raw.first_line.max(1)).place(),
            options,
        )
    }

    /// The games of `text` from `place` on.
    pub(crate) fn resume(text: &'a [u8], place: Place, options: ReadOptions) -> TextGames<'a> {
        TextGames {
            text,
            place,
            options,
            done: false,
        }
    }

    /// Where the next game starts, to [`resume`](Self::resume) from;
    /// `None` once the text is read (or broken).
    pub(crate) fn place(&self) -> Option<Place> {
        (!self.done).then_some(self.place)
    }

    /// The next game, calling `visit` as [`parse_games_visiting`] does.
    pub fn next_visiting(
        &mut self,
        visit: &mut dyn FnMut(&Position, chess::Move),
    ) -> Option<Result<PgnGame, PgnError>> {
        if self.done {
            return None;
        }
        let mut tokens = Tokenizer::resume(self.text, self.place);
        let item = parse_one(&mut tokens, self.options, visit);
        self.place = tokens.place();
        match item {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl Iterator for TextGames<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_visiting(&mut |_, _| {})
    }
}

/// The start position from the tags: `FEN` (with `SetUp`) and `Variant`.
fn start_position(tags: &[(String, String)], line: usize) -> Result<Position, PgnError> {
    if let Some((_, v)) = tags.iter().find(|(n, _)| n == "Variant") {
        if !supported_variant(v) {
            return Err(PgnError::new(
                line,
                v.as_bytes(),
                PgnErrorKind::Variant(v.clone()),
            ));
        }
    }
    match tags.iter().find(|(n, _)| n == "FEN") {
        Some((_, fen)) => Position::from_fen(fen.trim())
            .map_err(|e| PgnError::new(line, fen.as_bytes(), PgnErrorKind::Fen(e))),
        None => {
            // Parsing the start FEN for every game shows in profiles.
            static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
            Ok(*START.get_or_init(Position::startpos))
        }
    }
}

/// Splits a trailing `!`/`?` annotation off a move: `e4!?` -> (`e4`, Some(5)).
#[inline]
pub(crate) fn split_annotation(word: &[u8]) -> (&[u8], Option<u8>) {
    let n = word
        .iter()
        .rev()
        .take_while(|&&b| b == b'!' || b == b'?')
        .count();
    let (san, suffix) = word.split_at(word.len() - n);
    let nag = match suffix {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    };
    (san, nag)
}

fn parse_one(
    tokens: &mut Tokenizer<'_>,
    options: ReadOptions,
    visit: &mut dyn FnMut(&Position, chess::Move),
) -> Result<Option<PgnGame>, PgnError> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut levels: Vec<Level> = Vec::new();
    let mut skipped = Skipped::default();
    let mut past_limit = false;
    let mut first_line = None;
    let mut result = None;
    let mut start = None;

    while let Some(next) = tokens.next_token() {
        let (token, line) = next.map_err(|(e, line)| token_error(e, line))?;
        first_line.get_or_insert(line);
        if let Token::Tag { name, value } = token {
            if !levels.is_empty() {
                return Err(PgnError::new(line, name, PgnErrorKind::TagInMovetext));
            }
            tags.push((decode(name), unescape(value)));
            continue;
        }
        if levels.is_empty() {
            let pos = start_position(&tags, line)?;
            start = Some(pos);
            levels.push(Level::new(pos));
        }
        if !past_limit
            && matches!(token, Token::Move(_))
            && !skipped.inside()
            && levels.len() == 1
            && options
                .max_plies
                .is_some_and(|n| levels[0].moves.len() >= n)
        {
            past_limit = true;
            if tags.iter().any(|(n, _)| n == "Result") {
                // The result is in the tags: the rest of the movetext (and of
                // this text) is not needed. Games without tags go on to find
                // their result token, which also ends them.
                tokens.skip_to_end();
                break;
            }
        }
        if past_limit {
            // Past the plies wanted: look only for the end of the game.
            if let Some(r) = skipped.past_limit(&token) {
                result = Some(r);
                break;
            }
            continue;
        }
        if skipped.inside() {
            if skipped.in_variation(&token).is_err() {
                return Err(PgnError::new(line, b"", PgnErrorKind::ResultInVariation));
            }
            continue;
        }
        let on_main_line = levels.len() == 1;
        let nesting = levels.len();
        let level = levels
            .last_mut()
            .expect("a level exists once movetext began");
        match token {
            Token::Tag { .. } => unreachable!("handled above"),
            Token::Move(word) => {
                let (san, nag) = split_annotation(word);
                let mv = if matches!(san, b"--" | b"Z0" | b"0000" | b"@@@@") {
                    // A null move (a pass), as ChessBase and annotators write it.
                    if level.pos.in_check() {
                        return Err(PgnError::new(line, word, PgnErrorKind::NullMove));
                    }
                    chess::Move::NULL
                } else {
                    crate::san_match::match_san(&level.pos, san).map_err(|e| {
                        let e = if word.iter().all(u8::is_ascii_graphic) {
                            e
                        } else {
                            // Binary junk: show it escaped, not raw.
                            let shown = PgnError::new(line, word, PgnErrorKind::Unexpected).text;
                            chess::SanError::Malformed(shown)
                        };
                        PgnError::new(line, word, PgnErrorKind::Move(e))
                    })?
                };
                if on_main_line {
                    visit(&level.pos, mv);
                }
                level.before = level.pos;
                crate::play(&mut level.pos, mv);
                let mut m = PgnMove::new(mv);
                m.comments_before = std::mem::take(&mut level.pending);
                m.nags.extend(nag);
                level.moves.push(m);
            }
            Token::Nag(n) => match level.moves.last_mut() {
                Some(m) => m.nags.push(n),
                None => {
                    return Err(PgnError::new(
                        line,
                        format!("${n}").as_bytes(),
                        PgnErrorKind::Unexpected,
                    ))
                }
            },
            Token::Comment(text) => {
                if options.comments {
                    let text = comment_text(text);
                    match level.moves.last_mut() {
                        Some(m) if level.pending.is_empty() => m.comments.push(text),
                        _ => level.pending.push(text),
                    }
                }
            }
            Token::Open => {
                if level.moves.is_empty() {
                    return Err(PgnError::new(
                        line,
                        b"(",
                        PgnErrorKind::VariationWithoutMove,
                    ));
                }
                if options.variations {
                    if nesting > MAX_VARIATION_DEPTH {
                        return Err(PgnError::new(
                            line,
                            b"(",
                            PgnErrorKind::TooDeep(MAX_VARIATION_DEPTH),
                        ));
                    }
                    let from = level.before;
                    levels.push(Level::new(from));
                } else {
                    skipped.enter();
                }
            }
            Token::Close => {
                if levels.len() < 2 {
                    return Err(PgnError::new(line, b")", PgnErrorKind::UnmatchedClose));
                }
                let mut done = levels.pop().expect("checked above");
                if let Some(last) = done.moves.last_mut() {
                    last.comments.append(&mut done.pending);
                }
                let parent = levels.last_mut().expect("checked above");
                if !done.moves.is_empty() {
                    parent
                        .moves
                        .last_mut()
                        .expect("a variation follows a move")
                        .variations
                        .push(done.moves);
                }
            }
            Token::Result(r) => {
                if levels.len() > 1 {
                    return Err(PgnError::new(
                        line,
                        r.as_str().as_bytes(),
                        PgnErrorKind::ResultInVariation,
                    ));
                }
                result = Some(r);
                break;
            }
        }
    }

    let Some(first_line) = first_line else {
        return Ok(None);
    };
    if levels.len() > 1 || (skipped.inside() && !past_limit) {
        return Err(PgnError::new(
            tokens.line(),
            b"(",
            PgnErrorKind::UnclosedVariation,
        ));
    }
    let start = match start {
        Some(pos) => pos,
        None => start_position(&tags, first_line)?,
    };
    let mut main = levels.pop().unwrap_or_else(|| Level::new(start));
    if let Some(last) = main.moves.last_mut() {
        last.comments.append(&mut main.pending);
    }
    let result = result.unwrap_or_else(|| {
        tags.iter()
            .find(|(n, _)| n == "Result")
            .map_or(GameResult::Unknown, |(_, v)| GameResult::from_tag(v))
    });
    let mut game = PgnGame {
        tags,
        start,
        moves: main.moves,
        result,
        line: first_line,
    };
    if !main.pending.is_empty() {
        // Comments before the first move: kept on the first move, or dropped
        // for a game without moves.
        if let Some(first) = game.moves.first_mut() {
            first.comments_before.append(&mut main.pending);
        }
    }
    Ok(Some(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Vec<Result<PgnGame, PgnError>> {
        let raw = RawGame {
            first_line: 1,
            text: s.as_bytes().to_vec(),
        };
        parse_games(&raw, ReadOptions::default())
    }

    #[test]
    fn a_game_with_everything() {
        let games = parse(
            "[Event \"x\"]\n[White \"A \\\"B\\\"\"]\n\n{start} 1. e4 $1 {c1} (1. d4 d5 (1... Nf6) 2. c4) 1... e5!? 2. Nf3 {[%clk 0:01:00]} 1-0\n",
        );
        assert_eq!(games.len(), 1);
        let g = games[0].as_ref().expect("valid game");
        assert_eq!(g.tag("White"), Some("A \"B\""));
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].comments_before, vec!["start"]);
        assert_eq!(g.moves[0].nags, vec![1]);
        assert_eq!(g.moves[0].comments, vec!["c1"]);
        assert_eq!(g.moves[0].variations.len(), 1);
        assert_eq!(g.moves[0].variations[0].len(), 3);
        assert_eq!(g.moves[0].variations[0][1].variations.len(), 1);
        assert_eq!(g.moves[1].nags, vec![5]);
        assert_eq!(g.moves[2].comments, vec!["[%clk 0:01:00]"]);
        assert_eq!(g.result, GameResult::WhiteWins);
    }

    #[test]
    fn headerless_games_split_on_results() {
        let games = parse("1. e4 e5 1-0 1. d4 0-1\n");
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(Result::is_ok));
    }

    #[test]
    fn illegal_move_reports_line_and_text() {
        let games = parse("[Event \"x\"]\n1. e4 e5\n2. Ke3 *\n");
        let e = games[0].as_ref().expect_err("illegal move");
        assert_eq!((e.line, e.text.as_str()), (3, "Ke3"));
    }

    #[test]
    fn fen_and_chess960() {
        let games = parse(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n9. g3 *\n",
        );
        assert!(games[0].is_ok(), "{games:?}");
        let games = parse("[Variant \"Crazyhouse\"]\n1. e4 *\n");
        assert!(matches!(
            games[0],
            Err(PgnError {
                kind: PgnErrorKind::Variant(_),
                ..
            })
        ));
    }

    #[test]
    fn structural_errors() {
        for (text, kind) in [
            ("1. e4 (", PgnErrorKind::UnclosedVariation),
            ("1. e4 ) *", PgnErrorKind::UnmatchedClose),
            ("( 1. e4 ) *", PgnErrorKind::VariationWithoutMove),
            ("1. e4 (1. d4 *) *", PgnErrorKind::ResultInVariation),
            ("1. e4 f5 2. Qh5+ Z0 *", PgnErrorKind::NullMove),
            ("1. e4 {never", PgnErrorKind::UnclosedComment),
        ] {
            let games = parse(text);
            let e = games.last().expect("one item").as_ref().expect_err(text);
            assert_eq!(e.kind, kind, "{text}");
        }
    }

    #[test]
    fn max_plies_stops_replaying() {
        let limited = ReadOptions {
            max_plies: Some(2),
            ..ReadOptions::mainline()
        };
        let raw = |s: &str| RawGame {
            first_line: 1,
            text: s.as_bytes().to_vec(),
        };
        let games = parse_games(
            &raw("[Result \"1-0\"]\n1. e4 e5 2. Nf3 Zz9 (3. d4 *) 1-0"),
            limited,
        );
        let g = games[0]
            .as_ref()
            .expect("moves past the limit are not read");
        assert_eq!((g.moves.len(), g.result), (2, GameResult::WhiteWins));
        // Without tags the result token is looked for, and ends the game.
        let games = parse_games(&raw("1. e4 e5 2. Nf3 1-0 1. d4 d5 2. c4 0-1"), limited);
        let results: Vec<GameResult> = games
            .iter()
            .map(|g| g.as_ref().expect("ok").result)
            .collect();
        assert_eq!(results, [GameResult::WhiteWins, GameResult::BlackWins]);
    }

    #[test]
    fn mainline_options_skip_variations_and_comments() {
        let raw = RawGame {
            first_line: 1,
            text: b"1. e4 {c} (1. d4 {x} Zz9) e5 *".to_vec(),
        };
        let games = parse_games(&raw, ReadOptions::mainline());
        let g = games[0].as_ref().expect("valid");
        assert_eq!(g.moves.len(), 2);
        assert!(g.moves[0].comments.is_empty() && g.moves[0].variations.is_empty());
    }
}
