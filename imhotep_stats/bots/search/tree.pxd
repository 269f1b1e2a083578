# The typed layer of tree.py (docs/engine.md "Compiled accelerator"): a node's statistics are
# C fields and the UCB loop's arithmetic C doubles (the same IEEE operations, in the same
# order, as Python floats: the same choices, tests/test_search*.py), log and sqrt C's libm
# (tree.py imports them from cython.cimports when compiled).
cimport cython

from imhotep_stats.engine.game cimport Game, apply, options_of
from imhotep_stats.engine.stream cimport draw

cdef class Node:
    cdef public dict children
    cdef public long n, avail
    cdef public double w

@cython.locals(root=Node, node=Node, child=Node, best=Node, d=Game, it=long, p=long,
               score=double, value=double, children=dict, path=list, credit=list)
cpdef Node search(g, long me, rng, long iterations, double exploration, rollout,
                  long depth=*, priors=*, double bias=*, double margin=*, bint stop=*)

@cython.locals(first=long, second=long, n=long, child=Node)
cpdef bint _decided(Node root, long left)

# a rollout's reward: C calls from the search's loop, the game's winners a C call
cpdef list shares(Game g)
@cython.locals(keep=double)
cpdef list reward(Game d, double margin)
