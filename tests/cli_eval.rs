//! `kestrel eval`, `kestrel tune texel` and `kestrel datagen` from the
//! command line: the formats scripts rely on.

mod common;

use std::process::Output;

use common::kestrel;

fn total(o: &Output) -> i32 {
    let out = String::from_utf8_lossy(&o.stdout);
    let last = out.lines().last().unwrap_or_default().to_string();
    let rest = last
        .strip_prefix("Total: ")
        .expect("last line starts with Total:");
    let cp = rest
        .strip_suffix(" cp (White's view)")
        .expect("last line ends with the view");
    cp.parse().unwrap()
}

#[test]
fn eval_ends_with_the_total_from_whites_view() {
    let white_up = kestrel(&["eval", "--fen", "4k3/8/8/8/8/8/8/2Q1K3 b - - 0 1"]);
    assert!(white_up.status.success());
    assert!(total(&white_up) > 500);
    let black_up = kestrel(&["eval", "--fen", "2q1k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(total(&black_up) < -500);
    let out = String::from_utf8_lossy(&white_up.stdout).to_string();
    for group in [
        "Material",
        "Mobility",
        "King safety",
        "Passed pawns",
        "Tempo",
    ] {
        assert!(out.contains(group), "{group} missing:\n{out}");
    }
    assert!(out.contains("Side to move (Black): -"), "{out}");
    // NNUE: the total is the built-in network's score, with the
    // hand-crafted breakdown above it.
    let nnue = kestrel(&["eval", "--evaluator", "nnue"]);
    let out = String::from_utf8_lossy(&nnue.stdout).to_string();
    let net_line = out
        .lines()
        .find(|l| l.starts_with("NNUE built-in network"))
        .unwrap_or_else(|| panic!("{out}"));
    let net_cp = net_line.rsplit(':').next().unwrap().trim();
    assert!(out.contains("Evaluator: NNUE (the table is the hand-crafted Full evaluation's)"));
    assert_eq!(
        out.lines().last(),
        Some(format!("Total: {net_cp}").as_str()),
        "{out}"
    );
    // A position the network scores beyond its range: the total is the
    // hand-crafted evaluation's, and the output says why.
    let lopsided = "3qk3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
    let nnue = kestrel(&["eval", "--evaluator", "nnue", "--fen", lopsided]);
    let full = kestrel(&["eval", "--evaluator", "full", "--fen", lopsided]);
    let out = String::from_utf8_lossy(&nnue.stdout).to_string();
    assert!(
        out.contains("A score beyond the network's default range"),
        "{out}"
    );
    assert_eq!(total(&nnue), total(&full), "{out}");
    let simple = kestrel(&["eval", "--evaluator", "simple", "--detail"]);
    let out = String::from_utf8_lossy(&simple.stdout).to_string();
    assert!(
        out.contains("Evaluator: Simple") && out.contains("PIECE_VALUE[0]"),
        "{out}"
    );
}

#[test]
fn eval_refuses_bad_input_with_a_message() {
    let o = kestrel(&["eval", "--fen", "not a fen"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad --fen"));
    let o = kestrel(&["eval", "--evaluator", "clever"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("use full, simple or nnue"));
    let dir = std::env::temp_dir().join(format!("kestrel-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "TEMPO 0 1 1\n").unwrap();
    let o = kestrel(&["eval", "--weights", bad.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("missing"),
        "{o:?}"
    );
}

#[test]
fn datagen_then_tune_writes_weights_the_engine_loads() {
    let dir = std::env::temp_dir().join(format!("kestrel-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let _ = std::fs::remove_file(&data);
    let o = kestrel(&[
        "datagen",
        "--games",
        "4",
        "--nodes",
        "500",
        "--threads",
        "2",
        "--format",
        "text",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.starts_with("games 4 positions "), "{summary}");
    let weights = dir.join("w.txt");
    let o = kestrel(&[
        "tune",
        "texel",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "20",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let line = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        line.contains("loss before") && line.contains("after"),
        "{line}"
    );
    let o = kestrel(&["eval", "--weights", weights.to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_seed_writes_weights_that_load() {
    let dir = std::env::temp_dir().join(format!("kestrel-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.txt");
    let out = kestrel(&["tune", "seed", "--out", &path.display().to_string()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let loaded = engine::eval::hce::weights::Weights::load(&path).expect("the seed weights load");
    assert_eq!(loaded, engine::eval::hce::seed::seed_weights());
    // An unwritable place is an error message, not a panic.
    let out = kestrel(&["tune", "seed", "--out", "/nonexistent/dir/seed.txt"]);
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("cannot write the seed weights"),
        "{}",
        common::stderr(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}
