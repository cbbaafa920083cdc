#!/usr/bin/env bash
# Rebuilds the default book compiled into kestrel (crates/book/data/default.bin)
# from the master games. Run from anywhere; DATA overrides the data folder.
#   scripts/build-default-book.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DATA:-../shared/data}"
cargo build --release --quiet
./target/release/kestrel book build --quiet \
    --pgn "$DATA"/pgn/masters/*.pgn \
    --out crates/book/data/default.bin \
    --max-ply 24 --min-games 3
ls -l crates/book/data/default.bin
