# The typed layer of pyramid.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.cards cimport gain  # a C call (the .py imports the same name)
from imhotep_stats.engine.actions cimport Action
from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.rows cimport fixed, room
from imhotep_stats.engine.sites.base cimport Site

cdef bint COMPILED

cdef class PyramidA(Site):
    cdef public object points, overflow
    cdef public long placed  # stones in owners (pyramid.py's rows: their public names are properties)
    cdef long _owners[128]  # STONES: in fill order
    @cython.locals(n=PyramidA)
    cpdef copy_into(self, Site new)
    @cython.locals(i=long)
    cpdef deliver(self, Game g, long owner)

cdef class _Counted(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object overflow
    cdef public long seats, overflows  # players; stones in overflow_owners
    cdef long _count[4]  # SEATS: per seat
    cdef long _overflow_owners[128]  # STONES: in order
    @cython.locals(n=_Counted)
    cpdef copy_into(self, Site new)
    @cython.locals(i=long)
    cpdef _overflow(self, Game g, long owner)

cdef class PyramidB(_Counted):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public list spaces, choices
    cdef public dict index_of
    cdef public long n_pyramids, n_open  # pyramids; pyramids in open
    cdef long _laid[4]  # PYRAMIDS: the stones on each
    cdef long _on[32]  # PYRAMIDS * HEIGHT: pyramid i's owners at i * HEIGHT + k
    cdef long _open[4]  # PYRAMIDS: the pyramids not full, in order
    @cython.locals(n=PyramidB)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(spaces=list, k=long, j=long, o=long)
    cpdef _place(self, Game g, long owner, long i)

cdef class PyramidC(_Counted):
    cdef public object tiles, majority_points, tie_points, rewards
    cdef public long n_done, n_on  # full tiles; stones on the face-up tile
    cdef long _done_tile[8]  # TILES: the full tiles, bottom first
    cdef long _done_owners[64]  # TILES * TILE: full tile d's owners at d * TILE + k
    cdef long _on_tile[8]  # TILE: the owners on the face-up tile
    cdef list _hidden_removed, _hidden_stack  # not public: only this module reads them
    cdef public long tiles_left, tile
    @cython.locals(n=PyramidC)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(per=list, i=long, p=long, d=long)
    cpdef _complete(self, Game g)

cdef class PyramidD(_Counted):
    cdef public tuple points
    cdef public long size, filled, figure
    cdef long _spaces[32]  # SPACES: the owner per space (-1 free)
    @cython.locals(n=PyramidD)
    cpdef copy_into(self, Site new)
    @cython.locals(i=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(size=long, step=long, i=long)
    cpdef long _next_free(self) except? -2
    @cython.locals(free_elsewhere=long)
    cpdef update_get(self, Game g)
    @cython.locals(i=long)
    cpdef on_get(self, Game g, long p, a)

# typed for their C reads of the game's small counters (game.pxd's C arrays)
cpdef give_reward(Game g, long p, kind, n)
cpdef _ship_slot(Game g, Action a, long p)
