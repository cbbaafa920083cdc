//! Nets in bullet's layouts, both ways: a net that bullet
//! (github.com/jw1912/bullet) quantised for Kestrel's architectures read
//! into the engine's [`Network`], and an engine net written back for
//! bullet (its quantised layout, or its float `weights.bin` to go on
//! training).
//!
//! What bullet writes (read from bullet's source at commit cebc78a0,
//! `crates/trainer/src/model/weights.rs`, `examples/simple.rs`,
//! `examples/progression/2_output_buckets.rs`,
//! `crates/bullet_lib/src/game/inputs/chess768.rs` and `outputs.rs`):
//!
//! - `quantised.bin`: the `SavedFormat` entries one after another, `l0w`,
//!   `l0b`, `l1w`, `l1b`, each a raw little-endian `i16` array, then padding
//!   to a multiple of 64 bytes with the bytes `bullet` repeated (zeros in
//!   bullet before March 2024). No header: the shape is not in the file.
//! - Matrices are column-major with shape `outputs x inputs`: `l0w`
//!   (`H x 768`) is a run of H weights per input, exactly the engine's
//!   `i16[768][H]`. `l1w` (`B x 2H`) is, as saved, a run of B bucket
//!   weights per hidden input ("input-major"); bullet's output-bucket
//!   example saves it with `.transpose()`, a run of 2H per bucket
//!   ("bucket-major"), the engine's `i16[B][2H]`. With one bucket both are
//!   the same.
//! - Quantisation: `l0w` and `l0b` by QA = 255, `l1w` by QB = 64, `l1b` by
//!   QA*QB, all `i16`, in every example (and in the older
//!   `.quantisations(&[QA, QB])` builder, which multiplied them the same
//!   way for the bias). The engine's biases are `i32`, so `l1b` comes in
//!   exactly; going out, a bias beyond `i16` is refused.
//! - `Chess768`'s inputs, from the side to move's view on a board that
//!   bulletformat has flipped for Black: `[0, 384][theirs] + 64 * role +
//!   square`, and for the other side the colours swapped and the square
//!   `^ 56`. That is the engine's `feature_index` for both perspectives, so
//!   `l0w` needs no reordering (a test derives bullet's indices from a
//!   bulletformat record).
//! - `MaterialCount<N>`: bucket `(pieces - 2) / ceil(32 / N)`, the engine's
//!   `output_bucket`.
//! - `ChessBucketsMirrored::new(layout)` (`chess_buckets.rs`): the side's
//!   king square (bulletformat's `our_ksq`, and `opp_ksq` = the other
//!   king `^ 56`) picks bucket `layout[rank * 4 + file]`, files e-h read
//!   as their mirror images, and rows `768 * bucket + (Chess768 index ^
//!   flip)`, `flip` = 7 when that king is on files e-h: bullet mirrors
//!   kings onto files a-d where the engine mirrors them onto e-h, so the
//!   same position uses row `i ^ 7` in bullet where the engine uses row `i`
//!   (the same bucket: both maps are mirror-symmetric). Import and export
//!   swap rows `i` and `i ^ 7`. A factoriser (`l0f`) is merged into `l0w`
//!   by bullet's `SavedFormat` transform before quantising.
//! - `weights.bin` (what `load_weights_from_file` reads): for each weight in
//!   name order (`l0b`, `l0w`, `l1b`, `l1w`) its name, a newline, its length
//!   as a 64-bit little-endian count, then `f32` values in the column-major
//!   order above (so `l1w` input-major).

use engine::eval::nnue::{
    Activation, InputBuckets, NetError, Network, HIDDEN_ALIGN, INPUTS, MAX_BUCKETS, MAX_HIDDEN,
    MAX_INPUT_BUCKETS, MAX_QB, QA,
};

/// Bullet pads a quantised net to a multiple of this many bytes.
pub const ALIGN: u64 = 64;
/// The bytes bullet pads with, repeated from the start of the padding.
pub const PADDING: &[u8; 6] = b"bullet";
/// The longest quantised net of an architecture the engine holds.
pub const MAX_LEN: u64 =
    weights_len(MAX_HIDDEN, MAX_BUCKETS, MAX_INPUT_BUCKETS).next_multiple_of(ALIGN);

/// The order of the output weights `l1w` in a bullet file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputOrder {
    /// 2H weights per bucket: `l1w` saved with `.transpose()`, as bullet's
    /// output-bucket example does (the engine's own order).
    BucketMajor,
    /// B weights per hidden input: `l1w` saved as bullet holds it
    /// (column-major, no `.transpose()`).
    InputMajor,
}

impl OutputOrder {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OutputOrder::BucketMajor => "bucket-major",
            OutputOrder::InputMajor => "input-major",
        }
    }

    /// The order for a name.
    pub fn parse(text: &str) -> Option<OutputOrder> {
        match text.trim().to_ascii_lowercase().as_str() {
            "bucket-major" | "transposed" => Some(OutputOrder::BucketMajor),
            "input-major" | "column-major" => Some(OutputOrder::InputMajor),
            _ => None,
        }
    }
}

/// What a bullet quantised file does not say, and the engine needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulletShape {
    /// Hidden size H (`new_affine("l0", 768, H)`).
    pub hidden: usize,
    /// The hidden layer's activation (`.screlu()` or `.crelu()`).
    pub activation: Activation,
    /// Output buckets B (`MaterialCount<B>`; 1 without output buckets).
    pub buckets: usize,
    /// How `l1w` was saved.
    pub order: OutputOrder,
    /// QA of `l0w` and `l0b` (the engine needs 255).
    pub qa: i32,
    /// QB of `l1w` (`l1b` is in QA*QB units).
    pub qb: i32,
    /// The eval scale (`eval_scale` in bullet's schedule).
    pub scale: i32,
    /// The king buckets: `InputBuckets::NONE` for `Chess768`, a mirrored
    /// layout for `ChessBucketsMirrored`.
    pub inputs: InputBuckets,
}

/// Why a bullet net was not converted.
#[derive(Debug, thiserror::Error)]
pub enum BulletNetError {
    /// The file's length is not that of the shape given.
    #[error(
        "{found} bytes, but bullet's quantised 768->{hidden}x2->{buckets} net is {expected} bytes \
         ({padded} padded to a multiple of 64){hint}"
    )]
    WrongSize {
        /// The file's length.
        found: u64,
        /// The hidden size given.
        hidden: usize,
        /// The buckets given.
        buckets: usize,
        /// The weights' length.
        expected: u64,
        /// The same padded as bullet pads.
        padded: u64,
        /// The shapes that would fit, in words.
        hint: String,
    },
    /// Bytes after the weights that are not bullet's padding.
    #[error(
        "byte {at} and on, after the weights, are neither bullet's padding (\"bullet\" repeated) \
         nor zeros: not a bullet net of this shape"
    )]
    BadPadding {
        /// Where the first wrong byte is.
        at: u64,
    },
    /// A feature-layer quantisation other than the engine's.
    #[error(
        "QA {qa}: the engine's feature layer is quantised by QA = {QA}, and rescaling integer \
         weights would lose precision; save l0w and l0b with quantise::<i16>({QA})"
    )]
    WrongQa {
        /// The QA given.
        qa: i32,
    },
    /// An output weight the engine's inference cannot multiply safely.
    #[error(
        "output weight {index} of bucket {bucket} is {value} at QB {qb}: the engine needs every \
         output weight within ±127 (its 16-bit multiply); train with the output weights clipped \
         to ±{limit:.3} (bullet's AdamW clips to ±1.98, enough for QB 64) or quantise l1w with \
         a smaller QB"
    )]
    OutputWeightOutOfRange {
        /// The bucket.
        bucket: usize,
        /// Its index in the bucket (the side to move's half first).
        index: usize,
        /// The weight.
        value: i16,
        /// The QB given.
        qb: i32,
        /// The largest float weight QB allows.
        limit: f64,
    },
    /// An output bias that bullet's `i16` `l1b` cannot hold.
    #[error(
        "output bias of bucket {bucket} is {value} (QA*QB = {units} units): bullet saves l1b as \
         i16 (-32768 to 32767); a net with a smaller QB fits"
    )]
    BiasOutOfRange {
        /// The bucket.
        bucket: usize,
        /// The bias.
        value: i32,
        /// QA*QB of the net.
        units: i32,
    },
    /// A net with king buckets or mirroring: bullet's bucketed inputs
    /// (`ChessBucketsMirrored`) number their rows in another order, which
    /// this conversion does not yet map.
    #[error(
        "the net has {buckets} king buckets without mirroring: bullet's unmirrored \
         `ChessBuckets` is not mapped; nets with 768 inputs or a mirrored layout \
         (`ChessBucketsMirrored`) convert"
    )]
    UnmirroredKingBuckets {
        /// The net's king buckets.
        buckets: usize,
    },
    /// The imported net's scores are far from the hand-crafted
    /// evaluation's scale: most likely the wrong QB.
    #[error(
        "its scores are {ratio:.2}x the hand-crafted evaluation's on positions with a clear \
         material edge (a trained net imported as it was quantised gives 1.1x to 1.5x){}; give the QB \
         bullet saved l1w with (--qb), or --no-scale-check to import it anyway",
        match likely {
            Some(q) if *q != *qb => format!(": it looks quantised with QB {q}, not --qb {qb}"),
            _ => ": no QB explains that; is the net trained, and to this --scale?".to_string(),
        }
    )]
    WrongScale {
        /// Net scores over hand-crafted scores, least squares.
        ratio: f64,
        /// The QB given.
        qb: i32,
        /// The QB that would give about 1x.
        likely: Option<i32>,
    },
    /// The weights do not make an engine network.
    #[error(transparent)]
    Net(#[from] NetError),
}

/// Refuses king buckets that neither `Chess768` nor `ChessBucketsMirrored`
/// has.
fn bullet_inputs(inputs: &InputBuckets) -> Result<(), BulletNetError> {
    if inputs.count() > 1 && !inputs.mirrors() {
        Err(BulletNetError::UnmirroredKingBuckets {
            buckets: inputs.count(),
        })
    } else {
        Ok(())
    }
}

/// The feature rows in the other runner's order: with mirroring, rows `i`
/// and `i ^ 7` swapped (see the module's notes); an involution, so the same
/// call converts both ways.
fn reorder_rows<T: Copy>(weights: &[T], hidden: usize, inputs: &InputBuckets) -> Vec<T> {
    if !inputs.mirrors() {
        return weights.to_vec();
    }
    let mut out = Vec::with_capacity(weights.len());
    for row in 0..weights.len() / hidden {
        let from = (row ^ 7) * hidden;
        out.extend_from_slice(&weights[from..from + hidden]);
    }
    out
}

/// The 32-square layout `ChessBucketsMirrored::new` takes for `inputs`
/// (files a-d of each rank, the first rank first).
pub fn bullet_layout(inputs: &InputBuckets) -> [u8; 32] {
    let mut layout = [0u8; 32];
    for (i, bucket) in layout.iter_mut().enumerate() {
        *bucket = inputs.map()[(i / 4) * 8 + i % 4];
    }
    layout
}

/// The length of the weights of a 768->Hx2->B net, before padding.
pub const fn unpadded_len(hidden: usize, buckets: usize) -> u64 {
    weights_len(hidden, buckets, 1)
}

/// The same with `king_buckets` sets of 768 inputs.
pub const fn weights_len(hidden: usize, buckets: usize, king_buckets: usize) -> u64 {
    (2 * (INPUTS * king_buckets * hidden + hidden + 2 * hidden * buckets + buckets)) as u64
}

/// The length of the same padded as bullet pads it.
pub const fn padded_len(hidden: usize, buckets: usize) -> u64 {
    unpadded_len(hidden, buckets).next_multiple_of(ALIGN)
}

/// The shapes (hidden size a multiple of 32 up to the engine's largest, 1
/// to 8 buckets) whose bullet file, padded or not, is `len` bytes long.
pub fn shapes_of_len(len: u64) -> Vec<(usize, usize)> {
    let mut shapes = Vec::new();
    for hidden in (HIDDEN_ALIGN..=MAX_HIDDEN).step_by(HIDDEN_ALIGN) {
        for buckets in 1..=MAX_BUCKETS {
            if len == unpadded_len(hidden, buckets) || len == padded_len(hidden, buckets) {
                shapes.push((hidden, buckets));
            }
        }
    }
    shapes
}

/// The shapes in words, for a message: "768->256x2->8" and so on.
fn describe_shapes(shapes: &[(usize, usize)]) -> String {
    shapes
        .iter()
        .map(|&(h, b)| format!("768->{h}x2->{b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a net that bullet quantised with `shape`: the file's length, its
/// padding, QA and the output weights' range are checked, and the output
/// weights put in the engine's order. Never panics.
pub fn import(bytes: &[u8], shape: &BulletShape) -> Result<Network, BulletNetError> {
    let (hidden, buckets) = (shape.hidden, shape.buckets);
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_ALIGN) {
        return Err(NetError::BadHiddenSize {
            found: hidden.min(u32::MAX as usize) as u32,
        }
        .into());
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(NetError::BadOutputBuckets {
            found: buckets.min(u32::MAX as usize) as u32,
        }
        .into());
    }
    if shape.qa != QA {
        return Err(BulletNetError::WrongQa { qa: shape.qa });
    }
    bullet_inputs(&shape.inputs)?;
    let expected = weights_len(hidden, buckets, shape.inputs.count());
    let padded = expected.next_multiple_of(ALIGN);
    let found = bytes.len() as u64;
    if found != expected && found != padded {
        let fits = shapes_of_len(found);
        let hint = if fits.is_empty() {
            "; no 768->Hx2->B shape (H a multiple of 32 up to 1024, B 1 to 8) is that long".into()
        } else {
            format!(
                "; that length fits {}: give --hidden and --output-buckets",
                describe_shapes(&fits)
            )
        };
        return Err(BulletNetError::WrongSize {
            found,
            hidden,
            buckets,
            expected,
            padded,
            hint,
        });
    }
    // Each byte of the padding is bullet's or a zero (older bullet).
    let (weights, padding) = bytes.split_at(expected as usize);
    if let Some(wrong) = padding
        .iter()
        .enumerate()
        .position(|(i, &b)| b != 0 && b != PADDING[i % PADDING.len()])
    {
        return Err(BulletNetError::BadPadding {
            at: expected + wrong as u64,
        });
    }
    let (l0w, rest) = weights.split_at(2 * shape.inputs.inputs() * hidden);
    let (l0b, rest) = rest.split_at(2 * hidden);
    let (saved, l1b) = rest.split_at(4 * hidden * buckets);
    let feature_weights = reorder_rows(&le_i16s(l0w), hidden, &shape.inputs);
    let (feature_bias, saved) = (le_i16s(l0b), le_i16s(saved));
    let output_bias: Vec<i32> = le_i16s(l1b).into_iter().map(i32::from).collect();
    let output_weights = match shape.order {
        OutputOrder::BucketMajor => saved,
        OutputOrder::InputMajor => (0..buckets)
            .flat_map(|b| (0..2 * hidden).map(move |j| (b, j)))
            .map(|(b, j)| saved[j * buckets + b])
            .collect(),
    };
    if let Some((at, &value)) = output_weights
        .iter()
        .enumerate()
        .find(|(_, w)| w.unsigned_abs() > 127)
    {
        return Err(BulletNetError::OutputWeightOutOfRange {
            bucket: at / (2 * hidden),
            index: at % (2 * hidden),
            value,
            qb: shape.qb,
            limit: 127.0 / f64::from(shape.qb.max(1)),
        });
    }
    Ok(Network::from_parts(
        shape.inputs,
        shape.activation,
        shape.scale,
        shape.qb,
        feature_weights,
        feature_bias,
        output_weights,
        output_bias,
    )?)
}

/// Little-endian `i16`s.
fn le_i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

/// Positions where one side is clearly ahead in material, from the start
/// position with pieces taken off, and a few middlegames: their scores fix
/// the scale of an evaluation (a net imported with the wrong QB scores
/// them a power of two too high or too low).
const SCALE_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1",
    "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQk - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1",
    "rnbqk1nr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/ppp2ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PP3PPP/RNBQKBNR b KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 9",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/3BPN2/PP3PPP/R2QK2R w KQ - 0 9",
    "r1b2rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 9",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "3r2k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
    "6k1/5ppp/8/8/8/2N5/5PPP/6K1 b - - 0 1",
];

/// A net's scores against the hand-crafted evaluation's on
/// [`SCALE_POSITIONS`]: the least-squares factor `net ≈ ratio *
/// hand-crafted`. About 1 for a net imported with the QB it was quantised
/// with; a wrong QB multiplies it by the ratio of the two.
pub fn scale_ratio(net: &Network) -> f64 {
    let (mut cross, mut square) = (0.0f64, 0.0f64);
    for fen in SCALE_POSITIONS {
        let pos = chess::Position::from_fen(fen).expect("the scale positions are legal");
        let hand = f64::from(engine::eval::evaluate(&pos));
        let ours = f64::from(engine::eval::nnue::evaluate_position(net, &pos));
        cross += ours * hand;
        square += hand * hand;
    }
    cross / square.max(1.0)
}

/// The ratio [`scale_ratio`] may take for an import to be believed: a
/// factor of two either way (a wrong QB is a power of two, 4x for 64
/// against 256).
pub const SCALE_RATIO_RANGE: std::ops::RangeInclusive<f64> = 0.5..=2.0;

/// Checks an imported net's scale ([`scale_ratio`]); the QB that would
/// bring it nearest 1 when it is off.
pub fn check_scale(net: &Network, qb: i32) -> Result<f64, BulletNetError> {
    check_scale_ratio(scale_ratio(net), qb)
}

/// [`check_scale`] on a measured factor.
fn check_scale_ratio(ratio: f64, qb: i32) -> Result<f64, BulletNetError> {
    if SCALE_RATIO_RANGE.contains(&ratio) {
        return Ok(ratio);
    }
    // A net's scores are proportional to QB_true / QB_given, so --qb q
    // would give ratio * qb / q: the power of two that brings it nearest
    // what trained nets give (1.1x-1.5x: Kestrel's own 1.12x-1.15x, bullet's
    // 1.45x), and into the range, names the likely QB.
    const TRAINED: f64 = 1.3;
    let likely = (ratio.is_finite() && ratio > 0.0)
        .then(|| {
            (4..=MAX_QB.ilog2())
                .map(|bits| 1i32 << bits)
                .map(|q| (q, ratio * f64::from(qb) / f64::from(q)))
                .filter(|(_, r)| SCALE_RATIO_RANGE.contains(r))
                .min_by(|a, b| {
                    let off = |r: f64| (r / TRAINED).log2().abs();
                    off(a.1).total_cmp(&off(b.1))
                })
                .map(|(q, _)| q)
        })
        .flatten();
    Err(BulletNetError::WrongScale { ratio, qb, likely })
}

/// `net` in bullet's quantised layout with `l1w` in `order`, padded as
/// bullet pads: the file [`import`] reads back into `net` (given the net's
/// own hidden size, activation, buckets, QB and scale). Refused when an
/// output bias does not fit bullet's `i16`, and for unmirrored king buckets.
pub fn export(net: &Network, order: OutputOrder) -> Result<Vec<u8>, BulletNetError> {
    bullet_inputs(net.input_buckets())?;
    let (hidden, buckets) = (net.hidden(), net.output_buckets());
    let mut biases = Vec::with_capacity(buckets);
    for bucket in 0..buckets {
        let value = net.output_bias(bucket);
        let Ok(b) = i16::try_from(value) else {
            return Err(BulletNetError::BiasOutOfRange {
                bucket,
                value,
                units: QA * net.qb(),
            });
        };
        biases.push(b);
    }
    let mut out = Vec::new();
    let mut put = |w: i16| out.extend_from_slice(&w.to_le_bytes());
    reorder_rows(net.feature_weights(), hidden, net.input_buckets())
        .into_iter()
        .for_each(&mut put);
    net.feature_bias().iter().for_each(|&w| put(w));
    for w in output_weights(net, order) {
        put(w);
    }
    biases.into_iter().for_each(put);
    let pad = out.len().next_multiple_of(ALIGN as usize) - out.len();
    out.extend(PADDING.iter().cycle().take(pad));
    Ok(out)
}

/// The output weights of `net` in `order`.
fn output_weights(net: &Network, order: OutputOrder) -> Vec<i16> {
    let (hidden, buckets) = (net.hidden(), net.output_buckets());
    let bucket = |b: usize| {
        let (ours, theirs) = net.output_weights(b);
        ours.iter().chain(theirs).copied().collect::<Vec<i16>>()
    };
    match order {
        OutputOrder::BucketMajor => (0..buckets).flat_map(bucket).collect(),
        OutputOrder::InputMajor => {
            let all: Vec<Vec<i16>> = (0..buckets).map(bucket).collect();
            (0..2 * hidden)
                .flat_map(|j| all.iter().map(move |row| row[j]))
                .collect()
        }
    }
}

/// `net` as bullet's float `weights.bin` (what bullet's
/// `load_weights_from_file` reads, and `optimiser_state/weights.bin` of a
/// checkpoint holds), to go on training the net in bullet: every integer
/// divided by its quantisation. Saved again by bullet with `.round()` and
/// the same QA and QB, the untrained net gives back these integers.
/// Refused for unmirrored king buckets. A king-bucketed net's `l0w` holds
/// the factoriser merged in: a bullet config with a factoriser starts
/// `l0f` at zero (`InitSettings::Zeroed`, as bullet's example does), which
/// this file leaves alone (bullet refuses names it does not have).
pub fn export_weights(net: &Network) -> Result<Vec<u8>, BulletNetError> {
    bullet_inputs(net.input_buckets())?;
    let (qa, qb) = (QA as f32, net.qb() as f32);
    let buckets = net.output_buckets();
    let l0w: Vec<f32> = reorder_rows(net.feature_weights(), net.hidden(), net.input_buckets())
        .iter()
        .map(|&w| f32::from(w) / qa)
        .collect();
    let l0b: Vec<f32> = net
        .feature_bias()
        .iter()
        .map(|&w| f32::from(w) / qa)
        .collect();
    let l1w: Vec<f32> = output_weights(net, OutputOrder::InputMajor)
        .into_iter()
        .map(|w| f32::from(w) / qb)
        .collect();
    let l1b: Vec<f32> = (0..buckets)
        .map(|b| net.output_bias(b) as f32 / (qa * qb))
        .collect();
    let mut out = Vec::new();
    // bullet keeps its weights in a BTreeMap: written in name order.
    for (id, values) in [("l0b", l0b), ("l0w", l0w), ("l1b", l1b), ("l1w", l1w)] {
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(&(values.len() as u64).to_le_bytes());
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
