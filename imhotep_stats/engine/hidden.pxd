# The typed layer of hidden.py (docs/engine.md "Compiled accelerator"): a search draws one
# sample an iteration, so the sampler is a cdef class whose fields are C struct fields and
# whose copy is a typed Game (no attribute look-ups by name).
cimport cython

from imhotep_stats.engine.chance cimport deal, shuffle
from imhotep_stats.engine.clone cimport clone, copy_into
from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.stream cimport draw_bits

cdef class SearchSeed:
    cdef readonly object bits

cdef class Sampler:
    cdef Game _g
    cdef long _me, _decisions, _to_come
    cdef list _cards, _card_sites, _own_sites, _own_pools, _seen, _future
    cdef bint _report
    cdef Game _last

    cpdef Game sample(self, rng)
    @cython.locals(d=Game)
    cpdef Game resample(self, rng)
    cdef _check(self)
    @cython.locals(places=list, sites=list, future=list, i=long, k=Py_ssize_t)
    cdef _deal(self, Game d, rng)
