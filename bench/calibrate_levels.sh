#!/bin/bash
# Calibrates Kestrel's playing levels against Stockfish's own UCI_Elo levels:
# Kestrel at UCI_Elo E against Stockfish 15.1 at UCI_Elo E, for each E given.
#
# Both sides are independent of the machine's speed and load, so that two
# games can run at once on a 2-core machine that is also doing other work:
# Kestrel's levels are node budgets (its clock, 60 s + 0.6 s, is far more
# than they use), and Stockfish searches a fixed number of nodes (default
# 300000: its average move at 10 s + 0.1 s, at ~720 000 nodes/s on one core).
# Stockfish's skill picks its weaker move at depth 1 + level, but it keeps
# searching afterwards, and the deeper search it leaves in its hash table
# makes the next move's shallow pick much stronger: at UCI_Elo 1400 the
# same Kestrel level scored +209 against Stockfish stopped at depth 1 and
# -111 against Stockfish at 300000 nodes. A depth limit is no substitute.
#
# Usage: bench/calibrate_levels.sh [-k KESTREL] [-n GAMES] [-s SF_NODES] [-o DIR] ELO...
# Writes DIR/level-ELO.pgn and .json (kestrel match -json) and prints the
# match summaries. Needs Debian's stockfish (apt-get install stockfish).
set -euo pipefail
KESTREL=target/release/kestrel
GAMES=80
NODES=300000
OUT=level-calibration
while getopts "k:n:s:o:" opt; do
    case $opt in
        k) KESTREL=$OPTARG ;;
        n) GAMES=$OPTARG ;;
        s) NODES=$OPTARG ;;
        o) OUT=$OPTARG ;;
        *) sed -n 2,18p "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n 2,18p "$0"; exit 2; }
STOCKFISH=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$STOCKFISH" ] || { echo "stockfish not found: apt-get install stockfish" >&2; exit 1; }
DATA=${KESTREL_DATA:-../shared/data}
[ -f "$DATA/openings.epd" ] || { echo "no $DATA/openings.epd (set KESTREL_DATA)" >&2; exit 1; }
mkdir -p "$OUT"
for ELO in "$@"; do
    "$KESTREL" match \
        -engine cmd="$KESTREL" name="Kestrel-$ELO" tc=60+0.6 \
            option.UCI_LimitStrength=true option.UCI_Elo="$ELO" option.OwnBook=true \
        -engine cmd="$STOCKFISH" name="Stockfish-$ELO" nodes="$NODES" \
            option.UCI_LimitStrength=true option.UCI_Elo="$ELO" \
        -each proto=uci option.Hash=16 -games 2 -rounds $((GAMES / 2)) -concurrency 2 \
        -openings file="$DATA/openings.epd" order=random -srand "$ELO" \
        -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=900 twosided=true \
        -pgnout "$OUT/level-$ELO.pgn" -json "$OUT/level-$ELO.json" 2>&1 | grep -v '^Finished game'
done
