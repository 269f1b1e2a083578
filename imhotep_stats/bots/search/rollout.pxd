# The typed layer of rollout.py (docs/engine.md "Compiled accelerator"): the random rollout
# plays a game as the cdef Game and calls the engine in C (the apply by draw: no list built,
# no attribute look-ups or argument parsing at each decision). The same draws as pure Python:
# a C double times a C long rounds as a Python float does.
cimport cython

from imhotep_stats.engine.game cimport Game, apply
from imhotep_stats.engine.options cimport apply_drawn
from imhotep_stats.engine.stream cimport Stream

@cython.locals(s=Stream)
cpdef random_rollout(Game g, rng, long limit)
