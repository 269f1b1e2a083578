# The typed layer of chance.py (docs/engine.md "Compiled accelerator"): the shuffles that deal
# hidden things anew run at C speed. The draws are the same numbers as pure Python's: a C
# double times a C integer rounds as a Python float does, and truncation is int()'s.
cimport cython

from imhotep_stats.engine.stream cimport Stream

@cython.locals(n=Py_ssize_t, keys=list, order=list, i=Py_ssize_t)
cpdef fast_shuffle(rng, list items)

cdef Py_ssize_t SORT_MAX
@cython.locals(n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t, x=double, s=Stream)
cdef _sort_by_draws(rng, list items)

cpdef reshuffle(g)  # a C call from the game's draw (game.pxd)

# Items i and j of a list swap places: their pointers swapped in the list's array (a swap
# leaves every item's reference count as it was). Only for 0 <= i, j < len(items).
cdef extern from *:
    """
    static inline void imhotep_swap_items(PyObject *items, Py_ssize_t i, Py_ssize_t j) {
        PyObject **item = ((PyListObject *)items)->ob_item;
        PyObject *t = item[i];
        item[i] = item[j];
        item[j] = t;
    }
    """
    void _swap_items "imhotep_swap_items" (list items, Py_ssize_t i, Py_ssize_t j) noexcept

cdef bint COMPILED

@cython.locals(s=Stream, i=Py_ssize_t, j=Py_ssize_t, x=double)
cpdef shuffle(rng, list items)

cpdef redeal(rng, list places)

@cython.locals(pool=list, place=list)
cpdef list pooled(list places)

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, place=list)
cpdef deal(rng, list pool, list places)
