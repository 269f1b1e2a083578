"""Shared test helpers: random legal play with invariant checks, stones and points, and the
command line run in this process."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from imhotep_stats.engine import scenario
from imhotep_stats.engine.game import Game, apply

ROOT = Path(__file__).resolve().parent.parent


def load_script(path: str) -> ModuleType:
    """A script of the repository (``scripts/x.py``, ``tools/x.py``) loaded as a module."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The blue cards in the order of their bits in ``Game.blue_kinds`` (src/cards.rs, BLUE0 + j).
BLUE = ("chisel", "lever", "hammer", "sail", "barge", "loading_platform")

# A random game ends after a few hundred decisions; far more means the engine loops.
MAX_DECISIONS = 5000


def unload(g: Game, site: int, owner: int) -> None:
    """A stone of ``owner`` arrives at ``site``, as from a ship; the tasks it schedules run."""
    scenario.deliver(g, site, owner)


def points(g: Game, seat: int, source: str) -> int:
    """Seat ``seat``'s points from one source so far."""
    return sum(e[2] for e in g.events if e[0] == seat and e[1] == source)


def cli(*args, env=None):
    """``imhotep-stats ARGS`` in this process (Click's runner); arguments may be paths or
    numbers. Never appends to a CI job's summary ($GITHUB_STEP_SUMMARY)."""
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    return CliRunner().invoke(main, [str(a) for a in args],
                              env={"GITHUB_STEP_SUMMARY": None, **(env or {})})


def points_by_seat(g: Game, source: str) -> list[int]:
    """Each seat's points from one source (``"temple"``, ``"prophecy"``, ...) so far."""
    pts = [0] * g.n
    for seat, src, k, _ in g.events:
        if src == source:
            pts[seat] += k
    return pts


def conservation_ok(g: Game) -> bool:
    """Stones conserved per colour: quarry + sled + ships + sites = the colour's stones."""
    for p in range(g.n):
        held = g.quarry[p] + g.sled[p] + g.ship_stones_of(p) + sum(s.stones_of(p) for s in g.sites)
        if held != g.stones_total:
            return False
    return True


def where(g: Game) -> str:
    """Where a game stands, for assertion messages."""
    extra = " prophecies" if g.prophecies else ""
    return f"{g.n}p {'-'.join(g.sides)}{extra} round {g.round} decision {g.decisions} ({g.kind})"


def check_invariants(g: Game) -> None:
    """Invariants that hold in every state of every game, whatever the sides and options."""
    assert conservation_ok(g), f"stones not conserved at {where(g)}"
    for p in range(g.n):
        assert 0 <= g.sled[p] <= g.sled_cap[p], f"sled of seat {p} out of range at {where(g)}"
        assert g.quarry[p] >= 0, f"quarry of seat {p} negative at {where(g)}"
        # the blue cards' counters (the turn's card options read them) agree with the hand
        held = g.hand[p]
        assert g.blue[p] == sum(held.get(c, 0) for c in BLUE), f"blue count of seat {p} at {where(g)}"
        kinds = sum(1 << j for j, c in enumerate(BLUE) if held.get(c, 0))
        assert g.blue_kinds[p] == kinds, f"blue kinds of seat {p} at {where(g)}"
    # the open slots' mask: the empty slots of the ships not sailed, ship_free of them
    open_mask = sum(1 << (4 * s + k) for s in range(4) if g.ship_dock[s] < 0
                    for k, o in enumerate(g.ship_slots[s]) if o == -1)
    assert g.open_mask == open_mask and bin(open_mask).count("1") == g.ship_free, where(g)
    for s in range(4):
        assert len(g.ship_slots[s]) == g.ship_sizes[s]
        assert 0 <= g.ship_load[s] <= g.ship_sizes[s]
    for site in g.sites:
        assert site.stones() == sum(site.stones_of(p) for p in range(g.n)), (
            f"{type(site).__name__}: stones() is not the sum of stones_of() at {where(g)}"
        )
    if g.over:
        assert g.round == g.rounds + 1, f"game over in round {g.round} of {g.rounds}"
    else:
        assert g.options, f"no legal action while the game is on at {where(g)}"
        assert 0 <= g.to_move < g.n
        texts = [str(a) for a in g.options]
        assert len(set(texts)) == len(texts), f"options with the same text at {where(g)}: {texts}"
    by_seat = [0] * g.n
    for seat, _, pts, _ in g.events:
        by_seat[seat] += pts
    assert g.totals == by_seat, f"totals {g.totals} != sum of events {by_seat} at {where(g)}"


def play_random(
    g: Game,
    seed: int | str = 0,
    check: bool = True,
    watch: Callable[[Game], None] | None = None,
) -> Game:
    """Play ``g`` to the end with uniformly random legal actions (``random.Random(seed)``).

    With ``check``, ``check_invariants`` runs on the first state and after every decision;
    ``watch`` (if given) is called on the same states, after the check.
    """
    rng = random.Random(seed)
    while True:
        if check:
            check_invariants(g)
        if watch is not None:
            watch(g)
        if g.over:
            return g
        assert g.decisions < MAX_DECISIONS, f"no end after {g.decisions} decisions: {where(g)}"
        apply(g, g.options[rng.randrange(len(g.options))])
