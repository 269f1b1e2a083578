# The typed layer of base.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Site is a cdef class and every side a cdef subclass (its module's
# .pxd): an attribute is a C struct field, and a copy (``copy``/``copy_into``) copies fields
# one by one, with no dict. Every attribute a side sets must be declared in its .pxd.
cimport cython

cdef class Site:
    cdef public long index
    cdef public object name, data
    cpdef copy_into(self, Site new)

@cython.locals(n=Py_ssize_t, seen=list, groups=list, start=Py_ssize_t, owner=long, stack=list,
               size=long, i=Py_ssize_t, r=Py_ssize_t, j=Py_ssize_t)
cpdef list line_groups(list owners, Py_ssize_t width)
