# The typed layer of burial_chamber.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.game cimport Game
# the scoring helpers as C calls (the .py imports the same names)
from imhotep_stats.engine.sites.base cimport Site, group_points, line_groups, rank_points

cdef class BurialRows(Site):
    cdef public object rows
    cdef public list owners
    @cython.locals(n=BurialRows)
    cpdef copy_into(self, Site new)
    cpdef deliver(self, Game g, long owner)

cdef class BurialChamberA(BurialRows):
    cdef public object group_table, group_extra
    @cython.locals(n=BurialChamberA)
    cpdef copy_into(self, Site new)
    cpdef game_end(self, Game g)

cdef class BurialChamberB(BurialRows):
    cdef public tuple row_points
    cdef public long players
    @cython.locals(n=BurialChamberB)
    cpdef copy_into(self, Site new)
    @cython.locals(n=long, r=long, counts=list, i=Py_ssize_t, o=long)
    cpdef list row_counts(self)
    cpdef game_end(self, Game g)

cdef class BurialChamberC(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public tuple levels
    cdef public object level_cap, overflow_points, space, acts, act_space, supports, above, adj
    cdef public list owner, open, overflow, count
    @cython.locals(n=BurialChamberC)
    cpdef copy_into(self, Site new)
    cpdef deliver(self, Game g, long owner)
    cpdef place(self, long s, long owner)
    cpdef list areas(self)
    cpdef game_end(self, Game g)

cdef class BurialChamberD(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object rows, columns, per_round, no_token_points, absent_penalty, group_extra
    cdef public object acts
    cdef public tuple group_table
    cdef public list face_up, grid, edge, count
    cdef list _hidden_tokens  # not public: only this module reads it
    @cython.locals(n=BurialChamberD)
    cpdef copy_into(self, Site new)
    cpdef round_start(self, Game g)
    cpdef round_end(self, Game g)
    cpdef deliver(self, Game g, long owner)
    cpdef place(self, long token, long owner)
    cpdef game_end(self, Game g)
