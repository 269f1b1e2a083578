# The typed layer of sitevals.py (see greedy.pxd): SiteEval and MarketAEval, BurialAEval,
# ObeliskAEval are cdef classes; the other subclasses, here and in sitevals_bcd.py, stay Python
# classes (their own attributes live in __dict__).
cimport cython

cdef class SiteEval:
    cdef public object ctx, site, wme, _key, _memo, _coefs, obj, raw
    cdef public long index, n, me, _epoch

    cpdef ensure(self)

    @cython.locals(cop=double, dw=double, coefs=list, flat=list, tot=list, vec=list, obj=list,
                   m=long, i=long, c=double, a=double, b=double, d=double)
    cpdef bint refresh(self)

@cython.locals(flat=list, n=long, tot=list, vec=list, x=long, o=long)
cpdef tuple _table(own, side)

@cython.locals(n=long, out=list, last=long, span=long, p=long, q=long, hp=long, beaten=double,
               pos=double, i=long, frac=double, a=double, b=double, v=double)
cpdef list rank_estimate(heights, table, list logit, long minimum=*)


cdef class MarketAEval(SiteEval):
    @cython.locals(k=long, o=long, s=list, s0=double, v=double, row=list, vals=list)
    cpdef build(self)


cdef class BurialAEval(SiteEval):
    cdef public object table, extra
    cdef public list parent, size
    cdef public long rows

    @cython.locals(parent=list)
    cpdef long _find(self, long i)

    @cython.locals(owners=list, rows=long, parent=list, size=list, i=long, o=long, nb=long,
                   a=long, b=long)
    cpdef _extend(self)

    @cython.locals(rows=long, n0=long, nb=long, total=long, s=long)
    cpdef gain(self, long i, long o)


cdef class ObeliskAEval(SiteEval):
    cdef public object table
