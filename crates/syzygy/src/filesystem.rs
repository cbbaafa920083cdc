//! How table files are read. shakmaty-syzygy's default reader makes one
//! system call per read, and a probe reads a few bytes at a time: measured
//! on the 3-4 piece tables, ranking one root position took 232,341 `pread`
//! calls and 70 ms. Its faster reader maps files into memory, which needs
//! `unsafe` and turns an I/O error into a crash. This reader loads each
//! table whole into memory the first time it is used, when it is small (all
//! 3-5 piece tables are), and reads larger ones from the file: safe code,
//! no syscall per byte where it matters.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};

/// Tables up to this size are held in memory once used.
const IN_MEMORY_LIMIT: u64 = 64 << 20;

/// Reads small tables into memory, larger ones from the file.
#[derive(Debug, Default)]
pub struct CachingFilesystem;

impl Filesystem for CachingFilesystem {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        types::file::check_regular(path, None)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        // The file was checked when the tables were opened; it may have
        // been replaced since (by a FIFO, whose open would wait for ever).
        let file = types::file::open_regular(path, None)?;
        if file.metadata()?.len() <= IN_MEMORY_LIMIT {
            let mut bytes = Vec::new();
            // Never more than the limit, even from a file that grows.
            file.take(IN_MEMORY_LIMIT + 1).read_to_end(&mut bytes)?;
            if bytes.len() as u64 > IN_MEMORY_LIMIT {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the table grew while it was read",
                ));
            }
            Ok(Box::new(InMemory(bytes)))
        } else {
            Ok(Box::new(OnDisk(file)))
        }
    }
}

/// A table's bytes in memory: read into a buffer, or compiled in
/// (`embedded.rs`).
pub(crate) struct InMemory<B>(pub B);

impl<B: AsRef<[u8]> + Send + Sync> RandomAccessFile for InMemory<B> {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let bytes = self.0.as_ref();
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let n = buf.len().min(bytes.len() - start);
        buf[..n].copy_from_slice(&bytes[start..start + n]);
        Ok(n)
    }
}

struct OnDisk(File);

impl RandomAccessFile for OnDisk {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(&self.0, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(&self.0, buf, offset)
    }

    // WebAssembly in a browser: no file opens there, so none is read.
    #[cfg(not(any(unix, windows)))]
    fn read_at(&self, _buf: &mut [u8], _offset: u64, _hint: ReadHint) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "no positioned reads on this platform",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_the_end_return_what_is_there() {
        let f = InMemory(vec![1, 2, 3, 4]);
        let mut buf = [0u8; 3];
        assert_eq!(f.read_at(&mut buf, 2, ReadHint::Data).unwrap(), 2);
        assert_eq!(&buf[..2], &[3, 4]);
        assert_eq!(f.read_at(&mut buf, 9, ReadHint::Data).unwrap(), 0);
        assert_eq!(f.read_at(&mut buf, u64::MAX, ReadHint::Data).unwrap(), 0);
        assert!(f.read_exact_at(&mut buf, 3, ReadHint::Data).is_err());
    }
}
