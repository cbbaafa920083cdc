#!/usr/bin/env python3
"""Writes crates/book/data/masters.pgn.zst, the master games Kestrel ships
(the opening explorer reads them; the built-in book was built from the same
games), from the collection in ../shared/data/pgn/masters (sources and
licences in crates/book/data/README.md).

Each game keeps its facts only: the Seven Tag Roster, the players' ratings
and the ECO code, and the main line; comments and variations are dropped.
Games from a set-up position or of another variant are left out, and a game
found twice (same players, date and moves: the player files overlap) is
kept once. Reading is python-chess's, an implementation independent of
Kestrel's.

    python3 scripts/build-masters.py [DATA_DIR]
"""

import io
import subprocess
import sys
from pathlib import Path

import chess.pgn

KEEP = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo", "ECO"]
FILES = ["Kasparov.pgn", "Korchnoi.pgn", "Carlsen.pgn", "twic0920.pgn", "twic1599_1000k.pgn"]


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared" / "data"
    out = root / "crates" / "book" / "data" / "masters.pgn.zst"
    seen = set()
    text = io.StringIO()
    kept = twice = skipped = 0
    for name in FILES:
        raw = (data / "pgn" / "masters" / name).read_bytes()
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            decoded = raw.decode("latin-1")  # Kasparov.pgn
        stream = io.StringIO(decoded)
        while (game := chess.pgn.read_game(stream)) is not None:
            headers = game.headers
            if "FEN" in headers or headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
                skipped += 1
                continue
            if game.errors:
                skipped += 1
                continue
            moves = " ".join(m.uci() for m in game.mainline_moves())
            key = (headers.get("White"), headers.get("Black"), headers.get("Date"), moves)
            if key in seen:
                twice += 1
                continue
            seen.add(key)
            clean = chess.pgn.Game()
            for tag in KEEP:
                value = headers.get(tag, "").strip()
                if value or tag in chess.pgn.TAG_ROSTER:
                    clean.headers[tag] = value or "?"
            node = clean
            for move in game.mainline_moves():
                node = node.add_main_variation(move)
            exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
            text.write(clean.accept(exporter))
            text.write("\n\n")
            kept += 1
    body = text.getvalue().encode("utf-8")
    packed = subprocess.run(["zstd", "-19", "-q", "-c"], input=body, capture_output=True, check=True).stdout
    out.write_bytes(packed)
    print(f"{kept} games kept, {twice} found twice, {skipped} left out; "
          f"{len(body)} bytes of PGN, {len(packed)} compressed: {out.relative_to(root)}")


if __name__ == "__main__":
    main()
