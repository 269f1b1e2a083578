# The typed layer of turn.py (see context.pxd): the turn's pricing reads the cimported Ctx at C
# speed and calls its C methods (_ship, sled_value).
cimport cython

from imhotep_stats.bots.greedy.context cimport Ctx
from imhotep_stats.engine.actions cimport Action

@cython.locals(me=long, sled=long, place_cost=double, best=double, cands=tuple, s=long,
               cache=list, r=tuple, i=long, n=long, j=long, gv=double, a=Action)
cpdef _turn_fast(Ctx ctx, legal, rng)

@cython.locals(gain=long, room=long, base=double, v=double, j=long, d=double)
cpdef double _get_value(Ctx ctx, long sled, long me)

cpdef double _get_extra(Ctx ctx, a)

@cython.locals(me=long, keep=double, best=double, e0=double, v=double, s=long, m=long, j=long,
               x=long, o=long, i=long)
cpdef double _card_play(Ctx ctx, name, list res, long sled)

@cython.locals(best=double, first=bint, order=list, v=double, x=long)
cpdef double _lever_obj(list t, tuple orders)
