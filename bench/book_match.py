#!/usr/bin/env python3
"""Fixed-node matches with the engines' own opening books in play.

A plain `go nodes N` is analysis to Kestrel, so its book stays silent; this
wraps the shared match runner (../shared/tools/match.py, same arguments) so
that with --nodes every `go` also carries a far-off clock
(`go nodes N wtime 3600000 btime 3600000`): a game move, which the book may
answer, while the node limit still ends the search (fixed nodes keep the
result independent of the machine's load).

Examples (from the repository root, after cargo build --release):

  # What the book is worth: OwnBook on (weighted random picks) vs off
  echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' > /tmp/start.epd
  bench/book_match.py uci:target/release/kestrel uci:target/release/kestrel \\
      --option OwnBook=true --option2 OwnBook=false --openings /tmp/start.epd \\
      --nodes 5000 --games 100 --adjudicate --max-moves 120

Set KESTREL_TOOLS to the tools directory if it is not ../shared/tools.
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
tools = os.environ.get("KESTREL_TOOLS", os.path.join(here, "..", "..", "shared", "tools"))
if not os.path.exists(os.path.join(tools, "match.py")):
    sys.exit(f"match.py not found in {tools} (set KESTREL_TOOLS)")
sys.path.insert(0, tools)

import harness  # noqa: E402
import match  # noqa: E402

plain_go = harness.UciEngine.go_cmd


def go_with_clock(self, limit, clocks):
    cmd = plain_go(self, limit, clocks)
    if limit.nodes:
        cmd += " wtime 3600000 btime 3600000"
    return cmd


harness.UciEngine.go_cmd = go_with_clock

if __name__ == "__main__":
    sys.exit(match.main())
