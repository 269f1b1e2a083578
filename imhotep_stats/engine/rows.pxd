# The typed layer of rows.py (docs/engine.md "Compiled accelerator"): read by Cython only.
cpdef list fixed(values, long size)
cpdef list room(values, long size)
