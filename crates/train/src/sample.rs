//! A training record as the network sees it: the active inputs of both
//! perspectives and the target.

use chess::{Color, Role, Square};
use engine::eval::nnue::InputBuckets;
use trainingdata::TrainingRecord;

/// At most this many pieces stand on a board (a record holds 32 nibbles).
pub const MAX_ACTIVE: usize = 32;

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One position ready for the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Active inputs from the side to move's perspective.
    pub stm: [u16; MAX_ACTIVE],
    /// Active inputs from the other side's perspective.
    pub nstm: [u16; MAX_ACTIVE],
    /// How many entries of `stm` and `nstm` are used.
    pub len: usize,
    /// The target win probability for the side to move, in [0, 1].
    pub target: f32,
}

impl Sample {
    /// The sample of `record` for a net with the king buckets `inputs`,
    /// with the target of [`Sample::target`].
    pub fn from_record(
        record: &TrainingRecord,
        wdl: f32,
        scale: f32,
        inputs: &InputBuckets,
    ) -> Sample {
        let us = record.turn();
        let mut sample = Sample {
            stm: [0; MAX_ACTIVE],
            nstm: [0; MAX_ACTIVE],
            len: 0,
            target: Sample::target(record, wdl, scale),
        };
        // Each side's king picks its bucket (a record has both kings; a
        // damaged one without is read as if the king stood on a1).
        let mut kings = [Square::new(0); 2];
        for (sq, piece) in record.pieces().take(MAX_ACTIVE) {
            if piece.role == Role::King {
                kings[piece.color.index()] = sq;
            }
        }
        let ours = inputs.view(us, kings[us.index()]);
        let theirs = inputs.view(!us, kings[(!us).index()]);
        for (sq, piece) in record.pieces().take(MAX_ACTIVE) {
            sample.stm[sample.len] = ours.feature(us, piece, sq) as u16;
            sample.nstm[sample.len] = theirs.feature(!us, piece, sq) as u16;
            sample.len += 1;
        }
        sample
    }

    /// The target of `record`: the game's result (weight `wdl`) blended
    /// with the search score through the same sigmoid the network's output
    /// goes through (`scale` centipawns per unit), for the side to move.
    pub fn target(record: &TrainingRecord, wdl: f32, scale: f32) -> f32 {
        let white_result = record.result().white_score();
        let result = match record.turn() {
            Color::White => white_result,
            Color::Black => 1.0 - white_result,
        };
        let score = sigmoid(f32::from(record.score_stm()) / scale);
        wdl * result + (1.0 - wdl) * score
    }

    /// The same position mirrored left to right (files a and h swapped),
    /// with the same target: chess is symmetric that way once castling
    /// rights are gone, and records carry none. Flipping the file is
    /// flipping the low three bits of an input index (in a net with one
    /// king bucket and no mirroring: a mirrored layout sees both twins
    /// alike already).
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in m.stm[..m.len].iter_mut().chain(m.nstm[..m.len].iter_mut()) {
            *f ^= 7;
        }
        m
    }

    /// The side to move's active inputs.
    #[inline(always)]
    pub fn stm_features(&self) -> &[u16] {
        &self.stm[..self.len]
    }

    /// The other side's active inputs.
    #[inline(always)]
    pub fn nstm_features(&self) -> &[u16] {
        &self.nstm[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;
    use trainingdata::RecordResult;

    #[test]
    fn target_blends_result_and_score_from_the_side_to_move() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
        // White won; the search says +400 for White; Black to move.
        let record = TrainingRecord::from_position(&pos, 400, RecordResult::WhiteWin);
        let s = Sample::from_record(&record, 0.0, 400.0, &InputBuckets::NONE);
        assert!((s.target - sigmoid(-1.0)).abs() < 1e-6);
        let s = Sample::from_record(&record, 1.0, 400.0, &InputBuckets::NONE);
        assert_eq!(s.target, 0.0);
        let s = Sample::from_record(&record, 0.5, 400.0, &InputBuckets::NONE);
        assert!((s.target - 0.5 * sigmoid(-1.0)).abs() < 1e-6);
        assert_eq!(s.len, 32);
    }

    #[test]
    fn mirroring_is_the_left_right_twin_position() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1";
        let twin = "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R b - - 0 1";
        let sample = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let record = TrainingRecord::from_position(&pos, 50, RecordResult::Draw);
            Sample::from_record(&record, 0.3, 400.0, &InputBuckets::NONE)
        };
        let sorted = |f: &[u16]| {
            let mut v = f.to_vec();
            v.sort_unstable();
            v
        };
        let (a, b) = (sample(fen).mirrored(), sample(twin));
        assert_eq!(sorted(a.stm_features()), sorted(b.stm_features()));
        assert_eq!(sorted(a.nstm_features()), sorted(b.nstm_features()));
        assert_eq!(a.target, b.target);
        assert_eq!(sample(fen).mirrored().mirrored(), sample(fen));
    }

    /// With a mirrored layout a position and its left-right twin are the
    /// same sample; the engine's accumulator gives the same inputs.
    #[test]
    fn a_mirrored_layout_sees_twins_alike_and_as_the_engine_does() {
        use engine::eval::nnue::INPUTS;
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1";
        let twin = "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R b - - 0 1";
        let castled = "r4rk1/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/1K1R3R w - - 0 1";
        let layout = InputBuckets::MIRROR4;
        let sample = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let record = TrainingRecord::from_position(&pos, 50, RecordResult::Draw);
            (Sample::from_record(&record, 0.3, 400.0, &layout), pos)
        };
        let sorted = |f: &[u16]| {
            let mut v = f.to_vec();
            v.sort_unstable();
            v
        };
        let (a, _) = sample(fen);
        let (b, _) = sample(twin);
        assert_eq!(sorted(a.stm_features()), sorted(b.stm_features()));
        assert_eq!(sorted(a.nstm_features()), sorted(b.nstm_features()));
        // White castled long (king b1: bucket 0, mirrored), Black short (g8).
        let (c, pos) = sample(castled);
        for (features, side) in [
            (c.stm_features(), Color::White),
            (c.nstm_features(), Color::Black),
        ] {
            let view = layout.view(side, pos.king(side));
            assert_eq!(view.bucket(), 0);
            let expected: Vec<u16> = pos
                .occupied()
                .into_iter()
                .map(|sq| view.feature(side, pos.piece_at(sq).unwrap(), sq) as u16)
                .collect();
            assert_eq!(sorted(features), sorted(&expected));
            assert!(features.iter().all(|&f| (f as usize) < INPUTS));
        }
    }
}
