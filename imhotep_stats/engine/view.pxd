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

    @cython.locals(kept=list, t=tuple)
    cdef tuple _keep(self, Py_ssize_t k, now)  # now: a list, or a compiled game's Row

    @cython.locals(ships=list, old=tuple, n=Py_ssize_t, new=tuple, same=bint, kept=list,
                   s=Py_ssize_t, was=tuple, t=tuple)
    cdef tuple _ship_slots(self)

    cpdef tuple counters(self)
