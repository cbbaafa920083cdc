//! The bullet layouts checked against bullet's own rules, written out here
//! from bullet's source (commit cebc78a0): its saver (column-major
//! matrices, `.transpose()`, padding), its `Chess768` inputs read off a
//! bulletformat `ChessBoard` record, `MaterialCount<N>`, and the inference
//! of its `simple` example. bullet itself is not a dependency: it is not on
//! crates.io and needs a GPU backend to build its trainer.

use super::*;
use crate::testdata::records;
use chess::{Color, Position};
use engine::eval::nnue::{evaluate_position, feature_index};
use engine::strength::Rng;
use trainingdata::bullet::to_chessboard;
use trainingdata::TrainingRecord;

/// A net's weights in bullet's own shapes: `l0w` column-major `H x 768`
/// (`[input * H + neuron]`), `l1w` column-major `B x 2H`
/// (`[hidden_input * B + bucket]`), biases as bullet saves them (`i16`).
struct BulletWeights {
    hidden: usize,
    buckets: usize,
    /// `ChessBucketsMirrored`'s 32-square layout, or `None` for `Chess768`.
    layout: Option<[usize; 32]>,
    l0w: Vec<i16>,
    l0b: Vec<i16>,
    l1w: Vec<i16>,
    l1b: Vec<i16>,
}

impl BulletWeights {
    fn random(hidden: usize, buckets: usize, seed: u64) -> BulletWeights {
        BulletWeights::random_bucketed(hidden, buckets, None, seed)
    }

    /// The same with king buckets in `layout` (`ChessBucketsMirrored`).
    fn random_bucketed(
        hidden: usize,
        buckets: usize,
        layout: Option<[usize; 32]>,
        seed: u64,
    ) -> BulletWeights {
        let mut rng = Rng::new(seed);
        let mut small =
            |range: u64| ((rng.next_u64() % (2 * range + 1)) as i64 - range as i64) as i16;
        let king_buckets = layout.map_or(1, |l| l.iter().max().unwrap() + 1);
        BulletWeights {
            hidden,
            buckets,
            layout,
            l0w: (0..king_buckets * INPUTS * hidden)
                .map(|_| small(200))
                .collect(),
            l0b: (0..hidden).map(|_| small(300)).collect(),
            l1w: (0..2 * hidden * buckets).map(|_| small(127)).collect(),
            l1b: (0..buckets).map(|_| small(30_000)).collect(),
        }
    }

    /// bullet's `to_quantised_buffer`: each `SavedFormat` in turn (`l1w`
    /// through bullet's `transpose_impl` when `transposed`), then padding.
    fn save(&self, transposed: bool, pad: bool) -> Vec<u8> {
        let l1w = if transposed {
            let (rows, cols) = (self.buckets, 2 * self.hidden);
            let mut t = vec![0; rows * cols];
            for i in 0..rows {
                for j in 0..cols {
                    t[cols * i + j] = self.l1w[rows * j + i];
                }
            }
            t
        } else {
            self.l1w.clone()
        };
        let mut buf = Vec::new();
        for w in self
            .l0w
            .iter()
            .chain(&self.l0b)
            .chain(&l1w)
            .chain(&self.l1b)
        {
            buf.extend_from_slice(&w.to_le_bytes());
        }
        if pad {
            let bytes = buf.len() % 64;
            if bytes > 0 {
                let chs = [b'b', b'u', b'l', b'l', b'e', b't'];
                for i in 0..64 - bytes {
                    buf.push(chs[i % chs.len()]);
                }
            }
        }
        buf
    }

    /// The same weights built the engine's way, straight from its arrays.
    fn kestrel(&self, activation: Activation) -> Network {
        let (h, b) = (self.hidden, self.buckets);
        let output_weights = (0..b)
            .flat_map(|bucket| (0..2 * h).map(move |j| (bucket, j)))
            .map(|(bucket, j)| self.l1w[j * b + bucket])
            .collect();
        Network::from_parts(
            InputBuckets::NONE,
            activation,
            400,
            64,
            self.l0w.clone(),
            self.l0b.clone(),
            output_weights,
            self.l1b.iter().map(|&x| i32::from(x)).collect(),
        )
        .unwrap()
    }

    /// bullet's score of `record`: `Chess768`'s two index lists from the
    /// record as bulletformat stores it, the accumulators, the bucket by
    /// `MaterialCount`, and the `simple` example's inference (its last
    /// multiply in 64 bits, as the engine does it).
    fn evaluate(&self, record: &TrainingRecord, activation: Activation) -> i32 {
        let (qa, qb, scale) = (255i64, 64i64, 400i64);
        let h = self.hidden;
        let (mut stm, mut ntm) = bullet_features(record);
        if let Some(layout) = self.layout {
            // `ChessBucketsMirrored::map_features` on top of `Chess768`'s.
            let board = to_chessboard(record);
            let (our_ksq, opp_ksq) = bullet_kings(&board);
            let expanded: Vec<usize> = (0..64)
                .map(|idx| layout[(idx / 8) * 4 + [0, 1, 2, 3, 3, 2, 1, 0][idx % 8]])
                .collect();
            let get = |ksq: usize| (if ksq % 8 > 3 { 7 } else { 0 }, 768 * expanded[ksq]);
            let (stm_flip, stm_bucket) = get(our_ksq);
            let (ntm_flip, ntm_bucket) = get(opp_ksq);
            stm = stm.iter().map(|f| stm_bucket + (f ^ stm_flip)).collect();
            ntm = ntm.iter().map(|f| ntm_bucket + (f ^ ntm_flip)).collect();
        }
        let accumulate = |features: &[usize]| {
            let mut acc = self.l0b.clone();
            for &f in features {
                for (a, w) in acc.iter_mut().zip(&self.l0w[f * h..(f + 1) * h]) {
                    *a = a.wrapping_add(*w);
                }
            }
            acc
        };
        let (us, them) = (accumulate(&stm), accumulate(&ntm));
        let occ = u64::from_le_bytes(to_chessboard(record)[..8].try_into().unwrap());
        let divisor = 32usize.div_ceil(self.buckets);
        let bucket = (occ.count_ones() as usize - 2) / divisor;
        let weight = |j: usize| i64::from(self.l1w[j * self.buckets + bucket]);
        let act = |x: i16| {
            let y = i64::from(x).clamp(0, qa);
            match activation {
                Activation::SCReLU => y * y,
                Activation::CReLU => y,
            }
        };
        let mut output: i64 = 0;
        for (j, &x) in us.iter().chain(&them).enumerate() {
            output += act(x) * weight(j);
        }
        if activation == Activation::SCReLU {
            output /= qa;
        }
        output += i64::from(self.l1b[bucket]);
        (output * scale / (qa * qb)) as i32
    }
}

/// The pieces of a bulletformat `ChessBoard`: each occupied square (from
/// the side to move's view) with its nibble (colour bit 8: the other side;
/// role in the low three bits, king 5).
fn board_pieces(board: &[u8]) -> Vec<(usize, u8)> {
    let mut occ = u64::from_le_bytes(board[..8].try_into().unwrap());
    let mut pieces = Vec::new();
    while occ != 0 {
        let square = occ.trailing_zeros() as usize;
        occ &= occ - 1;
        let i = pieces.len();
        pieces.push((square, (board[8 + i / 2] >> (4 * (i % 2))) & 15));
    }
    pieces
}

/// `Chess768::map_features` on the bulletformat `ChessBoard` of `record`:
/// the side to move's indices and the other side's.
fn bullet_features(record: &TrainingRecord) -> (Vec<usize>, Vec<usize>) {
    let (mut stm, mut ntm) = (Vec::new(), Vec::new());
    for (square, piece) in board_pieces(&to_chessboard(record)) {
        let c = usize::from(piece & 8 > 0);
        let pc = 64 * usize::from(piece & 7);
        stm.push([0, 384][c] + pc + square);
        ntm.push([384, 0][c] + pc + (square ^ 56));
    }
    (stm, ntm)
}

/// bulletformat's `our_ksq` (the side to move's king on the board it
/// stores) and `opp_ksq` (the other king, `^ 56`: bullet's
/// `validate.rs` checks it so).
fn bullet_kings(board: &[u8]) -> (usize, usize) {
    let (mut ours, mut theirs) = (0, 0);
    for (square, piece) in board_pieces(board) {
        if piece & 7 == 5 {
            if piece & 8 == 0 {
                ours = square;
            } else {
                theirs = square ^ 56;
            }
        }
    }
    (ours, theirs)
}

fn shape(hidden: usize, buckets: usize, activation: Activation, order: OutputOrder) -> BulletShape {
    BulletShape {
        hidden,
        activation,
        buckets,
        order,
        qa: 255,
        qb: 64,
        scale: 400,
        inputs: InputBuckets::NONE,
    }
}

#[test]
fn chess768_indices_are_the_engines() {
    for record in records(300, 3) {
        let pos = record.to_position().unwrap();
        let stm = pos.turn();
        let kestrel = |side: Color| {
            let mut v: Vec<usize> = pos
                .occupied()
                .into_iter()
                .map(|sq| feature_index(side, pos.piece_at(sq).unwrap(), sq))
                .collect();
            v.sort_unstable();
            v
        };
        let (mut ours, mut theirs) = bullet_features(&record);
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, kestrel(stm), "{}", record.to_fen());
        assert_eq!(theirs, kestrel(!stm), "{}", record.to_fen());
    }
}

/// `n` test records with their positions.
fn positions(n: usize, seed: u64) -> Vec<(TrainingRecord, Position)> {
    records(n, seed)
        .into_iter()
        .map(|r| {
            let pos = r.to_position().unwrap();
            (r, pos)
        })
        .collect()
}

/// Every architecture both ways: bullet's file imported is the net built
/// the engine's way from the same weights, scores every position as
/// bullet's inference does, and exports to the same bytes.
#[test]
fn bullet_nets_import_evaluate_and_export_identically() {
    let positions = positions(200, 11);
    for buckets in [1, 8] {
        for activation in [Activation::SCReLU, Activation::CReLU] {
            for order in [OutputOrder::BucketMajor, OutputOrder::InputMajor] {
                let weights = BulletWeights::random(64, buckets, buckets as u64 * 7 + 1);
                let transposed = order == OutputOrder::BucketMajor;
                let file = weights.save(transposed, true);
                assert_eq!(file.len() as u64, padded_len(64, buckets));
                let net = import(&file, &shape(64, buckets, activation, order)).unwrap();
                assert_eq!(
                    net,
                    weights.kestrel(activation),
                    "{buckets} {activation:?} {order:?}"
                );
                let mut buckets_seen = std::collections::BTreeSet::new();
                for (record, pos) in &positions {
                    buckets_seen.insert(pos.occupied().count());
                    assert_eq!(
                        evaluate_position(&net, pos),
                        weights.evaluate(record, activation),
                        "{} ({buckets} buckets, {activation:?})",
                        record.to_fen()
                    );
                }
                assert!(
                    buckets_seen.len() > 4,
                    "too few piece counts: {buckets_seen:?}"
                );
                assert_eq!(
                    export(&net, order).unwrap(),
                    file,
                    "{buckets} {activation:?} {order:?}"
                );
                // The engine's own file keeps it too.
                let again = Network::from_bytes(&net.to_bytes()).unwrap();
                assert_eq!(export(&again, order).unwrap(), file);
            }
        }
    }
}

/// `ChessBucketsMirrored` with the layouts of `kestrel train
/// --input-buckets`: bullet's file imported scores every position as
/// bullet's own inference does (its bucket and flip rules, not the
/// engine's), exports to the same bytes, and the layout printed for bullet
/// is the one it was trained with.
#[test]
fn mirrored_king_bucket_nets_import_evaluate_and_export_identically() {
    let positions = positions(300, 13);
    for inputs in [InputBuckets::MIRROR, InputBuckets::MIRROR4] {
        let layout = bullet_layout(&inputs).map(usize::from);
        let weights = BulletWeights::random_bucketed(32, 8, Some(layout), 41);
        let file = weights.save(true, true);
        let s = BulletShape {
            inputs,
            ..shape(32, 8, Activation::SCReLU, OutputOrder::BucketMajor)
        };
        let net = import(&file, &s).unwrap();
        assert_eq!(net.input_buckets(), &inputs);
        let mut flipped = 0;
        for (record, pos) in &positions {
            flipped += usize::from(pos.king(pos.turn()).file().index() < 4);
            assert_eq!(
                evaluate_position(&net, pos),
                weights.evaluate(record, Activation::SCReLU),
                "{} ({:?})",
                record.to_fen(),
                inputs.name()
            );
        }
        assert!(flipped > 30 && flipped < 270, "{flipped} kings on a-d");
        assert_eq!(export(&net, OutputOrder::BucketMajor).unwrap(), file);
        // Without its king buckets, a four-bucket file is refused by its
        // length (a one-bucket mirrored file has a plain net's length).
        let plain = import(
            &file,
            &shape(32, 8, Activation::SCReLU, OutputOrder::BucketMajor),
        );
        assert!(plain.is_err() || inputs.count() == 1);
    }
    assert_eq!(
        bullet_layout(&InputBuckets::MIRROR4),
        [
            0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3
        ]
    );
}

#[test]
fn unpadded_and_zero_padded_files_read_the_same() {
    let weights = BulletWeights::random(32, 8, 5);
    let s = shape(32, 8, Activation::SCReLU, OutputOrder::BucketMajor);
    let padded = import(&weights.save(true, true), &s).unwrap();
    let bare = weights.save(true, false);
    assert_ne!(
        bare.len() as u64,
        padded_len(32, 8),
        "the test needs padding"
    );
    assert_eq!(import(&bare, &s).unwrap(), padded);
    let mut zeros = bare.clone();
    zeros.resize(padded_len(32, 8) as usize, 0);
    assert_eq!(import(&zeros, &s).unwrap(), padded);
}

#[test]
fn wrong_files_and_shapes_are_refused_with_what_to_fix() {
    let weights = BulletWeights::random(64, 1, 9);
    let file = weights.save(true, true);
    let s = shape(64, 1, Activation::SCReLU, OutputOrder::BucketMajor);

    // Another hidden size: the length says which shapes would fit.
    let err = import(&file, &BulletShape { hidden: 128, ..s }).unwrap_err();
    assert!(matches!(err, BulletNetError::WrongSize { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("768->64x2->1"), "{text}");
    // Another bucket count.
    let err = import(&file, &BulletShape { buckets: 8, ..s }).unwrap_err();
    assert!(matches!(err, BulletNetError::WrongSize { .. }), "{err}");

    // Every truncation, and a byte more, refused without a panic.
    for len in (0..file.len())
        .step_by(331)
        .chain([file.len() - 1, file.len() + 1])
    {
        let mut bytes = file.clone();
        bytes.resize(len, 0);
        assert!(import(&bytes, &s).is_err(), "{len} bytes accepted");
    }

    // Padding that is not bullet's.
    let mut bad = file.clone();
    let last = bad.len() - 1;
    bad[last] = b'x';
    let err = import(&bad, &s).unwrap_err();
    assert!(
        matches!(err, BulletNetError::BadPadding { at } if at == last as u64),
        "{err}"
    );

    // Shapes and constants the engine does not hold.
    let err = import(&file, &BulletShape { hidden: 100, ..s }).unwrap_err();
    assert!(err.to_string().contains("multiple of 32"), "{err}");
    let err = import(&file, &BulletShape { buckets: 9, ..s }).unwrap_err();
    assert!(err.to_string().contains("output buckets"), "{err}");
    let err = import(&file, &BulletShape { qa: 256, ..s }).unwrap_err();
    assert!(matches!(err, BulletNetError::WrongQa { qa: 256 }), "{err}");
    let err = import(&file, &BulletShape { qb: 1024, ..s }).unwrap_err();
    assert!(err.to_string().contains("QB"), "{err}");
    let err = import(&file, &BulletShape { scale: 0, ..s }).unwrap_err();
    assert!(err.to_string().contains("scale"), "{err}");

    // An output weight beyond ±127 (a net quantised with too large a QB).
    let mut big = BulletWeights::random(64, 8, 2);
    big.l1w[3 * 8 + 5] = 200; // hidden input 3, bucket 5
    for (order, transposed) in [
        (OutputOrder::BucketMajor, true),
        (OutputOrder::InputMajor, false),
    ] {
        let err = import(
            &big.save(transposed, true),
            &shape(64, 8, Activation::SCReLU, order),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                BulletNetError::OutputWeightOutOfRange {
                    bucket: 5,
                    index: 3,
                    value: 200,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("±127"), "{err}");
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(4);
    let s = shape(32, 8, Activation::CReLU, OutputOrder::InputMajor);
    let len = padded_len(32, 8) as usize;
    for _ in 0..50 {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        // Random output weights are nearly always out of range; either way
        // the answer is a value, not a panic.
        let _ = import(&bytes, &s);
    }
}

#[test]
fn a_bias_beyond_i16_is_refused_on_export() {
    let weights = BulletWeights::random(32, 1, 3);
    let net = weights.kestrel(Activation::SCReLU);
    let (l0w, l0b) = (net.feature_weights().to_vec(), net.feature_bias().to_vec());
    let (ours, theirs) = net.output_weights(0);
    let l1w: Vec<i16> = ours.iter().chain(theirs).copied().collect();
    let wide = Network::from_parts(
        InputBuckets::NONE,
        Activation::SCReLU,
        400,
        256,
        l0w,
        l0b,
        l1w,
        vec![40_000],
    )
    .unwrap();
    let err = export(&wide, OutputOrder::BucketMajor).unwrap_err();
    assert!(
        matches!(
            err,
            BulletNetError::BiasOutOfRange {
                bucket: 0,
                value: 40_000,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("i16"), "{err}");
}

/// bullet's `read_from_byte_buffer` on a `weights.bin`, then its
/// `QuantTarget::I16(q).quantise(round = true, ..)`: the floats give back
/// the quantised file's integers.
#[test]
fn float_weights_requantise_to_the_same_net() {
    for buckets in [1, 8] {
        let weights = BulletWeights::random(64, buckets, 21);
        let net = weights.kestrel(Activation::SCReLU);
        let bytes = export_weights(&net).unwrap();
        let mut offset = 0;
        let mut read = Vec::new();
        while offset < bytes.len() {
            let newline = bytes[offset..].iter().position(|&b| b == b'\n').unwrap();
            let id = String::from_utf8(bytes[offset..offset + newline].to_vec()).unwrap();
            offset += newline + 1;
            let n = u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap()) as usize;
            offset += 8;
            let values: Vec<f32> = bytes[offset..offset + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            offset += 4 * n;
            read.push((id, values));
        }
        let ids: Vec<&str> = read.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["l0b", "l0w", "l1b", "l1w"]);
        let quantise = |values: &[f32], q: i64| -> Vec<i16> {
            values
                .iter()
                .map(|&v| {
                    let x = (q as f64 * f64::from(v)).round();
                    assert_eq!(x, f64::from(x as i16), "{v} x {q} overflows");
                    x as i16
                })
                .collect()
        };
        assert_eq!(quantise(&read[0].1, 255), weights.l0b);
        assert_eq!(quantise(&read[1].1, 255), weights.l0w);
        assert_eq!(quantise(&read[2].1, 255 * 64), weights.l1b);
        assert_eq!(quantise(&read[3].1, 64), weights.l1w);
    }
}

#[test]
fn lengths_name_their_shapes() {
    assert_eq!(unpadded_len(128, 1), 2 * (768 * 128 + 128 + 256 + 1));
    assert_eq!(padded_len(128, 1) % 64, 0);
    assert!(shapes_of_len(padded_len(128, 8)).contains(&(128, 8)));
    assert!(shapes_of_len(unpadded_len(256, 1)).contains(&(256, 1)));
    assert!(shapes_of_len(12).is_empty());
    assert_eq!(
        OutputOrder::parse("Input-Major"),
        Some(OutputOrder::InputMajor)
    );
    assert_eq!(
        OutputOrder::parse(OutputOrder::BucketMajor.name()),
        Some(OutputOrder::BucketMajor)
    );
    assert_eq!(OutputOrder::parse("rows"), None);
}

#[test]
fn a_wrong_qb_is_named_from_the_factor_trained_nets_give() {
    let likely = |ratio: f64, qb: i32| match check_scale_ratio(ratio, qb) {
        Err(BulletNetError::WrongScale { likely, .. }) => likely,
        other => panic!("{other:?}"),
    };
    // The built-in net (1.15x at QB 256) given --qb 64, and a net bullet
    // trained (1.45x at QB 64) given --qb 256.
    assert_eq!(likely(4.61, 64), Some(256));
    assert_eq!(likely(0.36, 256), Some(64));
    // An untrained net: no QB explains it.
    assert_eq!(likely(0.004, 64), None);
    assert!(check_scale_ratio(1.45, 64).is_ok());
}
