#!/usr/bin/env python3
"""The GUI server's memory with many open games, and the page's load time.

Starts `kestrel gui --port 0`, reads its resident memory (VmRSS from
/proc/PID/status) idle, after opening --games games through the API with
--moves moves each (played one by one with /api/move), and after each of
those games has run one short search (which fills its engine's table, as
analysis does); then loads the page --loads times in headless Chromium
(tests/gui/load_time.js: a fresh browser context each time) with those
games open and prints the median and slowest times. Every figure comes
from this one run; the server is stopped at the end.

Usage: bench/gui_load.py [--kestrel target/release/kestrel] [--games 100]
       [--moves 20] [--loads 10] [--search-ms 100]
(needs node and tests/gui/node_modules/playwright-core, as the browser tests)
"""

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A common opening, 20 moves (40 plies): games of some length.
MOVES = ("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 "
         "c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6").split()


def call(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


def memory(pid):
    """VmRSS and VmHWM (the peak) of `pid`, MiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


def show(label, pid, games):
    m = memory(pid)
    print(f"{label}: {games} games, VmRSS {m['VmRSS']:.0f} MiB (peak {m['VmHWM']:.0f} MiB)", flush=True)
    return m["VmRSS"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kestrel", default=os.path.join(ROOT, "target/release/kestrel"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--moves", type=int, default=20, help="moves (not plies) per game, at most 20")
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--search-ms", type=int, default=100, help="each game's search, ms (0: none)")
    args = ap.parse_args()

    server = subprocess.Popen([args.kestrel, "gui", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://")).rstrip("/")
        print(f"{args.kestrel} gui at {url}")
        idle = show("idle", server.pid, 0)

        t0 = time.perf_counter()
        ids = []
        for _ in range(args.games):
            game = call(url, "/api/game", {})["id"]
            for move in MOVES[: 2 * args.moves]:
                call(url, "/api/move", {"game": game, "move": move})
            ids.append(game)
        made = time.perf_counter() - t0
        print(f"opened {len(ids)} games of {args.moves} moves in {made:.1f} s "
              f"({1000 * made / max(1, len(ids) * 2 * args.moves):.2f} ms a move)")
        moved = show("games with moves", server.pid, len(ids))

        searched = moved
        if args.search_ms and ids:
            for game in ids:
                settings = {"movetime_ms": args.search_ms, "own_book": False}
                call(url, "/api/go", {"game": game, "settings": settings})
                time.sleep(args.search_ms / 1000 + 0.05)
            searched = show(f"after a {args.search_ms} ms search in each", server.pid, len(ids))
        if ids:
            alive = sum(1 for g in ids if state_ok(url, g))
            print(f"per game: {(moved - idle) / len(ids):.2f} MiB with moves, "
                  f"{(searched - idle) / len(ids):.2f} MiB after a search; {alive} of {len(ids)} still open")

        loads = subprocess.run(["node", os.path.join(ROOT, "tests/gui/load_time.js"), url + "/", str(args.loads)],
                               capture_output=True, text=True)
        sys.stdout.write(loads.stdout)
        if loads.returncode != 0:
            sys.stderr.write(loads.stderr)
            return 1
        show("after the page loads", server.pid, len(ids) + args.loads)
    finally:
        server.terminate()
        server.wait()
    return 0


def state_ok(url, game):
    try:
        call(url, f"/api/state?game={game}")
        return True
    except urllib.error.HTTPError:
        return False


if __name__ == "__main__":
    sys.exit(main())
