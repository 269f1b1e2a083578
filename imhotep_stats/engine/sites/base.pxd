# The typed layer of base.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python.
cimport cython

@cython.locals(i=Py_ssize_t, n=Py_ssize_t, k=long, m=Py_ssize_t, j=Py_ssize_t)
cpdef shuffle(rng, list items)
