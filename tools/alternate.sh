#!/bin/sh
# Wall-clock comparison of two builds in one run, alternating (docs/engine.md "Measuring
# speed"): OLD and NEW are directories holding an importable imhotep_stats (a checkout with
# its compiled modules); PY the interpreter with the dependencies. Per round: bench random A
# 3 players (games per CPU second) and mcts400 iterations per CPU second, old then new.
# (-P: the current directory is not put on sys.path, so PYTHONPATH picks the build.)
#   OLD=/work/old-engine NEW=. tools/alternate.sh 3
set -e
PY=${PY:-.venv/bin/python}
rounds=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
for r in $(seq "$rounds"); do
  for build in "$OLD" "$NEW"; do
    b=$(PYTHONPATH="$build" "$PY" -P -c 'from imhotep_stats.cli import main; main()' bench \
        --sides A-A-A-A-A --players 3 --bots random --games 2000 --json |
        "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["games_per_second"], d["games_per_cpu_second"], d["engine"])')
    m=$(PYTHONPATH="$build" "$PY" "$here/engine_bench.py" mcts A 400 3)
    echo "round $r $build: random A 3p games/s, per CPU s: $b | $m"
  done
done
