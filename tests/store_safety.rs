//! The self-play store's tools hold other people's data: nothing they do
//! may write outside the store, lose a shard or leave a half-written file
//! (issue 64, items 1–5). Each test builds a small store by hand from one
//! real shard of `selfplay/` and a manifest written as JSON, the way a
//! store made elsewhere (or a hostile one) arrives, and drives `kestrel
//! datagen` on it.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{kestrel, kestrel_ok as ok, stderr, stdout};
use serde_json::{json, Value};

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("store", name)
}

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The newest shard of the repository's store: its manifest entry and bytes.
fn real_shard() -> (Value, Vec<u8>) {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read("selfplay/manifest.json").expect("the store"))
            .expect("its manifest");
    let entry = manifest["shards"]
        .as_array()
        .expect("shards")
        .iter()
        .rev()
        .find(|s| s.get("retired").is_none())
        .expect("a shard in the tree")
        .clone();
    let file = entry["file"].as_str().expect("a name");
    let bytes = std::fs::read(Path::new("selfplay/shards").join(file)).expect("the shard");
    (entry, bytes)
}

/// A store at `root` whose manifest lists `entries` (no files written).
fn write_store(root: &Path, entries: &[Value]) {
    std::fs::create_dir_all(root.join("shards")).expect("store folders");
    let manifest = json!({ "format": "viriformat", "shards": entries });
    std::fs::write(
        root.join("manifest.json"),
        serde_json::to_vec_pretty(&manifest).expect("json"),
    )
    .expect("manifest");
}

fn with_file(entry: &Value, file: &str) -> Value {
    let mut entry = entry.clone();
    entry["file"] = json!(file);
    entry
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

/// Item 1: a manifest's `file` is a name inside the store, never a path
/// out of it; adopt copies bytes, not links or modes.
#[cfg(unix)]
#[test]
fn adopt_takes_only_shard_names_and_regular_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("adopt");
    let (entry, bytes) = real_shard();
    let name = entry["file"].as_str().expect("a name").to_string();
    // Theirs at dir/a/theirs, ours at dir/b/ours: "../../hook" from each
    // shard folder is dir/a/hook (read) and dir/b/hook (written).
    let theirs = dir.join("a/theirs");
    let ours = dir.join("b/ours");
    write_store(&theirs, &[with_file(&entry, "../../hook")]);
    write_store(&ours, &[]);
    std::fs::write(dir.join("a/hook"), &bytes).expect("the payload");
    let o = kestrel(&["datagen", "adopt", s(&theirs), "--store", s(&ours)]);
    assert!(!o.status.success(), "adopted a path: {o:?}");
    assert!(
        stderr(&o).contains("not a shard file name"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("b/hook").exists(), "written outside the store");
    assert!(!dir.join("b/ours/hook").exists());
    assert_eq!(names_in(&ours.join("shards")), Vec::<String>::new());

    // An absolute path is refused the same way.
    write_store(&theirs, &[with_file(&entry, s(&dir.join("b/abs")))]);
    let o = kestrel(&["datagen", "adopt", s(&theirs), "--store", s(&ours)]);
    assert!(!o.status.success(), "adopted an absolute path: {o:?}");
    assert!(!dir.join("b/abs").exists());

    // A link in their shard folder is not followed, even to the right bytes.
    write_store(&theirs, std::slice::from_ref(&entry));
    std::os::unix::fs::symlink(dir.join("a/hook"), theirs.join("shards").join(&name))
        .expect("a link");
    let o = kestrel(&["datagen", "adopt", s(&theirs), "--store", s(&ours)]);
    assert!(!o.status.success(), "followed a link: {o:?}");
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert!(!ours.join("shards").join(&name).exists());

    // A regular shard is taken, as data: an executable bit stays behind.
    std::fs::remove_file(theirs.join("shards").join(&name)).expect("unlink");
    std::fs::write(theirs.join("shards").join(&name), &bytes).expect("shard");
    std::fs::set_permissions(
        theirs.join("shards").join(&name),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let said = ok(&["datagen", "adopt", s(&theirs), "--store", s(&ours)]);
    assert!(said.contains("1 shards"), "{said}");
    let taken = ours.join("shards").join(&name);
    assert_eq!(std::fs::read(&taken).expect("adopted"), bytes);
    assert_eq!(mode(&taken) & 0o111, 0, "a shard is never executable");
    let said = ok(&["datagen", "verify", "--store", s(&ours), "--deep"]);
    assert!(said.contains("1 shards"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 2: restore writes only inside its folder, and never touches a file
/// a retired entry names by path.
#[test]
fn restore_writes_only_inside_its_folder() {
    let dir = scratch("restore");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(o.status.success(), "git {args:?}: {o:?}");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    git(&["commit", "-q", "--allow-empty", "-m", "start"]);
    let head = git(&["rev-parse", "HEAD"]);
    let (entry, _) = real_shard();
    let victim = dir.join("precious.txt");
    std::fs::write(&victim, b"someone's work").expect("victim");
    let root = dir.join("selfplay");
    let note = format!("2026-11-28 {head}");
    let mut absolute = with_file(&entry, s(&victim));
    absolute["retired"] = json!(note);
    write_store(&root, &[absolute]);
    let to = dir.join("restored");
    let o = kestrel(&["datagen", "restore", s(&to), "--store", s(&root)]);
    assert!(!o.status.success(), "restored to a path: {o:?}");
    assert!(
        stderr(&o).contains("not a shard file name"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(&victim).expect("the victim is still there"),
        b"someone's work"
    );

    let mut relative = with_file(&entry, "../../outside.vfc.zst");
    relative["retired"] = json!(note);
    write_store(&root, &[relative]);
    let o = kestrel(&["datagen", "restore", s(&to), "--store", s(&root)]);
    assert!(!o.status.success(), "restored to a path: {o:?}");
    assert!(!dir.join("outside.vfc.zst").exists());
    assert!(!to.join("outside.vfc.zst").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits for `done` until `limit`, polling.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

/// Item 3: one writer at a time; the second is told who holds the store.
#[test]
fn a_second_writer_is_refused_with_the_holders_pid() {
    let dir = scratch("lock");
    let root = dir.join("store");
    let run_args = [
        "datagen",
        "run",
        "--store",
        s(&root),
        "--nodes",
        "500",
        "--report-secs",
        "1",
    ];
    let mut first = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(run_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("datagen runs");
    // Under way once its incoming shard holds a game.
    let incoming = root.join("incoming");
    let started = wait_for(Duration::from_secs(120), || {
        std::fs::read_dir(&incoming).is_ok_and(|d| {
            d.flatten().any(|e| {
                e.path().extension().is_some_and(|x| x == "vf")
                    && e.metadata().is_ok_and(|m| m.len() > 0)
            })
        })
    });
    assert!(started, "the first run never wrote a game");
    let pid = first.id().to_string();
    for args in [
        &run_args[..],
        &["datagen", "retire", "--store", s(&root), "--keep-mb", "0"][..],
        &["datagen", "adopt", s(&root), "--store", s(&root)][..],
    ] {
        // On a store without a lock, a second run would go on for ever.
        let (o, ended) = common::kestrel_within(args, "", Duration::from_secs(60));
        assert!(ended, "{args:?} ran beside a run");
        assert!(!o.status.success(), "{args:?} ran beside a run: {o:?}");
        let said = stderr(&o);
        assert!(
            said.contains("in use") && said.contains(&pid),
            "{args:?}: {said}"
        );
    }
    let said = ok(&["datagen", "verify", "--store", s(&root)]);
    assert!(said.contains(&format!("pid {pid}")), "{said}");
    // The first run was not disturbed: it seals its shard on SIGTERM.
    assert!(first.try_wait().expect("waits").is_none(), "the run died");
    let kill = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(kill.success());
    let o = first.wait_with_output().expect("the run ends");
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).contains("sealed "), "{}", stdout(&o));
    let said = ok(&["datagen", "verify", "--store", s(&root), "--deep"]);
    assert!(said.contains("1 shards") && said.contains("ok"), "{said}");
    assert!(!said.contains("lock"), "the lock went with the run: {said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 4: a command that fails leaves its old output byte for byte, and
/// no temporary file beside it.
#[test]
fn a_failed_merge_or_convert_leaves_the_old_output() {
    let dir = scratch("outputs");
    let out = dir.join("all.bin");
    let old = b"an earlier merge, 32 bytes long!".to_vec();
    std::fs::write(&out, &old).expect("old output");
    let o = kestrel(&["datagen", "merge", s(&out), s(&dir.join("missing.bin"))]);
    assert!(!o.status.success(), "{o:?}");
    assert_eq!(std::fs::read(&out).expect("still there"), old);

    // A bad input after a good one: the convert fails half way.
    let good_text = dir.join("good.txt");
    std::fs::write(
        &good_text,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 20 | 0.5\n",
    )
    .expect("good input");
    let good = dir.join("good.bin");
    ok(&["datagen", "convert", s(&good_text), "-o", s(&good)]);
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, vec![0xffu8; 64]).expect("bad input");
    let text = dir.join("all.txt");
    std::fs::write(&text, "the old text\n").expect("old output");
    let o = kestrel(&["datagen", "convert", s(&good), s(&bad), "-o", s(&text)]);
    assert!(!o.status.success(), "{o:?}");
    assert_eq!(
        std::fs::read_to_string(&text).expect("still there"),
        "the old text\n"
    );
    assert_eq!(
        names_in(&dir),
        ["all.bin", "all.txt", "bad.bin", "good.bin", "good.txt"],
        "no temporary file left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 5: a temporary left by a kill is named, not counted as damage, and
/// `verify --deep` lists every bad shard, not the first.
#[test]
fn verify_names_leftovers_and_lists_every_problem() {
    let dir = scratch("verify");
    let (entry, bytes) = real_shard();
    let name = entry["file"].as_str().expect("a name").to_string();
    let root = dir.join("store");
    write_store(&root, std::slice::from_ref(&entry));
    std::fs::write(root.join("shards").join(&name), &bytes).expect("shard");
    std::fs::write(root.join("shards").join(format!("{name}.tmp")), b"half").expect("tmp");
    let said = ok(&["datagen", "verify", "--store", s(&root), "--deep"]);
    assert!(said.contains("1 shards") && said.contains("ok"), "{said}");
    assert!(said.contains("leftover"), "{said}");

    // Two shards whose files are not zstd at all, listed with their true
    // size and hash (a manifest made over bad files), and a missing one.
    let garbage = b"not a zstd frame at all".to_vec();
    let sha = {
        let o = Command::new("sha256sum")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().expect("stdin").write_all(&garbage)?;
                c.wait_with_output()
            })
            .expect("sha256sum");
        String::from_utf8_lossy(&o.stdout)
            .split_whitespace()
            .next()
            .expect("a hash")
            .to_string()
    };
    let mut entries = vec![entry.clone()];
    for seed in ["00000000000000aa", "00000000000000bb"] {
        let file = format!("2026-11-01-{seed}.vfc.zst");
        std::fs::write(root.join("shards").join(&file), &garbage).expect("bad shard");
        let mut bad = with_file(&entry, &file);
        bad["bytes"] = json!(garbage.len());
        bad["sha256"] = json!(sha);
        entries.push(bad);
    }
    entries.push(with_file(&entry, "2026-11-01-00000000000000cc.vfc.zst"));
    write_store(&root, &entries);
    let o = kestrel(&["datagen", "verify", "--store", s(&root), "--deep"]);
    assert!(!o.status.success(), "{o:?}");
    let said = stdout(&o);
    for file in [
        "2026-11-01-00000000000000aa",
        "2026-11-01-00000000000000bb",
        "2026-11-01-00000000000000cc",
    ] {
        assert!(said.contains(file), "{file} not named: {said}");
    }
    assert!(stderr(&o).contains("3 problems"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
