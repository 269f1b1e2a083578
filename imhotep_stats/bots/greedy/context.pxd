# The typed layer of context.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Every attribute a cdef class gets in the .py must be declared here.
# Only C types whose arithmetic is Python's: double (+ - * / as Python floats, no cdivision),
# long for small counters and indexes; anything that can be None or big stays object.
# `cards` is an object here: cards.pxd cimports Ctx (the card pricer reads the context at C
# speed), so this module may not cimport that one (no cycles).
cimport cython

from imhotep_stats.bots.greedy.sites.base cimport SiteEval
from imhotep_stats.engine.view cimport View

cdef class Ctx:
    cdef public object view, get, w, sled, quarry, sled_cap, cards_taken, get_stones
    cdef public object ekey, ckey, free, evals, sides, volatile, cards
    cdef public object _stones, _slope, slots, dock, used, sizes, mins
    cdef public list free_tabs, ship_res
    cdef public long me, n, rounds, round, sailed, epoch, _free_epoch
    cdef public double cop, lam, mu, lam1, mu1, pv_b, pv_c, stone, stone_now
    cdef public bint three

    @cython.locals(view=View, rnd=long, sailed=long, full=bint)
    cpdef begin(self)

    @cython.locals(epoch=long, free=list, tabs=list, new=list, old=list, i=long, evals=list,
                   ev=SiteEval)
    cpdef set_free(self)

    @cython.locals(me=long, tabs=list, s0=double, s1=double, s2=double, s3=double,
                   lo=double, hi=double, v=double, k=long)
    cpdef slope(self)

    @cython.locals(d=double)
    cpdef double sled_value(self, long k)

    cpdef double expected_stones(self, long i)

    cpdef tuple ship(self, long s)

    @cython.locals(m=long, size=long, sailable=bint, tabs=list, base=list, k=long, t=list,
                   mx=double, mn=double, tot=double, x=long, y=long, cnt=long, i=long, v=double,
                   lam=double, three=bint, e=double, me=long, hi=list, lo=list, b=double,
                   c=double, bp=double, j=long, g=double, mean=list, shapes=dict, shape=tuple,
                   idx=tuple, groups=tuple, place_at=dict, ix=long)
    cpdef tuple _ship(self, long s, slots)
