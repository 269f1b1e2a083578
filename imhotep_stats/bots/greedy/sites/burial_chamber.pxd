# The typed layer of burial_chamber.py (see base.pxd): the evaluators of sides A, B and D are
# cdef classes extending base.SiteEval; BurialCEval stays a Python class.
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval, rank_estimate, rounds_left


cdef class BurialAEval(SiteEval):
    cdef public object table, extra
    cdef public list parent, size
    cdef public long rows

    @cython.locals(parent=list)
    cpdef long _find(self, long i)

    @cython.locals(rows=long, parent=list, size=list, i=long, o=long, nb=long, a=long, b=long)
    cpdef _extend(self, tuple owners)

    @cython.locals(rows=long, n0=long, nb=long, total=long, s=long)
    cpdef gain(self, tuple seq, long i, long o)


@cython.final
cdef class BurialBEval(SiteEval):
    @cython.locals(n=long, rows=long, counts=list, i=long, o=long, base=list, n0=long, own=list,
                   side=list, j=long, r=long, c=list, est=list, b=list, cell=list, q=long)
    cpdef build(self)


@cython.final
cdef class BurialDEval(SiteEval):
    cdef public object _shared
    cdef public tuple _adj, _grid_row
    cdef public list _group

    @cython.locals(shared=list, empty=long, grid=tuple)
    cpdef dict _gains(self)

    cpdef double gain(self, long token, long o)

    @cython.locals(k=long)
    cpdef double _memo_gain(self, dict memo, long token, long o)

    @cython.locals(adj=tuple, group=list, cell=long, todo=list, total=long, before=double,
                   nb=long, k=long, stack=list, t=long, u=long)
    cpdef double _gain(self, long token, long o)

    @cython.locals(memo=dict, own=list, o=long, vals=list, row=list, j=long, v=double)
    cpdef build(self)

    @cython.locals(me=long, n=long, deny=double, memo=dict, out=list, t=long, block=double,
                   first=bint, q=long, g=double)
    cpdef decide(self, kind, view, legal)
