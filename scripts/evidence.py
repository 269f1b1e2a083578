"""Re-run the measured tables of docs/evidence.md and write their output back in place.

Each table sits between two markers; the first holds its commands (run with bash from the
repository root, .venv/bin first on PATH), and the table is what the last command prints:

    <!-- evidence NAME (what it costs)
    imhotep-stats evaluate --games 2000 --seed 0 --workers 2 --only wins
    -->
    ...the output...
    <!-- end NAME -->

    python scripts/evidence.py --list          # the tables and their commands
    python scripts/evidence.py NAME [NAME...]  # re-run these, rewrite their blocks
    python scripts/evidence.py --all           # every table (hours: see --list)
    python scripts/evidence.py --speed         # the speed table's own command (bench, alternated)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVIDENCE = ROOT / "docs" / "evidence.md"
BLOCK = re.compile(r"<!-- evidence (?P<name>[\w-]+)(?P<note>[^\n]*)\n(?P<commands>.*?)-->\n"
                   r"(?P<body>.*?)<!-- end (?P=name) -->", re.S)
# the speed table: (sides, bots, games) per row, each engine run alternately three times
SPEED_ROWS = (("A-A-A-A-A", "random", 2000), ("D-D-D-D-D", "random", 2000),
              ("A-A-A-A-A", "greedy", 300), ("D-D-D-D-D", "greedy", 300))


def blocks(text: str) -> list[re.Match]:
    return list(BLOCK.finditer(text))


def run(commands: str) -> str:
    env = dict(os.environ, PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
    out = subprocess.run(["bash", "-e", "-c", commands], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout


def speed() -> str:
    """The speed table: games per second of `bench`, three runs."""
    lines = ["| sides, bots (games per run) | games per second | games per CPU second |",
             "|---|---|---|"]
    for sides, bots, games in SPEED_ROWS:
        runs = []
        for _ in range(3):
            out = subprocess.run(
                ["imhotep-stats", "bench", "--sides", sides, "--players", "3", "--bots", bots,
                 "--games", str(games), "--json"], cwd=ROOT, check=True, text=True,
                capture_output=True)
            runs.append(json.loads(out.stdout))
        cells = [f"{min(r[k] for r in runs):,.0f} - {max(r[k] for r in runs):,.0f}"
                 for k in ("games_per_second", "games_per_cpu_second")]
        lines.append(f"| {sides}, {bots} ({games:,}) | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--file", type=Path, default=EVIDENCE)
    a = ap.parse_args(argv)
    if a.speed:
        sys.stdout.write(speed())
        return 0
    text = a.file.read_text(encoding="utf-8")
    found = {m["name"]: m for m in blocks(text)}
    if a.list or not (a.names or a.all):
        for name, m in found.items():
            print(f"{name}{m['note']}\n  " + "\n  ".join(m["commands"].strip().splitlines()))
        return 0
    unknown = [n for n in a.names if n not in found]
    if unknown:
        sys.exit(f"unknown table {', '.join(unknown)} (known: {', '.join(found)})")
    for name in found if a.all else a.names:
        m = blocks(text)[list(found).index(name)]
        print(f"running {name} ...", file=sys.stderr)
        body = run(m["commands"])
        text = text[:m.start("body")] + body + text[m.end("body"):]
        a.file.write_text(text, encoding="utf-8")  # after each table: a long run keeps its work
    return 0


if __name__ == "__main__":
    sys.exit(main())
