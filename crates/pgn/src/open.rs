//! Opening PGN input: a file (plain, gzip, zstd or bzip2, recognised by its
//! first bytes, not its name) or standard input (`-`).

use std::fs::File;
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

const BUFFER: usize = 1 << 16;

/// Wraps `reader` in the decompressor its first bytes call for.
pub fn decompress<R: Read + Send + 'static>(reader: R) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(BUFFER, reader);
    let kind = Compression::sniff(buffered.fill_buf()?);
    Ok(match kind {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUFFER,
            flate2::bufread::MultiGzDecoder::new(buffered),
        )),
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            BUFFER,
            bzip2::bufread::MultiBzDecoder::new(buffered),
        )),
        Compression::Zstd => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(buffered).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidData, format!("bad zstd stream: {e}"))
            })?;
            Box::new(BufReader::with_capacity(BUFFER, decoder))
        }
    })
}

/// Opens `path` for reading PGN (`-` is standard input), decompressing as needed.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return decompress(io::stdin());
    }
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display())))?;
    decompress(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PGN: &str = "[Event \"x\"]\n\n1. e4 e5 *\n";

    fn read_all(r: Box<dyn BufRead + Send>) -> String {
        let mut s = String::new();
        let mut r = r;
        r.read_to_string(&mut s).expect("decompress");
        s
    }

    #[test]
    fn plain_and_gzip_and_bzip2() {
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
    fn corrupt_zstd_is_an_error_not_a_panic() {
        let junk = vec![0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff];
        assert!(decompress(io::Cursor::new(junk)).is_err());
    }
}
