"""The core's random stream (src/stream.rs) is CPython's random.Random draw for draw: the same
seeds (ints, strs as the engine forms them), the same random(), getrandbits, randrange, choice,
shuffle and sample, the same states."""

from __future__ import annotations

import random

import pytest

from imhotep_stats import _core

META = random.Random(20261206)  # draws the test cases
INT_SEEDS = [0, 1, -1, 5, -5, 2**31, 2**32 - 1, 2**32, 2**64 + 3, -(2**127), 10**60, *(
    META.getrandbits(META.randrange(1, 200)) for _ in range(500))]
STR_SEEDS = ["", "a", "é∑😀", "x" * 1000, *(f"{s}/{p}" for s in (*range(300), "lineup-7", -3)
                                          for p in ("deal", "reshuffle", "tomb"))]


def same(seed):
    return random.Random(seed), _core.Random(seed)


@pytest.mark.parametrize("seeds", [INT_SEEDS, STR_SEEDS], ids=["int", "str"])
def test_seeds_give_pythons_draws(seeds):
    for seed in seeds:
        py, core = same(seed)
        assert core.getstate() == py.getstate(), seed
        assert [core.random() for _ in range(3)] == [py.random() for _ in range(3)], seed


def test_a_long_stream_and_every_width_of_getrandbits():
    py, core = same("long/stream")
    for i in range(5000):  # past several refills of the 624 words
        k = i % 65
        assert core.getrandbits(k) == py.getrandbits(k), i
        assert core.random() == py.random(), i
    assert core.getstate() == py.getstate()


def test_randbelow_randrange_and_choice():
    py, core = same(9)
    for n in [1, 2, 3, 7, 8, 9, 100, 2**31, 2**32 + 1, 2**63 + 5, *range(1, 300)]:
        assert core._randbelow(n) == py._randbelow(n), n
    for args in [(10,), (3, 9), (-5, 5), (0, 100, 7), (100, 0, -7), (-3, 30, 4), (5, 6, 1)]:
        for _ in range(50):
            assert core.randrange(*args) == py.randrange(*args), args
    seq = "abcdefghij"
    for n in range(1, 11):
        assert [core.choice(seq[:n]) for _ in range(30)] == [py.choice(seq[:n]) for _ in range(30)]


@pytest.mark.parametrize("args", [(5, 5), (0, -2), (4, 9, 0), (9, 4, 2)])
def test_randrange_refuses_as_python_does(args):
    with pytest.raises(ValueError) as want:
        random.Random(1).randrange(*args)
    with pytest.raises(ValueError) as got:
        _core.Random(1).randrange(*args)
    assert str(got.value) == str(want.value)


def test_choice_of_nothing_and_too_large_a_sample():
    with pytest.raises(IndexError, match="Cannot choose from an empty sequence"):
        _core.Random(1).choice([])
    with pytest.raises(ValueError, match="Sample larger than population or is negative"):
        _core.Random(1).sample(range(3), 4)


def test_shuffle_and_sample_both_algorithms():
    """sample's pool (a list of n) and set (the indices chosen) algorithms, chosen as CPython
    chooses: n against a set of k's size."""
    py, core = same("sample")
    cases = [(n, k) for n in (0, 1, 2, 5, 21, 22, 40, 85, 86, 200, 277, 278, 345, 1045, 1046, 2000)
             for k in sorted({0, 1, 2, 5, 6, 7, 21, 22, 40, 85, 86, 341, n // 2, n}) if k <= n]
    for n, k in cases:
        population = list(range(1000, 1000 + n))
        assert core.sample(population, k) == py.sample(population, k), (n, k)
    for n in range(0, 60):
        a = list(range(n))
        b = list(range(n))
        py.shuffle(a)
        core.shuffle(b)
        assert a == b
    assert core.getstate() == py.getstate()


def test_states_cross_both_ways():
    """A search hands states across: the core continues Python's stream and the other way."""
    py = random.Random("handover")
    for _ in range(700):
        py.random()
    core = _core.Random(0)
    core.setstate(py.getstate())
    assert [core.random() for _ in range(900)] == [py.random() for _ in range(900)]
    py.setstate(core.getstate())
    assert py.getrandbits(40) == core.getrandbits(40)
    with pytest.raises(ValueError, match="version 3"):
        core.setstate((2, (0,) * 625, None))
