#!/bin/sh
# A UCI engine that starts properly and never answers `go` (lab tests).
while read -r line; do
    case "$line" in
        uci) echo "id name hang"; echo "uciok" ;;
        isready) echo "readyok" ;;
        quit) exit 0 ;;
    esac
done
