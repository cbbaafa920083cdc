#!/usr/bin/env bash
# SPSA of the search's tunables on a lent accelerator machine's 16 cores
# (issue 65, item 2): the game pairs played eight times faster than on the
# two cores here, resuming from the log kept in the repository, and the log
# brought back through $OUT. One long run spans many sessions and devices:
# `--pairs` (the gains' schedule) stays the same from start to end.
#
# Here, before the device call (a portable binary through
# scripts/device-datagen.sh, the parameters, the log so far):
#   scripts/device-spsa.sh prepare
# The device call (run tool; carry .device; timeout_s 600):
#   bash scripts/device-spsa.sh run 9        # minutes of play
# Here, after it (files_at is the folder the run tool reports):
#   scripts/device-spsa.sh adopt FILES_AT/spsa.csv
#   git add crates/tune/spsa && git commit -m "SPSA: pairs N to M on the device"
#
# The log keeps a line per pair (about 400 bytes); the repository keeps a
# thinned copy (the header, every 50th pair and the last), from which a run
# resumes exactly: `tune spsa` resumes from the last complete line.
set -euo pipefail
cd "$(dirname "$0")/.."
# The run's fixed settings: changing any of them starts another run.
LOG=crates/tune/spsa/issue65.csv
PAIRS=20000
NODES="${NODES:-10000}"
# Tunables not tuned: the time manager's (no clock at a node budget) and
# those of switches that are off (their values play no part).
EXCLUDE='^(Tm|ProbCut|DoubleExt|CutoffCount|HistoryPrune|LmrDeeper|CaptureHistory|CaptureSee|RfpSacrifice)'
case "${1:-}" in
prepare)
    scripts/device-datagen.sh prepare
    .device/kestrel tune spsa-params | grep -Ev "$EXCLUDE" > .device/params.txt
    if [ -f "$LOG" ]; then cp "$LOG" .device/spsa.csv; else rm -f .device/spsa.csv; fi
    echo "$(wc -l < .device/params.txt) parameters; log: $( [ -f .device/spsa.csv ] && tail -1 .device/spsa.csv | cut -d, -f1-4 || echo new)"
    ;;
run)
    minutes="${2:-9}"
    out="${OUT:?run on the device machine, where \$OUT is set}"
    [ -f .device/spsa.csv ] && cp .device/spsa.csv "$out/spsa.csv"
    # Stopped by the clock: a pair cut short leaves at most a partial last
    # line, which a resumed run ignores.
    timeout "${minutes}m" .device/kestrel tune spsa --engine .device/kestrel \
        --params .device/params.txt --pairs "$PAIRS" --nodes "$NODES" \
        --openings .device/openings.epd --concurrency "$(nproc)" --seed 1 \
        --option Hash=16 --log "$out/spsa.csv" --chart "$out/spsa.png" || true
    # Engines of a pair cut short would outlive the tuner.
    pkill -f '^\.device/kestrel' || true
    tail -1 "$out/spsa.csv" | cut -d, -f1-4
    ;;
adopt)
    log="${2:?the spsa.csv the device run returned}"
    mkdir -p "$(dirname "$LOG")"
    # The header, every 50th pair and the last complete one (a partial last
    # line has fewer fields than the header).
    awk -F, 'NR == 1 { n = NF; print; next }
             NF == n { last = $0; if ($1 % 50 == 0) { print; printed = $0 } }
             END { if (last != "" && last != printed) print last }' "$log" > "$LOG.tmp"
    mv "$LOG.tmp" "$LOG"
    echo "$LOG: $(($(wc -l < "$LOG") - 1)) lines kept, last pair $(tail -1 "$LOG" | cut -d, -f1-4)"
    ;;
*)
    echo "usage: $0 prepare | run MINUTES | adopt SPSA_CSV" >&2
    exit 2
    ;;
esac
