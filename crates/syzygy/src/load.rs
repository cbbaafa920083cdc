//! Finding table files: the directories of a `SyzygyPath`, each file checked
//! before use (name, size, magic bytes), and the set checked for tables
//! that the others need (a capture or a promotion leads into them). What is
//! wrong is reported file by file; everything usable is used.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Something wrong with the tables found, which the engine reports and
/// plays on without.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    /// A directory of the path cannot be listed.
    #[error("cannot read directory '{dir}': {source}")]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file named like a table is not one (truncated, damaged, unreadable).
    #[error("'{file}' is not usable: {reason}; it is skipped")]
    BadFile {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// A table needs another (reached by a capture or a promotion) that is
    /// not there: probes that need it fail and the search does without.
    #[error(
        "{table} needs {missing}, which is missing: positions that lead into it are not probed"
    )]
    MissingTable {
        /// The table that needs it.
        table: String,
        /// The one missing.
        missing: String,
    },
    /// A WDL table has no DTZ table: the root moves of that ending are
    /// ranked by WDL only.
    #[error("{table}.rtbw has no {table}.rtbz: its root moves are ranked without distances")]
    MissingDtz {
        /// The material, e.g. `KQvKR`.
        table: String,
    },
}

/// Why no table could be used at all.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The path names no table file.
    #[error("no Syzygy table (.rtbw/.rtbz) found in '{0}'")]
    NoTables(String),
}

/// The magic first bytes of WDL and DTZ files.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// A table file that passed the checks.
pub(crate) struct TableFile {
    pub path: PathBuf,
    /// The material, as in the name (`KQvKR`).
    pub material: String,
    /// True for `.rtbw`, false for `.rtbz`.
    pub wdl: bool,
}

/// The directories in a `SyzygyPath` value: separated as the platform
/// separates `PATH` entries (`:` on Unix, `;` on Windows); empty entries and
/// the UCI placeholder `<empty>` are skipped.
pub fn split_path(path: &str) -> Vec<PathBuf> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Vec::new();
    }
    std::env::split_paths(path)
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

/// `KQvKR` from a file stem, when it names a table: kings on both sides,
/// pieces from `KQRBNP`, at most 7 in all.
fn material_of(stem: &str) -> Option<String> {
    let (white, black) = stem.split_once('v')?;
    let side_ok = |s: &str| {
        s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c)) && !s[1..].contains('K')
    };
    (side_ok(white) && side_ok(black) && white.len() + black.len() <= 7).then(|| stem.to_string())
}

/// Checks one file: named like a table, a regular file, a plausible size,
/// the right magic.
/// `Ok(None)` for files that are not tables (ignored silently).
fn check_file(path: &Path) -> Result<Option<TableFile>, Problem> {
    let (Some(stem), Some(ext)) = (
        path.file_stem().and_then(|s| s.to_str()),
        path.extension().and_then(|s| s.to_str()),
    ) else {
        return Ok(None);
    };
    let wdl = match ext {
        "rtbw" => true,
        "rtbz" => false,
        _ => return Ok(None),
    };
    let Some(material) = material_of(stem) else {
        return Ok(None);
    };
    let bad = |reason: String| Problem::BadFile {
        file: path.to_path_buf(),
        reason,
    };
    // Only a regular file is opened: a FIFO's open would wait for a writer
    // for ever (and with it the engine, `quit` unread), a device's read
    // would not end.
    let mut file = types::file::open_regular(path, None).map_err(|e| bad(e.to_string()))?;
    let size = file.metadata().map_err(|e| bad(e.to_string()))?.len();
    // Every Syzygy file is 16 bytes of header plus 64-byte blocks.
    if size % 64 != 16 {
        return Err(bad(format!("its size ({size} bytes) is not a table's")));
    }
    let mut magic = [0u8; 4];
    file.read_exact(&mut magic)
        .map_err(|e| bad(e.to_string()))?;
    if magic != if wdl { WDL_MAGIC } else { DTZ_MAGIC } {
        return Err(bad("wrong magic bytes (damaged, or not a table)".into()));
    }
    Ok(Some(TableFile {
        path: path.to_path_buf(),
        material,
        wdl,
    }))
}

/// Every usable table file in the directories, and what is wrong.
pub(crate) fn scan(dirs: &[PathBuf]) -> (Vec<TableFile>, Vec<Problem>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for dir in dirs {
        let entries = match fs::read_dir(dir) {
            Ok(e) => e,
            Err(source) => {
                problems.push(Problem::Directory {
                    dir: dir.clone(),
                    source,
                });
                continue;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            match check_file(&path) {
                Ok(Some(f)) => files.push(f),
                Ok(None) => {}
                Err(p) => problems.push(p),
            }
        }
    }
    problems.extend(missing_tables(&files));
    (files, problems)
}

/// The materials one capture or one promotion away from `material`
/// (`KQvKR` -> `KQvK`, `KRvK`), leaving out bare kings (always a draw, no
/// table).
fn successors(material: &str) -> Vec<String> {
    let Some((white, black)) = material.split_once('v') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (us, them, us_first) in [(white, black, true), (black, white, false)] {
        let join = |a: String| {
            if us_first {
                format!("{a}v{them}")
            } else {
                format!("{them}v{a}")
            }
        };
        for (i, c) in us.char_indices().skip(1) {
            let without = format!("{}{}", &us[..i], &us[i + 1..]);
            out.push(join(without.clone()));
            if c == 'P' {
                for promoted in ['Q', 'R', 'B', 'N'] {
                    out.push(join(format!("{without}{promoted}")));
                }
            }
        }
    }
    out.retain(|m| m != "KvK");
    out
}

/// The canonical form of a material: both sides' pieces in the order
/// `KQRBNP`, the two sides in a fixed order (a table covers both colours).
fn canonical(material: &str) -> String {
    let order = |s: &str| {
        let mut v: Vec<char> = s.chars().collect();
        v.sort_by_key(|c| "KQRBNP".find(*c));
        v.into_iter().collect::<String>()
    };
    let (w, b) = material.split_once('v').unwrap_or((material, ""));
    let (w, b) = (order(w), order(b));
    if w <= b {
        format!("{w}v{b}")
    } else {
        format!("{b}v{w}")
    }
}

/// The usual name of a material: the stronger side first (`KRvK`, not `KvKR`).
fn display_name(material: &str) -> String {
    let value = |s: &str| -> u32 {
        s.chars()
            .map(|c| match c {
                'Q' => 9,
                'R' => 5,
                'B' | 'N' => 3,
                'P' => 1,
                _ => 0,
            })
            .sum()
    };
    match material.split_once('v') {
        Some((w, b)) if (value(b), b.len()) > (value(w), w.len()) => format!("{b}v{w}"),
        _ => material.to_string(),
    }
}

fn missing_tables(files: &[TableFile]) -> Vec<Problem> {
    let wdl: BTreeSet<String> = files
        .iter()
        .filter(|f| f.wdl)
        .map(|f| canonical(&f.material))
        .collect();
    let dtz: BTreeSet<String> = files
        .iter()
        .filter(|f| !f.wdl)
        .map(|f| canonical(&f.material))
        .collect();
    let mut problems = Vec::new();
    let mut reported = BTreeSet::new();
    for f in files.iter().filter(|f| f.wdl) {
        if !dtz.contains(&canonical(&f.material)) {
            problems.push(Problem::MissingDtz {
                table: f.material.clone(),
            });
        }
        for next in successors(&f.material) {
            if !wdl.contains(&canonical(&next)) && reported.insert(canonical(&next)) {
                problems.push(Problem::MissingTable {
                    table: f.material.clone(),
                    missing: display_name(&next),
                });
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_and_successors() {
        assert_eq!(material_of("KQvKR").as_deref(), Some("KQvKR"));
        assert_eq!(material_of("KQKvK"), None);
        assert_eq!(material_of("README"), None);
        assert_eq!(material_of("KQQQQQQvK"), None);
        let mut s = successors("KPvKR");
        s.sort();
        assert_eq!(s, ["KBvKR", "KNvKR", "KPvK", "KQvKR", "KRvKR", "KvKR"]);
        assert_eq!(successors("KQvK"), Vec::<String>::new());
        assert_eq!(canonical("KRvKQ"), canonical("KQvKR"));
        assert_eq!(canonical("KPQvK"), canonical("KQPvK"));
        assert_eq!(display_name("KvKR"), "KRvK");
        assert_eq!(display_name("KBvKR"), "KRvKB");
        assert_eq!(display_name("KQvKR"), "KQvKR");
    }

    #[test]
    fn path_splitting() {
        assert!(split_path("").is_empty());
        assert!(split_path("<empty>").is_empty());
        let sep = if cfg!(windows) { ";" } else { ":" };
        let dirs = split_path(&format!("/a{sep}{sep}/b c"));
        assert_eq!(dirs, [PathBuf::from("/a"), PathBuf::from("/b c")]);
    }
}
