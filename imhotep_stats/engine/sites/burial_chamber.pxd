# The typed layer of burial_chamber.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.rows cimport fixed
# the scoring helpers as C calls (the .py imports the same names)
from imhotep_stats.engine.sites.base cimport Site, group_points, line_groups, rank_points

cdef bint COMPILED

cdef class BurialRows(Site):
    cdef public object rows
    cdef public long filled  # stones on the board
    cdef long _owners[96]  # STONES (burial_chamber.py's rows: their public names are properties)
    @cython.locals(n=BurialRows)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long)
    cpdef deliver(self, Game g, long owner)

cdef class BurialChamberA(BurialRows):
    cdef public object group_table, group_extra
    @cython.locals(n=BurialChamberA)
    cpdef copy_into(self, Site new)
    @cython.locals(owners=list)
    cpdef game_end(self, Game g)

cdef class BurialChamberB(BurialRows):
    cdef public tuple row_points
    cdef public long players
    @cython.locals(n=BurialChamberB)
    cpdef copy_into(self, Site new)
    @cython.locals(n=long, r=long, counts=list, i=long)
    cpdef list row_counts(self)
    cpdef game_end(self, Game g)

cdef class BurialChamberC(Site):
    cdef public tuple levels
    cdef public object level_cap, overflow_points, space, acts, act_space, supports, above, adj
    cdef public long spaces, opens, seats  # mound spaces, legal ones, players
    cdef long _owner[100]  # SPACES: per space id
    cdef long _open[100]  # the legal spaces (opens of them)
    cdef long _overflow[4]  # SEATS: per seat
    cdef long _count[4]
    @cython.locals(n=BurialChamberC)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long)
    cpdef deliver(self, Game g, long owner)
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    @cython.locals(n=long, j=long, i=long, t=long, left=long, right=long)
    cpdef place(self, long s, long owner)
    @cython.locals(seen=list, out=list, start=long, o=long, stack=list, size=long, lo=long,
                   hi=long, s=long, lv=long, t=long)
    cpdef list areas(self)
    cpdef game_end(self, Game g)

cdef class BurialChamberD(Site):
    cdef public object rows, columns, per_round, no_token_points, absent_penalty, group_extra
    cdef public object acts
    cdef public tuple group_table
    cdef public long spaces, seats, face_count  # tomb spaces, players, face-up tokens
    cdef long _grid[100]  # SPACES: per space
    cdef long _face_up[100]  # SPACES: ascending (face_count of them)
    cdef long _edge[4]  # SEATS: per seat
    cdef long _count[4]
    cdef list _hidden_tokens  # not public: only this module reads it
    @cython.locals(n=BurialChamberD)
    cpdef copy_into(self, Site new)
    @cython.locals(k=long)
    cpdef round_start(self, Game g)
    cpdef round_end(self, Game g)
    @cython.locals(k=long)
    cpdef deliver(self, Game g, long owner)
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    @cython.locals(n=long, j=long, i=long)
    cpdef place(self, long token, long owner)
    @cython.locals(grid=list, p=long)
    cpdef game_end(self, Game g)
