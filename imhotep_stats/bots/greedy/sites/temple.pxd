# The typed layer of temple.py (see base.pxd): TempleDEval is a cdef class extending
# base.SiteEval; TempleAEval and its subclass TempleBCEval (sides B and C) stay Python classes.
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval, rounds_left


@cython.final
cdef class TempleDEval(SiteEval):
    cdef public long finish
    cdef public tuple table

    @cython.locals(pos=long, finish=long, to=long)
    cpdef long move(self, list chariots, long o, long steps)

    @cython.locals(out=list, m=long, p=long, left=list, rank=long, bp=long, best=long, pos=long,
                   finish=long, table=tuple)
    cpdef list places(self, list chariots)

    @cython.locals(n=long, chariots=list, stones=long, finish=long, weight=double, base=list,
                   own=list, side=list, j=long, i=long, steps=long, o=long, pos=long, to=long,
                   pl=list, gain=double, was=double, cell=list, q=long)
    cpdef build(self)
