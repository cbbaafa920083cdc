//! The quantised network: integer weights, loaded from and written to the
//! file format of `format.rs`.

use std::path::Path;

use chess::{Color, Square};

use super::format::{
    fnv1a64, header_len, payload_len, version_for, Header, FLAG_MIRROR, FORMAT_VERSION,
    MAX_BUCKETS, MAX_HIDDEN, MAX_QB, QA,
};
use super::{InputBuckets, KingView, NetError, HIDDEN_ALIGN, INPUTS, MAX_INPUT_BUCKETS};

/// The longest network file: the version 3 header and the payload of a
/// network of [`MAX_HIDDEN`] neurons, [`MAX_BUCKETS`] output buckets and
/// [`MAX_INPUT_BUCKETS`] king buckets.
pub const MAX_FILE_LEN: u64 =
    header_len(3) as u64 + payload_len(MAX_HIDDEN, MAX_BUCKETS, MAX_INPUT_BUCKETS);

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU: `clamp(x, 0, 1)²` (the usual choice: it lets a
    /// single layer express products).
    SCReLU,
}

impl Activation {
    /// Its code in the file header.
    pub fn code(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    /// The activation for a header code.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// Its name (`crelu` or `screlu`).
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }

    /// The activation for a name (case-insensitive).
    pub fn parse(text: &str) -> Option<Activation> {
        match text.trim().to_ascii_lowercase().as_str() {
            "crelu" => Some(Activation::CReLU),
            "screlu" => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// A quantised network. Immutable once built; share it between search
/// threads with an `Arc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    activation: Activation,
    scale: i32,
    qb: i32,
    /// The king buckets and mirroring of the feature layer.
    inputs: InputBuckets,
    /// `INPUTS` rows of `hidden` weights per king bucket, row `f` for
    /// input `f`.
    feature_weights: Box<[i16]>,
    feature_bias: Box<[i16]>,
    /// `2 * hidden` per output bucket: the side to move's half first, then
    /// the other side's.
    output_weights: Box<[i16]>,
    /// One per output bucket.
    output_bias: Box<[i32]>,
}

impl Network {
    /// A network from its quantised arrays (the trainer's quantiser calls
    /// this), checked the same way a file is. The output buckets are as
    /// many as `output_bias` has entries; `output_weights` holds `2 * H`
    /// per bucket; `feature_weights` holds `INPUTS` rows of H per king
    /// bucket of `inputs` (`InputBuckets::NONE` for the plain net).
    #[allow(clippy::too_many_arguments)] // each array of the file, in its order
    pub fn from_parts(
        inputs: InputBuckets,
        activation: Activation,
        scale: i32,
        qb: i32,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        let hidden = feature_bias.len();
        check_hidden(hidden as u64)?;
        let buckets = check_buckets(output_bias.len() as u64)?;
        if !(1..=10_000).contains(&scale) {
            return Err(NetError::BadScale {
                found: scale as u32,
            });
        }
        for (what, expected, found) in [
            (
                "feature weights",
                inputs.inputs() * hidden,
                feature_weights.len(),
            ),
            ("output weights", 2 * hidden * buckets, output_weights.len()),
        ] {
            if expected != found {
                return Err(NetError::WrongArrayLength {
                    what,
                    expected,
                    found,
                });
            }
        }
        if let Some((index, &value)) = output_weights
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > 127)
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        if !(1..=MAX_QB).contains(&qb) {
            return Err(NetError::WrongQuantisation {
                qa: QA as u32,
                qb: qb as u32,
            });
        }
        Ok(Network {
            hidden,
            activation,
            scale,
            qb,
            inputs,
            feature_weights: feature_weights.into_boxed_slice(),
            feature_bias: feature_bias.into_boxed_slice(),
            output_weights: output_weights.into_boxed_slice(),
            output_bias: output_bias.into_boxed_slice(),
        })
    }

    /// Reads a network file; any defect is a [`NetError`] saying what is
    /// wrong, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let header = Header::read(bytes)?;
        if !(1..=FORMAT_VERSION).contains(&header.version) {
            return Err(NetError::UnsupportedVersion {
                found: header.version,
            });
        }
        if header.inputs as usize != INPUTS {
            return Err(NetError::WrongInputs {
                found: header.inputs,
            });
        }
        let hidden = check_hidden(u64::from(header.hidden))?;
        let activation =
            Activation::from_code(header.activation).ok_or(NetError::UnknownActivation {
                found: header.activation,
            })?;
        if header.qa != QA as u32 || !(1..=MAX_QB as u32).contains(&header.qb) {
            return Err(NetError::WrongQuantisation {
                qa: header.qa,
                qb: header.qb,
            });
        }
        if !(1..=10_000).contains(&header.scale) {
            return Err(NetError::BadScale {
                found: header.scale,
            });
        }
        let buckets = check_buckets(u64::from(header.buckets))?;
        let inputs = header.input_buckets()?;
        let payload = &bytes[header_len(header.version)..];
        let expected = payload_len(hidden, buckets, inputs.count());
        if header.payload_len != expected || payload.len() as u64 != expected {
            return Err(NetError::WrongPayloadLength {
                expected,
                stated: header.payload_len,
                present: payload.len() as u64,
            });
        }
        let computed = fnv1a64(payload);
        if computed != header.checksum {
            return Err(NetError::ChecksumMismatch {
                stored: header.checksum,
                computed,
            });
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(inputs.inputs() * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden * buckets);
        let output_bias = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Network::from_parts(
            inputs,
            activation,
            header.scale as i32,
            header.qb as i32,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// Reads a network file from disk: a regular file of at most
    /// [`MAX_FILE_LEN`] bytes (a device, a FIFO or a longer file is refused
    /// unread).
    pub fn from_file(path: &Path) -> Result<Network, NetError> {
        Network::from_bytes(&types::file::read_regular(path, MAX_FILE_LEN)?)
    }

    /// The network in the file format, in the oldest version that holds it
    /// (so that older builds read what they can): 1 for one output bucket,
    /// 2 for more, 3 for king buckets or mirroring.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.output_buckets();
        let version = version_for(buckets, self.inputs.is_plain());
        debug_assert!(version <= FORMAT_VERSION);
        let mut payload =
            Vec::with_capacity(payload_len(self.hidden, buckets, self.inputs.count()) as usize);
        for w in self
            .feature_weights
            .iter()
            .chain(self.feature_bias.iter())
            .chain(self.output_weights.iter())
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let header = Header {
            version,
            buckets: buckets as u32,
            inputs: INPUTS as u32,
            hidden: self.hidden as u32,
            activation: self.activation.code(),
            qa: QA as u32,
            qb: self.qb as u32,
            scale: self.scale as u32,
            payload_len: payload.len() as u64,
            checksum: fnv1a64(&payload),
            flags: if self.inputs.mirrors() {
                FLAG_MIRROR
            } else {
                0
            },
            king_buckets: *self.inputs.map(),
        };
        let mut bytes = Vec::with_capacity(header_len(version) + payload.len());
        header.write(&mut bytes);
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The architecture in words: `768->256x2->8 SCReLU` (king buckets
    /// as `768x4hm`, the `hm` for a mirrored layout), as `kestrel net` and
    /// `EvalFile`'s confirmation say it.
    pub fn shape(&self) -> String {
        let inputs = self.input_buckets();
        let kings = if inputs.is_plain() {
            String::new()
        } else {
            format!(
                "x{}{}",
                inputs.count(),
                if inputs.mirrors() { "hm" } else { "" }
            )
        };
        format!(
            "768{kings}->{}x2->{} {}",
            self.hidden(),
            self.output_buckets(),
            self.activation().name()
        )
    }

    /// The hidden size H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The scale from output to centipawns.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The output layer's quantisation (`QB` unless the trainer chose another).
    pub fn qb(&self) -> i32 {
        self.qb
    }

    /// The king buckets and mirroring of the feature layer.
    #[inline(always)]
    pub fn input_buckets(&self) -> &InputBuckets {
        &self.inputs
    }

    /// `perspective`'s choice of feature weights with its king on `king`.
    #[inline(always)]
    pub fn king_view(&self, perspective: Color, king: Square) -> KingView {
        self.inputs.view(perspective, king)
    }

    /// The `hidden` weights of input `feature`.
    #[inline(always)]
    pub(crate) fn feature_row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The feature weights: `INPUTS` rows of `hidden` per king bucket, row
    /// `f` for input `f` (the trainer starts from them when it fine-tunes a net).
    pub fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    /// The feature layer's biases.
    #[inline(always)]
    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// The number of output buckets (1 to 8).
    #[inline(always)]
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Output bucket `bucket`'s weights: side to move's half, then the
    /// other side's. Panics if `bucket` is not below
    /// [`Network::output_buckets`].
    #[inline(always)]
    pub fn output_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        let h = self.hidden;
        self.output_weights[2 * h * bucket..2 * h * (bucket + 1)].split_at(h)
    }

    /// Output bucket `bucket`'s bias in QA*qb units.
    #[inline(always)]
    pub fn output_bias(&self, bucket: usize) -> i32 {
        self.output_bias[bucket]
    }
}

/// `buckets` as a count if a file may have it.
fn check_buckets(buckets: u64) -> Result<usize, NetError> {
    if buckets == 0 || buckets > MAX_BUCKETS as u64 {
        return Err(NetError::BadOutputBuckets {
            found: buckets.min(u64::from(u32::MAX)) as u32,
        });
    }
    Ok(buckets as usize)
}

/// `hidden` as a size if it is one the accumulator can hold.
fn check_hidden(hidden: u64) -> Result<usize, NetError> {
    if hidden == 0 || hidden > MAX_HIDDEN as u64 || !hidden.is_multiple_of(HIDDEN_ALIGN as u64) {
        return Err(NetError::BadHiddenSize {
            found: hidden as u32,
        });
    }
    Ok(hidden as usize)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::format::{HEADER_LEN, QB};
    use super::*;
    use crate::strength::Rng;

    /// A network with random weights in the ranges a trained one has.
    pub(crate) fn random_network(hidden: usize, activation: Activation, seed: u64) -> Network {
        random_bucketed(hidden, activation, 1, seed)
    }

    /// The same with `buckets` output buckets.
    pub(crate) fn random_bucketed(
        hidden: usize,
        activation: Activation,
        buckets: usize,
        seed: u64,
    ) -> Network {
        random_with_inputs(InputBuckets::NONE, hidden, activation, buckets, seed)
    }

    /// The same with the king buckets `inputs`.
    pub(crate) fn random_with_inputs(
        inputs: InputBuckets,
        hidden: usize,
        activation: Activation,
        buckets: usize,
        seed: u64,
    ) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i64 - range as i64;
        let feature_weights = (0..inputs.inputs() * hidden)
            .map(|_| small(200) as i16)
            .collect();
        let feature_bias = (0..hidden).map(|_| small(300) as i16).collect();
        let output_weights = (0..2 * hidden * buckets)
            .map(|_| small(127) as i16)
            .collect();
        let output_bias = (0..buckets).map(|_| small(50_000) as i32).collect();
        Network::from_parts(
            inputs,
            activation,
            400,
            QB,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
        .unwrap()
    }

    impl Network {
        /// The same network read with another output quantisation.
        pub(crate) fn with_qb(mut self, qb: i32) -> Network {
            self.qb = qb;
            self
        }
    }

    fn good_file() -> Vec<u8> {
        random_network(64, Activation::SCReLU, 1).to_bytes()
    }

    /// Rewrites the checksum so that a header change is seen by its own check.
    fn rehash(bytes: &mut [u8]) {
        let sum = fnv1a64(&bytes[HEADER_LEN..]);
        bytes[44..52].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn file_round_trips() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let net = random_network(96, activation, 7);
            let bytes = net.to_bytes();
            assert_eq!(
                bytes.len() as u64,
                HEADER_LEN as u64 + payload_len(96, 1, 1)
            );
            assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
            let mut finer = net.clone();
            finer.qb = 256;
            assert_eq!(Network::from_bytes(&finer.to_bytes()).unwrap(), finer);
        }
    }

    #[test]
    fn bucketed_files_are_version_2_and_round_trip() {
        for buckets in [2, 8] {
            let net = random_bucketed(64, Activation::SCReLU, buckets, 5);
            let bytes = net.to_bytes();
            assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
            assert_eq!(
                bytes.len() as u64,
                header_len(2) as u64 + payload_len(64, buckets, 1)
            );
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back.output_buckets(), buckets);
            assert_eq!(back, net);
        }
        // One bucket is written as version 1, which older builds read.
        let one = random_bucketed(64, Activation::SCReLU, 1, 5).to_bytes();
        assert_eq!(&one[8..12], &1u32.to_le_bytes());
        assert_eq!(one.len(), HEADER_LEN + payload_len(64, 1, 1) as usize);
    }

    #[test]
    fn king_bucketed_files_are_version_3_and_round_trip() {
        for inputs in [InputBuckets::MIRROR, InputBuckets::MIRROR4] {
            for buckets in [1, 8] {
                let net = random_with_inputs(inputs, 64, Activation::SCReLU, buckets, 9);
                let bytes = net.to_bytes();
                assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
                assert_eq!(
                    bytes.len() as u64,
                    header_len(3) as u64 + payload_len(64, buckets, inputs.count())
                );
                let back = Network::from_bytes(&bytes).unwrap();
                assert_eq!(back.input_buckets(), &inputs);
                assert_eq!(back, net);
            }
        }
        // A map naming a fifth bucket does not fit a four-bucket payload.
        let mut bytes =
            random_with_inputs(InputBuckets::MIRROR4, 64, Activation::SCReLU, 1, 9).to_bytes();
        bytes[HEADER_LEN + 8 + 63] = 4;
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, NetError::WrongPayloadLength { .. }), "{err}");
        bytes[HEADER_LEN + 8 + 63] = 9; // buckets 4 to 8 unused
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(err.to_string().contains("used by no square"), "{err}");
    }

    /// A version 2 file with one bucket is the same network as the version
    /// 1 file: only the header differs.
    #[test]
    fn version_2_with_one_bucket_reads_as_version_1() {
        let v1 = good_file();
        let mut v2 = v1[..HEADER_LEN].to_vec();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&1u32.to_le_bytes());
        v2.extend_from_slice(&v1[HEADER_LEN..]);
        assert_eq!(
            Network::from_bytes(&v2).unwrap(),
            Network::from_bytes(&v1).unwrap()
        );
    }

    #[test]
    fn bad_bucket_counts_are_refused() {
        let good = random_bucketed(64, Activation::SCReLU, 8, 2).to_bytes();
        for (count, refused_by_count) in [(0u32, true), (9, true), (u32::MAX, true), (7, false)] {
            let mut bytes = good.clone();
            bytes[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&count.to_le_bytes());
            let err = Network::from_bytes(&bytes).unwrap_err();
            if refused_by_count {
                assert!(
                    matches!(err, NetError::BadOutputBuckets { found } if found == count),
                    "{count}: {err}"
                );
                assert!(err.to_string().contains("output buckets"), "{err}");
            } else {
                // A count in range that the payload does not match.
                assert!(matches!(err, NetError::WrongPayloadLength { .. }), "{err}");
            }
        }
        let parts = |buckets: usize| {
            Network::from_parts(
                InputBuckets::NONE,
                Activation::SCReLU,
                400,
                QB,
                vec![0; INPUTS * 32],
                vec![0; 32],
                vec![0; 64 * buckets],
                vec![0; buckets],
            )
        };
        assert!(matches!(
            parts(0),
            Err(NetError::BadOutputBuckets { found: 0 })
        ));
        assert!(matches!(
            parts(9),
            Err(NetError::BadOutputBuckets { found: 9 })
        ));
        assert_eq!(parts(8).unwrap().output_buckets(), 8);
    }

    #[test]
    fn wrong_magic_is_refused() {
        let mut bytes = good_file();
        bytes[0] = b'X';
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::BadMagic { .. })
        ));
    }

    #[test]
    fn wrong_version_is_refused() {
        let mut bytes = good_file();
        bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, NetError::UnsupportedVersion { found: 4 }));
        assert!(err.to_string().contains("version 4"));
        bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::UnsupportedVersion { found: 0 })
        ));
    }

    #[test]
    fn truncated_files_are_refused_at_every_length() {
        let bytes = good_file();
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            let err = Network::from_bytes(&bytes[..len]).unwrap_err();
            if len < HEADER_LEN {
                assert!(matches!(err, NetError::TooShort { .. }), "{len}: {err}");
            } else {
                assert!(
                    matches!(err, NetError::WrongPayloadLength { .. }),
                    "{len}: {err}"
                );
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetError::WrongPayloadLength { .. })
        ));
    }

    #[test]
    fn damaged_payload_fails_the_checksum() {
        let mut bytes = good_file();
        let at = HEADER_LEN + 1000;
        bytes[at] ^= 0x10;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::ChecksumMismatch { .. })
        ));
    }

    #[test]
    fn wrong_sizes_and_constants_are_refused() {
        type Expect = fn(&NetError) -> bool;
        let cases: [(usize, u32, Expect); 7] = [
            (12, 769, |e| {
                matches!(e, NetError::WrongInputs { found: 769 })
            }),
            (16, 100, |e| {
                matches!(e, NetError::BadHiddenSize { found: 100 })
            }),
            (16, 2048, |e| matches!(e, NetError::BadHiddenSize { .. })),
            (16, 128, |e| {
                matches!(e, NetError::WrongPayloadLength { .. })
            }),
            (20, 9, |e| {
                matches!(e, NetError::UnknownActivation { found: 9 })
            }),
            (24, 127, |e| matches!(e, NetError::WrongQuantisation { .. })),
            (28, 0, |e| matches!(e, NetError::WrongQuantisation { .. })),
        ];
        for (offset, value, expected) in cases {
            let mut bytes = good_file();
            bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
            rehash(&mut bytes);
            let err = Network::from_bytes(&bytes).unwrap_err();
            assert!(expected(&err), "offset {offset} = {value}: {err}");
        }
        let mut bytes = good_file();
        bytes[32..36].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::BadScale { found: 0 })
        ));
    }

    #[test]
    fn oversized_output_weight_is_refused() {
        let mut bytes = good_file();
        let hidden = 64;
        let at = HEADER_LEN + 2 * (INPUTS * hidden + hidden + 3);
        bytes[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        rehash(&mut bytes);
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::OutputWeightOutOfRange {
                index: 3,
                value: 200
            })
        ));
    }

    /// Damaged files (cut short, bytes changed) are refused, never read as
    /// other weights: a short file by its length, a changed payload by its
    /// checksum. The header is outside the checksum, so a changed header
    /// byte may be accepted (a field the reader ignores, or a scale or QB
    /// still in range), but the weights read are then the file's own.
    #[test]
    fn damaged_files_are_refused_or_read_unchanged() {
        let mut rng = Rng::new(99);
        let good = good_file();
        let mut refused = 0;
        for _ in 0..2000 {
            let mut bytes = good.clone();
            // Half the trials keep the whole length, so that the checksum,
            // not the length check, has to catch the damage.
            if rng.next_u64().is_multiple_of(2) {
                let len = (rng.next_u64() as usize) % bytes.len();
                bytes.truncate(len);
            }
            for _ in 0..4 {
                if !bytes.is_empty() {
                    let at = rng.next_u64() as usize % bytes.len();
                    bytes[at] = rng.next_u64() as u8;
                }
            }
            let payload_changed =
                bytes.len() < HEADER_LEN || bytes[HEADER_LEN..] != good[HEADER_LEN..];
            match Network::from_bytes(&bytes) {
                Ok(net) => {
                    assert!(!payload_changed, "a damaged payload was accepted");
                    assert_eq!(
                        net.to_bytes()[HEADER_LEN..],
                        good[HEADER_LEN..],
                        "a file was read as other weights"
                    );
                }
                Err(e) => {
                    refused += 1;
                    if bytes.len() < good.len() && bytes.len() >= HEADER_LEN {
                        // Any header error may come first; a header that
                        // passes its checks leaves the length to refuse it.
                        assert!(
                            !matches!(e, NetError::ChecksumMismatch { .. }),
                            "a short file passed the length check: {e}"
                        );
                    }
                }
            }
        }
        // Nearly every trial changes the payload or the length.
        assert!(refused > 1500, "only {refused} of 2000 refused");
    }
}
