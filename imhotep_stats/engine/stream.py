"""A search's random stream drawn in C: Python's own generator, the same numbers.

A search draws about 90 numbers an iteration (the determinization's shuffles, the
rollout's picks), each a Python method call on ``random.Random``. ``Stream(rng)`` takes
over ``rng``'s state (the Mersenne Twister MT19937 of CPython's ``_randommodule.c``: 624
words and an index) and draws what ``rng`` would have drawn, in the same order, by C calls
from the compiled engine; ``store()`` hands the state back, so ``rng`` goes on as if it had
made the draws itself. So a search plays the same games, and a bot's choices still depend on
its own stream only. ``fast(rng)`` is the stream a search uses: a ``Stream`` when the engine
is compiled, ``rng`` itself in pure Python (where a Python generator would be slower).
"""

from __future__ import annotations

import random

try:
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

N, M = 624, 397  # MT19937's state words and its shift
MATRIX_A, UPPER, LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF
TEMPER_B, TEMPER_C = 0x9D2C5680, 0xEFC60000  # the output's tempering masks


class Stream:
    """The draws of ``rng`` from its current state: ``random()`` and ``getrandbits(k)``, the
    methods the engine and the search call. ``store()`` gives ``rng`` the state after them."""

    def __init__(self, rng: random.Random):
        version, state, gauss = rng.getstate()
        if version != 3 or len(state) != N + 1:
            raise ValueError(f"Stream: expected a random.Random's MT19937 state, got version {version}")
        self.rng = rng
        self.gauss = gauss  # untouched: no normal draws here
        self.mt = list(state[:N])
        self.index = state[N]

    def store(self) -> None:
        """Hand the state back to the ``rng`` the stream was made from."""
        self.rng.setstate((3, tuple(self.mt) + (self.index,), self.gauss))

    def next32(self) -> int:
        """The next 32-bit word (genrand_uint32: a new block of 624 every 624 words). Small,
        so that the compiled draws take it in line; the new block is :meth:`refill`'s."""
        if self.index >= N:
            self.refill()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & TEMPER_B
        y ^= (y << 15) & TEMPER_C
        return y ^ (y >> 18)

    def refill(self) -> None:
        """The next block of 624 words, in two runs (words kk + M, then wrapped round: no
        branch a word); (y & 1) * MATRIX_A is MATRIX_A for an odd y, else 0. (self.mt, not a
        local: compiled, it is a C array.)"""
        for kk in range(N - M):
            y = (self.mt[kk] & UPPER) | (self.mt[kk + 1] & LOWER)
            self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ ((y & 1) * MATRIX_A)
        for kk in range(N - M, N - 1):
            y = (self.mt[kk] & UPPER) | (self.mt[kk + 1] & LOWER)
            self.mt[kk] = self.mt[kk + M - N] ^ (y >> 1) ^ ((y & 1) * MATRIX_A)
        y = (self.mt[N - 1] & UPPER) | (self.mt[0] & LOWER)
        self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ ((y & 1) * MATRIX_A)
        self.index = 0

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits: random.Random.random's."""
        a = self.next32() >> 5
        b = self.next32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """A non-negative int of ``k`` random bits, 0 <= k <= 64: random.Random.getrandbits's
        (32-bit words least significant first, the last one's top bits kept)."""
        if k < 0 or k > 64:
            raise ValueError(f"Stream.getrandbits: 0 to 64 bits, got {k}")
        out = 0
        shift = 0
        while k > 0:
            r = self.next32()
            if k < 32:
                r >>= 32 - k
            out |= r << shift
            shift += 32
            k -= 32
        return out


def draw(rng) -> float:
    """``rng.random()``: compiled, a C call when ``rng`` is a :class:`Stream`."""
    if type(rng) is Stream:
        s = rng  # a typed local (stream.pxd): the call below is C's
        return s.random()
    return rng.random()


def draw_bits(rng, k: int) -> int:
    """``rng.getrandbits(k)``, as :func:`draw`: a C call when ``rng`` is a :class:`Stream`."""
    if type(rng) is Stream:
        s = rng
        return s.getrandbits(k)
    return rng.getrandbits(k)


def fast(rng):
    """The stream a search draws from: compiled, a :class:`Stream` over a ``random.Random``'s
    state (call ``store()`` when done); otherwise ``rng`` itself."""
    if COMPILED and type(rng) is random.Random:
        return Stream(rng)
    return rng


def handback(stream, rng) -> None:
    """After a search: ``rng`` takes the state of ``stream`` if :func:`fast` made one."""
    if stream is not rng:
        stream.store()
