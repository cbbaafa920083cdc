//! What OpenBench's workers and server need of the binary `make` builds:
//! the search's tunables as UCI options (SPSA tests), the SPSA input as
//! OpenBench's form takes it, a failed `genfens` that says so and exits
//! non-zero, book move counters from `hmvc`/`fmvn` operations, and (a build
//! of its own, so ignored by default) `make EVALFILE=` embedding the net.

mod common;

use common::{kestrel, stderr, stdout};
use std::process::Command;

const KESTREL: &str = env!("CARGO_BIN_EXE_kestrel");

#[test]
fn the_tunables_are_uci_options_and_their_spsa_input_passes_openbench() {
    let out = kestrel(&["tune", "spsa-params"]);
    assert!(out.status.success(), "{out:?}");
    let input = stdout(&out);
    assert!(!input.ends_with('\n'), "no newline after the last line");
    tune::spsa::check_openbench_input(&input).unwrap_or_else(|e| panic!("{e:?}\n{input}"));
    let lines: Vec<&str> = input.split('\n').collect();
    assert_eq!(lines.len(), engine::params::TUNABLES.len());

    // Every tunable is an option of the default build, and takes a value.
    let uci = stdout(&kestrel(&["uci", "quit"]));
    for t in engine::params::TUNABLES {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        );
        assert!(uci.contains(&line), "missing: {line}");
    }
    let name = engine::params::TUNABLES[0].name;
    let set = stdout(&kestrel(&[
        &format!("setoption name {name} value 2"),
        &format!("setoption name {name} value 999"),
        "quit",
    ]));
    assert_eq!(set.matches("info string error").count(), 1, "{set}");
}

#[test]
fn a_failed_genfens_exits_non_zero_with_the_reason() {
    let out = kestrel(&["genfens 3 seed 1 book /nonexistent.epd", "quit"]);
    assert!(!out.status.success(), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("genfens failed") && err.contains("/nonexistent.epd"),
        "{err}"
    );
    let bad = kestrel(&["genfens many seed 1 book None", "quit"]);
    assert!(!bad.status.success(), "{bad:?}");
    assert!(kestrel(&["genfens 2 seed 1 book None", "quit"])
        .status
        .success());
}

#[test]
fn genfens_keeps_the_move_counters_of_hmvc_and_fmvn() {
    let dir = std::env::temp_dir().join(format!("kestrel-ob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    // OpenBench's own book lines, as its genfens.py writes them.
    std::fs::write(
        &book,
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - hmvc 2; fmvn 30;\n",
    )
    .unwrap();
    let out = kestrel(&[&format!("genfens 4 seed 3 book {}", book.display()), "quit"]);
    assert!(out.status.success(), "{out:?}");
    let fens: Vec<String> = stdout(&out)
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect();
    assert_eq!(fens.len(), 4);
    for fen in &fens {
        // 2 or 3 plies after move 30: move 31 or 32.
        let full: u32 = fen.split_whitespace().nth(5).unwrap().parse().unwrap();
        assert!((31..=32).contains(&full), "{fen}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `make EXE=... EVALFILE=<net>`: the binary's bench is that of the net
/// given, and a missing or malformed net fails the build. It rebuilds the
/// release binary twice (minutes each, and the normal build afterwards), so
/// it runs only when asked: `cargo test --release --test openbench -- --ignored`.
#[test]
#[ignore = "rebuilds the release binary with another net: minutes"]
fn make_evalfile_builds_that_net_in() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("kestrel-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A second net: the default one with every seventh output weight halved.
    let mut net = std::fs::read(format!("{root}/crates/engine/nets/default.nnue")).unwrap();
    let hidden = u32::from_le_bytes(net[16..20].try_into().unwrap()) as usize;
    let version = u32::from_le_bytes(net[8..12].try_into().unwrap());
    let payload = engine::eval::nnue::header_len(version);
    let out = payload + 2 * (768 * hidden + hidden);
    for i in (0..2 * hidden).step_by(7) {
        let at = out + 2 * i;
        let w = i16::from_le_bytes([net[at], net[at + 1]]) / 2;
        net[at..at + 2].copy_from_slice(&w.to_le_bytes());
    }
    let sum = engine::eval::nnue::fnv1a64(&net[payload..]);
    net[44..52].copy_from_slice(&sum.to_le_bytes());
    let second = dir.join("second.nnue");
    std::fs::write(&second, &net).unwrap();
    let make = |evalfile: &str, exe: &str| {
        Command::new("make")
            .current_dir(root)
            .arg(format!("EXE={}", dir.join(exe).display()))
            .arg(format!("EVALFILE={evalfile}"))
            .output()
            .expect("make runs")
    };
    let bench = |exe: &std::path::Path| {
        let out = Command::new(exe).arg("bench").output().unwrap();
        let last = stdout(&out).lines().last().unwrap().to_string();
        last.split_whitespace().next().unwrap().to_string()
    };
    // Before make: its build replaces target/release/kestrel too.
    let default = bench(std::path::Path::new(KESTREL));
    let built = make(second.to_str().unwrap(), "k2");
    assert!(built.status.success(), "{}", stderr(&built));
    let with_second = bench(&dir.join("k2"));
    assert_ne!(with_second, default, "the second net gives another bench");
    let missing = make("/nonexistent/net.nnue", "k3");
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("cannot read KESTREL_EVALFILE=/nonexistent/net.nnue"));
    // Build the default binary again for whatever runs next.
    let again = Command::new("cargo")
        .current_dir(root)
        .args(["build", "--release", "--bin", "kestrel"])
        .output()
        .unwrap();
    assert!(again.status.success());
    let _ = std::fs::remove_dir_all(dir);
}
