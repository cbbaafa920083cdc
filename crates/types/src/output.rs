//! Files Kestrel writes for a user (a merged or converted data file, a
//! book, a network, a PGN, the store's manifest) are replaced whole or not
//! at all: the new contents go to a temporary file beside the target (on
//! Linux an unnamed one, which a kill leaves nothing of), are flushed to
//! the disk, and take the target's name in one rename. A command that
//! fails half way, or is killed, leaves the old file byte for byte.
//!
//! [`create`] gives the file to write into; nothing is visible at the path
//! until [`Output::commit`]. Dropping an `Output` without committing
//! discards what was written. In WebAssembly, which has no file system,
//! every write is refused.

use std::io::{self, Write};
use std::path::Path;

#[cfg(not(target_family = "wasm"))]
pub use atomic_write_file::AtomicWriteFile as Output;

/// A file being written (WebAssembly: none can be, so none exists).
#[cfg(target_family = "wasm")]
pub struct Output(std::convert::Infallible);

#[cfg(target_family = "wasm")]
impl Output {
    fn open(_: &Path) -> io::Result<Output> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "WebAssembly has no file system to write to",
        ))
    }

    /// Never called: no `Output` exists in WebAssembly.
    pub fn commit(self) -> io::Result<()> {
        match self.0 {}
    }
}

#[cfg(target_family = "wasm")]
impl Write for Output {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        match self.0 {}
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0 {}
    }
}

/// The file that will replace `path` (or create it) when committed.
///
/// Refuses at once (before anything is written) a `path` whose folder does
/// not exist or that names a folder.
pub fn create(path: &Path) -> io::Result<Output> {
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is a directory, not a file to write",
        ));
    }
    Output::open(path)
}

/// Writes `bytes` as the whole of `path`: [`std::fs::write`], atomically.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    let mut out = create(path)?;
    out.write_all(bytes.as_ref())?;
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kestrel-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    #[test]
    fn an_uncommitted_output_leaves_the_old_file_and_nothing_else() {
        let dir = scratch("discard");
        let path = dir.join("data.bin");
        std::fs::write(&path, b"old contents").expect("old file");
        {
            let mut out = create(&path).expect("output");
            out.write_all(b"half of the new").expect("write");
            // Dropped: a failure after writing part of the output.
        }
        assert_eq!(std::fs::read(&path).expect("read"), b"old contents");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["data.bin"], "no temporary file is left");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_committed_output_replaces_the_file() {
        let dir = scratch("commit");
        let path = dir.join("data.bin");
        std::fs::write(&path, b"old").expect("old file");
        write(&path, b"new contents").expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"new contents");
        write(&dir.join("fresh.bin"), b"x").expect("a new file");
        assert_eq!(std::fs::read(dir.join("fresh.bin")).expect("read"), b"x");
        let e = write(&dir, b"x").expect_err("a folder");
        assert!(e.to_string().contains("directory"), "{e}");
        let e = write(&dir.join("missing/x.bin"), b"x").expect_err("no folder");
        assert_eq!(e.kind(), io::ErrorKind::NotFound, "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
