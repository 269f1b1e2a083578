# The typed layer of cards.py (see context.pxd): CardBook and CardValues are cdef classes; the
# context they read is the cimported Ctx (its fields at C speed), the red cards' pricing calls
# a site evaluator's C methods (SiteEval).
cimport cython

from imhotep_stats.bots.greedy.context cimport Ctx
from imhotep_stats.bots.greedy.sites.base cimport SiteEval

cdef class CardBook:
    cdef public object key, neutral, hands, unknown, draws
    cdef public double left

    cpdef sync(self, Ctx ctx)

cdef class CardValues:
    cdef public Ctx ctx
    cdef public CardBook book
    cdef public object w, _weighted, _comp, _unknown, _draws, _mine, _red_w
    cdef public object statue_table, statue_extra, unused_blue, per_decoration, cargo
    cdef public long epoch
    cdef public bint unit

    @cython.locals(total=long, cum=long, prev=double, f=double, c=long, acc=double, val=double,
                   vals=list, mine=bint, rnd=long, known=dict)
    cpdef unknown(self, long p, long k=*)

    @cython.locals(vals=list, cache=dict, known=dict)
    cpdef list draws(self, long p, long rnd, bint mine)

    @cython.locals(cache=dict, out=list)
    cpdef list values(self, long p, names)

    @cython.locals(s=list, k=long)
    cpdef list offers(self, long p, names, lots)

    @cython.locals(cache=dict)
    cpdef double value(self, long p, name)

    cpdef double _weigh(self, name, double v)

    cpdef new_epoch(self)

    @cython.locals(pricing=dict)
    cpdef tuple _how(self, name)

    @cython.locals(code=long, ev=SiteEval)
    cpdef double _value(self, long p, tuple how)

    @cython.locals(v=double, how=tuple, code=long, cache=dict)
    cpdef double _price(self, long p, name)

    cpdef dict hand(self, long p)

    cpdef statues(self, long k)
