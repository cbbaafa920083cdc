//! The game as a tree of moves, as lichess's analysis board keeps it: each
//! node is a position reached by a move, its first child continues its
//! line and the others are variations. The main line is the chain of first
//! children from the root. Nodes have ids that stay valid until the node is
//! deleted, so the page and API scripts can name a position by its id.
//!
//! The tree converts to and from the PGN crate's [`PgnGame`] (whose moves
//! carry their alternatives as `variations`), keeping NAGs and comments.

use chess::{Game, Move, Position};
use pgn::{PgnGame, PgnMove};

/// A node's id: its index in the tree's arena.
pub type NodeId = usize;

/// The root's id: the start position, reached by no move.
pub const ROOT: NodeId = 0;

/// One position of the tree and the move that reached it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move from the parent (`None` for the root).
    pub mv: Option<Move>,
    /// The parent (`None` for the root).
    pub parent: Option<NodeId>,
    /// The moves played from here: the first continues the line, the
    /// others are variations, in the order shown.
    pub children: Vec<NodeId>,
    /// The position after the move.
    pub pos: Position,
    /// Numeric annotation glyphs (`1` = `!`, `2` = `?`, ...).
    pub nags: Vec<u8>,
    /// Comments written before the move (at the start of a variation).
    pub comments_before: Vec<String>,
    /// Comments written after the move.
    pub comments: Vec<String>,
    /// How long the engine thought about the move (an engine player's move).
    pub time_ms: Option<u64>,
    /// The mover's clock after the move, increment included (a game on a
    /// clock): PGN's `[%clk]`.
    pub clock_ms: Option<u64>,
}

impl Node {
    fn new(mv: Option<Move>, parent: Option<NodeId>, pos: Position) -> Node {
        Node {
            mv,
            parent,
            children: Vec::new(),
            pos,
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            time_ms: None,
            clock_ms: None,
        }
    }
}

/// Why a tree operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// No live node has this id.
    #[error("no move with node id {0} in this game")]
    NoNode(NodeId),
    /// The move is not legal in the node's position.
    #[error("that move is not legal in that position")]
    Illegal,
    /// The root cannot be deleted, promoted, annotated or given a clock.
    #[error("the start position has no move to delete, promote, annotate or time")]
    Root,
    /// A PGN game with a null move (`--`) in its main line: the GUI cannot play one.
    #[error("the PGN has a null move in its main line, which the GUI cannot play")]
    NullMove,
}

/// The first `[%clk]` among a move's comments, taken out of them (a
/// comment that held nothing else goes): the tree keeps it as the node's
/// clock and writes it back in the same form.
fn take_clock(comments: &mut Vec<String>) -> Option<u64> {
    let (i, (ms, rest)) = comments
        .iter()
        .enumerate()
        .find_map(|(i, c)| pgn::take_clock(c).map(|found| (i, found)))?;
    if rest.is_empty() {
        comments.remove(i);
    } else {
        comments[i] = rest;
    }
    Some(ms)
}

/// The moves of `line` and of all its variations.
fn count_moves(line: &[PgnMove]) -> usize {
    line.iter()
        .map(|m| 1 + m.variations.iter().map(|v| count_moves(v)).sum::<usize>())
        .sum()
}

/// A game with variations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    /// Deleted nodes leave `None` so that other ids stay valid.
    nodes: Vec<Option<Node>>,
}

impl MoveTree {
    /// A tree holding only the start position.
    pub fn new(start: Position) -> MoveTree {
        MoveTree {
            nodes: vec![Some(Node::new(None, None, start))],
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.root().pos
    }

    fn root(&self) -> &Node {
        self.nodes[ROOT]
            .as_ref()
            .expect("the root is never deleted")
    }

    /// The node `id`, if it lives.
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id).and_then(Option::as_ref)
    }

    /// The node `id`, or why not.
    pub fn node(&self, id: NodeId) -> Result<&Node, TreeError> {
        self.get(id).ok_or(TreeError::NoNode(id))
    }

    fn node_mut(&mut self, id: NodeId) -> Result<&mut Node, TreeError> {
        self.nodes
            .get_mut(id)
            .and_then(Option::as_mut)
            .ok_or(TreeError::NoNode(id))
    }

    /// The bytes the tree holds: every slot (deleted ones too) and what
    /// each node keeps on the heap (children, NAGs and comments), by
    /// capacity, each block with the allocator's own cost
    /// ([`crate::heap::block`]). For a host's memory budget.
    pub fn heap_bytes(&self) -> usize {
        use crate::heap::block;
        let strings = |v: &Vec<String>| {
            block(v.capacity() * std::mem::size_of::<String>())
                + v.iter().map(|s| block(s.capacity())).sum::<usize>()
        };
        let nodes: usize = self
            .nodes
            .iter()
            .flatten()
            .map(|n| {
                block(n.children.capacity() * std::mem::size_of::<NodeId>())
                    + block(n.nags.capacity())
                    + strings(&n.comments_before)
                    + strings(&n.comments)
            })
            .sum();
        block(self.nodes.capacity() * std::mem::size_of::<Option<Node>>()) + nodes
    }

    /// The bytes the arena of nodes takes more, at most, while `more`
    /// nodes are added: nothing while it has room, else its new block
    /// (grown by doubling), counted whole while the old one is still there.
    pub fn slot_growth(&self, more: usize) -> usize {
        let wanted = self.nodes.len().saturating_add(more);
        if wanted <= self.nodes.capacity() {
            return 0;
        }
        let capacity = wanted.max(self.nodes.capacity().saturating_mul(2));
        crate::heap::block(capacity.saturating_mul(std::mem::size_of::<Option<Node>>()))
    }

    /// Every live node's id, parents before children.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_some())
            .map(|(i, _)| i)
    }

    /// The child of `parent` reached by `m`: the existing one when `m` was
    /// played there already (main line or variation), else a new one added
    /// after the others (so it continues the line when it is the first).
    pub fn add(&mut self, parent: NodeId, m: Move) -> Result<NodeId, TreeError> {
        let node = self.node(parent)?;
        if let Some(&c) = node
            .children
            .iter()
            .find(|&&c| self.nodes[c].as_ref().and_then(|n| n.mv) == Some(m))
        {
            return Ok(c);
        }
        if m.is_null() || !node.pos.is_legal(m) {
            return Err(TreeError::Illegal);
        }
        let mut pos = node.pos;
        pos.play_unchecked(m);
        let id = self.nodes.len();
        self.nodes.push(Some(Node::new(Some(m), Some(parent), pos)));
        self.node_mut(parent)?.children.push(id);
        Ok(id)
    }

    /// Sets the engine's thinking time of node `id`'s move.
    pub fn set_time(&mut self, id: NodeId, ms: Option<u64>) -> Result<(), TreeError> {
        self.node_mut(id)?.time_ms = ms;
        Ok(())
    }

    /// Sets the mover's clock after node `id`'s move.
    pub fn set_clock(&mut self, id: NodeId, ms: Option<u64>) -> Result<(), TreeError> {
        if id == ROOT {
            return Err(TreeError::Root);
        }
        self.node_mut(id)?.clock_ms = ms;
        Ok(())
    }

    /// The ids from the root's first move to `id` (empty for the root).
    pub fn path(&self, id: NodeId) -> Result<Vec<NodeId>, TreeError> {
        let mut out = Vec::new();
        let mut at = id;
        while let Some(parent) = self.node(at)?.parent {
            out.push(at);
            at = parent;
        }
        out.reverse();
        Ok(out)
    }

    /// The moves from the start to `id`, as a game (for its repetitions
    /// and its end).
    pub fn game(&self, id: NodeId) -> Result<Game, TreeError> {
        let mut game = Game::new(self.start());
        for n in self.path(id)? {
            if let Some(m) = self.nodes[n].as_ref().and_then(|n| n.mv) {
                game.push(m);
            }
        }
        Ok(game)
    }

    /// The line from `id` on: the first children, to the end (`id` excluded).
    pub fn continuation(&self, id: NodeId) -> Vec<NodeId> {
        self.first_children(id).collect()
    }

    /// [`MoveTree::continuation`] one node at a time, without a list.
    pub fn first_children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut at = id;
        std::iter::from_fn(move || {
            let next = *self.get(at)?.children.first()?;
            at = next;
            Some(next)
        })
    }

    /// The main line's nodes, the root excluded.
    pub fn mainline(&self) -> Vec<NodeId> {
        self.continuation(ROOT)
    }

    /// The last node of the main line (the root when there is no move).
    pub fn mainline_end(&self) -> NodeId {
        self.first_children(ROOT).last().unwrap_or(ROOT)
    }

    /// True when `id` is on the main line (the root is).
    pub fn is_mainline(&self, id: NodeId) -> bool {
        let mut at = id;
        while let Some(parent) = self.get(at).and_then(|n| n.parent) {
            if self.nodes[parent].as_ref().and_then(|p| p.children.first()) != Some(&at) {
                return false;
            }
            at = parent;
        }
        at == ROOT
    }

    /// Moves the variation holding `id` up: with `to_main`, every branch
    /// on the way to the root becomes the first (so `id` ends on the main
    /// line), else the nearest branch that is not first moves up one place.
    /// Nothing changes when `id` is on the main line already.
    pub fn promote(&mut self, id: NodeId, to_main: bool) -> Result<(), TreeError> {
        if self.node(id)?.parent.is_none() {
            return Err(TreeError::Root);
        }
        let mut at = id;
        while let Some(parent) = self.node(at)?.parent {
            let siblings = &mut self.node_mut(parent)?.children;
            let i = siblings.iter().position(|&c| c == at).unwrap_or(0);
            if i > 0 {
                if to_main {
                    let c = siblings.remove(i);
                    siblings.insert(0, c);
                } else {
                    siblings.swap(i - 1, i);
                    return Ok(());
                }
            }
            at = parent;
        }
        Ok(())
    }

    /// Whether [`Self::promote`] would change the main line: `id` is off
    /// it, and it is to become the main line or its variation is the
    /// first alternative to a main-line move.
    pub fn promotion_changes_mainline(&self, id: NodeId, to_main: bool) -> Result<bool, TreeError> {
        if self.node(id)?.parent.is_none() {
            return Err(TreeError::Root);
        }
        if self.is_mainline(id) {
            return Ok(false);
        }
        if to_main {
            return Ok(true);
        }
        let mut at = id;
        while let Some(parent) = self.node(at)?.parent {
            let i = self
                .node(parent)?
                .children
                .iter()
                .position(|&c| c == at)
                .unwrap_or(0);
            if i > 0 {
                return Ok(i == 1 && self.is_mainline(parent));
            }
            at = parent;
        }
        Ok(false)
    }

    /// Replaces the annotation of `id`'s move: the comment after it (none
    /// when `comment` is empty) and/or its NAGs; `None` keeps that part.
    /// Checking what may be written is the caller's business.
    pub fn annotate(
        &mut self,
        id: NodeId,
        comment: Option<&str>,
        nags: Option<&[u8]>,
    ) -> Result<(), TreeError> {
        let node = self.node_mut(id)?;
        if node.parent.is_none() {
            return Err(TreeError::Root);
        }
        if let Some(text) = comment {
            node.comments = if text.is_empty() {
                Vec::new()
            } else {
                vec![text.to_string()]
            };
        }
        if let Some(nags) = nags {
            node.nags = nags.to_vec();
        }
        Ok(())
    }

    /// Deletes `id` and every move after it; returns its parent.
    pub fn delete(&mut self, id: NodeId) -> Result<NodeId, TreeError> {
        let parent = self.node(id)?.parent.ok_or(TreeError::Root)?;
        self.node_mut(parent)?.children.retain(|&c| c != id);
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let Some(node) = self.nodes[n].take() {
                stack.extend(node.children);
            }
        }
        Ok(parent)
    }

    /// True when `ancestor` is `id` or comes before it.
    pub fn is_at_or_before(&self, ancestor: NodeId, id: NodeId) -> bool {
        let mut at = Some(id);
        while let Some(n) = at {
            if n == ancestor {
                return true;
            }
            at = self.get(n).and_then(|node| node.parent);
        }
        false
    }

    /// The tree of a PGN game: its main line and variations, with their
    /// NAGs and comments. A line is cut at a null move (`--`), which the
    /// GUI cannot play; a null move in the main line is refused.
    pub fn from_pgn(game: &PgnGame) -> Result<MoveTree, TreeError> {
        if game.mainline().any(chess::Move::is_null) {
            return Err(TreeError::NullMove);
        }
        let mut tree = MoveTree::new(game.start);
        // As many slots as moves, at once: grown by doubling, the arena
        // would hold up to twice what the game needs.
        tree.nodes.reserve_exact(count_moves(&game.moves));
        tree.add_line(ROOT, &game.moves);
        Ok(tree)
    }

    fn add_line(&mut self, from: NodeId, moves: &[PgnMove]) {
        let mut at = from;
        for pm in moves {
            let fresh = self.nodes.len();
            let Ok(id) = self.add(at, pm.mv) else {
                return;
            };
            if id >= fresh {
                let node = self.nodes[id].as_mut().expect("just added");
                node.nags = pm.nags.clone();
                node.comments_before = pm.comments_before.clone();
                node.comments = pm.comments.clone();
                node.clock_ms = take_clock(&mut node.comments);
            }
            // The alternatives to this move start from the same position.
            for variation in &pm.variations {
                self.add_line(at, variation);
            }
            at = id;
        }
    }

    /// Every node but the root in the order PGN writes them (and
    /// [`MoveTree::from_pgn`] makes them): a move, then its alternatives'
    /// lines, then the next move. A tree read back from its own PGN has
    /// the same order, so a node's place in it names the node in both.
    pub fn pgn_order(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        self.order_from(ROOT, &mut out);
        out
    }

    fn order_from(&self, from: NodeId, out: &mut Vec<NodeId>) {
        let mut at = from;
        while let Some(children) = self.get(at).map(|n| &n.children) {
            let Some((&first, others)) = children.split_first() else {
                break;
            };
            out.push(first);
            for &v in others {
                out.push(v);
                self.order_from(v, out);
            }
            at = first;
        }
    }

    /// The way from the root to `id`: which child at each step (0 for the
    /// line's own move), as the page names a node in a game read anew.
    pub fn child_path(&self, id: NodeId) -> Result<Vec<usize>, TreeError> {
        let mut out = Vec::new();
        for n in self.path(id)? {
            let parent = self.node(n)?.parent.unwrap_or(ROOT);
            let i = self.node(parent)?.children.iter().position(|&c| c == n);
            out.push(i.unwrap_or(0));
        }
        Ok(out)
    }

    /// The node at the end of `path` ([`MoveTree::child_path`]), if the
    /// tree has it.
    pub fn at_child_path(&self, path: &[usize]) -> Option<NodeId> {
        let mut at = ROOT;
        for &i in path {
            at = *self.get(at)?.children.get(i)?;
        }
        Some(at)
    }

    /// The moves of the tree as PGN writes them: the main line, each
    /// move carrying its alternatives as variations, and after its own
    /// comments one of the node's facts: its clock (`[%clk 0:02:58]`)
    /// and what `comment` adds (the engine's time).
    pub fn to_pgn_moves(&self, comment: &dyn Fn(&Node) -> Option<String>) -> Vec<PgnMove> {
        self.line_to_pgn(ROOT, comment)
    }

    fn pgn_move(&self, id: NodeId, comment: &dyn Fn(&Node) -> Option<String>) -> PgnMove {
        let node = self.nodes[id].as_ref().expect("a live child");
        let mut pm = PgnMove::new(node.mv.expect("a child has a move"));
        pm.nags = node.nags.clone();
        pm.comments_before = node.comments_before.clone();
        pm.comments = node.comments.clone();
        let facts: Vec<String> = node
            .clock_ms
            .map(pgn::clock_command)
            .into_iter()
            .chain(comment(node))
            .collect();
        if !facts.is_empty() {
            pm.comments.push(facts.join(" "));
        }
        pm
    }

    fn line_to_pgn(&self, from: NodeId, comment: &dyn Fn(&Node) -> Option<String>) -> Vec<PgnMove> {
        let mut out = Vec::new();
        let mut at = from;
        while let Some(children) = self.get(at).map(|n| &n.children) {
            let Some((&first, others)) = children.split_first() else {
                break;
            };
            let mut pm = self.pgn_move(first, comment);
            for &v in others {
                let mut line = vec![self.pgn_move(v, comment)];
                line.extend(self.line_to_pgn(v, comment));
                pm.variations.push(line);
            }
            out.push(pm);
            at = first;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(tree: &MoveTree, parent: NodeId, text: &str) -> Move {
        tree.node(parent)
            .expect("node")
            .pos
            .parse_san(text)
            .expect("legal")
    }

    fn play(tree: &mut MoveTree, parent: NodeId, text: &str) -> NodeId {
        let m = san(tree, parent, text);
        tree.add(parent, m).expect("legal")
    }

    fn sans(tree: &MoveTree, ids: &[NodeId]) -> Vec<String> {
        ids.iter()
            .map(|&id| {
                let n = tree.node(id).expect("node");
                tree.node(n.parent.expect("a move"))
                    .expect("parent")
                    .pos
                    .san(n.mv.expect("a move"))
            })
            .collect()
    }

    #[test]
    fn a_move_from_an_earlier_position_starts_a_variation_and_an_existing_one_is_reused() {
        let mut t = MoveTree::new(Position::startpos());
        let e4 = play(&mut t, ROOT, "e4");
        let e5 = play(&mut t, e4, "e5");
        let _nf3 = play(&mut t, e5, "Nf3");
        let c5 = play(&mut t, e4, "c5");
        assert_eq!(sans(&t, &t.mainline()), ["e4", "e5", "Nf3"]);
        assert_eq!(t.node(e4).expect("e4").children, vec![e5, c5]);
        assert!(!t.is_mainline(c5) && t.is_mainline(e5));
        // Playing a move that is already there goes there.
        assert_eq!(play(&mut t, e4, "e5"), e5);
        assert_eq!(play(&mut t, e4, "c5"), c5);
        assert_eq!(t.ids().count(), 5);
        assert_eq!(t.add(e4, Move::NULL), Err(TreeError::Illegal));
        assert_eq!(t.add(99, san(&t, ROOT, "d4")), Err(TreeError::NoNode(99)));
    }

    #[test]
    fn promote_moves_a_variation_up_and_delete_removes_what_follows() {
        let mut t = MoveTree::new(Position::startpos());
        let e4 = play(&mut t, ROOT, "e4");
        let e5 = play(&mut t, e4, "e5");
        let c5 = play(&mut t, e4, "c5");
        let c6 = play(&mut t, e4, "c6");
        let nf3 = play(&mut t, c6, "Nf3");
        let d4 = play(&mut t, c6, "d4");
        let d5 = play(&mut t, d4, "d5");
        // One place up: c6 passes c5, then e5.
        t.promote(d5, false).expect("promotes");
        assert_eq!(t.node(c6).expect("c6").children, vec![d4, nf3]);
        t.promote(d5, false).expect("promotes");
        assert_eq!(t.node(e4).expect("e4").children, vec![e5, c6, c5]);
        t.promote(d5, true).expect("promotes");
        assert_eq!(sans(&t, &t.mainline()), ["e4", "c6", "d4", "d5"]);
        assert_eq!(t.node(e4).expect("e4").children, vec![c6, e5, c5]);
        assert_eq!(t.promote(ROOT, true), Err(TreeError::Root));

        assert_eq!(t.delete(c6), Ok(e4));
        assert!(t.get(d5).is_none() && t.get(nf3).is_none());
        assert_eq!(sans(&t, &t.mainline()), ["e4", "e5"]);
        assert_eq!(t.delete(ROOT), Err(TreeError::Root));
        assert_eq!(t.delete(d5), Err(TreeError::NoNode(d5)));
        // Ids of the nodes left stay valid.
        assert_eq!(t.node(c5).expect("c5").parent, Some(e4));
        assert!(t.is_at_or_before(e4, c5) && !t.is_at_or_before(e5, c5));
    }

    #[test]
    fn pgn_variations_nags_and_comments_survive_the_tree() {
        let text = "[Event \"T\"]\n\n1. e4 {best by test} e5 (1... c5 $1 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) \
                    (1... e6 2. d4) 2. Nf3 $2 Nc6 (2... d6!? 3. d4) 3. Bb5 1/2-1/2\n";
        let game = pgn::PgnReader::new(text.as_bytes())
            .next()
            .expect("a game")
            .expect("valid");
        let tree = MoveTree::from_pgn(&game).expect("tree");
        assert_eq!(tree.mainline().len(), 5);
        assert_eq!(tree.ids().count(), 1 + 5 + 3 + 2 + 2 + 2);
        let mut back = PgnGame::new(tree.start());
        back.moves = tree.to_pgn_moves(&|_| None);
        assert_eq!(back.moves, game.moves);
    }
}
