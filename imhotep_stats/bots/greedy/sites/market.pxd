# The typed layer of market.py (see base.pxd): the evaluators of sides A, C and D are cdef
# classes extending base.SiteEval; MarketBEval stays a Python class.
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval, card_key


cdef class MarketAEval(SiteEval):
    @cython.locals(k=long, o=long, s=list, s0=double, v=double, row=list, vals=list)
    cpdef build(self)


cdef class _BlindMarketEval(SiteEval):
    @cython.locals(o=long, k=long, j=long, s=list, row=list, own=list, s0=double, v=double)
    cpdef build(self)


cdef class MarketDEval(_BlindMarketEval):
    cpdef list options(self, long o)


@cython.final
cdef class MarketCEval(SiteEval):
    pass
