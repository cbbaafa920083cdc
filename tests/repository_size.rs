//! The working tree stays under 60 MB (issue 39), so that a clone and a
//! copy of the checkout stay quick: the self-play store grows by a few
//! shards a day, and `kestrel datagen retire` takes the oldest out of the
//! tree (git history keeps them) before it passes.

use std::process::Command;

/// The bound on the tracked files' bytes.
const LIMIT: u64 = 60_000_000;

#[test]
fn the_tracked_files_take_under_60_mb() {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    let listed = match listed {
        Ok(o) if o.status.success() => o.stdout,
        // A source tarball has no git to ask and no history to retire into.
        _ => {
            eprintln!("not a git checkout: the tree's size is not checked");
            return;
        }
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0u64;
    let mut largest: Vec<(u64, String)> = Vec::new();
    for name in listed.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        // A file deleted and not yet committed no longer counts.
        if let Ok(meta) = std::fs::symlink_metadata(root.join(&name)) {
            total += meta.len();
            largest.push((meta.len(), name));
        }
    }
    largest.sort_unstable_by(|a, b| b.cmp(a));
    largest.truncate(5);
    assert!(
        total < LIMIT,
        "the tracked files take {total} bytes, over {LIMIT}: retire the oldest shards \
         (`kestrel datagen retire --keep-mb N`, then commit) or move other large files to \
         git history; the largest: {largest:?}"
    );
}
