//! A shortcut for readers that want only a game's main-line moves and its
//! result (book building): the movetext is scanned and each move matched and
//! played, without building a [`PgnGame`](crate::PgnGame) (no tag strings,
//! no move records, no comment text).
//!
//! It takes only the plain case: one well-formed game from the standard
//! start. Whatever else it meets (a `FEN` or `Variant` tag, a null move, a
//! second game in the text, anything the full parser would report as an
//! error) makes it give up, and the caller then runs
//! [`parse_games_visiting`](crate::parse_games_visiting), so that what is
//! read, and which games are skipped as broken, stays exactly the same.

use crate::parse::split_annotation;
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
    static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    let mut pos = *START.get_or_init(Position::startpos);
    let mut tokens = Tokenizer::new(&raw.text, raw.first_line.max(1));
    // The first `Result` tag's value, as the full parser takes it.
    let mut tag_result_seen: Option<GameResult> = None;
    let mut in_movetext = false;
    let mut any_token = false;
    let mut plies = 0usize;
    // Depth inside skipped variations.
    let mut skip_depth = 0usize;
    let mut past_limit = false;
    let mut result = None;
    let mut ended_early = false;

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
            && skip_depth == 0
            && max_plies.is_some_and(|n| plies >= n)
        {
            past_limit = true;
            if tag_result_seen.is_some() {
                ended_early = true;
                break;
            }
        }
        if past_limit {
            match token {
                Token::Open => skip_depth += 1,
                Token::Close => skip_depth = skip_depth.saturating_sub(1),
                Token::Result(r) if skip_depth == 0 => {
                    result = Some(r);
                    break;
                }
                _ => {}
            }
            continue;
        }
        if skip_depth > 0 {
            match token {
                Token::Open => skip_depth += 1,
                Token::Close => skip_depth -= 1,
                Token::Result(_) => return None,
                _ => {}
            }
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
                pos.play(mv);
                plies += 1;
            }
            // Before any move these are errors for the full parser.
            Token::Nag(_) | Token::Open if plies == 0 => return None,
            Token::Nag(_) | Token::Comment(_) => {}
            Token::Open => skip_depth = 1,
            Token::Close => return None,
            Token::Result(r) => {
                result = Some(r);
                break;
            }
        }
    }
    // Anything after the game (another game, or junk) is for the full parser.
    if !ended_early && tokens.next_token().is_some() {
        return None;
    }
    if !any_token || (skip_depth > 0 && !past_limit) {
        return None;
    }
    Some(MainLine {
        result: result.or(tag_result_seen).unwrap_or(GameResult::Unknown),
        plies,
    })
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
}
