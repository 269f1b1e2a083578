# The typed layer of clone.py (docs/engine.md "Compiled accelerator"): the copy is a typed
# Game, so every field is copied as a C struct field.
cimport cython

from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.sites.base cimport Site

@cython.locals(new=Game, sites=list, site=Site, hands=list, h=dict)
cpdef Game clone(Game g, streams=*, bint report=*)
