# The typed layer of actions.py (docs/engine.md "Compiled accelerator"): Action is a cdef
# class, so the engine reads an action's kind code and whole-number arguments as C fields
# (game.pxd cimports it).
cdef class Action:
    cdef readonly object kind, _text
    cdef readonly tuple args
    cdef readonly long code, n0, n1
