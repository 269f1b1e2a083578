#!/bin/sh
# The engine's speed figures in one go (docs/engine.md "Measuring speed"): callgrind
# instructions per game, per determinization and per mcts400 iteration (tools/callgrind.sh). Run from a checkout
# whose build to measure is importable (PY and PYTHONPATH pick it, as in tools/callgrind.sh).
set -e
here=$(dirname "$0")
"$here/callgrind.sh" games random A 20
"$here/callgrind.sh" games greedy A 20
"$here/callgrind.sh" games greedy D 20
"$here/callgrind.sh" clone A 100
"$here/callgrind.sh" clone D 100
"$here/callgrind.sh" mcts A 1
