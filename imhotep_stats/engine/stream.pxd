# The typed layer of stream.py (docs/engine.md "Compiled accelerator"): the generator's state
# is a C array of 32-bit words, a draw a C call with C unsigned arithmetic (the same words as
# CPython's genrand_uint32: every operation stays within 32 bits, in Python as in C).
cimport cython

@cython.final
cdef class Stream:
    cdef object rng, gauss
    cdef unsigned int mt[624]
    cdef Py_ssize_t index
    @cython.locals(y=cython.uint)
    cdef inline unsigned int next32(self)
    @cython.locals(kk=Py_ssize_t, y=cython.uint)
    cdef void refill(self) noexcept
    @cython.locals(a=cython.uint, b=cython.uint)
    cpdef double random(self)
    @cython.locals(r=cython.ulonglong, out=cython.ulonglong, shift=long)
    cpdef getrandbits(self, long k)
    cpdef store(self)

@cython.locals(s=Stream)
cpdef double draw(rng)
@cython.locals(s=Stream)
cpdef draw_bits(rng, long k)

cdef Py_ssize_t N, M
cdef unsigned int MATRIX_A, UPPER, LOWER, TEMPER_B, TEMPER_C
