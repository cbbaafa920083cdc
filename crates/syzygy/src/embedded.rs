//! The 3- and 4-piece tables compiled into Kestrel (`crates/syzygy/tables/`,
//! their source and licence in the README there): every ending of up to
//! four pieces, 4.4 MB, so that the GUI's tablebase panel (on the server
//! and in the static site's Worker) answers them with no set-up. They are
//! read in place from the program's own bytes: nothing is copied, nothing
//! is opened.

use std::io;
use std::path::{Path, PathBuf};

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile};

use crate::filesystem::InMemory;

/// Every table compiled in: its file name and its bytes.
pub const EMBEDDED: [(&str, &[u8]); 70] = [
    ("KBBvK.rtbw", include_bytes!("../tables/KBBvK.rtbw")),
    ("KBBvK.rtbz", include_bytes!("../tables/KBBvK.rtbz")),
    ("KBNvK.rtbw", include_bytes!("../tables/KBNvK.rtbw")),
    ("KBNvK.rtbz", include_bytes!("../tables/KBNvK.rtbz")),
    ("KBPvK.rtbw", include_bytes!("../tables/KBPvK.rtbw")),
    ("KBPvK.rtbz", include_bytes!("../tables/KBPvK.rtbz")),
    ("KBvK.rtbw", include_bytes!("../tables/KBvK.rtbw")),
    ("KBvK.rtbz", include_bytes!("../tables/KBvK.rtbz")),
    ("KBvKB.rtbw", include_bytes!("../tables/KBvKB.rtbw")),
    ("KBvKB.rtbz", include_bytes!("../tables/KBvKB.rtbz")),
    ("KBvKN.rtbw", include_bytes!("../tables/KBvKN.rtbw")),
    ("KBvKN.rtbz", include_bytes!("../tables/KBvKN.rtbz")),
    ("KBvKP.rtbw", include_bytes!("../tables/KBvKP.rtbw")),
    ("KBvKP.rtbz", include_bytes!("../tables/KBvKP.rtbz")),
    ("KNNvK.rtbw", include_bytes!("../tables/KNNvK.rtbw")),
    ("KNNvK.rtbz", include_bytes!("../tables/KNNvK.rtbz")),
    ("KNPvK.rtbw", include_bytes!("../tables/KNPvK.rtbw")),
    ("KNPvK.rtbz", include_bytes!("../tables/KNPvK.rtbz")),
    ("KNvK.rtbw", include_bytes!("../tables/KNvK.rtbw")),
    ("KNvK.rtbz", include_bytes!("../tables/KNvK.rtbz")),
    ("KNvKN.rtbw", include_bytes!("../tables/KNvKN.rtbw")),
    ("KNvKN.rtbz", include_bytes!("../tables/KNvKN.rtbz")),
    ("KNvKP.rtbw", include_bytes!("../tables/KNvKP.rtbw")),
    ("KNvKP.rtbz", include_bytes!("../tables/KNvKP.rtbz")),
    ("KPPvK.rtbw", include_bytes!("../tables/KPPvK.rtbw")),
    ("KPPvK.rtbz", include_bytes!("../tables/KPPvK.rtbz")),
    ("KPvK.rtbw", include_bytes!("../tables/KPvK.rtbw")),
    ("KPvK.rtbz", include_bytes!("../tables/KPvK.rtbz")),
    ("KPvKP.rtbw", include_bytes!("../tables/KPvKP.rtbw")),
    ("KPvKP.rtbz", include_bytes!("../tables/KPvKP.rtbz")),
    ("KQBvK.rtbw", include_bytes!("../tables/KQBvK.rtbw")),
    ("KQBvK.rtbz", include_bytes!("../tables/KQBvK.rtbz")),
    ("KQNvK.rtbw", include_bytes!("../tables/KQNvK.rtbw")),
    ("KQNvK.rtbz", include_bytes!("../tables/KQNvK.rtbz")),
    ("KQPvK.rtbw", include_bytes!("../tables/KQPvK.rtbw")),
    ("KQPvK.rtbz", include_bytes!("../tables/KQPvK.rtbz")),
    ("KQQvK.rtbw", include_bytes!("../tables/KQQvK.rtbw")),
    ("KQQvK.rtbz", include_bytes!("../tables/KQQvK.rtbz")),
    ("KQRvK.rtbw", include_bytes!("../tables/KQRvK.rtbw")),
    ("KQRvK.rtbz", include_bytes!("../tables/KQRvK.rtbz")),
    ("KQvK.rtbw", include_bytes!("../tables/KQvK.rtbw")),
    ("KQvK.rtbz", include_bytes!("../tables/KQvK.rtbz")),
    ("KQvKB.rtbw", include_bytes!("../tables/KQvKB.rtbw")),
    ("KQvKB.rtbz", include_bytes!("../tables/KQvKB.rtbz")),
    ("KQvKN.rtbw", include_bytes!("../tables/KQvKN.rtbw")),
    ("KQvKN.rtbz", include_bytes!("../tables/KQvKN.rtbz")),
    ("KQvKP.rtbw", include_bytes!("../tables/KQvKP.rtbw")),
    ("KQvKP.rtbz", include_bytes!("../tables/KQvKP.rtbz")),
    ("KQvKQ.rtbw", include_bytes!("../tables/KQvKQ.rtbw")),
    ("KQvKQ.rtbz", include_bytes!("../tables/KQvKQ.rtbz")),
    ("KQvKR.rtbw", include_bytes!("../tables/KQvKR.rtbw")),
    ("KQvKR.rtbz", include_bytes!("../tables/KQvKR.rtbz")),
    ("KRBvK.rtbw", include_bytes!("../tables/KRBvK.rtbw")),
    ("KRBvK.rtbz", include_bytes!("../tables/KRBvK.rtbz")),
    ("KRNvK.rtbw", include_bytes!("../tables/KRNvK.rtbw")),
    ("KRNvK.rtbz", include_bytes!("../tables/KRNvK.rtbz")),
    ("KRPvK.rtbw", include_bytes!("../tables/KRPvK.rtbw")),
    ("KRPvK.rtbz", include_bytes!("../tables/KRPvK.rtbz")),
    ("KRRvK.rtbw", include_bytes!("../tables/KRRvK.rtbw")),
    ("KRRvK.rtbz", include_bytes!("../tables/KRRvK.rtbz")),
    ("KRvK.rtbw", include_bytes!("../tables/KRvK.rtbw")),
    ("KRvK.rtbz", include_bytes!("../tables/KRvK.rtbz")),
    ("KRvKB.rtbw", include_bytes!("../tables/KRvKB.rtbw")),
    ("KRvKB.rtbz", include_bytes!("../tables/KRvKB.rtbz")),
    ("KRvKN.rtbw", include_bytes!("../tables/KRvKN.rtbw")),
    ("KRvKN.rtbz", include_bytes!("../tables/KRvKN.rtbz")),
    ("KRvKP.rtbw", include_bytes!("../tables/KRvKP.rtbw")),
    ("KRvKP.rtbz", include_bytes!("../tables/KRvKP.rtbz")),
    ("KRvKR.rtbw", include_bytes!("../tables/KRvKR.rtbw")),
    ("KRvKR.rtbz", include_bytes!("../tables/KRvKR.rtbz")),
];

/// The directory the compiled-in tables are named under (no such
/// directory exists: the names only find the bytes).
pub(crate) const EMBEDDED_DIR: &str = "(embedded)";

/// The largest number of pieces the compiled-in tables hold.
pub const EMBEDDED_PIECES: u32 = 4;

/// shakmaty-syzygy's view of the compiled-in tables, by file name.
#[derive(Debug, Default)]
pub(crate) struct EmbeddedFilesystem;

fn find(path: &Path) -> io::Result<&'static [u8]> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("{name} is not among the compiled-in tables"),
            )
        })
}

impl Filesystem for EmbeddedFilesystem {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        Ok(find(path)?.len() as u64)
    }

    fn read_dir(&self, _path: &Path) -> io::Result<Vec<PathBuf>> {
        Ok(EMBEDDED
            .iter()
            .map(|(name, _)| Path::new(EMBEDDED_DIR).join(name))
            .collect())
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        Ok(Box::new(InMemory(find(path)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_folder_is_compiled_in_and_read_back() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("the tables' folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".rtbw") || n.ends_with(".rtbz"))
            .collect();
        on_disk.sort();
        let embedded: Vec<String> = EMBEDDED.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(embedded, on_disk);
        for (name, bytes) in EMBEDDED {
            assert_eq!(
                std::fs::read(dir.join(name)).expect("readable"),
                bytes,
                "{name}"
            );
        }
    }
}
