# The typed layer of base.py (docs/engine.md "Compiled accelerator"): the random bot's pick with
# its draw, product and truncation as C values (a C double times a C integer rounds as Python's
# float product; the cast truncates as int() does for a number >= 0).
cimport cython

@cython.locals(x=double, i=Py_ssize_t)
cpdef uniform(legal, rng)
