# The typed layer of view.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. View is a cdef class: its game is a C field that is not public
# (Python cannot reach the game through a view), and its properties read the game's typed
# attributes directly (bots read them at every decision).
from imhotep_stats.engine.game cimport Game

cdef class View:
    cdef Game _g
    cdef readonly long me
    cdef list _seen
    cdef object _prophecy
