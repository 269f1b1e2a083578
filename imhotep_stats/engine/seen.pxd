# The typed layer of seen.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Each window is a cdef class holding its site in a C field of the
# side's engine class (not public: Python cannot reach the site through it), so a property
# reads the site's typed field directly; what it shows that is fixed at setup is a readonly
# field. Every attribute a window sets must be declared here.
from imhotep_stats.engine.sites.base cimport Site
from imhotep_stats.engine.sites.burial_chamber cimport (
    BurialChamberB,
    BurialChamberC,
    BurialChamberD,
    BurialRows,
)
from imhotep_stats.engine.sites.market cimport MarketA, MarketB, MarketC, MarketD
from imhotep_stats.engine.sites.obelisk cimport ObeliskA, ObeliskB, ObeliskC, ObeliskD
from imhotep_stats.engine.sites.pyramid cimport PyramidA, PyramidB, PyramidC, PyramidD, _Counted
from imhotep_stats.engine.sites.temple cimport TempleD, TempleLayers

cimport cython

cdef bint COMPILED

cpdef tuple tuples(list v)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t)
cpdef tuple fresh(tuple old, list now)

cdef class SiteSeen:
    cdef Site _site
    cdef list _kept
    cdef readonly long index
    cdef readonly object name, side, data
    @cython.locals(kept=list, t=tuple)
    cdef tuple _keep(self, Py_ssize_t k, list now)
    @cython.locals(kept=list, old=tuple, t=tuple, i=Py_ssize_t, x=long)
    cdef tuple _keep_row(self, Py_ssize_t k, long* row, Py_ssize_t n)

cdef class MarketASeen(SiteSeen):
    cdef MarketA _s
    cdef readonly object size

cdef class MarketBSeen(SiteSeen):
    cdef MarketB _s
    cdef readonly object size, pair_size

cdef class MarketCSeen(SiteSeen):
    cdef MarketC _s
    cdef readonly object size

cdef class MarketDSeen(SiteSeen):
    cdef MarketD _s
    cdef readonly object size, stack_size

cdef class PyramidASeen(SiteSeen):
    cdef PyramidA _s
    cdef readonly object points, overflow

cdef class CountedSeen(SiteSeen):
    cdef _Counted _c
    cdef readonly object overflow

cdef class PyramidBSeen(CountedSeen):
    cdef PyramidB _s
    cdef readonly object spaces, choices, index_of

cdef class PyramidCSeen(CountedSeen):
    cdef PyramidC _s
    cdef readonly object tiles, majority_points, tie_points

cdef class PyramidDSeen(CountedSeen):
    cdef PyramidD _s
    cdef readonly tuple points
    cdef readonly long size

cdef class TempleLayersSeen(SiteSeen):
    cdef TempleLayers _l
    cdef readonly object width, visible_points

cdef class TempleRewardsSeen(TempleLayersSeen):
    cdef readonly object columns, choices

cdef class TempleDSeen(SiteSeen):
    cdef TempleD _s
    cdef readonly tuple arrowheads, track_points, round_points
    cdef readonly object overflow_move, finish_point
    cdef readonly long finish

cdef class BurialRowsSeen(SiteSeen):
    cdef BurialRows _r
    cdef readonly object rows

cdef class BurialBSeen(BurialRowsSeen):
    cdef readonly tuple row_points

cdef class BurialCSeen(SiteSeen):
    cdef BurialChamberC _s
    cdef readonly object levels, level_cap, overflow_points, space, acts, act_space
    cdef readonly object supports, above, adj

cdef class BurialDSeen(SiteSeen):
    cdef BurialChamberD _s
    cdef readonly object rows, columns, per_round, no_token_points, absent_penalty, group_extra
    cdef readonly tuple group_table

cdef class ObeliskASeen(SiteSeen):
    cdef ObeliskA _s
    cdef readonly object table

cdef class ObeliskBSeen(SiteSeen):
    cdef ObeliskB _s
    cdef readonly object per, leftover_points
    cdef readonly tuple slot_order, slot_points

cdef class ObeliskCSeen(SiteSeen):
    cdef ObeliskC _s
    cdef readonly object columns, row_points, bonus, overflow_points
    cdef readonly tuple path

cdef class ObeliskDSeen(SiteSeen):
    cdef ObeliskD _s
    cdef readonly tuple target, points, claim_action
    cdef readonly object unfinished_points, overflow_points

cdef class ProphecySeen:
    cdef object _p
    cdef readonly object gods, fulfilled, failed, window_of, scarab_action
