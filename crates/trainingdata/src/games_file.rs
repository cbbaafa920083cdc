//! Games files of any of the three viriformat forms, by their names:
//! plain (`.vf`), zstd-compressed (`.vf.zst`) and the store's compact
//! shards (`.vfc.zst`, [`crate::compact`]), opened as one stream of games.

use std::io::{self, BufRead, Read};
use std::path::Path;

use crate::viriformat::{GameReadError, GameReader};

/// The most bytes a compressed shard may decompress to (a shard is a few
/// MB; this refuses a decompression bomb).
pub const MAX_DECOMPRESSED: u64 = 1 << 28;

/// Opens a games file for reading: viriformat (`.vf`), zstd-compressed
/// viriformat (`.vf.zst`) or compact viriformat (`.vfc.zst`, decoded in
/// memory: see [`crate::compact`]).
pub fn open_games(path: impl AsRef<Path>) -> Result<GameReader<Box<dyn BufRead>>, GameReadError> {
    let path = path.as_ref();
    let io_error = |source| GameReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // A device or FIFO named as a games file is refused at once.
    let file = types::file::open_regular(path, None).map_err(io_error)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let inner: Box<dyn BufRead> = if name.ends_with(".vfc.zst") {
        let mut bytes = Vec::new();
        zstd::Decoder::new(file)
            .map_err(io_error)?
            .take(MAX_DECOMPRESSED + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        if bytes.len() as u64 > MAX_DECOMPRESSED {
            return Err(io_error(io::Error::other(format!(
                "decompresses to more than {MAX_DECOMPRESSED} bytes: not a shard"
            ))));
        }
        let games = crate::compact::decode(&bytes).map_err(|e| io_error(io::Error::other(e)))?;
        let mut plain = Vec::new();
        for game in &games {
            game.write_to(&mut plain).map_err(io_error)?;
        }
        Box::new(io::Cursor::new(plain))
    } else if is_zstd(path) {
        Box::new(io::BufReader::new(
            zstd::Decoder::new(file)
                .map_err(io_error)?
                .take(MAX_DECOMPRESSED),
        ))
    } else {
        Box::new(io::BufReader::with_capacity(1 << 16, file))
    };
    Ok(GameReader::new(inner, path))
}

/// True for a name ending in `.zst`.
pub fn is_zstd(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

/// True for a games file name: `.vf`, `.vf.zst` or `.vfc.zst`.
pub fn is_viriformat(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".vf") || name.ends_with(".vf.zst") || name.ends_with(".vfc.zst")
}
