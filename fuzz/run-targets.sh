#!/usr/bin/env bash
# Fuzzes each named target for SECONDS of wall time, LANES of them at once,
# and prints one line per target with libFuzzer's final statistics and the
# CPU seconds the run used (user + system, from /usr/bin/time, the fuzzing
# process included): what fuzz/README.md's "Runs so far" records.
#
#   fuzz/run-targets.sh SECONDS LANES TARGET...
#   fuzz/run-targets.sh 1860 2 pgn uci gui_json book nnue epd
#
# Needs the nightly toolchain and cargo-fuzz (fuzz/README.md). Build first
# (`cargo +nightly fuzz build`): lanes that build at once wait on each other.
# Each target's output goes to fuzz/logs/TARGET.log (git-ignored); a crash
# leaves its input in fuzz/artifacts/TARGET/ and the line says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
    echo "usage: fuzz/run-targets.sh SECONDS LANES TARGET..." >&2
    exit 2
fi
secs=$1
lanes=$2
shift 2
mkdir -p fuzz/logs

one() {
    local t=$1 secs=$2 rc=0
    mkdir -p "fuzz/corpus/$t"
    /usr/bin/time -f "%U %S" -o "fuzz/logs/$t.time" \
        cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$secs" -print_final_stats=1 >"fuzz/logs/$t.log" 2>&1 || rc=$?
    local cpu runs execs cov ft corpus
    cpu=$(awk '{printf "%.0f", $1 + $2}' "fuzz/logs/$t.time" 2>/dev/null || echo "?")
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/logs/$t.log" | grep -o '[0-9]*$' || echo "?")
    execs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "fuzz/logs/$t.log" | grep -o '[0-9]*$' || echo "?")
    # The last status line (`#N DONE cov: C ft: F corp: I/S ...`).
    cov=$(grep -o 'cov: [0-9]*' "fuzz/logs/$t.log" | tail -1 | grep -o '[0-9]*' || echo "?")
    ft=$(grep -o 'ft: [0-9]*' "fuzz/logs/$t.log" | tail -1 | grep -o '[0-9]*' || echo "?")
    corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "fuzz/logs/$t.log" | tail -1 | cut -d' ' -f2 || echo "?")
    local verdict="no crash"
    if [ "$rc" -ne 0 ] || ls "fuzz/artifacts/$t"/* >/dev/null 2>&1; then
        verdict="FAILED (exit $rc; see fuzz/logs/$t.log and fuzz/artifacts/$t/)"
    fi
    echo "$t: runs $runs, exec/s $execs, cov $cov, ft $ft, corpus $corpus, CPU ${cpu} s, $verdict"
}
export -f one
printf '%s\n' "$@" | xargs -P "$lanes" -I{} bash -c 'one "$@"' _ {} "$secs"
