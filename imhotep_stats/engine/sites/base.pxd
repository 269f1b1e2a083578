# The typed layer of base.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python.
cimport cython

@cython.locals(n=Py_ssize_t, seen=list, groups=list, start=Py_ssize_t, owner=long, stack=list,
               size=long, i=Py_ssize_t, r=Py_ssize_t, j=Py_ssize_t)
cpdef list line_groups(list owners, Py_ssize_t width)
