//! What a net file is (`kestrel net info`): a Kestrel network's header,
//! architecture, quantisation, size and hash; for any other file, why it
//! is not one, and which bullet shapes its length fits.

use std::fmt;

use engine::eval::nnue::{header_len, Activation, Header, NetError, Network, MAX_FILE_LEN};
use trainingdata::store::short_hash;

use crate::bullet;

/// The longest file `kestrel net` reads: a Kestrel net or a bullet one.
pub const MAX_LEN: u64 = if MAX_FILE_LEN > bullet::MAX_LEN {
    MAX_FILE_LEN
} else {
    bullet::MAX_LEN
};

/// What a file holds.
#[derive(Debug)]
pub enum NetKind {
    /// A Kestrel network that loads.
    Kestrel {
        /// Its header.
        header: Header,
        /// The network.
        network: Network,
    },
    /// A file with Kestrel's magic that the engine refuses.
    Damaged {
        /// Its header as read.
        header: Header,
        /// Why it is refused.
        error: NetError,
    },
    /// Not a Kestrel network at all.
    Foreign {
        /// Why (no magic, or too short).
        error: NetError,
        /// The 768->Hx2->B shapes whose bullet file has this length.
        bullet_shapes: Vec<(usize, usize)>,
    },
}

/// A net file described.
#[derive(Debug)]
pub struct NetInfo {
    /// Its length in bytes.
    pub len: u64,
    /// The first 16 hex digits of its SHA-256, as the self-play manifest
    /// names the network that played a shard.
    pub hash: String,
    /// What it is.
    pub kind: NetKind,
}

impl NetInfo {
    /// The refusal, when the file is not a network the engine loads.
    pub fn error(&self) -> Option<&NetError> {
        match &self.kind {
            NetKind::Kestrel { .. } => None,
            NetKind::Damaged { error, .. } | NetKind::Foreign { error, .. } => Some(error),
        }
    }
}

/// Describes the bytes of a file.
pub fn inspect(bytes: &[u8]) -> NetInfo {
    let kind = match Header::read(bytes) {
        Err(error) => NetKind::Foreign {
            error,
            bullet_shapes: bullet::shapes_of_len(bytes.len() as u64),
        },
        Ok(header) => match Network::from_bytes(bytes) {
            Ok(network) => NetKind::Kestrel { header, network },
            Err(error) => NetKind::Damaged { header, error },
        },
    };
    NetInfo {
        len: bytes.len() as u64,
        hash: short_hash(bytes),
        kind,
    }
}

/// The header's lines (shared by a good and a damaged file).
fn header_lines(f: &mut fmt::Formatter<'_>, h: &Header) -> fmt::Result {
    // The variants' names are the activations' usual spelling.
    let activation =
        Activation::from_code(h.activation).map_or("unknown".to_string(), |a| format!("{a:?}"));
    writeln!(f, "format        Kestrel NNUE, version {}", h.version)?;
    writeln!(
        f,
        "architecture  {}->{}x2->{}, {activation} (code {})",
        h.inputs, h.hidden, h.buckets, h.activation
    )?;
    match h.input_buckets() {
        Ok(inputs) if inputs.is_plain() => {
            writeln!(f, "inputs        768 a side, no king buckets")?;
        }
        Ok(inputs) => {
            writeln!(
                f,
                "inputs        768 a side in {} king bucket{}{}{}",
                inputs.count(),
                if inputs.count() == 1 { "" } else { "s" },
                if inputs.mirrors() {
                    ", mirrored (kings on files e-h)"
                } else {
                    ""
                },
                inputs
                    .name()
                    .map_or(String::new(), |n| format!(" (layout {n})"))
            )?;
            // The map as a board, the side's own first rank at the bottom.
            writeln!(
                f,
                "  king square's bucket, files a-h, as each side sees its board:"
            )?;
            for rank in (0..8).rev() {
                let row: Vec<String> = (0..8)
                    .map(|file| inputs.map()[rank * 8 + file].to_string())
                    .collect();
                writeln!(f, "  rank {}      {}", rank + 1, row.join(" "))?;
            }
        }
        Err(e) => writeln!(f, "inputs        refused: {e}")?,
    }
    let per_bucket = 32u32.div_ceil(h.buckets.max(1));
    writeln!(
        f,
        "output        {} bucket{} by piece count: (pieces - 2) / {per_bucket} (bullet's MaterialCount<{}>)",
        h.buckets,
        if h.buckets == 1 { "" } else { "s" },
        h.buckets
    )?;
    writeln!(
        f,
        "quantisation  QA {}, QB {}, output bias in QA*QB = {} units, scale {} cp per unit",
        h.qa,
        h.qb,
        u64::from(h.qa) * u64::from(h.qb),
        h.scale
    )?;
    writeln!(
        f,
        "payload       {} bytes after a {}-byte header, FNV-1a {:016x}",
        h.payload_len,
        header_len(h.version),
        h.checksum
    )
}

impl fmt::Display for NetInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            NetKind::Kestrel { header, .. } => header_lines(f, header)?,
            NetKind::Damaged { header, error } => {
                header_lines(f, header)?;
                writeln!(f, "refused       {error}")?;
            }
            NetKind::Foreign {
                error,
                bullet_shapes,
            } => {
                // The error says what the file is not.
                writeln!(f, "format        {error}")?;
                if bullet_shapes.is_empty() {
                    writeln!(
                        f,
                        "bullet        its length fits no bullet net of 768->Hx2->B (H a multiple of 32 up to 1024, B 1 to 8)"
                    )?;
                } else {
                    let shapes: Vec<String> = bullet_shapes
                        .iter()
                        .map(|(h, b)| {
                            format!("768->{h}x2->{b} (--hidden {h} --output-buckets {b})")
                        })
                        .collect();
                    writeln!(
                        f,
                        "bullet        its length fits bullet's quantised {}: `kestrel net import` reads it",
                        shapes.join(", ")
                    )?;
                }
            }
        }
        writeln!(f, "size          {} bytes", self.len)?;
        write!(
            f,
            "sha256        {} (first 16 hex digits, as the self-play manifest names nets)",
            self.hash
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::nnue::EMBEDDED_NET;

    #[test]
    fn the_built_in_net_is_described() {
        let info = inspect(EMBEDDED_NET);
        let text = info.to_string();
        assert!(info.error().is_none(), "{text}");
        assert_eq!(info.hash, short_hash(EMBEDDED_NET));
        assert_eq!(info.len, EMBEDDED_NET.len() as u64);
        let net = Network::from_bytes(EMBEDDED_NET).unwrap();
        let arch = format!("768->{}x2->{}", net.hidden(), net.output_buckets());
        assert!(text.contains(&arch), "{text}");
        assert!(text.contains(&format!("QB {}", net.qb())), "{text}");
        assert!(text.contains(&info.hash), "{text}");
    }

    #[test]
    fn king_buckets_are_described_with_their_map() {
        use crate::model::FloatNet;
        use engine::eval::nnue::InputBuckets;
        let float = FloatNet::new(32, Activation::SCReLU, 8, InputBuckets::MIRROR4, 3);
        let bytes = crate::quantise::quantise(&float, 400, 64)
            .unwrap()
            .to_bytes();
        let text = inspect(&bytes).to_string();
        assert!(text.contains("version 3"), "{text}");
        assert!(
            text.contains("4 king buckets, mirrored (kings on files e-h) (layout mirror4)"),
            "{text}"
        );
        assert!(text.contains("rank 1      0 0 1 1 1 1 0 0"), "{text}");
        assert!(text.contains("rank 8      3 3 3 3 3 3 3 3"), "{text}");
        assert!(inspect(EMBEDDED_NET)
            .to_string()
            .contains("no king buckets"));
    }

    #[test]
    fn damaged_and_foreign_files_say_what_they_are_not() {
        let mut damaged = EMBEDDED_NET.to_vec();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let info = inspect(&damaged);
        assert!(matches!(info.kind, NetKind::Damaged { .. }));
        assert!(info.to_string().contains("checksum"), "{info}");

        let info = inspect(b"hello, world");
        assert!(matches!(info.kind, NetKind::Foreign { .. }));
        assert!(info.to_string().contains("not a network"), "{info}");
        assert!(info.to_string().contains("fits no bullet net"), "{info}");

        // A file of a bullet net's length is named as one.
        let bytes = vec![0u8; bullet::padded_len(128, 8) as usize];
        let info = inspect(&bytes);
        let text = info.to_string();
        assert!(text.contains("not a Kestrel network"), "{text}");
        assert!(text.contains("768->128x2->8"), "{text}");
        assert!(text.contains("--hidden 128 --output-buckets 8"), "{text}");
    }
}
