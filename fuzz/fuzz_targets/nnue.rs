//! The network file (`EvalFile`, `train --init`). The first byte picks:
//! even, the rest is a file, read as such (no panic, and a network read
//! writes a file that reads back as the same network: the oldest version
//! that holds it, so not always the same bytes); odd, the rest fills a
//! network's arrays (hidden size, activation, output and king buckets,
//! scales and weights from the bytes, repeated),
//! which, when `from_parts` accepts it, must survive its file form and
//! evaluate positions and a short game with no overflow (the fuzz build
//! checks arithmetic overflow), the incremental accumulator agreeing with a
//! fresh one after every move.
#![no_main]

use chess::Position;
use engine::eval::nnue::{
    evaluate, evaluate_position, Accumulator, Activation, InputBuckets, Network, HIDDEN_ALIGN,
};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Eight queens: large accumulator sums (legal: the pawns shield a8).
    "k7/pp6/8/8/8/8/QQQQQQQQ/7K w - - 0 1",
];

fn network_from(data: &[u8]) -> Option<Network> {
    let [h, a, n, s0, s1, q0, q1, b0, b1, b2, b3, rest @ ..] = data else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let hidden = HIDDEN_ALIGN * (1 + usize::from(*h % 4));
    let activation = Activation::from_code(u32::from(*a % 2))?;
    let inputs = [
        InputBuckets::NONE,
        InputBuckets::MIRROR,
        InputBuckets::MIRROR4,
    ][usize::from(*a / 2 % 3)];
    let buckets = 1 + usize::from(*n % 8);
    let scale = i32::from(u16::from_le_bytes([*s0, *s1]));
    let qb = i32::from(u16::from_le_bytes([*q0, *q1]));
    let bias = i32::from_le_bytes([*b0, *b1, *b2, *b3]);
    let mut words = rest
        .chunks(2)
        .map(|p| i16::from_le_bytes([p[0], *p.get(1).unwrap_or(&0)]))
        .cycle();
    let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
    let feature_weights = take(inputs.inputs() * hidden);
    let feature_bias = take(hidden);
    // Output weights are refused beyond ±127: fold them in, so that the
    // evaluation is reached.
    let output_weights = take(2 * hidden * buckets)
        .into_iter()
        .map(|w| w % 128)
        .collect();
    // One bias a bucket, each a little apart.
    let biases = (0..buckets as i32).map(|i| bias.wrapping_add(i)).collect();
    Network::from_parts(
        inputs,
        activation,
        scale,
        qb,
        feature_weights,
        feature_bias,
        output_weights,
        biases,
    )
    .ok()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(net) = Network::from_bytes(rest) {
            assert_eq!(Network::from_bytes(&net.to_bytes()).ok(), Some(net));
        }
        return;
    }
    let Some(net) = network_from(rest) else {
        return;
    };
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).expect("a network's own file reads back");
    assert_eq!(back.to_bytes(), bytes);
    for fen in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("fixed position");
        let mut acc = Accumulator::new(&net, &pos);
        assert_eq!(evaluate(&net, &acc, &pos), evaluate_position(&net, &pos));
        for i in 0..8 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(usize::from(rest[i % rest.len()])) % moves.len()];
            let before = pos;
            pos.play_unchecked(m);
            let parent = acc.clone();
            acc.update_from(&net, &parent, &before, m);
            assert_eq!(
                evaluate(&net, &acc, &pos),
                evaluate_position(&net, &pos),
                "after {m:?} from {}",
                before.fen()
            );
        }
    }
});
