# The typed layer of sitevals.py (see greedy.pxd): SiteEval is a cdef class; its subclasses
# here and in sitevals_bcd.py stay Python classes (their own attributes live in __dict__).
cimport cython

cdef class SiteEval:
    cdef public object ctx, site, wme, _key, _memo, _coefs, obj, raw
    cdef public long index, n, me, _epoch

    cpdef ensure(self)

    @cython.locals(cop=double, dw=double, coefs=list, flat=list, tot=list, vec=list, obj=list,
                   m=long, i=long, c=double, a=double, b=double, d=double)
    cpdef bint refresh(self)
