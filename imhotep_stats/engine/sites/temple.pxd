# The typed layer of temple.py (sites/base.pxd says how these layers work).
cimport cython

from imhotep_stats.engine.actions cimport keep_card
from imhotep_stats.engine.cards cimport gain  # a C call (the .py imports the same name)
from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.sites.base cimport Site

cdef bint COMPILED  # temple.py's constant, a C test: the rows are C arrays or lists

cdef class TempleLayers(Site):
    cdef public long width
    cdef public long filled  # the stones here: the logical length of _owners
    cdef long _owners[128]  # LAYERED (temple.py's rows: their public names are properties)
    @cython.locals(n=TempleLayers)
    cpdef copy_into(self, Site new)
    @cython.locals(i=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(c=long, k=long)
    cpdef list visible(self)
    @cython.locals(w=long)
    cpdef long top(self, long c)

cdef class TempleA(TempleLayers):
    cdef public object visible_points
    @cython.locals(n=TempleA)
    cpdef copy_into(self, Site new)
    @cython.locals(k=Py_ssize_t, c=Py_ssize_t)
    cpdef round_end(self, Game g)

cdef class TempleRewards(TempleLayers):
    cpdef answer(self, Game g, long kind, a, tuple ctx)
    cdef public object visible_points, columns, choices
    @cython.locals(n=TempleRewards)
    cpdef copy_into(self, Site new)
    cpdef round_end(self, Game g)
    cpdef _columns(self, Game g, tuple vis, long i)
    cpdef _reward(self, Game g, long owner, kind, long k)
    cpdef _draw(self, Game g, long owner, long k)
    @cython.locals(rest=list)
    cpdef _keep(self, Game g, a, long owner, tuple drawn)

cdef class TempleB(TempleRewards):
    pass

cdef class TempleC(TempleRewards):
    pass

@cython.locals(t=TempleRewards)
cpdef _columns_task(Game g, long site, tuple vis, long i)
@cython.locals(t=TempleRewards)
cpdef _draw_task(Game g, long site, long owner, long k)

cdef class TempleD(Site):
    cdef public tuple arrowheads, track_points, round_points
    cdef public object overflow_move, finish_point
    cdef public long finish
    cdef public long seats, filled, over  # players; stone spaces taken; stones beyond them
    cdef long _chariots[4]  # SEATS: per seat (temple.py's rows: their public names are properties)
    cdef long _count[4]
    cdef long _spaces[16]  # SPACES: the stone spaces' owners, in fill order
    cdef long _overflow[128]  # OVERFLOW: the owners of the stones beyond them
    @cython.locals(n=TempleD)
    cpdef copy_into(self, Site new)
    @cython.locals(i=long, move=long, pos=long, finish=long, to=long, p=long)
    cpdef deliver(self, Game g, long owner)
    @cython.locals(table=tuple, finish=long, n=long, paid=long, lead=long,
                   rank=Py_ssize_t, best=long, top=long, p=long, pos=long)
    cpdef round_end(self, Game g)
    @cython.locals(p=long)
    cpdef game_end(self, Game g)
