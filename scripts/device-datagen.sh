#!/usr/bin/env bash
# Self-play on a lent accelerator machine's 16 cores, into a store of its
# own that comes back through $OUT and is adopted into selfplay/.
#
# Here, before the device call (builds a portable binary, since the device's
# CPU may differ from this one, and copies the openings into the tree):
#   scripts/device-datagen.sh prepare
# The device call (run tool; carry .device; timeout_s 600):
#   bash scripts/device-datagen.sh run 8      # minutes of play
# Here, after it (files_at is the folder the run tool reports):
#   scripts/device-datagen.sh adopt FILES_AT/store.tar
#   git add selfplay && git commit -m "selfplay: N shards from the device"
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
    grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >> .git/info/exclude
    mkdir -p .device
    CARGO_TARGET_DIR=target/portable RUSTFLAGS="-C target-cpu=x86-64-v3" \
        cargo build --release --bin kestrel
    cp target/portable/release/kestrel .device/kestrel
    cp "${DATA:-../shared/data}/openings.epd" .device/openings.epd
    ls -l .device
    ;;
run)
    minutes="${2:-8}"
    out="${OUT:?run on the device machine, where \$OUT is set}"
    threads="$(nproc)"
    hours="$(python3 -c "print($minutes / 60)")"
    # Large shards: fewer files to bring back (1 M positions is about 1.7 MB).
    .device/kestrel datagen run --store "$out/store" --threads "$threads" \
        --openings .device/openings.epd --shard-positions 1000000 --play-out 10 \
        --hours "$hours" --report-secs 60
    .device/kestrel datagen verify --store "$out/store" --deep
    tar -C "$out" -cf "$out/store.tar" store/manifest.json store/shards
    rm -rf "$out/store"
    ls -l "$out"
    ;;
adopt)
    tar_file="${2:?the store.tar the device run returned}"
    # Only the store's manifest and shard files, as plain files and
    # folders: no link, device, absolute path or `..` is unpacked (adopt
    # then checks every name and hash against the manifest again).
    shard='store/shards/[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9a-f]{16}\.vfc?\.zst'
    bad="$(tar -tf "$tar_file" | grep -Evx "store/?|store/manifest\.json|store/shards/?|$shard" || true)"
    if [ -n "$bad" ]; then
        echo "refused: $tar_file holds more than a store's manifest and shards:" >&2
        echo "$bad" | head -5 >&2
        exit 1
    fi
    if tar -tvf "$tar_file" | grep -qv '^[-d]'; then
        echo "refused: $tar_file holds links or special files" >&2
        exit 1
    fi
    tmp="$(mktemp -d)"
    tar -C "$tmp" --no-same-owner --no-same-permissions -xf "$tar_file"
    ./target/release/kestrel datagen adopt "$tmp/store"
    ./target/release/kestrel datagen verify
    rm -rf "$tmp"
    ;;
*)
    echo "usage: $0 prepare | run MINUTES | adopt STORE.tar" >&2
    exit 2
    ;;
esac
