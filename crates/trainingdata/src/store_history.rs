//! The self-play store and git history: a shard leaves the working tree only
//! when the commit at HEAD holds it exactly as it is, and it comes back from
//! that commit (`kestrel datagen retire` and `restore`). The manifest keeps
//! a retired shard's entry with a note naming that commit.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::store::{LockedStore, ShardEntry, Store, StoreError};

/// Why the store's history could not be used.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The store itself refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// git could not be run, or refused.
    #[error("{0}")]
    Git(String),
    /// Shards to retire are not in HEAD as they are in the tree: retiring
    /// them would lose them.
    #[error(
        "{} of the shards to retire are not committed as they are at HEAD ({}): commit them first (`git add {}` and `git commit`), or they would be lost",
        files.len(),
        files.join(", "),
        root.display()
    )]
    NotCommitted {
        /// The store's folder.
        root: PathBuf,
        /// The shards.
        files: Vec<String>,
    },
    /// A retired shard's note names no commit.
    #[error("{file}: its retired note '{note}' names no commit to restore it from")]
    NoCommit {
        /// The shard.
        file: String,
        /// Its note.
        note: String,
    },
    /// A shard could not be restored from its commit.
    #[error("{file} as restored from {commit}: {source}")]
    Restore {
        /// The shard.
        file: String,
        /// The commit it was restored from.
        commit: String,
        /// What went wrong (boxed: the error stays small).
        source: Box<StoreError>,
    },
}

/// Runs git in `dir`; its trimmed standard output.
fn git(dir: &Path, args: &[&str]) -> Result<String, HistoryError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| {
            HistoryError::Git(format!(
                "cannot run git (the store's history lives in git): {e}"
            ))
        })?;
    if !out.status.success() {
        return Err(HistoryError::Git(format!(
            "git {} in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit at HEAD of the repository holding `dir`.
pub fn head(dir: &Path) -> Result<String, HistoryError> {
    git(dir, &["rev-parse", "--verify", "HEAD"]).map_err(|e| {
        HistoryError::Git(format!(
            "{} is not in a git repository with a commit ({e})",
            dir.display()
        ))
    })
}

/// Whether `file` (a path relative to `dir`) is in `commit` with exactly
/// the contents it has in the working tree.
pub fn holds_unchanged(dir: &Path, commit: &str, file: &str) -> Result<bool, HistoryError> {
    // Not in that commit at all: not held.
    let Ok(committed) = git(
        dir,
        &["rev-parse", "--verify", &format!("{commit}:./{file}")],
    ) else {
        return Ok(false);
    };
    let here = git(dir, &["hash-object", "--", file])?;
    Ok(committed == here)
}

/// Writes `file` (a path relative to `dir`) as it is in `commit` to `out`,
/// streamed (a shard is not held in memory).
pub fn write_from_history(
    dir: &Path,
    commit: &str,
    file: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["cat-file", "blob", &format!("{commit}:./{file}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            io::Error::other(format!(
                "cannot run git (the store's history lives in git): {e}"
            ))
        })?;
    let mut blob = child.stdout.take().expect("piped");
    let copied = io::copy(&mut blob, out);
    // Closed before the wait: a copy refused half way must not leave git
    // blocked on a full pipe.
    drop(blob);
    let status = child.wait()?;
    if copied.is_ok() && !status.success() {
        return Err(io::Error::other(format!(
            "git has no {file} at {commit} (is this clone shallow? `git fetch --unshallow` brings the history back)"
        )));
    }
    copied.map(|_| ())
}

/// The commit named in a manifest's `retired` note (`DATE COMMIT`).
pub fn commit_of_note(note: &str) -> Option<&str> {
    let commit = note.split_whitespace().last()?;
    (commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit())).then_some(commit)
}

/// What `retire` would take out of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct RetirePlan {
    /// The shards to retire, oldest first (empty: the tree is within the bound).
    pub shards: Vec<ShardEntry>,
    /// Bytes of the shards in the tree now.
    pub present_bytes: u64,
    /// Bytes of the shards to retire.
    pub going_bytes: u64,
    /// The commit at HEAD that holds them (None when nothing is to go).
    pub commit: Option<String>,
}

/// The oldest shards to take out of the tree so that at most `keep_bytes`
/// stay, each checked to be in HEAD exactly as it is in the tree.
pub fn plan_retire(store: &LockedStore, keep_bytes: u64) -> Result<RetirePlan, HistoryError> {
    let manifest = store.manifest()?;
    let shards: Vec<ShardEntry> = manifest
        .oldest_beyond(keep_bytes)
        .into_iter()
        .map(|i| manifest.shards[i].clone())
        .collect();
    let present_bytes = manifest
        .shards
        .iter()
        .filter(|s| s.retired.is_none())
        .map(|s| s.bytes)
        .sum();
    let going_bytes = shards.iter().map(|s| s.bytes).sum();
    if shards.is_empty() {
        return Ok(RetirePlan {
            shards,
            present_bytes,
            going_bytes,
            commit: None,
        });
    }
    let commit = head(store.root())?;
    let shard_dir = store.shard_dir();
    let mut uncommitted = Vec::new();
    for shard in &shards {
        if !holds_unchanged(&shard_dir, &commit, &shard.file)? {
            uncommitted.push(shard.file.clone());
        }
    }
    if !uncommitted.is_empty() {
        return Err(HistoryError::NotCommitted {
            root: store.root().to_path_buf(),
            files: uncommitted,
        });
    }
    Ok(RetirePlan {
        shards,
        present_bytes,
        going_bytes,
        commit: Some(commit),
    })
}

/// Retires the shards of `plan` (from [`plan_retire`] on this store), noting
/// `date` and the commit that holds them.
pub fn retire(store: &LockedStore, plan: &RetirePlan, date: &str) -> Result<(), HistoryError> {
    let Some(commit) = &plan.commit else {
        return Ok(());
    };
    let files: Vec<String> = plan.shards.iter().map(|s| s.file.clone()).collect();
    store.retire(&files, &format!("{date} {commit}"))?;
    Ok(())
}

/// What `restore` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Restored {
    /// Shards brought back.
    pub shards: u64,
    /// Their positions.
    pub positions: u64,
    /// Retired shards the target listed already.
    pub there_already: u64,
}

/// Brings the retired shards of `store` back from git history into
/// `target`, each checked against its manifest entry; `each` hears every
/// shard restored with its commit.
pub fn restore(
    store: &Store,
    target: &LockedStore,
    mut each: impl FnMut(&ShardEntry, &str),
) -> Result<Restored, HistoryError> {
    let manifest = store.manifest()?;
    let shard_dir = store.shard_dir();
    let mut done = Restored::default();
    for shard in manifest.shards.iter().filter(|s| s.retired.is_some()) {
        let note = shard.retired.as_deref().unwrap_or_default();
        let Some(commit) = commit_of_note(note) else {
            return Err(HistoryError::NoCommit {
                file: shard.file.clone(),
                note: note.to_string(),
            });
        };
        let took = target
            .receive(shard, |out| {
                write_from_history(&shard_dir, commit, &shard.file, out)
            })
            .map_err(|source| HistoryError::Restore {
                file: shard.file.clone(),
                commit: commit.to_string(),
                source: Box::new(source),
            })?;
        if took {
            done.shards += 1;
            done.positions += shard.positions;
            each(shard, commit);
        } else {
            done.there_already += 1;
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retired_note_names_its_commit() {
        let full = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(commit_of_note(&format!("2026-11-28 {full}")), Some(full));
        assert_eq!(commit_of_note("2026-11-28"), None);
        assert_eq!(commit_of_note(""), None);
        assert_eq!(commit_of_note("2026-11-28 not-a-commit"), None);
    }
}
