"""Search support and the mcts bot: clones are exact and independent, determinizations agree
with the searching seat's view, the bot never depends on hidden state, handles every
decision kind and is deterministic from its seeds."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from imhotep_stats.bots import BotSpecError, MctsBot, make_bot
from imhotep_stats.bots.search.determinize import determinize, determinizer, hidden_places
from imhotep_stats.engine import scenario
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.view import PUBLIC, View
from tests.test_bots import GuardedView, decision_points, engine_ask_kinds, fields, snapshot  # noqa: F401

SETUPS = [
    ("A-A-A-A-A", 2, False), ("B-B-B-B-B", 3, True), ("C-C-C-C-C", 4, False),
    ("D-D-D-D-D", 2, True), ("D-A-C-B-D", 3, False), ("C-D-D-C-B", 4, True),
    ("B-C-A-D-C", 2, False),
]


def _random_until(g: Game, rng: random.Random, decisions: int) -> None:
    while not g.over and g.decisions < decisions:
        opts = g.options
        apply(g, opts[int(rng.random() * len(opts))])


def _positions(setup: tuple, salt: int, stops: tuple, *, live: bool = True):
    """``(k, game)`` for each stop: a game of ``setup`` (sides, players, prophecies) seeded
    from ``salt`` and ``k``, played by random choices to decision ``stop``; with ``live``,
    games already over are left out."""
    sides, players, prophecies = setup
    for k, stop in enumerate(stops):
        g = Game(players, sides, seed=chance_seed(salt, k), prophecies=prophecies)
        _random_until(g, random.Random(k), stop)
        if not (live and g.over):
            yield k, g


def _play_out(g: Game, seed: int) -> list:
    rng = random.Random(seed)
    while not g.over:
        opts = g.options
        apply(g, opts[int(rng.random() * len(opts))])
    return [g.totals, g.events, g.sled, g.winners()]


@pytest.mark.parametrize("sides,players,prophecies", SETUPS)
def test_a_clone_plays_on_as_the_original_and_leaves_it_alone(sides, players, prophecies):
    for _k, g in _positions((sides, players, prophecies), 4, (0, 25, 60, 110), live=False):
        before = snapshot(g)
        assert {"round", "ship_slots", "sled", "hand", "sites", "deck"} <= before.keys()
        c = clone(g)
        assert snapshot(c) == before
        ended = _play_out(c, seed=99)
        # playing the clone to its end changed nothing of the original...
        assert snapshot(g) == before
        # ... which, given the same choices, plays on to the very same end (chance included:
        # reshuffles of the discard pile come from the copied streams)
        assert _play_out(g, seed=99) == ended


def _public(g: Game, me: int) -> dict:
    """Everything seat ``me`` may see: the view's public attributes, its hand, the current
    decision and every site attribute not marked hidden."""
    v = View(g, me)
    out = {name: snapshot(getattr(g, name, None)) for name in sorted(PUBLIC) if name != "board"}
    out["hand"] = [dict(h) for h in g.hand]
    out["deck_size"] = v.deck_size
    out["decision"] = (g.to_move, g.kind, list(g.options))
    out["round_cards_seen"] = list(g.round_cards[:g.round])
    for site in g.sites:
        out[site.name] = {k: snapshot(x) for k, x in fields(site).items()
                          if not k.startswith("_hidden") and not callable(x)}
    return out


def _hidden_multisets(g: Game) -> dict:
    places = hidden_places(g)
    out = {"cards": Counter(c for place in places.pop("cards") for c in place),
           "rounds_left": len(places.pop("round_cards"))}
    # Pyramid C's face-down and removed tiles together, the tomb tokens face down
    tiles = [t for k, v in places.items() if k.startswith("pyramid") for t in v]
    out["tiles"] = sorted(tiles)
    out["tokens"] = sorted(t for k, v in places.items() if k.startswith("burial") for t in v)
    return out


@pytest.mark.parametrize("sides,players,prophecies", SETUPS)
def test_a_determinization_agrees_with_the_view(sides, players, prophecies):
    decks, futures = set(), set()
    for _k, g in _positions((sides, players, prophecies), 6, (0, 30, 70, 120)):
        me = g.to_move
        public, hidden, real = _public(g, me), _hidden_multisets(g), snapshot(g)
        for s in range(5):
            d = determinize(g, me, random.Random(s))
            assert _public(d, me) == public  # everything the seat sees is as it is
            assert _hidden_multisets(d) == hidden  # the same face-down things, dealt anew
            assert snapshot(g) == real  # the real game is untouched
            # the round cards to come are cards of the printed pool not yet turned up
            pool = Counter(map(tuple, g.board.round_cards(players)))
            pool.subtract(map(tuple, g.round_cards[:g.round]))
            assert not Counter(map(tuple, d.round_cards[g.round:])) - pool
            decks.add(tuple(d.deck))
            futures.add(tuple(map(tuple, d.round_cards[g.round:])))
            _play_out(d, seed=s)  # and a determinization is a game that plays to its end
    # the hidden order really is drawn anew: the draw pile and the round cards to come
    assert len(decks) > 10 and len(futures) > 10


@pytest.mark.parametrize("sides,players,prophecies", SETUPS)
def test_a_determinizer_makes_the_copies_determinize_makes(sides, players, prophecies):
    """The search's determinizer (the position's hidden parts pooled once) makes, sample
    after sample from one stream, the copy determinize makes from the same draws; once the
    game has moved it refuses."""
    for k, g in _positions((sides, players, prophecies), 6, (0, 30, 70)):
        me = g.to_move
        deal = determinizer(View(g, me), me)
        ours, theirs = random.Random(k), random.Random(k)
        for s in range(4):
            d, e = deal(ours), determinize(g, me, theirs)
            assert snapshot(d) == snapshot(e)
            # each copy's chance stream is the one it was made from, as in a search
            assert _play_out(d, seed=s) == _play_out(e, seed=s)
            assert ours.getstate() == theirs.getstate()
        apply(g, g.options[0])
        with pytest.raises(RuntimeError, match="moved"):
            deal(ours)


@pytest.mark.parametrize("sides,players,prophecies", SETUPS)
def test_a_search_copy_without_score_events_plays_the_same_game(sides, players, prophecies):
    """The search's copies keep none of what only a report reads (report False: no score
    events, no cards taken by name): from the same draws they play the same game to the
    same totals, sleds and winners as full copies."""
    for k, g in _positions((sides, players, prophecies), 7, (0, 30, 70)):
        me = g.to_move
        full, bare = determinizer(View(g, me), me), determinizer(View(g, me), me, False)
        ours, theirs = random.Random(k), random.Random(k)
        for s in range(3):
            d, e = full(ours), bare(theirs)
            assert e.events is None and e.took is None and e.totals == d.totals
            totals, events, sled, winners = _play_out(d, seed=s)
            assert _play_out(e, seed=s) == [totals, None, sled, winners]
            assert len(events) > len(g.events) or totals == g.totals


@pytest.mark.parametrize("sides,players,prophecies", SETUPS)
def test_a_resample_is_the_copy_a_sample_makes_though_made_in_the_last_ones_storage(
        sides, players, prophecies):
    """The search's copies (``reuse``: each made in the storage of the one before, played to
    its end by then) are, sample after sample, the copies a new sample makes from the same
    draws: every field of the game and of each site (tests.test_bots.snapshot), and they play
    the same game; nothing of the copy played before is left in them."""
    for k, g in _positions((sides, players, prophecies), 9, (0, 30, 70)):
        me = g.to_move
        new, again = determinizer(View(g, me), me, False), determinizer(View(g, me), me, False, True)
        ours, theirs = random.Random(k), random.Random(k)
        last = None
        for s in range(4):
            d, e = new(ours), again(theirs)
            assert last is None or e is last  # the same storage
            assert snapshot(e) == snapshot(d)
            assert _play_out(e, seed=s) == _play_out(d, seed=s)
            assert ours.getstate() == theirs.getstate()
            last = e


def _choices(bot: MctsBot, g: Game, seed: int) -> list:
    me = g.to_move
    return [bot.choose(View(g, me), g.options, random.Random(seed + i)) for i in range(2)]


@pytest.mark.parametrize("sides,players,prophecies", SETUPS[:5])
def test_mcts_choices_do_not_depend_on_the_hidden_state(sides, players, prophecies):
    bot = MctsBot(iterations=24)
    checked = 0
    for k, g in _positions((sides, players, prophecies), 8, (0, 20, 45, 80)):
        if len(g.options) < 2:
            continue
        # the same table with the hidden state in another order (deck, round cards to come,
        # face-down cards, tiles, tokens), shuffled here by hand: what the seat sees is the same
        other = clone(g)
        mix = random.Random(1000 + k)
        mix.shuffle(other.deck)
        future = other.round_cards[g.round:]
        mix.shuffle(future)
        other.round_cards = other.round_cards[:g.round] + future  # a new list: the copy shares g's
        for site in other.sites:
            for name, value in fields(site).items():
                if name.startswith("_hidden") and value and isinstance(value[0], list):
                    for stack in value:
                        mix.shuffle(stack)
                elif name.startswith("_hidden"):
                    mix.shuffle(value)
        assert other.deck != g.deck
        assert _choices(bot, g, k) == _choices(bot, other, k)
        checked += 1
    assert checked >= 2


def test_mcts_decides_every_kind_without_touching_the_game(decision_points):  # noqa: F811
    assert engine_ask_kinds() <= set(decision_points)
    bot = make_bot("mcts8")
    for kind, g0 in sorted(decision_points.items()):
        g = clone(g0)
        before = snapshot(g)
        options = list(g.options)
        a = bot.choose(GuardedView(g, g.to_move), g.options, random.Random(1))
        assert a in options, f"mcts at {kind}: {a} is not legal"
        assert snapshot(g) == before, f"mcts changed the game at a {kind} decision"
        apply(g, a)


def _game(names, sides, players, seed, index):
    bots = [make_bot(n) for n in names]
    g = Game(players, sides, seed=chance_seed(seed, index))
    r = play_game(g, bots, [bot_rng(seed, index, p) for p in range(players)])
    return r.totals, r.decisions, bots[0].searched


@pytest.mark.parametrize("name", ["mcts10", "mcts10-t8"])  # plain and truncated rollouts
def test_mcts_is_deterministic_from_the_seeds(name):
    random.seed(1)
    a = _game([name, "greedy", "random"], "D-A-C-B-D", 3, seed=2, index=0)
    random.seed(2)  # no global random anywhere
    b = _game([name, "greedy", "random"], "D-A-C-B-D", 3, seed=2, index=0)
    assert a == b and a[2] > 0


def test_mcts_beats_random():
    # 4 two-player games with seats alternating: mcts with 30 iterations wins them all
    wins = 0
    for i in range(4):
        names = ["mcts30", "random"] if i % 2 == 0 else ["random", "mcts30"]
        g = Game(2, "A-A-A-A-A", seed=chance_seed(3, i))
        r = play_game(g, [make_bot(n) for n in names], [bot_rng(3, i, p) for p in range(2)])
        wins += r.win_share[names.index("mcts30")]
    assert wins == 4


def test_mcts_specs_by_name_and_table():
    bot = make_bot("mcts400")
    assert (bot.name, bot.iterations, bot.rollout_name) == ("mcts400", 400, "random")
    assert make_bot("mcts50-greedy").rollout_name == "greedy"
    bot = make_bot({"base": "mcts", "iterations": 100, "rollout": "greedy",
                         "exploration": 1.0, "name": "deep"})
    assert (bot.name, bot.iterations, bot.rollout_name, bot.exploration) == \
        ("deep", 100, "greedy", 1.0)
    assert make_bot({"base": "mcts"}).name == "mcts400"


@pytest.mark.parametrize("spec,message", [
    ({"base": "mcts", "iterations": 0}, "iterations"),
    ({"base": "mcts", "iterations": "many"}, "iterations"),
    ({"base": "mcts", "rollout": "oracle"}, "rollout"),
    ({"base": "mcts", "exploration": -1}, "exploration"),
    ({"base": "mcts", "weights": {}}, "'weights'"),
    ("mcts0", "at least 1"),
])
def test_bad_mcts_specs_name_the_key(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_the_stack_a_seat_looks_at_stays_as_it_is():
    # Market D (RULES.md 4.4): a player who takes a stack looks at it and keeps one card; the
    # options show that stack, so a determinization for that player keeps it
    found = 0
    for i in range(40):
        g = Game(2, "D-A-A-A-A", seed=chance_seed(9, i))
        rng = random.Random(i)
        while not g.over and not (g.kind == "market_keep" and len(g.options) > 1):
            apply(g, g.options[int(rng.random() * len(g.options))])
        if g.over:
            continue
        looking = scenario.question_context(g)[-1]
        stack = list(g.sites[0].hidden()["stacks"][looking])
        for s in range(3):
            d = determinize(g, g.to_move, random.Random(s))
            assert d.sites[0].hidden()["stacks"][looking] == stack
            apply(d, d.options[-1])  # keeping a card of it works in the sample too
        assert make_bot("mcts8").choose(View(g, g.to_move), g.options, rng) in g.options
        found += 1
        if found == 3:
            break
    assert found == 3


def test_bench_reports_search_iterations_per_second():
    _bench_reports_search_iterations()


def test_bench_reports_search_iterations_per_second_in_python(monkeypatch):
    monkeypatch.setenv("IMHOTEP_STATS_ENGINE", "python")
    _bench_reports_search_iterations()


def _bench_reports_search_iterations():
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    r = CliRunner().invoke(main, ["bench", "--bots", "mcts5,greedy", "--players", "2",
                                  "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["iterations"] > 0 and data["iterations"] % 5 == 0
    assert data["iterations_per_second"] > 0 and data["iterations_per_cpu_second"] > 0
    r = CliRunner().invoke(main, ["bench", "--bots", "mcts5", "--players", "2", "--games", "1"])
    assert r.exit_code == 0 and "iterations" in r.output and "per second" in r.output
    r = CliRunner().invoke(main, ["bench", "--games", "3", "--json"])
    assert "iterations" not in json.loads(r.output)  # scripted bots do not search


def test_greedy_rollouts_play_a_game():
    games = [_game(["mcts2-greedy", "random"], "C-D-B-A-C", 2, seed=1, index=i)
             for i in range(4)]
    assert all(searched > 0 and decisions > 50 for _, decisions, searched in games)
    # two greedy-played futures per choice already beat random: over four games (one game
    # alone can go either way at 2 iterations), more points and most of the wins
    assert sum(t[0] for t, _, _ in games) > sum(t[1] for t, _, _ in games)
    assert sum(t[0] > t[1] for t, _, _ in games) >= 3


def test_chance_to_come_in_a_determinization_is_the_bots_guess():
    # a reshuffle of the discard pile after the determinization comes from the bot's stream,
    # not from the real game's seed (that would know the real future)
    g = Game(2, "A-A-A-A-A", seed=chance_seed(2, 0))
    _random_until(g, random.Random(0), 20)
    orders = set()
    for s in range(4):
        d = determinize(g, g.to_move, random.Random(s))
        d.discard = sorted(d.deck + d.discard)  # empty the draw pile into the discard pile
        d.deck = []
        d.draw()
        orders.add(tuple(d.deck))
    assert len(orders) == 4
