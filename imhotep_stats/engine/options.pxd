# The typed layer of options.py (docs/engine.md "Compiled accelerator"): the count, the i-th
# option and the apply by index read the cdef Game's fields in C and call its _perform in C.
cimport cython

from imhotep_stats.engine.actions cimport Action
from imhotep_stats.engine.cards cimport blue_playable
from imhotep_stats.engine.game cimport Game, _perform

@cython.locals(p=long, sled=long, cap=long, quarry=long, blue=long, n=long, mask=long)
cpdef long option_count(Game g)

@cython.locals(p=long, sled=long, cap=long, quarry=long, k=long, sails=tuple, mask=long, j=long)
cpdef Action option_at(Game g, long i)

cpdef apply_option(Game g, long i)
