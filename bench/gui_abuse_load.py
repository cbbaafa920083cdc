#!/usr/bin/env python3
"""The GUI server under load (issue 44): how long a probe request waits
while many games play at once, and while many slow clients hold
connections open; with the server's peak memory. Give it a build from
before the server's limits and one after to compare them in one run.

    python3 bench/gui_abuse_load.py BINARY [BINARY ...] [--games 200]
        [--moves 10] [--slow 1100] [--slow-seconds 30]

For each binary: starts `BINARY gui --port 0`; a probe thread asks for
`GET /api/options` every 0.2 s (10 s timeout) throughout. Phase 1: --games
games opened and played at once (one thread each, --moves moves each, one
`/api/move` at a time). Phase 2: --slow connections that each send a
request line and then one header line every 5 s, never ending the header,
held for --slow-seconds. For each phase it prints how many probes were
answered, their median and slowest wait, the refusals (HTTP status) and
time-outs, the longest time without an answered probe, and the server's
peak resident memory (VmHWM); for phase 1 the games not finished and
why, for phase 2 how many of the slow connections the server had closed
or answered by the end. The server runs with the descriptor limit a shell
gives it (the soft limit, at most 1024), as a user would start it.
"""
import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gui_load import MOVES, call, memory  # noqa: E402

PROBE_TIMEOUT = 10.0
# The server's descriptor limit: the shell's soft limit, at most 1024 (set in main).
SERVER_FILES = (1024, 1024)


class Probe:
    """Asks for /api/options every 0.2 s in its own thread, recording each
    answer's wait and outcome (`ok`, the HTTP status of a refusal, or
    `timeout`/`error`); each phase reads the probes made since it began."""

    def __init__(self, url):
        self.url = url
        self.probes = []  # (start time, wait, outcome)
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            start = time.monotonic()
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url + "/api/options", timeout=PROBE_TIMEOUT) as res:
                    res.read()
                outcome = "ok"
            except urllib.error.HTTPError as e:
                outcome = str(e.code)
            except (TimeoutError, socket.timeout):
                outcome = "timeout"
            except (urllib.error.URLError, OSError) as e:
                reason = getattr(e, "reason", e)
                outcome = "timeout" if isinstance(reason, (TimeoutError, socket.timeout)) else "error"
            self.probes.append((start, time.perf_counter() - t0, outcome))
            time.sleep(0.2)

    def mark(self):
        return len(self.probes)

    def since(self, mark):
        return self.probes[mark:]


def report(label, probe, mark, pid, extra=""):
    probes = probe.since(mark)
    answered = [wait for _, wait, outcome in probes if outcome == "ok"]
    others = {}
    for _, _, outcome in probes:
        if outcome != "ok":
            others[outcome] = others.get(outcome, 0) + 1
    # The longest time without an answered probe: what a user waits.
    longest = 0.0
    if probes:
        last_ok = probes[0][0]
        for start, wait, outcome in probes:
            if outcome == "ok":
                longest = max(longest, start + wait - last_ok)
                last_ok = start + wait
        longest = max(longest, probes[-1][0] + probes[-1][1] - last_ok)
    if answered:
        text = (f"{len(answered)} of {len(probes)} probes answered, median {statistics.median(answered) * 1000:.0f} ms, "
                f"slowest {max(answered) * 1000:.0f} ms")
    else:
        text = f"none of {len(probes)} probes answered"
    if others:
        text += " (" + ", ".join(f"{n} {k}" for k, n in sorted(others.items())) + ")"
    text += f"; longest without an answer {longest:.1f} s"
    peak = memory(pid)["VmHWM"]
    print(f"  {label}: {text}; peak RSS {peak:.0f} MiB{extra}", flush=True)


def play_game(url, moves, errors):
    try:
        game = call(url, "/api/game", {})["id"]
        for move in MOVES[: 2 * moves]:
            call(url, "/api/move", {"game": game, "move": move})
    except urllib.error.HTTPError as e:  # counted: refusals are part of the figure
        errors.append(str(e.code))
    except Exception as e:
        errors.append(type(e).__name__)


def slow_clients(host, port, count, seconds):
    """Opens `count` connections that dribble header lines; after `seconds`,
    how many the server had closed or answered."""
    socks = []
    for _ in range(count):
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: %s:%d\r\n" % (host.encode(), port))
            s.setblocking(False)
            socks.append(s)
        except OSError:
            break
    opened = len(socks)
    ended = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i, s in enumerate(socks):
            if i in ended:
                continue
            try:
                data = s.recv(4096)
                if data == b"" or data.startswith(b"HTTP/"):
                    ended.add(i)
                    continue
            except BlockingIOError:
                pass
            except OSError:
                ended.add(i)
                continue
            try:
                s.sendall(b"x-slow: 1\r\n")
            except OSError:
                ended.add(i)
        time.sleep(5)
    for s in socks:
        s.close()
    return opened, len(ended)


def measure(binary, args):
    print(f"{binary}:", flush=True)
    # The server gets the descriptor limit a shell gives it, not the one
    # raised here for the slow clients.
    server = subprocess.Popen([binary, "gui", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, SERVER_FILES))
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://")).rstrip("/")
        host, port = url.removeprefix("http://").split(":")
        probe = Probe(url)
        time.sleep(2)
        report("idle", probe, 0, server.pid)

        mark = probe.mark()
        errors = []
        t0 = time.perf_counter()
        threads = [threading.Thread(target=play_game, args=(url, args.moves, errors))
                   for _ in range(args.games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.perf_counter() - t0
        refused = ", ".join(f"{errors.count(k)} {k}" for k in sorted(set(errors))) or "none"
        report(f"{args.games} games at once ({args.moves} moves each, {took:.1f} s; not finished: {refused})",
               probe, mark, server.pid)

        mark = probe.mark()
        opened, ended = slow_clients(host, int(port), args.slow, args.slow_seconds)
        report(f"{opened} slow connections for {args.slow_seconds} s", probe, mark, server.pid,
               f"; {ended} of them closed or answered by the server")
        probe.stop = True
        probe.thread.join(PROBE_TIMEOUT + 1)
    finally:
        server.terminate()
        server.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--moves", type=int, default=10, help="moves (not plies) per game, at most 20")
    ap.add_argument("--slow", type=int, default=1100)
    ap.add_argument("--slow-seconds", type=int, default=30)
    args = ap.parse_args()
    # One descriptor a slow connection, and the games' and probe's besides.
    global SERVER_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    SERVER_FILES = (min(soft, 1024), hard)
    want = min(hard, max(soft, args.slow + args.games + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    for binary in args.binaries:
        measure(binary, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
