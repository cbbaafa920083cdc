//! The evaluation: a static score of a position, side to move's view.
//!
//! Two hand-crafted evaluators (`hce/`) share one set of named weights
//! (`hce/weights.rs`, data in `hce/weights.txt`, tuned by `kestrel tune
//! texel`): `Full` (material and
//! piece-square tables, mobility, coverage, threats, pawn structure, passed
//! pawns, king safety, piece placement, endgame scaling and mop-up) and
//! `Simple` (material and mobility). Every term is a middlegame/endgame pair
//! blended by the game phase. A trace (`hce/trace.rs`) sees each term counted,
//! which is how the tuner learns and `kestrel eval` explains a score.
//! A third evaluator, `NNUE`, is a trained network (`nnue/`) whose
//! accumulators the search updates as it makes and takes back moves.

pub mod hce;
pub mod nnue;
pub mod piece_delta;
pub mod ply_stack;

use std::sync::Arc;

use chess::{Color, Move, Position, Role};

use crate::score::Value;
use hce::material_sums::MaterialStack;
use hce::pair::Pair;
use hce::pawns::PawnTable;
use hce::terms::Terms;
use hce::trace::{NoTrace, Trace};
use hce::weights::Weights;
use hce::{endgame, full, simple};

/// A single value per role for exchange arithmetic (king: effectively infinite).
pub const SEE_VALUES: [Value; 6] = [100, 320, 330, 500, 950, 20_000];

/// Which evaluator the engine uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Material and mobility only (one seed's "Simple1").
    Simple,
    /// Every term, tuned by hand and by Texel's method.
    Full,
    /// The trained network: the built-in one, or the one `EvalFile` loads.
    /// The default since it beat `Full` by SPRT at 8 s + 0.08 s.
    #[default]
    Nnue,
}

impl EvalKind {
    /// Its option name.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Simple => "Simple",
            EvalKind::Full => "Full",
            EvalKind::Nnue => "NNUE",
        }
    }

    /// Parses an option value (case-insensitive).
    pub fn parse(text: &str) -> Option<EvalKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "simple" => Some(EvalKind::Simple),
            "full" => Some(EvalKind::Full),
            "nnue" => Some(EvalKind::Nnue),
            _ => None,
        }
    }
}

/// One evaluation in detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The weighted terms, White minus Black.
    pub sum: Pair,
    /// Game phase, 0 (bare kings and pawns) to `MAX_PHASE`.
    pub phase: i32,
    /// Scale of the endgame part, out of 128.
    pub scale: i32,
    /// The mop-up bonus as weighted, White's view.
    pub mop_up: i32,
    /// The score, White's view.
    pub white: Value,
}

impl Report {
    /// The score from the side to move's view.
    pub fn for_side(&self, color: Color) -> Value {
        if color == Color::White {
            self.white
        } else {
            -self.white
        }
    }
}

/// Evaluates `pos` with `weights`, telling `trace` every term counted.
/// `pawns` caches pawn structures (not used while tracing).
pub fn evaluate_traced<T: Trace>(
    pos: &Position,
    kind: EvalKind,
    weights: &Weights,
    pawns: Option<&mut PawnTable>,
    trace: T,
) -> (Report, T) {
    evaluate_with(pos, kind, weights, pawns, None, 1, trace)
}

/// `evaluate_traced`, given the material and piece-square sum when the
/// caller keeps it up to date (`material_sums::MaterialStack`), and the
/// mop-up's weight (1; `MopUpWeight` in a search of a basic mate).
fn evaluate_with<T: Trace>(
    pos: &Position,
    kind: EvalKind,
    weights: &Weights,
    pawns: Option<&mut PawnTable>,
    material: Option<Pair>,
    mop_up_weight: i32,
    trace: T,
) -> (Report, T) {
    let mut t = Terms::new(weights, trace);
    // The network has no terms to trace: its breakdown is the hand-crafted one.
    let phase = match kind {
        EvalKind::Full | EvalKind::Nnue => full::terms(pos, &mut t, pawns, material).0,
        EvalKind::Simple => simple::terms(pos, &mut t),
    };
    let sum = t.white_minus_black();
    let (scale, mop_up) = match kind {
        EvalKind::Full | EvalKind::Nnue => {
            let strong = if sum.eg >= 0 {
                Color::White
            } else {
                Color::Black
            };
            (
                endgame::scale_factor(pos, strong),
                mop_up_weight * endgame::mop_up(pos),
            )
        }
        EvalKind::Simple => (128, 0),
    };
    let white = sum.blend(phase, scale) + mop_up;
    let report = Report {
        sum,
        phase,
        scale,
        mop_up,
        white,
    };
    (report, t.into_trace())
}

/// The full evaluation with the default weights, side to move's view (for
/// tools and tests; the search uses an `Evaluator`).
pub fn evaluate(pos: &Position) -> Value {
    let w = Weights::default_shared();
    evaluate_traced(pos, EvalKind::Full, &w, None, NoTrace)
        .0
        .for_side(pos.turn())
}

/// A search thread's evaluator: the chosen kind, its weights and a pawn
/// cache, and with a network its accumulators, one per ply.
pub struct Evaluator {
    kind: EvalKind,
    weights: Arc<Weights>,
    pawns: PawnTable,
    /// The network, when the kind is `Nnue` and one is loaded.
    net: Option<Arc<nnue::Network>>,
    /// The largest score taken from the network (`NetworkRange`).
    network_range: Value,
    /// The mop-up's weight (`MopUpWeight`).
    mop_up_weight: i32,
    /// Its accumulators (allocated when a network is first used).
    stack: nnue::AccumulatorStack,
    /// The material and piece-square sums, one per ply, while `Full` is
    /// the evaluation (allocated when first needed).
    material: Option<MaterialStack>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator {
            kind: EvalKind::Full,
            weights: Weights::default_shared(),
            pawns: PawnTable::default(),
            net: None,
            network_range: NETWORK_RANGE,
            mop_up_weight: 1,
            stack: nnue::AccumulatorStack::new(1),
            material: None,
        }
    }
}

impl Evaluator {
    /// Uses `kind`, `weights` and `net` from now on (the pawn cache is
    /// dropped when the weights change), taking the network's scores up to
    /// `network_range` ([`network_applies`]), the hand-crafted mop-up
    /// weighted by `mop_up_weight`. `Nnue` without a network evaluates as
    /// `Full`.
    pub fn configure(
        &mut self,
        kind: EvalKind,
        weights: &Arc<Weights>,
        net: Option<&Arc<nnue::Network>>,
        network_range: Value,
        mop_up_weight: i32,
    ) {
        self.kind = kind;
        self.network_range = network_range;
        self.mop_up_weight = mop_up_weight;
        if !Arc::ptr_eq(&self.weights, weights) {
            self.weights = weights.clone();
            self.pawns.clear();
        }
        self.net = net.filter(|_| kind == EvalKind::Nnue).cloned();
        if self.net.is_some() && self.stack.capacity() < crate::score::MAX_PLY + 2 {
            // One accumulator per ply, allocated here rather than in the search.
            self.stack = nnue::AccumulatorStack::new(crate::score::MAX_PLY + 2);
        }
        if kind != EvalKind::Full {
            self.material = None;
        } else if self.material.is_none() {
            self.material = Some(MaterialStack::new(crate::score::MAX_PLY + 2));
        }
    }

    /// Starts a search from `root` (the network's accumulators are computed afresh).
    pub fn start(&mut self, root: &Position) {
        if let Some(net) = &self.net {
            self.stack.reset(net, root);
        }
        if let Some(material) = &mut self.material {
            material.reset(&self.weights, root);
        }
    }

    /// Call just before `before.play(m)` (`Move::NULL` for a null move).
    #[inline]
    pub fn push_move(&mut self, before: &Position, m: Move) {
        if let Some(net) = &self.net {
            self.stack.push_move(net, before, m);
        }
        if let Some(material) = &mut self.material {
            material.push_move(&self.weights, before, m);
        }
    }

    /// Call when the move pushed last is taken back.
    #[inline]
    pub fn pop(&mut self) {
        if self.net.is_some() {
            self.stack.pop();
        }
        if let Some(material) = &mut self.material {
            material.pop();
        }
    }

    /// The static score of `pos`, side to move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        if let Some(net) = self.net.as_ref().filter(|_| both_sides_have_pieces(pos)) {
            let v = self.stack.evaluate(net, pos);
            // The engine's own tests check the search's accumulator
            // updates against a fresh computation at every evaluation.
            #[cfg(test)]
            assert_eq!(v, nnue::evaluate_position(net, pos), "{}", pos.fen());
            if network_applies(pos, v, self.network_range) {
                return v;
            }
        }
        let material = self.material.as_ref().map(MaterialStack::current);
        // The engine's own tests check the material sums kept move by move
        // against a fresh count at every evaluation.
        #[cfg(test)]
        if let Some(sum) = material {
            assert_eq!(
                sum,
                hce::material_sums::count(&self.weights, pos),
                "{}",
                pos.fen()
            );
        }
        evaluate_with(
            pos,
            self.kind,
            &self.weights,
            Some(&mut self.pawns),
            material,
            self.mop_up_weight,
            NoTrace,
        )
        .0
        .for_side(pos.turn())
    }
}

/// The largest score (centipawns, either side) the `Nnue` evaluator takes
/// from the network by default (`NetworkRange`). Its training games
/// (`kestrel datagen`) were adjudicated once a side stood 1,000 cp ahead for
/// 8 plies, so it has seen few positions more lopsided than this and none of
/// the mating play they call for; beyond it the hand-crafted evaluation,
/// with its mop-up and endgame scaling, judges. Chosen on matetrack
/// (docs/search.md): 1,000 found the most mates of 700, 1,000 and 1,500.
pub const NETWORK_RANGE: Value = 1000;

/// Whether the `Nnue` evaluator uses the network's score `net` (side to
/// move's view) for `pos`, or hands the position to the hand-crafted
/// evaluation: it does when one side has only its king (the network never
/// learnt to mate a lone king, while the mop-up drives it to the edge, and
/// to the bishop's corner in KBNK) or when `net` is `range` or more either way.
#[inline]
pub fn network_applies(pos: &Position, net: Value, range: Value) -> bool {
    both_sides_have_pieces(pos) && net.abs() < range
}

/// True when each side has more than its king.
#[inline]
fn both_sides_have_pieces(pos: &Position) -> bool {
    pos.by_color(Color::White).more_than_one() && pos.by_color(Color::Black).more_than_one()
}

/// True when the side to move has pieces other than pawns and king (null
/// move is unsafe in pawn endings: zugzwang).
pub fn has_non_pawn_material(pos: &Position, color: Color) -> bool {
    (pos.by_color(color) - pos.pieces(color, Role::Pawn) - pos.pieces(color, Role::King)).any()
}

#[cfg(test)]
mod tests;
