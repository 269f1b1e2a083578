# The typed layer of options.py (docs/engine.md "Compiled accelerator"): the count, the i-th
# option and the apply by index read the cdef Game's fields in C and call its _perform in C.
cimport cython

from imhotep_stats.engine.actions cimport Action
from imhotep_stats.engine.game cimport Game, _perform, options_of

@cython.locals(p=long, sled=long, n=long)
cpdef long option_count(Game g)

@cython.locals(p=long, sled=long, k=long, sails=tuple)
cpdef Action option_at(Game g, long i)

cpdef apply_option(Game g, long i)
