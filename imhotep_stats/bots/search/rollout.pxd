# The typed layer of rollout.py (docs/engine.md "Compiled accelerator"): the random rollout
# plays a game as the cdef Game and calls the engine in C (the option count and the apply by
# index: no list built, no attribute look-ups or argument parsing at each decision). The
# same draws as pure Python: a C double times a C long rounds as a Python float does.
cimport cython

from imhotep_stats.engine.game cimport Game, apply
from imhotep_stats.engine.actions cimport Action
from imhotep_stats.engine.options cimport apply_option, option_at, option_count

@cython.locals(x=double)
cpdef random_rollout(Game g, rng, long limit)

cdef class MastTable:
    cdef public double epsilon
    cdef public list means, trail

    @cython.locals(j=long, p=long, r=double, means=dict, s=list, trail=list)
    cpdef learn(self, list credit)

@cython.locals(count=long, i=long, j=long, p=long, a=Action, b=Action, top=double,
               v=double, epsilon=double, trail=list, means=dict, s=list)
cpdef mast_rollout(Game g, rng, long limit, MastTable table)
