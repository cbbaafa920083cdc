//! Opening PGN input: a file (plain, gzip, zstd or bzip2, recognised by its
//! first bytes, not its name) or standard input (`-`). Each decompressor is a
//! cargo feature of this crate (`gzip`, `zstd`, `bzip2`, all on by default);
//! a compressed input whose feature is off is refused with
//! [`DecompressorMissing`], not read as text.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// How the input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (`.gz`).
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
    /// bzip2 (`.bz2`).
    Bzip2,
}

impl Compression {
    /// The cargo feature of the `pgn` crate that reads this compression
    /// (`None` for plain text, which needs none).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            Compression::None => None,
            Compression::Gzip => Some("gzip"),
            Compression::Zstd => Some("zstd"),
            Compression::Bzip2 => Some("bzip2"),
        }
    }

    /// Recognises the compression from the first bytes of a stream.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }
}

/// A compressed input whose decompressor this build leaves out. It comes
/// as the inner error of an [`io::Error`] of kind
/// [`io::ErrorKind::Unsupported`] (reach it with `get_ref` and
/// `downcast_ref`), so every reader reports it where it reports I/O errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the input is {feature}-compressed, but this build leaves out that decompressor: \
     build Kestrel with its `{feature}` feature (on by default: `cargo build --release` builds it), or decompress the file first"
)]
pub struct DecompressorMissing {
    /// The compression of the input.
    pub compression: Compression,
    /// The `pgn` feature that reads it.
    pub feature: &'static str,
}

const BUFFER: usize = 1 << 16;

/// Wraps `reader` in the decompressor its first bytes call for.
pub fn decompress<R: Read + Send + 'static>(reader: R) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(BUFFER, reader);
    let kind = Compression::sniff(buffered.fill_buf()?);
    Ok(match kind {
        Compression::None => Box::new(buffered),
        #[cfg(feature = "gzip")]
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUFFER,
            flate2::bufread::MultiGzDecoder::new(buffered),
        )),
        #[cfg(feature = "bzip2")]
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            BUFFER,
            bzip2::bufread::MultiBzDecoder::new(buffered),
        )),
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(buffered).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidData, format!("bad zstd stream: {e}"))
            })?;
            Box::new(BufReader::with_capacity(BUFFER, decoder))
        }
        #[allow(unreachable_patterns)] // with every feature on, all are matched above
        missing => return Err(decompressor_missing(missing)),
    })
}

/// The error for a compression this build cannot read.
fn decompressor_missing(compression: Compression) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        DecompressorMissing {
            compression,
            feature: compression.feature().unwrap_or_default(),
        },
    )
}

/// Opens `path` for reading PGN (`-` is standard input), decompressing as
/// needed: a regular file or a pipe. A device (`/dev/zero` would be read
/// for ever), a directory or a socket is refused at once.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return decompress(io::stdin());
    }
    let file = types::file::open_stream(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display())))?;
    decompress(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Event \"x\"]\n\n1. e4 e5 *\n";

    fn read_all(r: Box<dyn BufRead + Send>) -> String {
        let mut s = String::new();
        let mut r = r;
        r.read_to_string(&mut s).expect("decompress");
        s
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused_at_once() {
        for (path, what) in [("/dev/zero", "a character device"), ("/", "a directory")] {
            let Err(e) = open(Path::new(path)) else {
                panic!("{path} opened");
            };
            let text = e.to_string();
            assert!(text.contains(path) && text.contains(what), "{text}");
        }
    }

    #[test]
    #[cfg(all(feature = "gzip", feature = "bzip2"))]
    fn plain_and_gzip_and_bzip2() {
        use std::io::Write;
        assert_eq!(
            read_all(decompress(io::Cursor::new(PGN)).expect("plain")),
            PGN
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(PGN.as_bytes()).expect("gzip");
        let gz = gz.finish().expect("gzip");
        assert_eq!(read_all(decompress(io::Cursor::new(gz)).expect("gz")), PGN);
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(PGN.as_bytes()).expect("bzip2");
        let bz = bz.finish().expect("bzip2");
        assert_eq!(read_all(decompress(io::Cursor::new(bz)).expect("bz2")), PGN);
    }

    #[test]
    fn plain_needs_no_feature() {
        assert_eq!(
            read_all(decompress(io::Cursor::new(PGN)).expect("plain")),
            PGN
        );
        assert_eq!(Compression::None.feature(), None);
    }

    /// Built without a decompressor (`cargo test -p pgn --no-default-features`),
    /// its input is refused with the typed error naming the feature.
    #[test]
    #[cfg(not(all(feature = "gzip", feature = "zstd", feature = "bzip2")))]
    fn compressed_input_without_its_feature_is_refused() {
        let heads: [(&[u8], Compression, bool); 3] = [
            (
                &[0x1f, 0x8b, 8, 0],
                Compression::Gzip,
                cfg!(feature = "gzip"),
            ),
            (
                &[0x28, 0xb5, 0x2f, 0xfd],
                Compression::Zstd,
                cfg!(feature = "zstd"),
            ),
            (b"BZh9", Compression::Bzip2, cfg!(feature = "bzip2")),
        ];
        for (head, compression, built) in heads {
            if built {
                continue;
            }
            let Err(e) = decompress(io::Cursor::new(head.to_vec())) else {
                panic!("{compression:?} read without its feature");
            };
            assert_eq!(e.kind(), io::ErrorKind::Unsupported);
            let missing = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<DecompressorMissing>())
                .expect("the typed error");
            assert_eq!(missing.compression, compression);
            let feature = compression.feature().expect("compressed");
            assert_eq!(missing.feature, feature);
            assert!(
                e.to_string().contains(&format!("`{feature}` feature")),
                "{e}"
            );
        }
    }

    #[test]
    #[cfg(feature = "zstd")]
    fn corrupt_zstd_is_an_error_not_a_panic() {
        let junk = vec![0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff];
        assert!(decompress(io::Cursor::new(junk)).is_err());
    }
}
