# The typed layer of result.py (docs/engine.md "Compiled accelerator"): the tally of a
# game's score events and the ranks run on C integers (every seat, round and point is a
# small int).
cimport cython

cdef dict SOURCE_INDEX, ZERO_BY_SOURCE

# points and running: C arrays (result.py's POINTS and SEATS)
@cython.locals(width=long, points=long[64], by_round=list, running=long[4], leader=long,
               changes=long, best=long, seat=long, pts=long, rnd=long, r=long, top=long,
               k=long, row=list, event=tuple, p=long, i=long, d=dict, q=long, ties=long,
               by_source=list, sources=tuple)
cpdef tuple tally(list events, long n, long rounds)

@cython.locals(n=long, totals=list, sled=list, ranks=list, p=long, q=long, total=long,
               on_sled=long, rank=long, winners=list, w=long)
cpdef result_of(g)

@cython.locals(p=Py_ssize_t, best=double, most=long, x=double)
cpdef list best_seats(list points, list sled)

@cython.locals(share=double, out=list)
cpdef list win_shares(list winners, long n)
