# The typed layer of rollout.py (docs/engine.md "Compiled accelerator"): the random rollout
# plays a game as the cdef Game and calls the engine's apply through C (no attribute look-ups
# or argument parsing at each decision). The same draws as pure Python.
cimport cython

from imhotep_stats.engine.game cimport Game, apply

@cython.locals(opts=list)
cpdef random_rollout(Game g, rng, long limit)
