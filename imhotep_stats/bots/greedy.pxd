# The typed layer of greedy.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Every attribute a cdef class gets in the .py must be declared here.
# Only C types whose arithmetic is Python's: double (+ - * / as Python floats, no cdivision),
# long for small counters and indexes; anything that can be None or big stays object.
cimport cython

from imhotep_stats.bots.sitevals cimport SiteEval

cdef class Ctx

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
                   vals=list, mine=bint, rnd=long)
    cpdef unknown(self, long p, long k=*)

    @cython.locals(vals=list, cache=dict, known=dict)
    cpdef list draws(self, long p, long rnd, bint mine)

    @cython.locals(cache=dict, out=list)
    cpdef list values(self, long p, names)

    @cython.locals(cache=dict)
    cpdef double value(self, long p, name)

    cpdef double _weigh(self, name, double v)

    cpdef new_epoch(self)

    @cython.locals(pricing=dict)
    cpdef tuple _how(self, name)

    @cython.locals(code=long, ev=SiteEval)
    cpdef double _value(self, long p, name)

    @cython.locals(v=double)
    cpdef double _price(self, long p, name)

    cpdef dict hand(self, long p)

    cpdef statues(self, long k)

cdef class Ctx:
    cdef public object view, get, w, sled, quarry, sled_cap, cards_taken, get_stones
    cdef public object ekey, ckey, free, evals, sides, volatile
    cdef public object _stones, _slope, slots, dock, used, sizes, mins
    cdef public list free_tabs, ship_res
    cdef public CardValues cards
    cdef public long me, n, rounds, round, sailed, epoch, _free_epoch
    cdef public double cop, lam, mu, lam1, mu1, pv_b, pv_c, stone, stone_now
    cdef public bint three

    @cython.locals(rnd=long, sailed=long, full=bint)
    cpdef begin(self)

    @cython.locals(epoch=long, free=list, tabs=list, new=list, old=list, i=long, evals=list,
                   ev=SiteEval)
    cpdef set_free(self)

    @cython.locals(me=long, tabs=list, s0=double, s1=double, s2=double, s3=double,
                   lo=double, hi=double, v=double, k=long)
    cpdef slope(self)

    cpdef double sled_value(self, long k)

    cpdef double expected_stones(self, long i)

    cpdef tuple ship(self, long s)

    @cython.locals(m=long, size=long, sailable=bint, tabs=list, base=list, k=long, t=list,
                   mx=double, mn=double, tot=double, x=long, y=long, cnt=long, i=long, v=double,
                   lam=double, three=bint, e=double, me=long, hi=list, lo=list, b=double,
                   c=double, bp=double, j=long, g=double, mean=list, shapes=dict, shape=tuple,
                   idx=tuple, groups=tuple, place_at=dict)
    cpdef tuple _ship(self, long s, slots)

@cython.locals(me=long, sled=long, place_cost=double, best=double, cands=tuple, s=long,
               cache=list, r=tuple, i=long, n=long, j=long, gv=double)
cpdef _turn_fast(Ctx ctx, legal, rng)

@cython.locals(gain=long, room=long, base=double, v=double, j=long)
cpdef double _get_value(Ctx ctx, long sled, long me)

cpdef double _get_extra(Ctx ctx, a)

@cython.locals(me=long, keep=double, best=double, e0=double, v=double, s=long, m=long, j=long,
               x=long, o=long, i=long)
cpdef double _card_play(Ctx ctx, name, list res, long sled)
