//! `kestrel ablate` and `kestrel tune ga` from the command line: the files
//! they write and the errors they give.

mod common;

use common::{kestrel, kestrel_with_input, stderr, stdout};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-cli-exp-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn ablate_writes_the_table_and_the_charts() {
    let dir = temp_dir("ablate");
    let out = kestrel(&[
        "ablate",
        "--depth",
        "4",
        "--runs",
        "2",
        "--only",
        "NullMove",
        "--only",
        "killermoves",
        "--games",
        "2",
        "--nodes",
        "200",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // One pair cannot bound an Elo difference: said at the start and in
    // the table, never "+0.0 +/- 0.0" (issue 61, item 10).
    assert!(
        stderr(&out).contains("too few for an Elo interval"),
        "{}",
        stderr(&out)
    );
    let table = stdout(&out);
    assert!(table.contains("too few game pairs"), "{table}");
    assert!(!table.contains("+/- 0.0"), "{table}");
    assert!(table.contains("| NullMove | on |"), "{table}");
    assert!(table.contains("| KillerMoves | on |"), "{table}");
    assert!(
        table.contains("2 (") && table.contains("2 games per technique"),
        "{table}"
    );
    // CPU time over two pairs of runs, with an interval, and no bare inf.
    assert!(table.contains("mean of 2 runs"), "{table}");
    assert!(table.contains("x ["), "{table}");
    assert!(!table.contains("inf"), "{table}");
    let md = std::fs::read_to_string(dir.join("ablation.md")).unwrap();
    assert!(md.contains(&table), "the file holds the table");
    let csv = std::fs::read_to_string(dir.join("ablation.csv")).unwrap();
    assert!(csv.starts_with("technique,default,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.contains("\nNullMove,on,"), "{csv}");
    for png in [
        "ablation_nodes.png",
        "ablation_time.png",
        "ablation_elo.png",
    ] {
        let bytes = std::fs::read(dir.join(png)).unwrap();
        assert!(bytes.len() > 5_000 && &bytes[1..4] == b"PNG", "{png}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ablate_refuses_bad_options() {
    let out = kestrel(&["ablate", "--only", "NoSuchTechnique"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a search technique"),
        "{}",
        stderr(&out)
    );
    let out = kestrel(&["ablate", "--depth", "99"]);
    assert!(stderr(&out).contains("--depth 99 is out of range"));
    let out = kestrel(&["ablate", "--runs", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--runs 0 is out of range"));
    let out = kestrel(&[
        "ablate",
        "--depth",
        "3",
        "--games",
        "2",
        "--openings",
        "/nonexistent.epd",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("/nonexistent.epd"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ga_writes_weights_the_engine_loads() {
    let dir = temp_dir("ga");
    let weights = dir.join("ga.txt");
    let chart = dir.join("ga.png");
    let out = kestrel(&[
        "tune",
        "ga",
        "--population",
        "3",
        "--generations",
        "2",
        "--nodes",
        "150",
        "--games",
        "2",
        "--max-moves",
        "20",
        "--threads",
        "2",
        "--mode",
        "preservation",
        "--terms",
        "PIECE_VALUE,TEMPO",
        "--out",
        weights.to_str().unwrap(),
        "--plot",
        chart.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(
        table.contains("| 1 |") && table.contains("| 2 |"),
        "{table}"
    );
    assert!(std::fs::read(&chart).unwrap().len() > 5_000);
    // The engine plays with the file as its EvalFile.
    let session = format!(
        "setoption name EvalFile value {}\nposition startpos\ngo depth 3\nquit\n",
        weights.display()
    );
    let uci = kestrel_with_input(&[], &session);
    let text = stdout(&uci);
    assert!(text.contains("bestmove"), "{text}");
    assert!(!text.contains("error"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ga_refuses_bad_options() {
    let out = kestrel(&["tune", "ga", "--terms", "NOPE"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unknown term `NOPE`"),
        "{}",
        stderr(&out)
    );
    let out = kestrel(&["tune", "ga", "--population", "4", "--survivors", "4"]);
    assert!(
        stderr(&out).contains("--survivors must be from 1 to 3"),
        "{}",
        stderr(&out)
    );
}

/// `tune spsa` with a budget that cannot move a whole-number value is
/// refused before a game, naming the smallest run that could (issue 61,
/// item 10: 30 pairs at 1,000 nodes never moved a value).
#[test]
fn spsa_refuses_a_run_too_short_to_move_a_value() {
    let dir = temp_dir("spsa-budget");
    let params = dir.join("params.txt");
    std::fs::write(&params, "RazorDepth, int, 3, 1, 8, 0.5, 0.002").unwrap();
    let log = dir.join("spsa.csv");
    let out = kestrel(&[
        "tune",
        "spsa",
        "--engine",
        env!("CARGO_BIN_EXE_kestrel"),
        "--params",
        params.to_str().unwrap(),
        "--nodes",
        "1000",
        "--pairs",
        "30",
        "--openings",
        "tests/data/lab_openings.epd",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "{}", stdout(&out));
    let said = stderr(&out);
    assert!(said.contains("--pairs 30 cannot move any value"), "{said}");
    assert!(
        said.contains("the smallest run that could move each by a whole step is --pairs "),
        "{said}"
    );
    assert!(!log.exists(), "no game was played");
    std::fs::remove_dir_all(&dir).unwrap();
}
