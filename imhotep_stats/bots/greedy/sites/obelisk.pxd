# The typed layer of obelisk.py (see base.pxd): the evaluators of sides A, C and D are cdef
# classes extending base.SiteEval; ObeliskBEval stays a Python class.
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval, rank_estimate, rounds_left


cdef class ObeliskAEval(SiteEval):
    cdef public object table


@cython.locals(n=long, i=long, h=long, low=long, high=long, total=long)
cpdef double _card_score(heights, add, double row_points)


@cython.final
cdef class ObeliskCEval(SiteEval):
    @cython.locals(rp=double, now=double, best=double)
    cpdef double token_gain(self, long o, token)


@cython.final
cdef class ObeliskDEval(SiteEval):
    cdef public tuple _placed_row

    @cython.locals(done=double, pace=double)
    cpdef double future(self, long o)

    @cython.locals(need=long, fut=double, p=double, unf=double)
    cpdef double worth(self, long o, long target, double points, long have)

    cpdef double claim_value(self, long o, long i)

    @cython.locals(own=list, o=long, w=long, h=long, v=double, best=double, first=bint,
                   i=long, c=double, working=tuple, height=tuple, free=tuple)
    cpdef build(self)
