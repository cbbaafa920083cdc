//! The network file format, and why a file is refused.
//!
//! A file is a header followed by the payload; every number is
//! little-endian. Version 1 (one output) has the 52-byte header below;
//! version 2 (output buckets) adds one field after it, 56 bytes in all;
//! version 3 (king input buckets, `input_buckets.rs`) two more, 124 bytes.
//!
//! | offset | size | field                                                  |
//! |-------:|-----:|--------------------------------------------------------|
//! | 0      | 8    | magic `KESTNNUE`                                       |
//! | 8      | 4    | format version (`FORMAT_VERSION`)                      |
//! | 12     | 4    | inputs per perspective (768)                           |
//! | 16     | 4    | hidden size H (a multiple of 32, at most `MAX_HIDDEN`) |
//! | 20     | 4    | activation: 0 CReLU, 1 SCReLU                          |
//! | 24     | 4    | QA, the feature-layer quantisation (255)               |
//! | 28     | 4    | QB, the output-layer quantisation (usually 64)         |
//! | 32     | 4    | scale from output to centipawns (e.g. 400)             |
//! | 36     | 8    | payload length in bytes                                |
//! | 44     | 8    | FNV-1a 64 hash of the payload                          |
//! | 52     | 4    | version 2 on: output buckets B (1 to `MAX_BUCKETS`)    |
//! | 56     | 4    | version 3: flags, bit 0 = mirror kings to files e-h    |
//! | 60     | 64   | version 3: the king bucket of each square, a1 first    |
//!
//! The payload: feature weights as `i16[K*768][H]` (one row of H per
//! input, bucket by bucket; K king buckets, the largest in the map plus
//! one, 1 before version 3),
//! feature biases `i16[H]`, output weights `i16[B][2H]` (per bucket, the
//! side to move's accumulator first), and the output biases `i32[B]` (in
//! QA*QB units). A version 1 file has B = 1. An output weight is at most
//! ±127 whatever QB is. The payload's length is therefore
//! `2 * (768KH + H + 2BH) + 4B` bytes. The bucket of a position is chosen by
//! its piece count (`output::output_bucket`).

use std::fmt;

use super::{InputBuckets, InputBucketsError};

/// Quantisation of the feature layer: a float weight `w` is stored as
/// `round(w * QA)`, and the activation clips at `QA` (float 1.0).
pub const QA: i32 = 255;
/// The usual quantisation of the output layer's weights. A file may use
/// another (`MAX_QB` at most): a net whose output weights are small keeps
/// more of their precision with a larger QB (see docs/nnue.md).
pub const QB: i32 = 64;
/// The largest output-layer quantisation a file may use: the output sum
/// (in QA*QA*QB units, 32 bits) then still holds outputs up to ±64, i.e.
/// ±25 600 cp at scale 400.
pub const MAX_QB: i32 = 512;
/// The largest hidden size an [`super::Accumulator`] holds.
pub const MAX_HIDDEN: usize = 1024;

/// The first eight bytes of every network file.
pub const MAGIC: [u8; 8] = *b"KESTNNUE";
/// The newest format version this code reads and writes (it reads every
/// older one too, and writes version 1 for a net with one output bucket so
/// that older builds keep reading it).
pub const FORMAT_VERSION: u32 = 3;
/// Bytes before the payload in a version 1 file; version 2 adds the bucket
/// count ([`header_len`]).
pub const HEADER_LEN: usize = 52;
/// The most output buckets a file may have (bullet's `MaterialCount<8>`).
pub const MAX_BUCKETS: usize = 8;

/// Bytes before the payload in a file of format `version` (1 to 3).
pub const fn header_len(version: u32) -> usize {
    match version {
        0 | 1 => HEADER_LEN,
        2 => HEADER_LEN + 4,
        _ => HEADER_LEN + 4 + 4 + 64,
    }
}

/// The oldest format version that holds a net with these buckets: 1 for
/// the plain one-output net (so that older builds keep reading it), 2 for
/// output buckets, 3 for king buckets or mirroring.
pub const fn version_for(output_buckets: usize, plain_inputs: bool) -> u32 {
    if !plain_inputs {
        3
    } else if output_buckets > 1 {
        2
    } else {
        1
    }
}

/// Why a network file (or a set of weights) was refused.
#[derive(Debug)]
pub enum NetError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Fewer bytes than a header.
    TooShort {
        /// Bytes present.
        len: usize,
    },
    /// The file does not start with `KESTNNUE`: not a Kestrel network.
    BadMagic {
        /// The first bytes found.
        found: [u8; 8],
    },
    /// A format version this build cannot read.
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// An input count other than 768.
    WrongInputs {
        /// The count in the file.
        found: u32,
    },
    /// A hidden size of 0, above `MAX_HIDDEN`, or not a multiple of 32.
    BadHiddenSize {
        /// The size in the file.
        found: u32,
    },
    /// An output-bucket count of 0 or above `MAX_BUCKETS`.
    BadOutputBuckets {
        /// The count in the file (or given).
        found: u32,
    },
    /// A king-bucket layout that cannot be.
    BadInputBuckets(InputBucketsError),
    /// Flag bits this build does not know (a newer format's feature).
    UnknownFlags {
        /// The flags in the file.
        found: u32,
    },
    /// An activation code this build does not know.
    UnknownActivation {
        /// The code in the file.
        found: u32,
    },
    /// A QA other than 255, or a QB outside 1 to `MAX_QB`.
    WrongQuantisation {
        /// QA in the file.
        qa: u32,
        /// QB in the file.
        qb: u32,
    },
    /// A scale of 0 or above 10 000.
    BadScale {
        /// The scale in the file.
        found: u32,
    },
    /// The payload has another length than the header's architecture needs
    /// (a truncated file, trailing bytes, or a header that lies).
    WrongPayloadLength {
        /// The length the architecture needs.
        expected: u64,
        /// The length stated in the header.
        stated: u64,
        /// The bytes actually present after the header.
        present: u64,
    },
    /// The payload's hash differs from the header's: the file is damaged.
    ChecksumMismatch {
        /// The hash in the header.
        stored: u64,
        /// The hash of the payload as read.
        computed: u64,
    },
    /// An output weight outside ±127: inference multiplies it by an
    /// activation of up to 255 in 16 bits, which would overflow.
    OutputWeightOutOfRange {
        /// Its index in the output layer.
        index: usize,
        /// Its value.
        value: i16,
    },
    /// Weight arrays whose lengths do not fit the hidden size.
    WrongArrayLength {
        /// Which array.
        what: &'static str,
        /// The length it needs.
        expected: usize,
        /// The length given.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read the network: {e}"),
            NetError::TooShort { len } => write!(
                f,
                "not a network: {len} bytes, fewer than the {HEADER_LEN}-byte header"
            ),
            NetError::BadMagic { found } => {
                write!(f, "not a Kestrel network: starts with bytes ")?;
                for b in found {
                    write!(f, "{b:02x}")?;
                }
                write!(f, ", not \"KESTNNUE\"")
            }
            NetError::UnsupportedVersion { found } => write!(
                f,
                "network format version {found}; this build reads versions 1 to {FORMAT_VERSION}"
            ),
            NetError::WrongInputs { found } => {
                write!(f, "network has {found} inputs per side; expected 768")
            }
            NetError::BadHiddenSize { found } => write!(
                f,
                "hidden size {found}: must be a positive multiple of 32, at most {MAX_HIDDEN}"
            ),
            NetError::BadOutputBuckets { found } => write!(
                f,
                "{found} output buckets: must be 1 to {MAX_BUCKETS}"
            ),
            NetError::BadInputBuckets(e) => write!(f, "{e}"),
            NetError::UnknownFlags { found } => write!(
                f,
                "header flags {found:#x}: this build knows only bit 0 (mirroring)"
            ),
            NetError::UnknownActivation { found } => write!(
                f,
                "unknown activation code {found} (0 CReLU, 1 SCReLU)"
            ),
            NetError::WrongQuantisation { qa, qb } => write!(
                f,
                "quantisation QA={qa} QB={qb}; this build needs QA={QA} and QB from 1 to {MAX_QB}"
            ),
            NetError::BadScale { found } => {
                write!(f, "output scale {found}: must be 1 to 10000")
            }
            NetError::WrongPayloadLength {
                expected,
                stated,
                present,
            } => write!(
                f,
                "payload of {present} bytes (header says {stated}); the architecture needs \
                 {expected}: the file is truncated or not what its header says"
            ),
            NetError::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch (header {stored:016x}, payload {computed:016x}): the file is damaged"
            ),
            NetError::OutputWeightOutOfRange { index, value } => write!(
                f,
                "output weight {index} is {value}, outside ±127"
            ),
            NetError::WrongArrayLength {
                what,
                expected,
                found,
            } => write!(f, "{what}: {found} values, expected {expected}"),
        }
    }
}

// No `source`: the system's error is part of the message already, so a
// chain printed with `{:#}` says it once, not twice.
impl std::error::Error for NetError {}

impl From<std::io::Error> for NetError {
    fn from(e: std::io::Error) -> NetError {
        NetError::Io(e)
    }
}

/// The FNV-1a 64-bit hash: simple, dependency-free, and enough to catch a
/// damaged or truncated file (it is not meant to resist forgery).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The header's fields, as numbers, unchecked ([`super::Network::from_bytes`]
/// checks them; `kestrel net info` prints them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version (1 to 3).
    pub version: u32,
    /// Inputs per perspective (768).
    pub inputs: u32,
    /// Hidden size H.
    pub hidden: u32,
    /// Activation code: 0 CReLU, 1 SCReLU.
    pub activation: u32,
    /// Feature-layer quantisation QA.
    pub qa: u32,
    /// Output-layer quantisation QB.
    pub qb: u32,
    /// Centipawns per unit of output.
    pub scale: u32,
    /// Payload length in bytes, as stated.
    pub payload_len: u64,
    /// FNV-1a 64 hash of the payload, as stated.
    pub checksum: u64,
    /// Output buckets: 1 in a version 1 file.
    pub buckets: u32,
    /// Flags (version 3): bit 0 mirrors kings to files e-h.
    pub flags: u32,
    /// The king bucket of each square (version 3; all 0 before).
    pub king_buckets: [u8; 64],
}

/// The flag bit that mirrors kings to files e-h.
pub const FLAG_MIRROR: u32 = 1;

impl Header {
    /// The king-bucket layout the header names.
    pub fn input_buckets(&self) -> Result<InputBuckets, NetError> {
        if self.flags & !FLAG_MIRROR != 0 {
            return Err(NetError::UnknownFlags { found: self.flags });
        }
        InputBuckets::new(self.king_buckets, self.flags & FLAG_MIRROR != 0)
            .map_err(NetError::BadInputBuckets)
    }
}

impl Header {
    /// Writes the header (`header_len(version)` bytes).
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&MAGIC);
        for v in [
            self.version,
            self.inputs,
            self.hidden,
            self.activation,
            self.qa,
            self.qb,
            self.scale,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.payload_len.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        if self.version >= 2 {
            out.extend_from_slice(&self.buckets.to_le_bytes());
        }
        if self.version >= 3 {
            out.extend_from_slice(&self.flags.to_le_bytes());
            out.extend_from_slice(&self.king_buckets);
        }
    }

    /// Reads the header from the start of `bytes` (magic and length checked
    /// here; the fields' values by the caller). A version 1 header reads as
    /// one bucket; a version 2 or 3 header needs its further bytes.
    pub fn read(bytes: &[u8]) -> Result<Header, NetError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetError::TooShort { len: bytes.len() });
        }
        let mut magic = [0u8; 8];
        magic.copy_from_slice(&bytes[..8]);
        if magic != MAGIC {
            return Err(NetError::BadMagic { found: magic });
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let u64_at = |at: usize| u64::from(u32_at(at)) | u64::from(u32_at(at + 4)) << 32;
        let version = u32_at(8);
        if matches!(version, 2 | 3) && bytes.len() < header_len(version) {
            return Err(NetError::TooShort { len: bytes.len() });
        }
        let buckets = if matches!(version, 2 | 3) {
            u32_at(HEADER_LEN)
        } else {
            1
        };
        let (flags, king_buckets) = if version == 3 {
            let mut map = [0u8; 64];
            map.copy_from_slice(&bytes[HEADER_LEN + 8..HEADER_LEN + 72]);
            (u32_at(HEADER_LEN + 4), map)
        } else {
            (0, [0u8; 64])
        };
        Ok(Header {
            version,
            buckets,
            flags,
            king_buckets,
            inputs: u32_at(12),
            hidden: u32_at(16),
            activation: u32_at(20),
            qa: u32_at(24),
            qb: u32_at(28),
            scale: u32_at(32),
            payload_len: u64_at(36),
            checksum: u64_at(44),
        })
    }
}

/// The payload length for hidden size `hidden`, `buckets` output buckets
/// and `king_buckets` king buckets.
pub(crate) const fn payload_len(hidden: usize, buckets: usize, king_buckets: usize) -> u64 {
    (2 * (super::INPUTS * king_buckets * hidden + hidden + 2 * buckets * hidden) + 4 * buckets)
        as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn header_round_trips() {
        let header = Header {
            version: 1,
            inputs: 768,
            hidden: 256,
            activation: 1,
            qa: 255,
            qb: 64,
            scale: 400,
            payload_len: 123_456_789_012,
            checksum: 0xdead_beef_0123_4567,
            buckets: 1,
            flags: 0,
            king_buckets: [0; 64],
        };
        let mut bytes = Vec::new();
        header.write(&mut bytes);
        assert_eq!(bytes.len(), HEADER_LEN);
        assert_eq!(Header::read(&bytes).unwrap(), header);
        let v2 = Header {
            version: 2,
            buckets: 8,
            ..header
        };
        let mut bytes = Vec::new();
        v2.write(&mut bytes);
        assert_eq!(bytes.len(), header_len(2));
        assert_eq!(Header::read(&bytes).unwrap(), v2);
        assert!(matches!(
            Header::read(&bytes[..HEADER_LEN + 2]),
            Err(NetError::TooShort { .. })
        ));
        let v3 = Header {
            version: 3,
            flags: FLAG_MIRROR,
            king_buckets: *InputBuckets::MIRROR4.map(),
            ..v2
        };
        let mut bytes = Vec::new();
        v3.write(&mut bytes);
        assert_eq!(bytes.len(), header_len(3));
        assert_eq!(Header::read(&bytes).unwrap(), v3);
        assert_eq!(v3.input_buckets().unwrap(), InputBuckets::MIRROR4);
        assert!(matches!(
            Header::read(&bytes[..header_len(3) - 1]),
            Err(NetError::TooShort { .. })
        ));
        let odd = Header { flags: 6, ..v3 };
        assert!(matches!(
            odd.input_buckets(),
            Err(NetError::UnknownFlags { found: 6 })
        ));
    }
}
