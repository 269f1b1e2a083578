# The typed layer of sitevals_bcd.py (see greedy.pxd): the hot side D evaluators are cdef
# classes (subclasses of sitevals.SiteEval, so this file cimports sitevals.pxd: a change there
# changes the C layout here, and the build and the stale guard treat this module as depending on
# it, docs/engine.md "Typed layer"). The other evaluators stay Python classes.
# Every attribute a cdef class gets in the .py must be declared here; class-level attributes
# (source, kinds, volatile) stay class attributes.
cimport cython

from imhotep_stats.bots.sitevals cimport SiteEval

cpdef long _left(ctx)


cdef class _BlindMarketEval(SiteEval):
    @cython.locals(o=long, k=long, j=long, s=list, row=list, own=list, s0=double, v=double)
    cpdef build(self)


cdef class MarketDEval(_BlindMarketEval):
    @cython.locals(s=list)
    cpdef list options(self, long o)


@cython.final
cdef class PyramidDEval(SiteEval):
    cdef public long _delta_filled, _delta_figure
    cdef public object _delta

    @cython.locals(spaces=list, size=long, out=list, step=long, i=long)
    cpdef list free_after(self, long start, long k)

    @cython.locals(filled=long, figure=long, nxt=list, me=long, n=long, mine=long, total=long,
                   s=long, x=long, share=double, cop=double)
    cpdef double get_extra(self, a)


@cython.final
cdef class TempleDEval(SiteEval):
    @cython.locals(pos=long, finish=long, to=long)
    cpdef long move(self, list chariots, long o, long steps)

    @cython.locals(out=list, m=long, p=long, left=list, rank=long, bp=long, best=long, pos=long,
                   finish=long)
    cpdef list places(self, list chariots)

    @cython.locals(n=long, chariots=list, stones=long, finish=long, weight=double, base=list,
                   own=list, side=list, j=long, i=long, steps=long, o=long, pos=long, to=long,
                   pl=list, gain=double, was=double, cell=list, q=long)
    cpdef build(self)


@cython.final
cdef class BurialDEval(SiteEval):
    cdef public object _shared
    cdef public tuple _adj
    cdef public list _group

    @cython.locals(shared=list, empty=long)
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


@cython.final
cdef class ObeliskDEval(SiteEval):
    @cython.locals(done=double, pace=double)
    cpdef double future(self, long o)

    @cython.locals(need=long, fut=double, p=double, unf=double)
    cpdef double worth(self, long o, long target, double points, long have)

    cpdef double claim_value(self, long o, long i)

    @cython.locals(own=list, o=long, w=long, h=long, v=double, best=double, first=bint,
                   i=long, c=double)
    cpdef build(self)


@cython.locals(n=long, i=long, h=long, low=long, high=long, total=long)
cpdef double _card_score(heights, add, double row_points)


@cython.final
cdef class ObeliskCEval(SiteEval):
    @cython.locals(rp=double, now=double, best=double)
    cpdef double token_gain(self, long o, token)


@cython.final
cdef class PyramidCEval(SiteEval):
    @cython.locals(size=long, own=list, o=long, mine=long, others=long, q=long, row=list,
                   j=long, idx=long, rest=long, before=double, after=double, v=double)
    cpdef build(self)


@cython.final
cdef class MarketCEval(SiteEval):
    pass


@cython.final
cdef class PyramidBEval(SiteEval):
    cpdef double space_value(self, long o, long i, long k)

    @cython.locals(own=list, o=long, filled=list, vals=list, i=long, moved=long, row=list,
                   best=double)
    cpdef build(self)


@cython.final
cdef class BurialBEval(SiteEval):
    @cython.locals(n=long, rows=long, counts=list, i=long, o=long, base=list, n0=long, own=list,
                   side=list, j=long, r=long, c=list, est=list, b=list, cell=list, q=long)
    cpdef build(self)
