//! The self-play store and git history: a shard leaves the working tree only
//! when the commit at HEAD holds it exactly as it is, and it comes back from
//! that commit (`kestrel datagen retire` and `restore`).

use std::io::{self, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// Runs git in `dir`; its trimmed standard output.
fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .context("cannot run git (the store's history lives in git)")?;
    if !out.status.success() {
        bail!(
            "git {} in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit at HEAD of the repository holding `dir`.
pub fn head(dir: &Path) -> Result<String> {
    git(dir, &["rev-parse", "--verify", "HEAD"])
        .with_context(|| format!("{} is not in a git repository with a commit", dir.display()))
}

/// Whether `file` (a path relative to `dir`) is in `commit` with exactly
/// the contents it has in the working tree.
pub fn holds_unchanged(dir: &Path, commit: &str, file: &str) -> Result<bool> {
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
