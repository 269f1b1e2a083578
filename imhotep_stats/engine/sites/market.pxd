# The typed layer of market.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.cards cimport gain  # a C call (the .py imports the same name)
from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.sites.base cimport Site

from imhotep_stats.engine.actions cimport keep_card, take_card

cdef bint COMPILED  # the .py's constant, a C test: the rows are C arrays or lists

cpdef list _take_options(list names)
@cython.locals(opts=list)
cpdef _keep_one(Game g, Site site, long owner, hand, looked)

cdef class MarketA(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object size
    cdef public list display
    @cython.locals(n=MarketA)
    cpdef copy_into(self, Site new)
    @cython.locals(size=long, _i=long)
    cpdef round_start(self, Game g)
    cpdef deliver(self, Game g, long owner)
    cpdef round_end(self, Game g)

cdef class MarketB(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object size, pair_size
    cdef public list display
    cdef list _hidden_pair  # not public: only this module reads it (docs/engine.md)
    cdef public long pair_count
    @cython.locals(n=MarketB)
    cpdef copy_into(self, Site new)
    cpdef round_start(self, Game g)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(pair=tuple)
    cpdef _pick(self, Game g, a, long owner)
    @cython.locals(rest=list)
    cpdef keep(self, Game g, a, long owner, tuple pair)
    cpdef round_end(self, Game g)

cdef class MarketC(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object size
    cdef public list display, pair_actions
    cdef public long left, seats
    cdef long _coins[4]  # SEATS (market.py's row: its public name is a property)
    @cython.locals(n=MarketC)
    cpdef copy_into(self, Site new)
    cpdef round_start(self, Game g)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(p=long)
    cpdef list options(self, long owner)
    cpdef round_end(self, Game g)

cdef class MarketD(Site):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object size, stack_size
    cdef public list display, stack_actions
    cdef list _hidden_stacks  # not public
    @cython.locals(n=MarketD)
    cpdef copy_into(self, Site new)
    cpdef round_start(self, Game g)
    @cython.locals(opts=list, i=Py_ssize_t, stacks=list)
    cpdef deliver(self, Game g, long owner)
    cpdef _pick(self, Game g, a, long owner)
    @cython.locals(stack=list)
    cpdef keep(self, Game g, a, long owner, long i)
    cpdef round_end(self, Game g)
