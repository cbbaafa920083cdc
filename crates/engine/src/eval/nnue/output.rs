//! The output layer: both accumulators activated, side to move's first,
//! and summed with the output weights into centipawns.

use chess::{Color, Position};

use super::{Accumulator, Activation, Network, QA};

/// The network's score of the position whose accumulators are `acc`, in
/// centipawns from `side_to_move`'s view. No allocation.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, side_to_move: Color) -> i32 {
    let ours = acc.lanes(net, side_to_move);
    let theirs = acc.lanes(net, !side_to_move);
    let (w_ours, w_theirs) = net.output_weights();
    let (scale, qb) = (net.scale(), net.qb());
    match net.activation() {
        Activation::SCReLU => {
            // Sum in QA*QA*QB units; one division by QA brings it to the
            // bias's QA*QB units.
            let sum = screlu_dot(ours, w_ours).wrapping_add(screlu_dot(theirs, w_theirs));
            to_centipawns((sum / QA).wrapping_add(net.output_bias()), scale, qb)
        }
        Activation::CReLU => {
            let sum = crelu_dot(ours, w_ours).wrapping_add(crelu_dot(theirs, w_theirs));
            to_centipawns(sum.wrapping_add(net.output_bias()), scale, qb)
        }
    }
}

/// An output in QA*QB units scaled to centipawns (in 64 bits: a large
/// output times the scale can pass 2³¹).
#[inline(always)]
fn to_centipawns(output: i32, scale: i32, qb: i32) -> i32 {
    (i64::from(output) * i64::from(scale) / (i64::from(QA) * i64::from(qb))) as i32
}

/// The network's score of `pos` computed from scratch, centipawns from the
/// side to move's view (for tools and tests; a search updates accumulators
/// incrementally instead).
pub fn evaluate_position(net: &Network, pos: &Position) -> i32 {
    evaluate(net, &Accumulator::new(net, pos), pos.turn())
}

/// Σ clamp(a, 0, QA)² · w. `v · w` fits in 16 bits (|w| ≤ 127 is checked on
/// loading), so the compiler can use a 16-bit multiply and then a
/// multiply-add of 16-bit pairs into 32 bits (`vpmullw` + `vpmaddwd`).
#[inline(always)]
fn screlu_dot(lanes: &[i16], weights: &[i16]) -> i32 {
    lanes
        .iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = a.clamp(0, QA as i16);
            i32::from(v.wrapping_mul(w)) * i32::from(v)
        })
        .fold(0i32, i32::wrapping_add)
}

/// Σ clamp(a, 0, QA) · w.
#[inline(always)]
fn crelu_dot(lanes: &[i16], weights: &[i16]) -> i32 {
    lanes
        .iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .fold(0i32, i32::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::random_network;

    /// The same arithmetic in the plainest form, to check the fast one.
    fn reference(net: &Network, acc: &Accumulator, stm: Color) -> i64 {
        let (w0, w1) = net.output_weights();
        let mut sum = 0i64;
        for (lanes, weights) in [(acc.lanes(net, stm), w0), (acc.lanes(net, !stm), w1)] {
            for (&a, &w) in lanes.iter().zip(weights) {
                let v = i64::from(a.clamp(0, 255));
                sum += match net.activation() {
                    Activation::SCReLU => v * v * i64::from(w),
                    Activation::CReLU => v * i64::from(w),
                };
            }
        }
        let sum = match net.activation() {
            Activation::SCReLU => sum / 255,
            Activation::CReLU => sum,
        };
        (sum + i64::from(net.output_bias())) * i64::from(net.scale()) / (255 * i64::from(net.qb()))
    }

    #[test]
    fn fast_output_matches_the_plain_arithmetic() {
        for (activation, qb) in [
            (Activation::SCReLU, 64),
            (Activation::CReLU, 64),
            (Activation::SCReLU, 512),
        ] {
            let net = random_network(128, activation, 11).with_qb(qb);
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            ] {
                let pos = Position::from_fen(fen).unwrap();
                let acc = Accumulator::new(&net, &pos);
                for stm in Color::ALL {
                    assert_eq!(
                        i64::from(evaluate(&net, &acc, stm)),
                        reference(&net, &acc, stm)
                    );
                }
            }
        }
    }
}
