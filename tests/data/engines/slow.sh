#!/bin/sh
# A UCI engine that always takes one second to play 1. e4 (lab tests: it
# must lose on time at any clock shorter than that).
while read -r line; do
    case "$line" in
        uci) echo "id name slow"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) sleep 1; echo "info depth 1 score cp 20 time 1000 pv e2e4"; echo "bestmove e2e4" ;;
        quit) exit 0 ;;
    esac
done
