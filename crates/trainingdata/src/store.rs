//! The self-play store: compressed viriformat shards in one folder of the
//! repository, and a manifest that says, for every shard, what played it
//! and what it holds.
//!
//! ```text
//! selfplay/
//!   manifest.json        every shard: file, seed, network, nodes, games, positions, bytes, sha256, date
//!   shards/*.vfc.zst     sealed shards (compact viriformat, zstd), committed as they are made
//!   incoming/*.vf        the shard being written (not committed; sealed on the next start)
//!   PAUSE                while this file exists, datagen waits (not committed)
//!   LOCK                 held by the one process writing the store (not committed)
//! ```
//!
//! A shard is written uncompressed into `incoming/`, a whole game at a
//! time, and sealed once it holds enough positions: compressed into
//! `shards/`, hashed, and added to the manifest. Every file the store
//! writes is replaced whole or not at all ([`types::output`]), so a kill
//! leaves the old manifest or the new one, never half of one.
//!
//! A store holds other people's data and takes in stores made elsewhere,
//! so nothing in a manifest is trusted: a shard's `file` must be a plain
//! shard name ([`is_shard_name`]) before anything is opened, shards are
//! copied in only from regular files and only as bytes (never a link or a
//! mode), and only one process writes a store at a time ([`Store::lock`]:
//! an OS lock the system releases when its holder dies).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use crate::compact;
use crate::games_file;
use crate::viriformat::{self, Game, GameReader};

/// The zstd level shards are sealed with (the measurements behind it are in
/// docs/training-data.md).
pub const ZSTD_LEVEL: i32 = 19;

/// The manifest's file name inside the store.
pub const MANIFEST: &str = "manifest.json";
/// The folder of sealed shards inside the store.
pub const SHARDS: &str = "shards";
/// The folder of the shard being written.
pub const INCOMING: &str = "incoming";
/// The pause file: datagen waits while it exists.
pub const PAUSE: &str = "PAUSE";
/// The lock file: the process writing the store holds an exclusive OS lock
/// on it and writes its pid and command into it.
pub const LOCK: &str = "LOCK";

/// The longest manifest read: 64 MiB (one entry is about 600 bytes, so
/// about a hundred thousand shards).
pub const MAX_MANIFEST_LEN: u64 = 64 << 20;

/// What played a shard: recorded when it is started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardOrigin {
    /// The seed of its games' random openings.
    pub seed: u64,
    /// The first 16 hex digits of the SHA-256 of the network that played it
    /// ("hce" for the hand-crafted evaluation).
    pub net: String,
    /// The soft node limit per move.
    pub nodes: u64,
    /// The Kestrel build that played it (`git describe`, or the version).
    pub kestrel: String,
    /// The command that played it, with every setting (openings, random
    /// plies, adjudication), so the shard can be made again.
    pub command: String,
}

/// One sealed shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardEntry {
    /// Its file name inside `shards/`: always a shard name
    /// ([`is_shard_name`]) in a manifest this module has read.
    pub file: String,
    /// What played it.
    #[serde(flatten)]
    pub origin: ShardOrigin,
    /// Games in it.
    pub games: u64,
    /// Positions in it (one per recorded move, before any filter).
    pub positions: u64,
    /// The compressed file's size in bytes.
    pub bytes: u64,
    /// The compressed file's SHA-256, hex.
    pub sha256: String,
    /// The UTC date it was sealed, `YYYY-MM-DD`.
    pub date: String,
    /// Set when the file was taken out of the working tree to keep it small
    /// (git history keeps it): the date and commit it was retired in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired: Option<String>,
}

/// The store's manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The format of the shards, for readers: always `viriformat`.
    pub format: String,
    /// Every shard ever sealed, oldest first.
    pub shards: Vec<ShardEntry>,
}

/// Why the store could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The manifest is not valid JSON of the expected shape.
    #[error("{path}: not a valid store manifest: {source}")]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What the parser said.
        source: serde_json::Error,
    },
    /// A manifest entry names something other than a shard in `shards/`
    /// (a path, a link name, a stray file): nothing of the store is used.
    #[error(
        "{path}: shard {index} is listed as '{file}', not a shard file name \
         (a shard is named like 2026-11-28-0123456789abcdef.vfc.zst, in the store's \
         shards/ folder): the manifest is damaged or not to be trusted, and nothing \
         was read or written"
    )]
    BadName {
        /// The manifest file.
        path: PathBuf,
        /// The entry's place in the manifest, from 0.
        index: usize,
        /// The name it gives, cut to 100 characters.
        file: String,
    },
    /// A manifest lists one shard twice.
    #[error("{path}: the shard {file} is listed twice: the manifest is damaged")]
    Twice {
        /// The manifest file.
        path: PathBuf,
        /// The shard.
        file: String,
    },
    /// Another process is writing the store.
    #[error(
        "{root} is in use by {holder}: one process writes a store at a time \
         (stop that one first: `kill -TERM PID` makes a datagen run seal its shard and end)"
    )]
    Locked {
        /// The store's folder.
        root: PathBuf,
        /// The holder as its lock file names it (`pid N: COMMAND`).
        holder: String,
    },
    /// A shard's games do not read back.
    #[error(transparent)]
    Games(#[from] viriformat::GameReadError),
    /// The folder named as a store has no manifest (a mistyped path would
    /// otherwise become an empty new store).
    #[error("{} has no {MANIFEST}: not a self-play store", root.display())]
    NotAStore {
        /// The folder.
        root: PathBuf,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `name` is a shard's file name, `YYYY-MM-DD-` and 16 lowercase
/// hex digits (the seed) with `.vfc.zst` (or `.vf.zst`, the first shards'):
/// a plain name inside `shards/`, never a path, `..` or a hidden file.
pub fn is_shard_name(name: &str) -> bool {
    name.strip_suffix(".vfc.zst")
        .or_else(|| name.strip_suffix(".vf.zst"))
        .is_some_and(is_shard_stem)
}

/// Whether `stem` is `YYYY-MM-DD-` and 16 lowercase hex digits.
fn is_shard_stem(stem: &str) -> bool {
    let b = stem.as_bytes();
    b.len() == 27
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 | 10 => c == b'-',
            0..=9 => c.is_ascii_digit(),
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

/// At most `max` characters of `text` (for messages about hostile input).
fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

impl Manifest {
    /// Checks every entry's file name ([`is_shard_name`]) and that none is
    /// listed twice; `path` is the manifest's, for the message.
    pub fn check(&self, path: &Path) -> Result<(), StoreError> {
        let mut seen = std::collections::HashSet::new();
        for (index, shard) in self.shards.iter().enumerate() {
            if !is_shard_name(&shard.file) {
                return Err(StoreError::BadName {
                    path: path.to_path_buf(),
                    index,
                    file: excerpt(&shard.file, 100),
                });
            }
            if !seen.insert(shard.file.as_str()) {
                return Err(StoreError::Twice {
                    path: path.to_path_buf(),
                    file: shard.file.clone(),
                });
            }
        }
        Ok(())
    }

    /// Parses a manifest's text and [checks](Manifest::check) it.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Manifest, StoreError> {
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|source| StoreError::Manifest {
                path: path.to_path_buf(),
                source,
            })?;
        manifest.check(path)?;
        Ok(manifest)
    }
}

/// A store folder, to read. Writing takes the store's lock: [`Store::lock`].
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store at `root` (created with its folders when missing).
    pub fn open(root: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let store = Store { root: root.into() };
        for dir in [store.root.clone(), store.shard_dir(), store.incoming_dir()] {
            fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        }
        Ok(store)
    }

    /// The store at `root`, refused when it has no manifest: for the
    /// commands that read or change a store made before (a mistyped path
    /// would otherwise become an empty new store).
    pub fn open_existing(root: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let root = root.into();
        if !root.join(MANIFEST).exists() {
            return Err(StoreError::NotAStore { root });
        }
        Store::open(root)
    }

    /// The store's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of sealed shards.
    pub fn shard_dir(&self) -> PathBuf {
        self.root.join(SHARDS)
    }

    /// The folder of the shard being written.
    pub fn incoming_dir(&self) -> PathBuf {
        self.root.join(INCOMING)
    }

    /// The pause file's path.
    pub fn pause_file(&self) -> PathBuf {
        self.root.join(PAUSE)
    }

    /// The lock file's path.
    pub fn lock_file(&self) -> PathBuf {
        self.root.join(LOCK)
    }

    /// The manifest (empty when the store is new), its names checked
    /// ([`Manifest::check`]): a manifest naming anything but shards is
    /// refused whole.
    pub fn manifest(&self) -> Result<Manifest, StoreError> {
        let path = self.root.join(MANIFEST);
        match types::file::read_regular(&path, MAX_MANIFEST_LEN) {
            Ok(bytes) => Manifest::parse(&bytes, &path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Manifest {
                format: "viriformat".into(),
                shards: Vec::new(),
            }),
            Err(source) => Err(StoreError::Io { path, source }),
        }
    }

    /// The paths of every sealed shard still in the working tree.
    pub fn shard_paths(&self) -> Result<Vec<PathBuf>, StoreError> {
        Ok(self
            .manifest()?
            .shards
            .iter()
            .filter(|s| s.retired.is_none())
            .map(|s| self.shard_dir().join(&s.file))
            .collect())
    }

    /// Every incoming shard left by an earlier run (stopped or killed):
    /// files named as datagen names them (`DATE-SEED.vf`), nothing else.
    pub fn leftovers(&self) -> Result<Vec<PathBuf>, StoreError> {
        let dir = self.incoming_dir();
        let mut found = Vec::new();
        for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
            let path = entry.map_err(io_err(&dir))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.strip_suffix(".vf").is_some_and(is_shard_stem) {
                found.push(path);
            }
        }
        found.sort();
        Ok(found)
    }

    /// Takes the store's lock for writing: refused, naming the holder, while
    /// another process holds it. The system releases it when the holder
    /// ends, however it ends.
    pub fn lock(&self) -> Result<LockedStore, StoreError> {
        let path = self.lock_file();
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err(&path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Locked {
                    root: self.root.clone(),
                    holder: holder_of(&mut file),
                })
            }
            Err(fs::TryLockError::Error(source)) => return Err(StoreError::Io { path, source }),
        }
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let text = format!("pid {}: {}\n", std::process::id(), excerpt(&command, 300));
        file.set_len(0)
            .and_then(|()| file.write_all(text.as_bytes()))
            .map_err(io_err(&path))?;
        Ok(LockedStore {
            store: self.clone(),
            lock: file,
        })
    }

    /// Who holds the store's lock now, if anyone: `Some(holder)` while a
    /// live process holds it; `Err` with the text a dead holder left (a
    /// kill ends a writer without clearing it: harmless, the next writer
    /// takes the lock over).
    pub fn lock_holder(&self) -> Result<Option<String>, String> {
        let Ok(mut file) = File::open(self.lock_file()) else {
            return Ok(None);
        };
        match file.try_lock_shared() {
            Err(fs::TryLockError::WouldBlock) => Ok(Some(holder_of(&mut file))),
            _ => {
                let left = holder_of(&mut file);
                if left.is_empty() || left == NO_HOLDER {
                    Ok(None)
                } else {
                    Err(left)
                }
            }
        }
    }
}

/// What a lock file holds with no holder's line in it.
const NO_HOLDER: &str = "a process that left no pid";

/// The holder's line of a lock file (first 300 bytes, first line).
fn holder_of(file: &mut File) -> String {
    use std::io::Seek;
    let mut text = String::new();
    let _ = file.rewind();
    let _ = Read::by_ref(file).take(400).read_to_string(&mut text);
    let line = text.lines().next().unwrap_or("").trim();
    if line.is_empty() {
        NO_HOLDER.to_string()
    } else {
        excerpt(line, 300)
    }
}

/// A store this process holds the lock of: everything that writes a store
/// goes through it. Dropping it clears the lock file and releases the lock.
#[derive(Debug)]
pub struct LockedStore {
    store: Store,
    lock: File,
}

impl std::ops::Deref for LockedStore {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.store
    }
}

impl Drop for LockedStore {
    fn drop(&mut self) {
        // An empty lock file says nobody holds it; the lock itself goes
        // with the file's descriptor.
        let _ = self.lock.set_len(0);
    }
}

impl LockedStore {
    /// Writes the manifest, replacing the old one whole.
    pub fn write_manifest(&self, manifest: &Manifest) -> Result<(), StoreError> {
        let path = self.root.join(MANIFEST);
        let mut text = serde_json::to_string_pretty(manifest).expect("a manifest serialises");
        text.push('\n');
        types::output::write(&path, text).map_err(io_err(&path))
    }

    /// The incoming file of a shard started with `origin` on `date`.
    pub fn incoming_path(&self, origin: &ShardOrigin, date: &str) -> PathBuf {
        self.incoming_dir()
            .join(format!("{date}-{:016x}.vf", origin.seed))
    }

    /// The side file recording an incoming shard's origin.
    fn origin_path(incoming: &Path) -> PathBuf {
        incoming.with_extension("json")
    }

    /// Starts a shard: its incoming file (appended to) and origin record.
    pub fn start_shard(&self, origin: &ShardOrigin, date: &str) -> Result<PathBuf, StoreError> {
        let path = self.incoming_path(origin, date);
        let side = Self::origin_path(&path);
        let text = serde_json::to_string_pretty(origin).expect("an origin serialises");
        types::output::write(&side, text).map_err(io_err(&side))?;
        Ok(path)
    }

    /// Removes the temporary files a kill during sealing can leave in
    /// `shards/` ([`is_temporary`]); their names.
    pub fn remove_temporaries(&self) -> Result<Vec<String>, StoreError> {
        let dir = self.shard_dir();
        let mut removed = Vec::new();
        for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
            let entry = entry.map_err(io_err(&dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_temporary(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
                let path = entry.path();
                fs::remove_file(&path).map_err(io_err(&path))?;
                removed.push(name);
            }
        }
        Ok(removed)
    }

    /// Seals an incoming shard: keeps its whole games (a game cut short by
    /// a kill is dropped), compresses them into `shards/`, adds the entry
    /// to the manifest and removes the incoming files. `None` when it held
    /// no whole game (its files are removed all the same).
    pub fn seal(&self, incoming: &Path, date: &str) -> Result<Option<ShardEntry>, StoreError> {
        let stem = incoming
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".vf"))
            .filter(|stem| is_shard_stem(stem))
            .ok_or_else(|| StoreError::Io {
                path: incoming.to_path_buf(),
                source: io::Error::other("not an incoming shard's name (DATE-SEED.vf)"),
            })?;
        let side = Self::origin_path(incoming);
        let origin: ShardOrigin = {
            let bytes = types::file::read_regular(&side, 1 << 20).map_err(io_err(&side))?;
            serde_json::from_slice(&bytes).map_err(|source| StoreError::Manifest {
                path: side.clone(),
                source,
            })?
        };
        // The whole games (a game cut short by a kill ends the shard).
        let file = types::file::open_regular(incoming, None).map_err(io_err(incoming))?;
        let mut games = Vec::new();
        for game in GameReader::new(BufReader::new(file), incoming) {
            match game {
                Ok(game) => games.push(game),
                Err(viriformat::GameReadError::Truncated { .. }) => break,
                Err(e) => return Err(e.into()),
            }
        }
        let name = format!("{stem}.vfc.zst");
        let out = self.shard_dir().join(&name);
        let entry = if games.is_empty() {
            None
        } else {
            let compressed = compress(&games).map_err(io_err(incoming))?;
            let sha256 = hex(&Sha256::digest(&compressed));
            types::output::write(&out, &compressed).map_err(io_err(&out))?;
            // What is on the disk is what was checked.
            if hash_file(&out)? != (compressed.len() as u64, sha256.clone()) {
                return Err(StoreError::Io {
                    path: out,
                    source: io::Error::other("the sealed shard does not read back as written"),
                });
            }
            let entry = ShardEntry {
                file: name,
                origin,
                games: games.len() as u64,
                positions: games.iter().map(|g| g.moves.len() as u64).sum(),
                bytes: compressed.len() as u64,
                sha256,
                date: date.to_string(),
                retired: None,
            };
            let mut manifest = self.manifest()?;
            manifest.shards.retain(|s| s.file != entry.file);
            manifest.shards.push(entry.clone());
            self.write_manifest(&manifest)?;
            Some(entry)
        };
        fs::remove_file(incoming).map_err(io_err(incoming))?;
        fs::remove_file(&side).map_err(io_err(&side))?;
        Ok(entry)
    }
}

/// Whether `name`, in `shards/`, is a temporary file a kill during sealing
/// can leave: an older Kestrel's `NAME.tmp`, or a hidden `.NAME.XXXXXX` of
/// [`types::output`] where the system has no unnamed temporary files.
pub fn is_temporary(name: &str) -> bool {
    let shard_of = |rest: &str| {
        is_shard_name(rest)
            || rest.rsplit_once('.').is_some_and(|(shard, tail)| {
                is_shard_name(shard)
                    && !tail.is_empty()
                    && tail.bytes().all(|b| b.is_ascii_alphanumeric())
            })
    };
    name.strip_suffix(".tmp").is_some_and(shard_of) || name.strip_prefix('.').is_some_and(shard_of)
}

/// `games` in compact viriformat under zstd at [`ZSTD_LEVEL`], checked to
/// decode back to exactly `games` before anything is written.
fn compress(games: &[Game]) -> io::Result<Vec<u8>> {
    let encoded = compact::encode(games).map_err(io::Error::other)?;
    let compressed = zstd::bulk::compress(&encoded, ZSTD_LEVEL)?;
    let back = zstd::decode_all(&compressed[..])?;
    if compact::decode(&back).map_err(io::Error::other)? != games {
        return Err(io::Error::other(
            "the compressed shard does not decode to the games it was made from",
        ));
    }
    Ok(compressed)
}

impl Manifest {
    /// The shards to retire so that those left in the working tree take at
    /// most `keep_bytes`: the oldest first (indices into `shards`, in order).
    pub fn oldest_beyond(&self, keep_bytes: u64) -> Vec<usize> {
        let mut present: u64 = self
            .shards
            .iter()
            .filter(|s| s.retired.is_none())
            .map(|s| s.bytes)
            .sum();
        let mut chosen = Vec::new();
        for (i, shard) in self.shards.iter().enumerate() {
            if present <= keep_bytes {
                break;
            }
            if shard.retired.is_none() {
                present -= shard.bytes;
                chosen.push(i);
            }
        }
        chosen
    }
}

impl LockedStore {
    /// Takes the shards named in `files` out of the working tree and marks
    /// them `retired` with `note` (the date and the commit that still holds
    /// them) in the manifest. The manifest is written first: a run stopped
    /// in between leaves files that `verify` names as "listed as retired
    /// but still present", and running it again finishes the job.
    pub fn retire(&self, files: &[String], note: &str) -> Result<(), StoreError> {
        let mut manifest = self.manifest()?;
        for file in files {
            match manifest.shards.iter_mut().find(|s| &s.file == file) {
                Some(shard) => shard.retired = Some(note.to_string()),
                None => {
                    return Err(StoreError::Io {
                        path: self.shard_dir(),
                        source: io::Error::other(format!(
                            "{} is not a shard the manifest lists",
                            excerpt(file, 100)
                        )),
                    });
                }
            }
        }
        self.write_manifest(&manifest)?;
        for file in files {
            let path = self.shard_dir().join(file);
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(source) => return Err(StoreError::Io { path, source }),
            }
        }
        Ok(())
    }

    /// Takes in one shard made elsewhere (another store, git history): the
    /// bytes `fill` writes become `shards/FILE` only when they have
    /// `entry`'s size and SHA-256 (otherwise nothing is left of them), and
    /// the entry is listed as present. The name is checked first; the file
    /// is written whole or not at all, with the store's own mode, never as
    /// a link. Does nothing when the manifest lists the file already.
    pub fn receive(
        &self,
        entry: &ShardEntry,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<bool, StoreError> {
        let mut manifest = self.manifest()?;
        if !is_shard_name(&entry.file) {
            return Err(StoreError::BadName {
                path: self.root.join(MANIFEST),
                index: manifest.shards.len(),
                file: excerpt(&entry.file, 100),
            });
        }
        if manifest.shards.iter().any(|s| s.file == entry.file) {
            return Ok(false);
        }
        let path = self.shard_dir().join(&entry.file);
        let mut out = types::output::create(&path).map_err(io_err(&path))?;
        let mut hashing = Hashing {
            inner: &mut out,
            hasher: Sha256::new(),
            bytes: 0,
            limit: entry.bytes,
        };
        fill(&mut hashing).map_err(io_err(&path))?;
        let (bytes, sha256) = (hashing.bytes, hex(&hashing.hasher.finalize()));
        if (bytes, sha256.as_str()) != (entry.bytes, entry.sha256.as_str()) {
            // Dropped uncommitted: nothing of it stays.
            return Err(StoreError::Io {
                path,
                source: io::Error::other("size or SHA-256 differs from its manifest"),
            });
        }
        out.commit().map_err(io_err(&path))?;
        let mut entry = entry.clone();
        entry.retired = None;
        manifest.shards.push(entry);
        self.write_manifest(&manifest)?;
        Ok(true)
    }

    /// Takes the sealed shards of `other` (a store made elsewhere, e.g. on
    /// another machine, or unpacked from its tar) that this store does not
    /// list: each read only from a regular file (not a link), checked
    /// against `other`'s manifest (size and SHA-256) and listed. The
    /// entries taken, in `other`'s order.
    pub fn adopt(&self, other: &Store) -> Result<Vec<ShardEntry>, StoreError> {
        let theirs = other.manifest()?;
        let ours = self.manifest()?;
        let mut taken = Vec::new();
        for shard in theirs.shards {
            if shard.retired.is_some() || ours.shards.iter().any(|s| s.file == shard.file) {
                continue;
            }
            let from = other.shard_dir().join(&shard.file);
            let mut source = open_plain_file(&from)?;
            let took = self.receive(&shard, |out| {
                io::copy(&mut Read::by_ref(&mut source).take(shard.bytes + 1), out).map(|_| ())
            })?;
            if took {
                taken.push(shard);
            }
        }
        Ok(taken)
    }
}

/// Opens `path` for reading only when it is a regular file itself: not a
/// link (even to a regular file), a device, a FIFO or a folder.
fn open_plain_file(path: &Path) -> Result<File, StoreError> {
    let refuse = || {
        StoreError::Io {
        path: path.to_path_buf(),
        source: io::Error::other(
            "not a regular file (a link, a folder, a device or a pipe): a shard is taken only from a regular file",
        ),
    }
    };
    let meta = fs::symlink_metadata(path).map_err(io_err(path))?;
    if !meta.file_type().is_file() {
        return Err(refuse());
    }
    let file = types::file::open_regular(path, None).map_err(io_err(path))?;
    // The same file as checked: a link swapped in between is refused.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let opened = file.metadata().map_err(io_err(path))?;
        if (opened.dev(), opened.ino()) != (meta.dev(), meta.ino()) {
            return Err(refuse());
        }
    }
    Ok(file)
}

/// A writer that hashes and counts what passes through it, and refuses
/// more than `limit` bytes (a source longer than its entry says is not
/// the shard, and is not copied to its end).
struct Hashing<'a, W: Write> {
    inner: &'a mut W,
    hasher: Sha256,
    bytes: u64,
    limit: u64,
}

impl<W: Write> Write for Hashing<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes + buf.len() as u64 > self.limit {
            return Err(io::Error::other(
                "longer than its manifest says: not the shard it lists",
            ));
        }
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A file's size and SHA-256 (hex).
pub fn hash_file(path: &Path) -> Result<(u64, String), StoreError> {
    let mut file = types::file::open_regular(path, None).map_err(io_err(path))?;
    let mut hasher = Sha256::new();
    let bytes = io::copy(&mut file, &mut hasher).map_err(io_err(path))?;
    Ok((bytes, hex(&hasher.finalize())))
}

/// The first 16 hex digits of the SHA-256 of `bytes`: a network's name in
/// the manifest.
pub fn short_hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))[..16].to_string()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One problem `verify` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The shard's file name (or the stray file's).
    pub file: String,
    /// What is wrong.
    pub what: String,
}

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Shards checked (present, hash and counts as listed).
    pub shards: u64,
    /// Their games and positions.
    pub games: u64,
    /// Their positions.
    pub positions: u64,
    /// Their compressed bytes.
    pub bytes: u64,
    /// Shards the manifest lists as retired (not in the working tree).
    pub retired: u64,
    /// Temporary files a kill during sealing left in `shards/` (not damage:
    /// the next `datagen run` removes them).
    pub temporaries: Vec<String>,
    /// The lock: `Some(Ok(holder))` while a process writes the store,
    /// `Some(Err(text))` for a lock file a killed writer left, `None` when
    /// nobody holds it.
    pub lock: Option<Result<String, String>>,
    /// Everything that does not match, every shard's problems (not only the
    /// first's).
    pub problems: Vec<Problem>,
}

/// Checks the manifest against the files: every listed shard present with
/// its size and hash, its games read back with the listed counts, and no
/// shard file the manifest does not list. `deep` also decodes every game
/// (slower: every move replayed for legality). A shard that cannot be read
/// is one more problem, and the check goes on to the next.
pub fn verify(store: &Store, deep: bool) -> Result<Verified, StoreError> {
    let manifest = store.manifest()?;
    let mut v = Verified {
        lock: match store.lock_holder() {
            Ok(None) => None,
            Ok(Some(holder)) => Some(Ok(holder)),
            Err(left) => Some(Err(left)),
        },
        ..Verified::default()
    };
    let problem = |v: &mut Verified, file: &str, what: String| {
        v.problems.push(Problem {
            file: file.to_string(),
            what,
        });
    };
    for shard in &manifest.shards {
        let path = store.shard_dir().join(&shard.file);
        if shard.retired.is_some() {
            v.retired += 1;
            if fs::symlink_metadata(&path).is_ok() {
                problem(
                    &mut v,
                    &shard.file,
                    "listed as retired but still present".into(),
                );
            }
            continue;
        }
        if fs::symlink_metadata(&path).is_err() {
            problem(
                &mut v,
                &shard.file,
                "listed in the manifest but missing".into(),
            );
            continue;
        }
        let (bytes, sha256) = match hash_file(&path) {
            Ok(hashed) => hashed,
            Err(e) => {
                problem(&mut v, &shard.file, format!("cannot be read: {e}"));
                continue;
            }
        };
        if bytes != shard.bytes {
            problem(
                &mut v,
                &shard.file,
                format!("{bytes} bytes, the manifest says {}", shard.bytes),
            );
        }
        if sha256 != shard.sha256 {
            problem(
                &mut v,
                &shard.file,
                format!("sha256 {sha256}, the manifest says {}", shard.sha256),
            );
            continue;
        }
        if deep {
            let (mut games, mut positions) = (0u64, 0u64);
            let mut readable = true;
            match games_file::open_games(&path) {
                Ok(reader) => {
                    for game in reader {
                        match game {
                            Ok(game) => {
                                games += 1;
                                positions += game.moves.len() as u64;
                            }
                            Err(e) => {
                                problem(&mut v, &shard.file, e.to_string());
                                readable = false;
                                break;
                            }
                        }
                    }
                }
                Err(e) => {
                    problem(&mut v, &shard.file, e.to_string());
                    readable = false;
                }
            }
            if readable && (games, positions) != (shard.games, shard.positions) {
                problem(
                    &mut v,
                    &shard.file,
                    format!(
                        "{games} games and {positions} positions, the manifest says {} and {}",
                        shard.games, shard.positions
                    ),
                );
            }
            if !readable {
                continue;
            }
        }
        v.shards += 1;
        v.games += shard.games;
        v.positions += shard.positions;
        v.bytes += shard.bytes;
    }
    let dir = store.shard_dir();
    let mut names = Vec::new();
    for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
        names.push(
            entry
                .map_err(io_err(&dir))?
                .file_name()
                .to_string_lossy()
                .to_string(),
        );
    }
    names.sort();
    for name in names {
        if manifest.shards.iter().any(|s| s.file == name) {
            continue;
        }
        if is_temporary(&name) {
            v.temporaries.push(name);
        } else {
            problem(
                &mut v,
                &name,
                "a shard file the manifest does not list".into(),
            );
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RecordResult;
    use chess::Position;

    fn origin(seed: u64) -> ShardOrigin {
        ShardOrigin {
            seed,
            net: "0123456789abcdef".into(),
            nodes: 5000,
            kestrel: "test".into(),
            command: "kestrel datagen run".into(),
        }
    }

    fn game() -> Game {
        let mut pos = Position::startpos();
        let mut game = Game::new(pos, RecordResult::WhiteWin);
        for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let m = pos.parse_uci_move(text, pos.castling_mode()).unwrap();
            pos.play_unchecked(m);
            game.moves.push((m, 25));
        }
        game
    }

    #[test]
    fn a_shard_is_sealed_listed_and_verified() {
        let dir = std::env::temp_dir().join(format!("kestrel-store-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap().lock().unwrap();
        let path = store.start_shard(&origin(7), "2026-11-26").unwrap();
        let mut bytes = Vec::new();
        for _ in 0..3 {
            game().write_to(&mut bytes).unwrap();
        }
        // A kill in the middle of the fourth game.
        bytes.extend_from_slice(&[1, 2, 3]);
        fs::write(&path, &bytes).unwrap();
        assert_eq!(store.leftovers().unwrap(), std::slice::from_ref(&path));
        let entry = store.seal(&path, "2026-11-26").unwrap().unwrap();
        assert_eq!((entry.games, entry.positions), (3, 12));
        assert!(!path.exists());
        assert_eq!(
            store.manifest().unwrap().shards,
            std::slice::from_ref(&entry)
        );
        let games: Vec<Game> = games_file::open_games(store.shard_dir().join(&entry.file))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(games, vec![game(); 3]);
        let v = verify(&store, true).unwrap();
        assert_eq!((v.shards, v.games, v.positions), (1, 3, 12));
        assert!(v.problems.is_empty(), "{:?}", v.problems);

        // A damaged byte and a stray file are named.
        let shard = store.shard_dir().join(&entry.file);
        let mut damaged = fs::read(&shard).unwrap();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        fs::write(&shard, damaged).unwrap();
        fs::write(store.shard_dir().join("stray.vf.zst"), b"x").unwrap();
        let v = verify(&store, true).unwrap();
        let files: Vec<&str> = v.problems.iter().map(|p| p.file.as_str()).collect();
        assert_eq!(
            files,
            [entry.file.as_str(), "stray.vf.zst"],
            "{:?}",
            v.problems
        );
        assert!(v.problems[0].what.contains("sha256"));

        // Another store's shards are adopted once, checked against its manifest.
        let other_dir = dir.with_extension("other");
        let _ = fs::remove_dir_all(&other_dir);
        let other = Store::open(&other_dir).unwrap().lock().unwrap();
        let path = other.start_shard(&origin(8), "2026-11-27").unwrap();
        let mut bytes = Vec::new();
        game().write_to(&mut bytes).unwrap();
        fs::write(&path, &bytes).unwrap();
        let theirs = other.seal(&path, "2026-11-27").unwrap().unwrap();
        fs::remove_file(store.shard_dir().join("stray.vf.zst")).unwrap();
        let taken = store.adopt(&other).unwrap();
        assert_eq!(taken, std::slice::from_ref(&theirs));
        assert!(store.adopt(&other).unwrap().is_empty());
        assert_eq!(store.manifest().unwrap().shards.len(), 2);
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_dir_all(&other_dir);
    }

    #[test]
    fn the_oldest_shards_retire_and_come_back_into_another_store() {
        let dir = std::env::temp_dir().join(format!("kestrel-retire-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap().lock().unwrap();
        let mut entries = Vec::new();
        for seed in 1..=3 {
            let path = store.start_shard(&origin(seed), "2026-11-28").unwrap();
            let mut bytes = Vec::new();
            for _ in 0..seed {
                game().write_to(&mut bytes).unwrap();
            }
            fs::write(&path, &bytes).unwrap();
            entries.push(store.seal(&path, "2026-11-28").unwrap().unwrap());
        }
        let manifest = store.manifest().unwrap();
        let all: u64 = entries.iter().map(|e| e.bytes).sum();
        assert!(manifest.oldest_beyond(all).is_empty());
        assert_eq!(manifest.oldest_beyond(all - 1), [0]);
        assert_eq!(manifest.oldest_beyond(entries[2].bytes), [0, 1]);
        assert_eq!(manifest.oldest_beyond(0), [0, 1, 2]);

        // Kept aside, as git history would keep them.
        let aside: Vec<Vec<u8>> = entries
            .iter()
            .map(|e| fs::read(store.shard_dir().join(&e.file)).unwrap())
            .collect();
        let gone = [entries[0].file.clone(), entries[1].file.clone()];
        store.retire(&gone, "2026-11-28 abc").unwrap();
        let manifest = store.manifest().unwrap();
        assert_eq!(manifest.shards.len(), 3, "retired shards stay listed");
        assert_eq!(
            manifest.shards[0].retired.as_deref(),
            Some("2026-11-28 abc")
        );
        assert_eq!(manifest.shards[2].retired, None);
        assert_eq!(store.shard_paths().unwrap().len(), 1);
        assert!(manifest.oldest_beyond(entries[2].bytes).is_empty());
        let v = verify(&store, true).unwrap();
        assert_eq!((v.shards, v.retired), (1, 2));
        assert!(v.problems.is_empty(), "{:?}", v.problems);
        assert!(store.retire(&["nonesuch".into()], "x").is_err());

        // Brought back into a store of their own, checked by hash.
        let back_dir = dir.with_extension("back");
        let _ = fs::remove_dir_all(&back_dir);
        let back = Store::open(&back_dir).unwrap().lock().unwrap();
        let e = back
            .receive(&manifest.shards[1], |w| w.write_all(b"not the shard"))
            .expect_err("not the shard");
        assert!(e.to_string().contains("differs from its manifest"), "{e}");
        assert!(!back.shard_dir().join(&entries[1].file).exists());
        for (i, entry) in manifest.shards.iter().take(2).enumerate() {
            assert!(back.receive(entry, |w| w.write_all(&aside[i])).unwrap());
            assert!(!back.receive(entry, |w| w.write_all(&aside[i])).unwrap());
        }
        let listed = back.manifest().unwrap().shards;
        assert_eq!(listed.len(), 2);
        assert!(listed.iter().all(|s| s.retired.is_none()));
        let v = verify(&back, true).unwrap();
        assert_eq!((v.shards, v.games, v.problems.len()), (2, 3, 0));
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_dir_all(&back_dir);
    }
}
