//! `kestrel train --input-buckets`: a net with king buckets is trained on a
//! shard of the self-play store, described by `net info`, loaded through
//! `EvalFile` and searched with while the kings walk across buckets and
//! wings, and goes to bullet's layout and back; the layouts that cannot be
//! are refused with what to fix.

mod common;

use common::{kestrel, kestrel_ok, kestrel_with_input, scratch_dir, stderr, stdout};

/// The largest shard in the working tree: the oldest leave it as the store
/// grows (`kestrel datagen retire`), and the newest can be a few games
/// (datagen stopped soon after it started), too few to hold out a
/// validation split.
fn large_shard() -> String {
    let store = trainingdata::store::Store::open("selfplay").expect("the store");
    let shards = store.shard_paths().expect("the store's manifest");
    let largest = shards
        .iter()
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .expect("a shard in the working tree");
    largest.to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn a_king_bucketed_net_trains_loads_and_searches() {
    let dir = scratch_dir("train", "king-buckets");
    let out = dir.to_str().unwrap();
    let shard = large_shard();
    let said = kestrel(&[
        "train",
        &shard,
        "--out",
        out,
        "--hidden",
        "32",
        "--epochs",
        "1",
        "--output-buckets",
        "8",
        "--input-buckets",
        "mirror4",
        "--qb",
        "256",
    ]);
    assert!(said.status.success(), "{}", stderr(&said));
    assert!(
        stderr(&said).contains("768 (mirror4)x32"),
        "{}",
        stderr(&said)
    );
    let net = dir.join("epoch-1.nnue");
    let info = kestrel_ok(&["net", "info", net.to_str().unwrap()]);
    assert!(info.contains("version 3"), "{info}");
    assert!(info.contains("4 king buckets, mirrored"), "{info}");

    // Both kings go from e1/e8 (bucket 1) to the second rank (bucket 2),
    // then across to the d-file (mirrored): each a refresh of one side.
    let uci = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name Evaluator value NNUE\nisready\n\
         position startpos moves e2e4 e7e5 e1e2 e8e7 e2d3 e7d6\ngo depth 6\n",
        net.display()
    );
    let o = kestrel_with_input(&[], &uci);
    let text = stdout(&o);
    assert!(text.contains("bestmove"), "{text}");
    assert!(!text.to_lowercase().contains("error"), "{text}");

    // To bullet and back: the layout bullet trains it with is printed, and
    // the file imports back to the same net.
    let bin = dir.join("b.bin");
    let said = kestrel_ok(&[
        "net",
        "export",
        net.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert!(
        said.contains("ChessBucketsMirrored::new([0, 0, 1, 1, 2, 2, 2, 2, 3,"),
        "{said}"
    );
    let back = dir.join("back.nnue");
    kestrel_ok(&[
        "net",
        "import",
        bin.to_str().unwrap(),
        "--hidden",
        "32",
        "--output-buckets",
        "8",
        "--qb",
        "256",
        "--input-buckets",
        "mirror4",
        // One epoch at hidden 32 is too little training to have a scale.
        "--no-scale-check",
        "-o",
        back.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&net).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn impossible_layouts_are_refused_with_what_to_fix() {
    let dir = scratch_dir("train", "bad-layouts");
    let out = dir.to_str().unwrap();
    let shard = large_shard();
    let o = kestrel(&["train", &shard, "--out", out, "--input-buckets", "mirror9"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("mirror9") && err.contains("none, mirror, mirror4"),
        "{err}"
    );
    let o = kestrel(&[
        "train",
        &shard,
        "--out",
        out,
        "--input-buckets",
        "mirror",
        "--mirror",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("drop --mirror"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// `kestrel train` says what it does (issue 61, item 8): a run without a
/// validation split says so instead of printing a loss of 0; arguments
/// are refused before the run's header; an error says its cause once; the
/// rate is a whole number with separators.
#[test]
fn train_says_what_it_does_and_refuses_before_it_starts() {
    let dir = scratch_dir("train", "messages");
    let out = dir.join("run");
    let out = out.to_str().unwrap();
    let shard = large_shard();
    let said = kestrel(&[
        "train",
        &shard,
        "--out",
        out,
        "--hidden",
        "32",
        "--epochs",
        "1",
        "--val-fraction",
        "0",
    ]);
    assert!(said.status.success(), "{}", stderr(&said));
    let (text, err) = (stdout(&said), stderr(&said));
    assert!(err.contains("no validation split, into"), "{err}");
    let line = text
        .lines()
        .find(|l| l.starts_with("epoch 1/1"))
        .expect("the epoch's line");
    assert!(line.contains("no validation split"), "{line}");
    assert!(!line.contains("val 0.000000"), "{line}");
    assert!(line.contains("on training positions"), "{line}");
    let rate = line
        .split(" positions/s")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .expect("a rate");
    assert!(
        !rate.is_empty() && rate.bytes().all(|b| b.is_ascii_digit() || b == b','),
        "a whole number with separators, not {rate:?}: {line}"
    );
    let log = std::fs::read_to_string(dir.join("run/log.csv")).expect("the log");
    assert!(
        log.lines().nth(1).is_some_and(|row| row.contains(",,")),
        "no validation loss in the log: {log}"
    );

    for (args, refusal) in [
        (vec!["--lr", "nan"], "--lr must be a finite number above 0"),
        (vec!["--hidden", "16"], "hidden size 16"),
        (vec!["--resume", "missing.ckpt"], "missing.ckpt"),
    ] {
        let mut all = vec!["train", shard.as_str(), "--out", out, "--epochs", "1"];
        all.extend(args.iter().copied());
        let o = kestrel(&all);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(refusal), "{args:?}: {err}");
        assert!(
            !err.contains("training 768"),
            "{args:?} refused after the header: {err}"
        );
    }
    let o = kestrel(&["train", &shard, "--out", out, "--init", "missing.nnue"]);
    let err = stderr(&o);
    assert_eq!(
        err.matches("No such file or directory").count(),
        1,
        "the cause once: {err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
