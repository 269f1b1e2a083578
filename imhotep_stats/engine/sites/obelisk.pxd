# The typed layer of obelisk.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.game cimport Game
# rank_points as a C call (the .py imports the same name)
from imhotep_stats.engine.sites.base cimport Site, rank_points

cdef bint COMPILED  # the .py's constant, a C test: the rows are C arrays or lists

cdef class ObeliskA(Site):
    cdef public long seats
    cdef long _heights[4]  # SEATS (obelisk.py's rows: their public names are properties)
    cdef public object table
    @cython.locals(n=ObeliskA)
    cpdef copy_into(self, Site new)
    cpdef deliver(self, Game g, long owner)
    cpdef game_end(self, Game g)

cdef class ObeliskB(Site):
    cdef public object per, leftover_points
    cdef public list slot_order, slot_points
    cdef public long seats, taken
    cdef long _slot_owner[16]  # OBELISKS
    cdef long _pending[4]  # SEATS
    cdef long _built[4]
    @cython.locals(n=ObeliskB)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long, taken=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(p=long)
    cpdef game_end(self, Game g)

cdef class ObeliskC(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object columns, row_points, bonus, overflow_points
    cdef public tuple path
    cdef public long next
    cdef public list cards, on_path, overflow, discarded
    @cython.locals(n=ObeliskC)
    cpdef copy_into(self, Site new)
    cpdef deliver(self, Game g, long owner)
    cpdef game_end(self, Game g)

# Obelisk C's options for a stone: C calls from the site's deliver
cpdef list placement_options(long columns, token, heights)
@cython.locals(low=long, rel=tuple, found=list)
cpdef list placements(long columns, token, heights)

cdef class ObeliskD(Site):
    cdef public list target, points, claim_action
    cdef public object unfinished_points, overflow_points
    cdef public long count, seats  # obelisks, players
    cdef long _owner[16]  # OBELISKS: per obelisk (obelisk.py's rows: their public names are properties)
    cdef long _height[16]
    cdef long _working[4]  # SEATS: per seat
    cdef long _placed[4]
    cdef long _overflow[4]
    @cython.locals(n=ObeliskD)
    cpdef copy_into(self, Site new)
    @cython.locals(o=long, opts=list, claim=list)
    cpdef deliver(self, Game g, long owner)
    cpdef _add(self, long owner, long o)
    @cython.locals(o=long, claim=list)
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    @cython.locals(o=long, p=long, h=long)
    cpdef game_end(self, Game g)
