# The typed layer of actions.py (docs/engine.md "Compiled accelerator"): Action is a cdef
# class, so the engine reads an action's kind code and whole-number arguments as C fields
# (game.pxd cimports it), and the turn's action tables are C lists with C-called look-ups.
cimport cython

cdef class Action:
    cdef readonly object kind, _text
    cdef readonly tuple args
    cdef readonly long code, n0, n1

cdef list _PLACES, _SAILS
cdef dict _TAKE, _KEEP
cpdef Action take_card(name)
cpdef Action keep_card(name)
cdef inline Action _by_name(dict cache, kind, name)
cpdef tuple sail_options(long ready, long free)
@cython.locals(s=long)
cpdef list open_places(long mask)
@cython.locals(s=long, row=tuple)
cpdef Action place_at(long mask, long i)
