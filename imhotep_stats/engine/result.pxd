# The typed layer of result.py (docs/engine.md "Compiled accelerator"): the tally of a
# game's score events runs on C integers (every seat, round and point is a small int).
cimport cython

@cython.locals(by_source=list, by_round=list, running=list, leader=long, changes=long,
               best=long, seat=long, pts=long, rnd=long, r=long, top=long, d=dict, row=list,
               event=tuple)
cpdef tuple tally(list events, long n, long rounds)
