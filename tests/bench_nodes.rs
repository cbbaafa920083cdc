//! `kestrel bench`'s node count is pinned: any change to what the search
//! visits (pruning, ordering, evaluation) changes it, so such a change must
//! come with an updated number here and a reason in its commit message, as
//! OpenBench tests name the bench count of each branch. Node counts are
//! deterministic (one thread, fixed depth), so this holds on any machine.

mod common;

/// `kestrel bench`'s total at the default depth; update with the search.
const BENCH_NODES: u64 = 2_135_537;

#[test]
fn bench_node_count_is_pinned() {
    let out = common::kestrel(&["bench"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    let last = text.lines().last().unwrap_or_default();
    let nodes: u64 = last
        .strip_suffix(" nps")
        .and_then(|l| l.split(" nodes ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line is not 'N nodes M nps': {last}"));
    assert_eq!(
        nodes, BENCH_NODES,
        "the search visits a different number of nodes: if the change is meant, update BENCH_NODES in tests/bench_nodes.rs and say why in the commit"
    );
}

/// The node count of `kestrel bench ARGS`' last line.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = common::kestrel(args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    let last = text.lines().last().unwrap_or_default();
    last.split(" nodes ")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line is not 'N nodes M nps': {last}"))
}

#[test]
fn another_network_is_benched_through_eval_file() {
    let built_in = bench_nodes(&["bench", "4"]);
    let named = bench_nodes(&["bench", "4", "--option", "EvalFile=<default>"]);
    assert_eq!(named, built_in, "<default> is the built-in network");
    let round9 = bench_nodes(&[
        "bench",
        "4",
        "--option",
        "EvalFile=crates/engine/nets/round9.nnue",
    ]);
    assert_ne!(round9, built_in, "another network searches other nodes");
    // A missing network is refused with its name, not benched as the default.
    let out = common::kestrel(&["bench", "4", "--option", "EvalFile=no-such.nnue"]);
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("no-such.nnue"),
        "{}",
        common::stderr(&out)
    );
}
