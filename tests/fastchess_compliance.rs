//! fastchess's UCI conformance check (`fastchess --compliance`, the runner
//! OpenBench workers use) passes against the binary with its default
//! options: a runner sends no `setoption` before its first games, so the
//! defaults are what it judges. fastchess is found as `$KESTREL_FASTCHESS`,
//! in `../shared/tools/bin/` or on `PATH`; a missing fastchess skips the test
//! outside CI and fails it under CI (see `common::tools`).

mod common;

use std::path::Path;

#[test]
fn fastchess_compliance_passes_with_the_defaults() {
    let Some(fastchess) = common::tools::require(
        common::tools::fastchess(),
        "fastchess (../shared/tools/bin/fastchess, or set KESTREL_FASTCHESS)",
    ) else {
        return;
    };
    let (ok, text) = common::tools::run_in(
        &fastchess,
        &["--compliance", env!("CARGO_BIN_EXE_kestrel")],
        Path::new("."),
    );
    assert!(ok, "fastchess --compliance failed:\n{text}");
    assert!(!text.contains("Failed"), "{text}");
    assert!(text.contains("Passed"), "{text}");
}
