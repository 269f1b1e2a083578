# The typed layer of options.py (docs/engine.md "Compiled accelerator"): the count, the i-th
# (or drawn) option and the apply by draw read the cdef Game's fields in C and call its _perform
# in C.
cimport cython

from imhotep_stats.engine.actions cimport Action, place_at, sail_options
from imhotep_stats.engine.cards cimport blue_playable
from imhotep_stats.engine.game cimport Game, _perform

@cython.locals(p=long, sled=long, cap=long, quarry=long, blue=long, n=long, mask=long)
cpdef long option_count(Game g)

cpdef Action option_at(Game g, long i)

cpdef Action drawn_option(Game g, double x)

@cython.locals(p=long, sled=long, cap=long, quarry=long, blue=long, gets=long, places=long,
               sails=tuple, mask=long, n=long, k=long, j=long)
cpdef Action _option(Game g, long i, double x)

@cython.locals(n=long)
cdef inline long _bits(long mask)

cpdef apply_drawn(Game g, double x)
