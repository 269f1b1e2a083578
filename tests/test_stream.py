"""engine/stream.py: a search's C stream draws exactly what the random.Random it was made
from would have drawn, and hands its state back (so a search plays the same games)."""

import random
import sys

import pytest

from imhotep_stats.engine import stream
from imhotep_stats.engine.stream import Stream, draw, fast, handback


def test_the_draws_are_random_randoms_across_state_blocks():
    # 2,000 mixed draws cross the 624-word state block three times
    ours, theirs = random.Random("search/7"), random.Random("search/7")
    ours.random()  # mid-block, as a bot's stream is when a search starts
    theirs.random()
    s = Stream(ours)
    for i in range(2000):
        k = (0, 1, 5, 31, 32, 33, 63, 64)[i % 8]
        if i % 3:
            assert s.random() == theirs.random()
        else:
            assert s.getrandbits(k) == theirs.getrandbits(k), k
        assert draw(s) == theirs.random()


def test_the_state_goes_back_to_the_stream_it_came_from():
    ours, theirs = random.Random(5), random.Random(5)
    s = Stream(ours)
    for _ in range(700):
        s.random()
        theirs.random()
    assert ours.getstate() == random.Random(5).getstate()  # not moved until store()
    s.store()
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]


def test_a_search_takes_a_stream_only_when_compiled_and_hands_it_back():
    rng, twin = random.Random(3), random.Random(3)
    s = fast(rng)
    assert (s is not rng) == stream.COMPILED
    x = draw(s)
    handback(s, rng)
    assert x == twin.random()
    assert rng.getstate() == twin.getstate()
    assert fast(s) is s  # a stream (or any other object) is used as it is


def test_bad_states_and_widths_are_refused():
    class Other(random.Random):
        def getstate(self):
            return (2, (0,) * 625, None)

    with pytest.raises(ValueError, match="MT19937"):
        Stream(Other(1))
    with pytest.raises(ValueError, match="0 to 64 bits"):
        Stream(random.Random(1)).getrandbits(65)


def test_the_hidden_shuffle_is_fisher_yates_on_the_streams_draws_and_keeps_its_items():
    # chance.shuffle (compiled: the list's pointers swapped) against Fisher-Yates written out
    # here from the same draws: the same order, every item still held once
    from imhotep_stats.engine.chance import shuffle

    for seed in range(20):
        items = [object() for _ in range(seed + 2)]
        refs = [sys.getrefcount(x) for x in items]
        ours = list(items)
        shuffle(fast(random.Random(seed)), ours)
        want, rng = list(items), random.Random(seed)
        for i in range(len(want) - 1, 0, -1):
            j = int(rng.random() * (i + 1))
            want[i], want[j] = want[j], want[i]
        assert ours == want
        del ours, want
        assert [sys.getrefcount(x) for x in items] == refs


def test_a_deal_fills_each_place_in_order_from_the_shuffled_pool_and_keeps_references():
    # chance.deal (compiled: item by item into the places): the pool shuffled as
    # chance.shuffle does, then place 1 takes its first items, place 2 the next ones
    from imhotep_stats.engine.chance import deal

    items = [object() for _ in range(7)]
    refs = [sys.getrefcount(x) for x in items]
    places = [[None] * 3, [], [None] * 4]
    pool = list(items)
    deal(fast(random.Random(5)), pool, places)
    want, rng = list(items), random.Random(5)
    for i in range(len(want) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        want[i], want[j] = want[j], want[i]
    assert places == [want[:3], [], want[3:]]
    del places, pool, want
    assert [sys.getrefcount(x) for x in items] == refs


@pytest.mark.parametrize("pool", [[1, 2], [1, 2, 3, 4]])
def test_a_deal_refuses_a_pool_that_does_not_fill_its_places_exactly(pool):
    from imhotep_stats.engine.chance import deal

    with pytest.raises(ValueError, match=rf"deal: {len(pool)} items for places of 3"):
        deal(random.Random(0), pool, [[0, 0], [0]])


class _Repeating:
    """A stream whose draws repeat a few values: keys that tie."""

    def __init__(self, values):
        self.values, self.i = values, 0

    def random(self):
        self.i += 1
        return self.values[(self.i - 1) % len(self.values)]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 30, 40, 256, 257, 300])
def test_the_setup_shuffle_orders_by_keys_drawn_in_order_ties_keeping_the_first_first(n):
    # chance.fast_shuffle (compiled, up to SORT_MAX items: an insertion sort in C arrays)
    # against the order it is defined by, written out here: n keys drawn in order, the items
    # sorted by key, equal keys in their original order (sorted is stable)
    from imhotep_stats.engine.chance import fast_shuffle

    def by_keys(rng, items):
        keys = [rng.random() for _ in items]
        return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]

    streams = [lambda s=s: random.Random(s) for s in range(5)]
    streams += [lambda: _Repeating([0.5]), lambda: _Repeating([0.25, 0.75, 0.25, 0.5])]
    for stream_of in streams:
        items = [f"card{i}" for i in range(n)]
        want = by_keys(stream_of(), items)
        fast_shuffle(stream_of(), items)
        assert items == want


class _Broken:
    """A stream whose draw is outside [0, 1)."""

    def __init__(self, x):
        self.x = x

    def random(self):
        return self.x


@pytest.mark.parametrize("x", [1.0, 1.5, -0.5])
def test_a_draw_outside_the_unit_interval_is_refused_not_written_past_the_list(x):
    from imhotep_stats.engine.chance import shuffle

    with pytest.raises(ValueError, match=r"shuffle: rng.random\(\) gave .* not a number in \[0, 1\)"):
        shuffle(_Broken(x), [1, 2, 3])


def test_a_samples_seed_opens_the_streams_its_string_names():
    # engine/hidden.SearchSeed: formatted only when a stream is opened, as "search/<bits>"
    from imhotep_stats.engine.chance import stream
    from imhotep_stats.engine.hidden import SearchSeed

    seed = SearchSeed(2**64 - 1)
    assert str(seed) == f"{seed}" == "search/18446744073709551615"
    assert stream(seed, "reshuffle").random() == random.Random("search/18446744073709551615/reshuffle").random()
