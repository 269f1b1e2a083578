# The typed layer of base.py (docs/engine.md "Compiled accelerator"): read by Cython only, ignored
# by pure Python. SiteEval is a cdef class; each site module's .pxd cimports it (its cdef
# evaluators extend it and copy its C layout, so a change here rebuilds them, and the build and
# the stale guard treat them as depending on this module). Only C types whose arithmetic is
# Python's: double (+ - * / as Python floats, no cdivision), long for small counts and indexes;
# anything that can be None stays object. Every attribute a cdef class gets in the .py must be
# declared here; class-level attributes (source, kinds, volatile) stay class attributes. The
# site modules also cimport the helpers they call in hot code (rounds_left, rank_estimate,
# card_key): a C call instead of a look-up and a Python call (their .py imports stay as they are).
cimport cython

cdef class SiteEval:
    cdef public object ctx, site, wme, _key, _memo, _coefs, obj, raw
    cdef public long index, n, me, _epoch

    cpdef ensure(self)

    @cython.locals(cop=double, dw=double, coefs=list, flat=list, tot=list, vec=list, obj=list,
                   m=long, i=long, c=double, a=double, b=double, d=double)
    cpdef bint refresh(self)

@cython.locals(flat=list, j=long, n=long, tot=list, vec=list, x=long, o=long, q=long)
cpdef tuple _table(own, side)

@cython.locals(n=long, out=list, last=long, span=long, p=long, q=long, hp=long, beaten=double,
               pos=double, i=long, frac=double, a=double, b=double, v=double)
cpdef list rank_estimate(heights, table, list logit, long minimum=*)

cpdef long rounds_left(ctx)

cpdef tuple card_key(ctx)
