# The typed layer of view.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. View is a cdef class: its game is a C field that is not public
# (Python cannot reach the game through a view), and its properties read the game's typed
# attributes directly (bots read them at every decision).
cimport cython

from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.seen cimport fresh

cdef bint COMPILED

cdef class View:
    cdef Game _g
    cdef readonly long me
    cdef list _seen, _kept
    cdef object _prophecy
    cdef tuple _ships

    @cython.locals(n=long, i=long)
    cdef list _row(self, long k)
    @cython.locals(g=Game)
    cdef inline long _row_item(self, long k, long i) noexcept
    @cython.locals(a=long, b=long, c=long, d=long)
    cdef tuple _row_tuple(self, long k, long n)
    @cython.locals(g=Game, size=long, at=long, a=long, b=long, c=long)
    cdef tuple _ship_tuple(self, long s)
    @cython.locals(kept=list, old=tuple, i=long, v=long, t=tuple)
    cdef tuple _kept_row(self, long k, long n)
    @cython.locals(kept=list, t=tuple)
    cdef tuple _keep(self, Py_ssize_t k, list now)

    @cython.locals(g=Game, old=tuple, new=tuple, same=bint, s=long, k=long, size=long,
                   was=tuple, v=long)
    cdef tuple _ship_slots(self)

    @cython.locals(g=Game, n=long)
    cpdef tuple counters(self)
