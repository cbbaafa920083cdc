//! The output layer: both accumulators activated, side to move's first,
//! and summed with the weights of the position's output bucket into
//! centipawns.

use chess::Position;

use super::{Accumulator, Activation, Network, QA};

/// The output bucket of a position with `pieces` pieces on the board (kings
/// included) in a net of `buckets` buckets: bullet's `MaterialCount<N>`
/// (jw1912/bullet, `crates/bullet_lib/src/game/outputs.rs`),
/// `(pieces - 2) / ceil(32 / N)`, so that 8 buckets hold 4 piece counts
/// each. Boards with more than 32 pieces (only a FEN can make one) use the
/// last bucket. The trainer calls the same function.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let per_bucket = 32usize.div_ceil(buckets.max(1));
    (pieces.saturating_sub(2) as usize / per_bucket).min(buckets.max(1) - 1)
}

/// The network's score of `pos`, whose accumulators are `acc`, in
/// centipawns from the side to move's view. No allocation.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, pos: &Position) -> i32 {
    let side_to_move = pos.turn();
    let ours = acc.lanes(net, side_to_move);
    let theirs = acc.lanes(net, !side_to_move);
    let bucket = output_bucket(pos.occupied().count(), net.output_buckets());
    let (w_ours, w_theirs) = net.output_weights(bucket);
    let bias = net.output_bias(bucket);
    let (scale, qb) = (net.scale(), net.qb());
    match net.activation() {
        Activation::SCReLU => {
            // Sum in QA*QA*QB units; one division by QA brings it to the
            // bias's QA*QB units.
            let sum = screlu_dot(ours, w_ours).wrapping_add(screlu_dot(theirs, w_theirs));
            to_centipawns((sum / QA).wrapping_add(bias), scale, qb)
        }
        Activation::CReLU => {
            let sum = crelu_dot(ours, w_ours).wrapping_add(crelu_dot(theirs, w_theirs));
            to_centipawns(sum.wrapping_add(bias), scale, qb)
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
    evaluate(net, &Accumulator::new(net, pos), pos)
}

/// Σ clamp(a, 0, QA)² · w. `v · w` fits in 16 bits (|w| ≤ 127 is checked on
/// loading), so a 16-bit multiply and then a multiply-add of 16-bit pairs
/// into 32 bits (`vpmullw` + `vpmaddwd`) compute it. The compiler finds
/// that pattern only at half the register width (LLVM vectorises the
/// 32-bit sums, then halves them), so with AVX2 it is written out
/// ([`avx2::screlu_dot`]).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[allow(unsafe_code)]
#[inline(always)]
fn screlu_dot(lanes: &[i16], weights: &[i16]) -> i32 {
    // SAFETY: compiled only when the whole crate targets AVX2 (`target_feature = "avx2"`), so the CPU running it has AVX2.
    unsafe { avx2::screlu_dot(lanes, weights) }
}

/// Σ clamp(a, 0, QA)² · w, as plain Rust for every other target
/// (WebAssembly's `simd128` included).
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
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

/// The SCReLU dot product in 256-bit registers.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
        _mm256_set1_epi16, _mm256_setr_epi16, _mm256_setzero_si256, _mm_add_epi32,
        _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    use super::QA;

    /// Sixteen lanes into a register (the compiler makes it one load,
    /// usually folded into the instruction that uses it).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(b: &[i16; 16]) -> __m256i {
        _mm256_setr_epi16(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        )
    }

    /// Σ clamp(a, 0, QA)² · w over whole groups of 16 lanes (every hidden
    /// size is a multiple of 32), wrapping as the portable version does.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(lanes: &[i16], weights: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (a, w) in lanes
            .as_chunks::<16>()
            .0
            .iter()
            .zip(weights.as_chunks::<16>().0)
        {
            let v = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
            let vw = _mm256_mullo_epi16(v, load(w));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
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
    use crate::eval::nnue::network::tests::random_bucketed;

    /// The same arithmetic in the plainest form, to check the fast one,
    /// with the bucket counted out square by square.
    fn reference(net: &Network, acc: &Accumulator, pos: &Position) -> i64 {
        let stm = pos.turn();
        let pieces = chess::Square::ALL
            .iter()
            .filter(|&&sq| pos.piece_at(sq).is_some())
            .count() as i64;
        let per_bucket = 32 / net.output_buckets() as i64;
        let bucket = (((pieces - 2) / per_bucket) as usize).min(net.output_buckets() - 1);
        let (w0, w1) = net.output_weights(bucket);
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
        (sum + i64::from(net.output_bias(bucket))) * i64::from(net.scale())
            / (255 * i64::from(net.qb()))
    }

    /// Positions from 32 pieces down to 2 (32, 32, 28, 22, 18, 14, 12, 7,
    /// 5, 2), so that every bucket of an 8-bucket net is used, each with
    /// either side to move.
    const FENS: [&str; 10] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "r1bq1rk1/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
        "r4rk1/pp3ppp/2n1pn2/8/8/2N1PN2/PP3PPP/R4RK1 w - - 0 15",
        "4r1k1/pp3ppp/4pn2/8/8/4PN2/PP3PPP/4R1K1 w - - 0 20",
        "r5k1/pp3ppp/8/8/8/8/PP3PPP/R5K1 w - - 0 25",
        "6k1/pp3ppp/8/8/8/8/PP3PPP/6K1 w - - 0 30",
        "8/5pk1/6p1/8/8/6P1/5PK1/4R3 w - - 0 40",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "8/8/1k6/8/8/8/5K2/8 w - - 0 1",
    ];

    #[test]
    fn fast_output_matches_the_plain_arithmetic() {
        for (activation, qb, buckets) in [
            (Activation::SCReLU, 64, 1),
            (Activation::CReLU, 64, 1),
            (Activation::SCReLU, 512, 1),
            (Activation::SCReLU, 64, 8),
            (Activation::CReLU, 256, 8),
            (Activation::SCReLU, 64, 4),
        ] {
            let net = random_bucketed(128, activation, buckets, 11).with_qb(qb);
            let mut used = vec![false; buckets];
            for fen in FENS {
                for turn in ["w", "b"] {
                    // The same pieces with either side to move (no en
                    // passant square, which belongs to one side).
                    let fields: Vec<&str> = fen.split(' ').collect();
                    let fen = format!("{} {turn} {} - 0 1", fields[0], fields[2]);
                    let pos = Position::from_fen(&fen).unwrap();
                    used[output_bucket(pos.occupied().count(), buckets)] = true;
                    let acc = Accumulator::new(&net, &pos);
                    assert_eq!(
                        i64::from(evaluate(&net, &acc, &pos)),
                        reference(&net, &acc, &pos),
                        "{fen}"
                    );
                }
            }
            assert!(used.iter().all(|&u| u), "{buckets} buckets: {used:?}");
        }
    }

    #[test]
    fn the_dot_product_equals_the_plain_arithmetic() {
        let mut rng = crate::strength::Rng::new(41);
        for hidden in [32, 128, 256, 1024] {
            for _ in 0..200 {
                // Lanes beyond both clamps, weights to their bounds.
                let lanes: Vec<i16> = (0..hidden)
                    .map(|_| (rng.next_u64() % 1200) as i16 - 400)
                    .collect();
                let weights: Vec<i16> = (0..hidden)
                    .map(|_| (rng.next_u64() % 255) as i16 - 127)
                    .collect();
                let plain: i64 = lanes
                    .iter()
                    .zip(&weights)
                    .map(|(&a, &w)| i64::from(a.clamp(0, 255)).pow(2) * i64::from(w))
                    .sum();
                // The sums wrap in 32 bits, as the plain arithmetic does not.
                assert_eq!(screlu_dot(&lanes, &weights), plain as i32);
            }
        }
    }

    #[test]
    fn buckets_follow_bullets_material_count() {
        // MaterialCount<8>: (pieces - 2) / 4.
        let eight: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
        assert_eq!(&eight[..5], &[0, 0, 0, 0, 1]);
        assert_eq!(eight[30], 7);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(29, 8), 6);
        assert_eq!(output_bucket(30, 8), 7);
        for buckets in 1..=8 {
            for pieces in 0..=40 {
                assert!(output_bucket(pieces, buckets) < buckets);
            }
            assert_eq!(output_bucket(2, buckets), 0);
            assert_eq!(output_bucket(32, buckets), buckets - 1);
        }
        // A 3-bucket net: ceil(32 / 3) = 11 piece counts per bucket.
        assert_eq!(output_bucket(12, 3), 0);
        assert_eq!(output_bucket(13, 3), 1);
    }
}
