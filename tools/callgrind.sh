#!/bin/sh
# Instructions per unit of an engine probe (tools/engine_bench.py), start-up cancelled:
# (I(3N units) - I(N units)) / 2N, each run under callgrind with PYTHONHASHSEED=0 and gc off.
#   tools/callgrind.sh games random A 20    -> instructions per random 3-player A game
#   tools/callgrind.sh clone D 200          -> instructions per determinization (2p, decision 30)
#   tools/callgrind.sh resample D 200       -> the same as a search makes them (no score events,
#                                              each copy in the storage of the one before)
#   tools/callgrind.sh mcts A 1             -> instructions per mcts400 iteration (N and 3N
#                                              decisions of 400 iterations, 2p, decision 30)
# PY (default .venv/bin/python) picks the interpreter: another worktree's build compares.
set -e
PY=${PY:-.venv/bin/python}
probe=$1; shift
case $probe in
  games) small=$3; big=$((3 * small)); a="$1 $2"; per=1 ;;
  clone|resample) small=$2; big=$((3 * small)); a="$1"; per=1 ;;
  mcts) small=$2; big=$((3 * small)); a="$1 400"; per=400 ;;  # a unit: one of 400 iterations
  *) echo "usage: $0 games BOT SIDES N | clone SIDES N | resample SIDES N | mcts SIDES N" >&2; exit 2 ;;
esac
count() {
  out=$(mktemp)
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$PY" tools/engine_bench.py "$probe" $a "$1" >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
  rm -f "$out"
}
i1=$(count $small)
i3=$(count $big)
echo "$probe $a: $(( (i3 - i1) / ((big - small) * per) )) instructions per unit ($small and $big units: $i1, $i3)"
