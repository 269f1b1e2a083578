# The typed layer of base.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Site is a cdef class and every side a cdef subclass (its module's
# .pxd): an attribute is a C struct field, and a copy (``copy``/``copy_into``) copies fields
# one by one, with no dict. Every attribute a side sets must be declared in its .pxd.
# The rule methods the engine calls at every stone and round take the game as the cdef Game, so
# their reads and writes of its state are C field accesses. (Compiled, this module's init
# fetches the Game type from engine.game, which is already loading: game.py imports the sites.)
cimport cython

from imhotep_stats.engine.game cimport Game

cdef class Site:
    cdef public long index
    cdef public object name, data
    @cython.locals(new=Site)
    cpdef Site copy(self)
    cpdef copy_into(self, Site new)
    cpdef deliver(self, Game g, long owner)
    cpdef answer(self, Game g, long kind, a, tuple ctx)  # a C call from the engine's _answer
    cpdef round_start(self, Game g)
    cpdef round_end(self, Game g)
    cpdef game_end(self, Game g)
    cpdef on_get(self, Game g, long p, a)  # Pyramid D's figure (a C call from the engine's _turn)

@cython.locals(n=Py_ssize_t, out=list, order=list, p=Py_ssize_t, at=Py_ssize_t, rank=Py_ssize_t,
               i=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t, r=Py_ssize_t)
cpdef list rank_points(list values, table, long minimum=*)

cpdef group_points(long size, table, extra)

@cython.locals(n=Py_ssize_t, cells=list, groups=list, found=list, k=Py_ssize_t, start=Py_ssize_t,
               owner=long, first=Py_ssize_t, i=Py_ssize_t, r=Py_ssize_t, c=long)
cpdef list line_groups(list owners, Py_ssize_t width)
