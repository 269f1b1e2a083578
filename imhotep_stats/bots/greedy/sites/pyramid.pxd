# The typed layer of pyramid.py (see base.pxd): the evaluators of sides B, C and D are cdef
# classes extending base.SiteEval; PyramidAEval stays a Python class.
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval


@cython.final
cdef class PyramidBEval(SiteEval):
    cpdef double space_value(self, long o, long i, long k)

    @cython.locals(own=list, o=long, filled=list, vals=list, i=long, moved=long, row=list,
                   best=double)
    cpdef build(self)


@cython.final
cdef class PyramidCEval(SiteEval):
    @cython.locals(size=long, own=list, o=long, mine=long, others=long, q=long, row=list,
                   j=long, idx=long, rest=long, before=double, after=double, v=double)
    cpdef build(self)


@cython.final
cdef class PyramidDEval(SiteEval):
    cdef public long _delta_filled, _delta_figure
    cdef public object _delta

    @cython.locals(spaces=tuple, size=long, out=list, step=long, i=long)
    cpdef list free_after(self, long start, long k)

    @cython.locals(filled=long, figure=long, nxt=list, me=long, n=long, mine=long, total=long,
                   s=long, x=long, share=double, cop=double)
    cpdef double get_extra(self, a)
