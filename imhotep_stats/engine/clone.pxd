# The typed layer of clone.py (docs/engine.md "Compiled accelerator"): the copy is a typed
# Game, so every field is copied as a C struct field.
cimport cython

from imhotep_stats.engine.game cimport Game
from imhotep_stats.engine.sites.base cimport Site

@cython.locals(new=Game)
cpdef Game clone(Game g, streams=*, bint report=*)

@cython.locals(sites=list, site=Site, i=Py_ssize_t)
cpdef copy_into(Game new, Game g, streams=*, bint report=*, bint again=*)
