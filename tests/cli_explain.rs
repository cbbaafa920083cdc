//! `kestrel explain FEN MOVE` from the command line: the sentence people
//! read, the JSON scripts parse, and the inputs it refuses with a message
//! (never a panic).

mod common;

use common::kestrel;

/// Black to move after 3. Qh5: Nf6 allows Qxf7#.
const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_move_that_allows_mate_is_said_in_words() {
    let o = kestrel(&["explain", SCHOLAR, "Nf6", "--depth", "8"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    let mut lines = out.lines();
    let head = lines.next().unwrap_or_default();
    assert!(
        head.starts_with("Nf6: -M1 after it (mover's view), the engine prefers"),
        "{out}"
    );
    assert_eq!(lines.next(), Some("Nf6 allows mate: Qxf7#."), "{out}");
}

#[test]
fn json_carries_the_sentences_the_lines_and_the_motifs() {
    // UCI in, a node limit instead of a depth.
    let o = kestrel(&[
        "explain", SCHOLAR, "g8f6", "--nodes", "20000", "--json", "--line", "--timing",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["move"], "Nf6");
    assert_eq!(v["uci"], "g8f6");
    assert_eq!(v["score"]["mate"], -1);
    assert_eq!(v["sentence"], "Nf6 allows mate: Qxf7#.");
    assert!(v["best"].is_string() && v["best_line"].is_string(), "{v}");
    let line = v["line"].as_str().expect("the line");
    assert!(line.starts_with("3... Nf6 4. Qxf7#"), "{line}");
    let motifs = v["motifs"].as_array().expect("motifs");
    assert!(
        motifs.iter().any(|m| m["ply"] == 1 && m["kind"] == "mate"),
        "the reply mates: {v}"
    );
    assert!(v["explain_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{v}");
}

#[test]
fn bad_input_is_refused_with_what_to_fix() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    for (args, says) in [
        (
            vec!["explain", "not a fen", "e4"],
            "the FEN does not read as a position",
        ),
        (vec!["explain", "8/8/8/8/8/8/8/8 w - - 0 1", "e4"], "kings"),
        (vec!["explain", start, "Ke2"], "legal moves: Na3 Nc3"),
        (vec!["explain", start, ""], "is not a legal move here"),
        (vec!["explain", mated, "e4"], "already over"),
        (vec!["explain", start, "e4", "--depth", "0"], "give 1 to 64"),
        (
            vec!["explain", start, "e4", "--nodes", "0"],
            "give at least 1",
        ),
    ] {
        let o = kestrel(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
