#!/usr/bin/env bash
# `make web`: Kestrel in the browser, as a static site in target/web/ (any
# static file server serves it; see README.md and docs/web.md): the GUI's
# own page (crates/gui/assets, as `kestrel gui` serves it) with the backend
# that needs no server (crates/web/site/backend.js, loaded before app.js),
# the game and engine Workers (crates/web/js) and the module they both run
# (kestrel.wasm: the engine, its network and book, and the game logic of
# crates/gamerecord); plus the UCI console page (console.html).
#
# Debian 12's own Rust for the web target (apt-get install
# --no-install-recommends rustc-web cargo-web rust-web-src lld-22): its
# rustc builds the standard library from source for wasm32-unknown-unknown
# (-Z build-std, allowed by RUSTC_BOOTSTRAP) and wasm-ld-22 links. RUSTC is
# set, or Debian's cargo would take rustup's rustc. The native CPU flag of
# .cargo/config.toml is replaced for the wasm target (target-cpu=generic),
# plus 128-bit SIMD (WEB_SIMD=0 leaves it out, to compare); getrandom's
# random bytes come from the page (`custom` backend, crates/web/src/wasm.rs).
# The build has its own target folder (WEB_TARGET_DIR, target/wasm by
# default): another compiler, other artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${WEB_OUT:-target/web}
TARGET_DIR=${WEB_TARGET_DIR:-target/wasm}
features=""
if [ "${WEB_SIMD:-1}" != 0 ]; then
    features=',"-C","target-feature=+simd128"'
fi
for tool in /usr/bin/rustc /usr/bin/cargo wasm-ld-22; do
    command -v "$tool" >/dev/null || {
        echo "make web: $tool is missing (apt-get update && apt-get install --no-install-recommends rustc-web cargo-web rust-web-src lld-22)" >&2
        exit 1
    }
done
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$TARGET_DIR \
    /usr/bin/cargo build --release -p web --target wasm32-unknown-unknown \
    -Z build-std=std,panic_abort \
    --config 'target.wasm32-unknown-unknown.linker="wasm-ld-22"' \
    --config "target.wasm32-unknown-unknown.rustflags=[\"-C\",\"target-cpu=generic\"$features,\"--cfg\",'getrandom_backend=\"custom\"']"
mkdir -p "$OUT"
cp "$TARGET_DIR/wasm32-unknown-unknown/release/web.wasm" "$OUT/kestrel.wasm"
cp crates/web/js/*.js crates/web/site/* "$OUT/"
# The GUI's page and its files, at the paths `kestrel gui` serves them
# (crates/gui/src/assets.rs): the scripts and style at the root, chessground
# beside them (its licence in chessground/), the pieces in pieces/.
assets=crates/gui/assets
cp "$assets"/*.js "$assets"/style.css "$OUT/"
cp "$assets"/chessground/chessground.js "$assets"/chessground/chessground.css "$OUT/"
mkdir -p "$OUT/chessground"
cp "$assets"/chessground/LICENSE "$assets"/chessground/README.md "$OUT/chessground/"
cp -r "$assets"/pieces "$OUT/pieces"
# The default set is also served by its name (/pieces/cburnett/wK.svg).
mkdir -p "$OUT/pieces/cburnett"
cp "$assets"/pieces/*.svg "$OUT/pieces/cburnett/"
sed 's#<script src="/app.js"></script>#<script src="/backend.js"></script>\n&#' \
    "$assets"/index.html >"$OUT/index.html"
grep -q '<script src="/backend.js">' "$OUT/index.html" || {
    echo "make web: index.html has no <script src=\"/app.js\"> to put the backend before" >&2
    exit 1
}
# The page's other addresses (/play, /analysis, /editor: pages.js), which a
# static server answers from a folder's index.html.
for page in play analysis editor; do
    mkdir -p "$OUT/$page"
    cp "$OUT/index.html" "$OUT/$page/index.html"
done
echo "make web: $(du -sh "$OUT" | cut -f1) in $OUT/ ($(stat -c %s "$OUT/kestrel.wasm") bytes of WebAssembly)"
