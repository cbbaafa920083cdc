#!/usr/bin/env bash
# Instructions one every-ply book build of the master games takes, per
# binary: a measure of the build's work that the machine's load cannot move.
#
# Each binary runs under callgrind with one rayon thread (two threads add
# the pool's idle spinning, which varies from run to run), building the
# every-ply book (--max-ply 1000 --min-games 3) of the master games. Prints
# the total and the functions that take the most.
#
# valgrind cannot run the AVX-512 code that `target-cpu=native` produces on
# this machine, so build for x86-64-v3 (still fat LTO, as shipped):
#
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --target-dir /tmp/kt-v3
#   bench/book_build_instructions.sh /tmp/kt-v3/release/kestrel [OTHER_BUILD ...]
#
# Needs valgrind (apt-get install valgrind). Games: $PGN, else the master
# games from ../shared/data/pgn/masters (or $KESTREL_DATA/pgn/masters).
set -euo pipefail

if [ $# -eq 0 ]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
command -v valgrind > /dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pgn=${PGN:-}
if [ -z "$pgn" ]; then
    data=${KESTREL_DATA:-$(dirname "$0")/../../shared/data}
    masters=("$data"/pgn/masters/*.pgn)
    [ -e "${masters[0]}" ] || { echo "no master games under $data/pgn/masters: set PGN or KESTREL_DATA" >&2; exit 1; }
    pgn=$work/masters.pgn
    cat "${masters[@]}" > "$pgn"
fi

for bin in "$@"; do
    out=$work/callgrind.out
    RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$bin" book build --quiet --pgn "$pgn" --out "$work/book.bin" --max-ply 1000 --min-games 3 \
        > /dev/null 2> "$work/valgrind.log"
    total=$(grep -o 'Collected : [0-9]*' "$work/valgrind.log" | grep -o '[0-9]*$')
    echo "$bin: $(echo "$total" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') instructions"
    callgrind_annotate "$out" 2> /dev/null | grep -E '^ *[0-9,]+ \(' | sed -n '2,9p' | cut -c1-140
done
