//! A game's memory, as a host that keeps many counts it against a budget
//! (the GUI server's `--games-memory`): what the game holds
//! ([`GameRecord::heap_bytes`]), what showing it takes (its JSON view,
//! written whole before it is sent: [`view_json_bound`]), the copy of its
//! main line that walking it makes ([`line_copy_bytes`]), and, from a PGN
//! text alone, the most that importing it may take ([`import_bound`]), so
//! that a host can refuse a request before it allocates instead of after.
//!
//! The figures are bounds, not guesses: each counts what the structures
//! hold by their sizes and capacities, with the allocator's own cost per
//! block ([`BLOCK_OVERHEAD`]), and the JSON by its longest form.

use chess::{Move, Position};
use pgn::token::{Token, Tokenizer};

use crate::record::GameRecord;
use crate::tree::{Node, NodeId};

pub use crate::heap::{block, BLOCK_OVERHEAD};

/// The most bytes one node adds to the JSON view besides its comments,
/// NAGs and children: its object in `nodes` with the longest FEN (about
/// 90 characters), ids of up to 10 digits, a promotion, both times.
/// A node of Knights out and back takes about 270.
pub const NODE_JSON: usize = 380;

/// The most bytes one move of the main line adds to `plies`, as above.
/// A ply of Knights out and back takes about 230.
pub const PLY_JSON: usize = 320;

/// The most bytes of a view besides its nodes and plies: the FENs, the
/// status, and the legal moves (at most 218, about 70 bytes each).
pub const VIEW_JSON: usize = 16 * 1024;

/// The bytes `text` takes as a JSON string: the quotes, and the escapes
/// serde_json writes (`\"`, `\\`, `\n` and the like, `\u00XX` for the
/// other control characters).
pub fn json_string_len(text: &str) -> usize {
    2 + text
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// The most bytes of `record`'s JSON view (`view::GameJson`): at most
/// [`NODE_JSON`] a node and [`PLY_JSON`] a move of the main line, each
/// comment as the JSON string it becomes, each NAG and child id as the
/// longest number.
pub fn view_json_bound(record: &GameRecord) -> usize {
    let tree = &record.tree;
    let nodes: usize = tree
        .ids()
        .filter_map(|id| tree.get(id))
        .map(|n| {
            let comments: usize = n
                .comments
                .iter()
                .chain(&n.comments_before)
                .map(|c| json_string_len(c) + 1)
                .sum();
            NODE_JSON + comments + 4 * n.nags.len() + 11 * n.children.len()
        })
        .sum();
    let plies = tree.first_children(crate::tree::ROOT).count();
    VIEW_JSON + nodes + plies * PLY_JSON
}

/// The bytes of one copy of a main line of `plies` moves as the game's
/// requests make it while they walk the line (a `chess::Game` of its
/// positions and moves, the path of node ids, the search's history
/// keys): the copy that judging the game's end makes on every change.
pub fn line_copy_bytes(plies: usize) -> usize {
    let per_ply = std::mem::size_of::<Position>()
        + std::mem::size_of::<Move>()
        + std::mem::size_of::<NodeId>()
        + std::mem::size_of::<u64>();
    4 * BLOCK_OVERHEAD + (plies + 1) * per_ply
}

/// The most bytes that `nodes` new nodes add to `record` and to what is
/// counted of it: their slots (the arena's new block when it must grow),
/// their children's blocks, their JSON in the view (each as if on the main
/// line, the longer form) and their share of a copy of the main line.
pub fn nodes_bytes(record: &GameRecord, nodes: usize) -> usize {
    let each =
        block(4 * std::mem::size_of::<NodeId>()) + NODE_JSON + PLY_JSON + 11 + line_copy_bytes(1)
            - line_copy_bytes(0);
    record.tree.slot_growth(nodes) + nodes.saturating_mul(each)
}

/// The most bytes a comment and NAGs add to a move: the comment's string
/// and its place in the list, its JSON, the NAGs and theirs.
pub fn annotation_bytes(comment: Option<&str>, nags: Option<&[u8]>) -> usize {
    let comment = comment.map_or(0, |c| {
        block(c.len()) + block(std::mem::size_of::<String>()) + json_string_len(c) + 1
    });
    let nags = nags.map_or(0, |n| block(n.len()) + 4 * n.len());
    comment + nags
}

/// The most bytes these tags add to a game: each name's and value's
/// string, their place in the list (its block doubled when full).
pub fn tags_bytes<'a>(tags: impl IntoIterator<Item = (&'a String, &'a String)>) -> usize {
    let pair = std::mem::size_of::<(String, String)>();
    tags.into_iter()
        .map(|(name, value)| block(name.len()) + block(value.len()) + 2 * pair)
        .sum()
}

/// The most bytes that adding the analysis pass's best lines to
/// `record` (after the move at `ply`, or after every judged move) takes:
/// a copy of the game kept to put it back if a line fails, and the lines'
/// nodes with their comments.
pub fn best_lines_bytes(record: &GameRecord, ply: Option<usize>) -> usize {
    let moves = match ply {
        Some(_) => 1,
        None => record.tree.first_children(crate::tree::ROOT).count(),
    };
    // The comment on a line's first move (`(0.35 → -1.20) Mistake. Nf3
    // was best.`), at most this long, with nothing to escape.
    const COMMENT: usize = 120;
    let comment = block(COMMENT) + block(std::mem::size_of::<String>()) + COMMENT + 3;
    let nodes = moves.saturating_mul(crate::review::LINE_PLIES);
    record.heap_bytes() + nodes_bytes(record, nodes) + moves.saturating_mul(comment)
}

/// The most bytes the results of the analysis pass over a main line of
/// `plies` moves take (a score and a line of at most
/// [`crate::review::LINE_PLIES`] moves a position, and the moves they are
/// about), kept with the game. The pass's own copy of the line, held while
/// it runs, is a [`line_copy_bytes`].
pub fn pass_results_bytes(plies: usize) -> usize {
    let positions = plies + 1;
    block(positions * std::mem::size_of::<Option<crate::review::PositionEval>>())
        + block(plies * std::mem::size_of::<Move>())
        + positions * block(crate::review::LINE_PLIES * std::mem::size_of::<Move>())
}

/// The most bytes exporting `record` as PGN takes: the PGN game made of
/// it (every move with its comments copied) and the text, at most about
/// 40 bytes a move besides the comments (a move number, the move, its
/// NAGs, a clock and the engine's time) and the tags.
pub fn export_bytes(record: &GameRecord) -> usize {
    let tree = &record.tree;
    let (nodes, comments): (usize, usize) = tree
        .ids()
        .filter_map(|id| tree.get(id))
        .map(|n| {
            let text: usize = n
                .comments
                .iter()
                .chain(&n.comments_before)
                .map(|c| 2 * block(c.len()) + 2 * c.len() + 4)
                .sum();
            (1, text + 48 + 8 * n.nags.len())
        })
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    let tags: usize = record
        .tags
        .iter()
        .map(|(n, v)| 2 * (n.len() + v.len()) + 96)
        .sum();
    let game = nodes * (std::mem::size_of::<pgn::PgnMove>() + 2 * BLOCK_OVERHEAD);
    // The text grows by doubling: up to twice its length while it is written.
    block(2 * (nodes * 40 + comments + tags + 512)) + game + comments + tags
}

/// What a PGN text holds, counted by the tokenizer without reading it
/// into a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnCounts {
    /// Moves, in every line (an upper bound on the tree's nodes).
    pub moves: usize,
    /// Comments.
    pub comments: usize,
    /// The comments' bytes.
    pub comment_bytes: usize,
    /// NAGs.
    pub nags: usize,
    /// Tags.
    pub tags: usize,
    /// The tags' bytes (names and values).
    pub tag_bytes: usize,
}

impl PgnCounts {
    /// The counts of every game of `text`. Where the tokenizer finds what
    /// it cannot read (the import then fails), the rest of the text is
    /// counted as moves of two bytes each.
    pub fn of(text: &str) -> PgnCounts {
        let mut counts = PgnCounts::default();
        let mut tokens = Tokenizer::new(text.as_bytes(), 1);
        while let Some(token) = tokens.next_token() {
            match token {
                Ok((Token::Move(_), _)) => counts.moves += 1,
                Ok((Token::Comment(c), _)) => {
                    counts.comments += 1;
                    counts.comment_bytes += c.len();
                }
                Ok((Token::Nag(_), _)) => counts.nags += 1,
                Ok((Token::Tag { name, value }, _)) => {
                    counts.tags += 1;
                    counts.tag_bytes += name.len() + value.len();
                }
                Ok(_) => {}
                Err(_) => {
                    counts.moves += (text.len() - tokens.offset()) / 2 + 1;
                    break;
                }
            }
        }
        counts
    }
}

/// The most bytes that importing `text` into a game may take while it is
/// read and after: the text's copy in the reader, the PGN game it makes,
/// the new tree (the comments copied into it while the PGN game still
/// holds them) and the new game's JSON view and line copy (see
/// [`GameRecord::heap_bytes`], [`view_json_bound`], [`line_copy_bytes`]).
/// The old game is counted apart, by its own size, until it is dropped.
pub fn import_bound(text: &str) -> usize {
    let c = PgnCounts::of(text);
    let nodes = c.moves + 1;
    let string = std::mem::size_of::<String>();
    // Every comment as a String in a Vec of its own, in the PGN game and
    // again in the tree; JSON escapes at most sixfold.
    let comment = |bytes: usize| 2 * (c.comments * (string + 2 * BLOCK_OVERHEAD) + bytes);
    let reading = block(text.len())
        + nodes * (std::mem::size_of::<pgn::PgnMove>() + BLOCK_OVERHEAD)
        + comment(c.comment_bytes)
        + block(c.nags)
        + c.tags * (3 * string + 2 * BLOCK_OVERHEAD)
        + c.tag_bytes;
    let tree = block(nodes * std::mem::size_of::<Option<Node>>())
        + nodes * block(4 * std::mem::size_of::<NodeId>())
        + block(c.nags * 8);
    let view = VIEW_JSON
        + nodes * (NODE_JSON + PLY_JSON + 11)
        + 4 * c.nags
        + c.comments * 3
        + 6 * c.comment_bytes;
    reading + tree + view + line_copy_bytes(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::GameJson;
    use chess::Position;

    fn imported(text: &str) -> GameRecord {
        let mut record = GameRecord::new(Position::startpos());
        record.import_pgn(text).expect("reads");
        record
    }

    #[test]
    fn the_view_is_never_longer_than_its_bound() {
        let games = [
            "Nf3 Nf6 Ng1 Ng8 ".repeat(500) + "*",
            "1. e4 {a \"quoted\" comment\n\\ with a \x01 control} e5 $1 $18 (1... c5 {Sicilian} \
             2. Nf3 (2. c3) d6) 2. Nf3 Nc6 3. Bb5 a6 { [%clk 0:03:00] } 4. Ba4 Nf6 5. O-O *"
                .to_string(),
            "[FEN \"r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n\
             1. bxa8=Q+ Kd7 2. Qb7+ Ke6 3. O-O-O g1=N *"
                .to_string(),
        ];
        for text in &games {
            let record = imported(text);
            let json = serde_json::to_string(&GameJson::new("0123456789abcdef", &record))
                .expect("written");
            let bound = view_json_bound(&record);
            assert!(json.len() <= bound, "{} > {bound}", json.len());
            assert!(
                bound - VIEW_JSON < 2 * json.len(),
                "{bound} is not far off {}",
                json.len()
            );
        }
    }

    #[test]
    fn an_import_takes_no_more_than_its_bound() {
        for text in [
            "Nf3 Nf6 Ng1 Ng8 ".repeat(2500) + "*",
            "[Event \"x\"]\n\n1. e4 {c} e5 $1 (1... c5 {d} 2. Nf3 (2. c3 $2) d6) 2. Nf3 Nc6 *"
                .to_string(),
        ] {
            let bound = import_bound(&text);
            let record = imported(&text);
            let json = serde_json::to_string(&GameJson::new("0123456789abcdef", &record))
                .expect("written");
            let plies = record.tree.mainline().len();
            let after = record.heap_bytes() + json.len() + line_copy_bytes(plies);
            assert!(after <= bound, "{after} > {bound}");
            let pgn = record.export_pgn();
            assert!(2 * pgn.len() < export_bytes(&record), "{}", pgn.len());
        }
        let counts = PgnCounts::of(
            "[Event \"x\"]\n[Site \"y\"]\n\n1. e4 {12345} e5 $1 (1... c5 ; ab\n2. Nf3) 2. Nf3 *",
        );
        assert_eq!(
            counts,
            PgnCounts {
                moves: 5,
                comments: 2,
                comment_bytes: 8,
                nags: 1,
                tags: 2,
                tag_bytes: 11,
            }
        );
        // What cannot be read is counted as the most moves it could hold.
        assert!(PgnCounts::of("1. e4 } e5 e5 e5").moves >= 5);
    }
}
