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
//! ```
//!
//! A shard is written uncompressed into `incoming/`, a whole game at a
//! time, and sealed once it holds enough positions: compressed into
//! `shards/`, hashed, and added to the manifest (written to a temporary file
//! and renamed, so a reader never sees half a manifest).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::compact;
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
    /// Its file name inside `shards/`.
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
    /// A shard's games do not read back.
    #[error(transparent)]
    Games(#[from] viriformat::GameReadError),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A store folder.
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

    /// The manifest (empty when the store is new).
    pub fn manifest(&self) -> Result<Manifest, StoreError> {
        let path = self.root.join(MANIFEST);
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|source| StoreError::Manifest { path, source }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Manifest {
                format: "viriformat".into(),
                shards: Vec::new(),
            }),
            Err(source) => Err(StoreError::Io { path, source }),
        }
    }

    /// Writes the manifest through a temporary file and a rename.
    pub fn write_manifest(&self, manifest: &Manifest) -> Result<(), StoreError> {
        let path = self.root.join(MANIFEST);
        let tmp = self.root.join(format!("{MANIFEST}.tmp"));
        let mut text = serde_json::to_string_pretty(manifest).expect("a manifest serialises");
        text.push('\n');
        fs::write(&tmp, text).map_err(io_err(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_err(&path))
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
        fs::write(&side, text).map_err(io_err(&side))?;
        Ok(path)
    }

    /// Every incoming shard left by an earlier run (stopped or killed).
    pub fn leftovers(&self) -> Result<Vec<PathBuf>, StoreError> {
        let dir = self.incoming_dir();
        let mut found = Vec::new();
        for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
            let path = entry.map_err(io_err(&dir))?.path();
            if path.extension().is_some_and(|e| e == "vf") {
                found.push(path);
            }
        }
        found.sort();
        Ok(found)
    }

    /// Seals an incoming shard: keeps its whole games (a game cut short by
    /// a kill is dropped), compresses them into `shards/`, adds the entry
    /// to the manifest and removes the incoming files. `None` when it held
    /// no whole game (its files are removed all the same).
    pub fn seal(&self, incoming: &Path, date: &str) -> Result<Option<ShardEntry>, StoreError> {
        let side = Self::origin_path(incoming);
        let origin: ShardOrigin = {
            let bytes = fs::read(&side).map_err(io_err(&side))?;
            serde_json::from_slice(&bytes).map_err(|source| StoreError::Manifest {
                path: side.clone(),
                source,
            })?
        };
        // The whole games (a game cut short by a kill ends the shard).
        let file = File::open(incoming).map_err(io_err(incoming))?;
        let mut games = Vec::new();
        for game in GameReader::new(BufReader::new(file), incoming) {
            match game {
                Ok(game) => games.push(game),
                Err(viriformat::GameReadError::Truncated { .. }) => break,
                Err(e) => return Err(e.into()),
            }
        }
        let stem = incoming
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .expect("an incoming shard has a file name");
        let name = format!("{stem}.vfc.zst");
        let out = self.shard_dir().join(&name);
        let entry = if games.is_empty() {
            None
        } else {
            let encoded = compact::encode(&games).map_err(|e| StoreError::Io {
                path: incoming.to_path_buf(),
                source: io::Error::other(e),
            })?;
            let (bytes, sha256) = compress(&encoded[..], &out)?;
            // The sealed file must give back exactly the games it was made
            // from before the incoming file goes.
            let back: Vec<Game> = viriformat::open_games(&out)?.collect::<Result<_, _>>()?;
            if back != games {
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
                bytes,
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

impl Store {
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
                    let path = self.shard_dir().join(file);
                    return Err(StoreError::Io {
                        path,
                        source: io::Error::other("not a shard the manifest lists"),
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

    /// Lists a shard whose file has been put into `shards/` by other means
    /// (brought back from git history), once it matches `entry`'s size and
    /// SHA-256; the entry is listed as present (not retired). Does nothing
    /// when the manifest lists the file already.
    pub fn list_existing(&self, mut entry: ShardEntry) -> Result<(), StoreError> {
        check_against(&self.shard_dir().join(&entry.file), &entry)?;
        let mut manifest = self.manifest()?;
        if manifest.shards.iter().any(|s| s.file == entry.file) {
            return Ok(());
        }
        entry.retired = None;
        manifest.shards.push(entry);
        self.write_manifest(&manifest)
    }

    /// Takes the sealed shards of `other` (a store made elsewhere, e.g. on
    /// another machine) that this store does not list: each is checked
    /// against `other`'s manifest (size and SHA-256), copied, and listed.
    /// The entries taken, in `other`'s order.
    pub fn adopt(&self, other: &Store) -> Result<Vec<ShardEntry>, StoreError> {
        let theirs = other.manifest()?;
        let mut ours = self.manifest()?;
        let mut taken = Vec::new();
        for shard in theirs.shards {
            if shard.retired.is_some() || ours.shards.iter().any(|s| s.file == shard.file) {
                continue;
            }
            let from = other.shard_dir().join(&shard.file);
            check_against(&from, &shard)?;
            let to = self.shard_dir().join(&shard.file);
            fs::copy(&from, &to).map_err(io_err(&to))?;
            ours.shards.push(shard.clone());
            taken.push(shard);
        }
        if !taken.is_empty() {
            self.write_manifest(&ours)?;
        }
        Ok(taken)
    }
}

/// Whether the file at `path` has `entry`'s size and SHA-256.
fn check_against(path: &Path, entry: &ShardEntry) -> Result<(), StoreError> {
    let (bytes, sha256) = hash_file(path)?;
    if (bytes, sha256.as_str()) != (entry.bytes, entry.sha256.as_str()) {
        return Err(StoreError::Io {
            path: path.to_path_buf(),
            source: io::Error::other("size or SHA-256 differs from its manifest"),
        });
    }
    Ok(())
}

/// Compresses `input` into `out` at [`ZSTD_LEVEL`] (through a temporary file
/// and a rename); the compressed size and its SHA-256.
pub fn compress(mut input: impl Read, out: &Path) -> Result<(u64, String), StoreError> {
    let tmp = out.with_extension("zst.tmp");
    {
        let file = File::create(&tmp).map_err(io_err(&tmp))?;
        let mut encoder =
            zstd::Encoder::new(BufWriter::new(file), ZSTD_LEVEL).map_err(io_err(&tmp))?;
        io::copy(&mut input, &mut encoder).map_err(io_err(&tmp))?;
        encoder
            .finish()
            .and_then(|mut w| w.flush())
            .map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, out).map_err(io_err(out))?;
    let (bytes, sha256) = hash_file(out)?;
    Ok((bytes, sha256))
}

/// A file's size and SHA-256 (hex).
pub fn hash_file(path: &Path) -> Result<(u64, String), StoreError> {
    let mut file = File::open(path).map_err(io_err(path))?;
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
    /// Everything that does not match.
    pub problems: Vec<Problem>,
}

/// Checks the manifest against the files: every listed shard present with
/// its size and hash, its games read back with the listed counts, and no
/// shard file the manifest does not list. `deep` also decodes every game
/// (slower: every move replayed for legality).
pub fn verify(store: &Store, deep: bool) -> Result<Verified, StoreError> {
    let manifest = store.manifest()?;
    let mut v = Verified::default();
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
            if path.exists() {
                problem(
                    &mut v,
                    &shard.file,
                    "listed as retired but still present".into(),
                );
            }
            continue;
        }
        if !path.exists() {
            problem(
                &mut v,
                &shard.file,
                "listed in the manifest but missing".into(),
            );
            continue;
        }
        let (bytes, sha256) = hash_file(&path)?;
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
            for game in viriformat::open_games(&path)? {
                match game {
                    Ok(game) => {
                        games += 1;
                        positions += game.moves.len() as u64;
                    }
                    Err(e) => {
                        problem(&mut v, &shard.file, e.to_string());
                        break;
                    }
                }
            }
            if (games, positions) != (shard.games, shard.positions) {
                problem(
                    &mut v,
                    &shard.file,
                    format!(
                        "{games} games and {positions} positions, the manifest says {} and {}",
                        shard.games, shard.positions
                    ),
                );
            }
        }
        v.shards += 1;
        v.games += shard.games;
        v.positions += shard.positions;
        v.bytes += shard.bytes;
    }
    let dir = store.shard_dir();
    for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
        let name = entry
            .map_err(io_err(&dir))?
            .file_name()
            .to_string_lossy()
            .to_string();
        if !manifest.shards.iter().any(|s| s.file == name) {
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
        let store = Store::open(&dir).unwrap();
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
        let games: Vec<Game> = viriformat::open_games(store.shard_dir().join(&entry.file))
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
        let other = Store::open(&other_dir).unwrap();
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
        let store = Store::open(&dir).unwrap();
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
        let back = Store::open(&back_dir).unwrap();
        let damaged = back.shard_dir().join(&entries[1].file);
        fs::write(&damaged, b"not the shard").unwrap();
        assert!(back.list_existing(manifest.shards[1].clone()).is_err());
        for (i, entry) in manifest.shards.iter().take(2).enumerate() {
            fs::write(back.shard_dir().join(&entry.file), &aside[i]).unwrap();
            back.list_existing(entry.clone()).unwrap();
            back.list_existing(entry.clone()).unwrap();
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
