"""Hand-built positions, for tests and worked examples: the public way to set a game up in a
state the rulebook describes and let the engine carry on from there.

A test builds a game (``Game(..., scenario=True, deck=..., round_cards=...)``), sets public
attributes of the game or a site to the position it wants (a sled, a display, a temple's
stones), and then uses these helpers instead of the engine's internals: deliver a stone as a
ship would, run a site's round end, recompute the turn's options after an edit, read or set
a site's hidden parts by their public name (``Site.hidden``).

Each helper takes the Python engine's game or the core's (engine/facade.py): on the core's
it calls the core's own step (src/state.rs); ``run`` (a Python task function) and
``question_context`` are the Python engine's only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.facade import Game as CoreGame
from imhotep_stats.engine.kinds import NONE

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game


def advance(g: Game) -> None:
    """Run the scheduled work on to the next decision (after an edit that scheduled some)."""
    if isinstance(g, CoreGame):
        g.core.resume()
        return
    g.kind_code = NONE
    g._advance()


def deliver(g: Game, site: int, owner: int) -> None:
    """A stone of ``owner`` arrives at ``site``, as from a ship; the tasks it schedules run
    and the game stops at the next decision."""
    if isinstance(g, CoreGame):
        g.core.deliver(site, owner)
        return
    g.kind_code = NONE
    g.sites[site].deliver(g, owner)
    if g.kind_code == NONE:
        g._advance()


def run(g: Game, fn: Callable[..., None], *args: Any) -> None:
    """Run ``fn(g, *args)`` as the engine runs a task (a module-level function), then carry on
    to the next decision."""
    if isinstance(g, CoreGame):
        raise TypeError("scenario.run: the core runs its own tasks (deliver, round_end, "
                        "round_start, game_end, end_round)")
    g.kind_code = NONE
    g.push(fn, *args)
    g._advance()


def round_end(g: Game, site: int) -> None:
    """Site ``site``'s round-end rule, run as the engine runs it, then on to the next
    decision."""
    if isinstance(g, CoreGame):
        g.core.round_end(site)
        return
    from imhotep_stats.engine.sites.base import site_task

    run(g, site_task, site, "round_end")


def end_round(g: Game, next_start: int) -> None:
    """End the round now (docs/rules.md §2.4: the sites' round ends, then the next round or the
    game end), with ``next_start`` to start the next one."""
    if isinstance(g, CoreGame):
        g.core.end_round(next_start)
        return
    g.kind_code = NONE
    g._end_round(next_start)
    g._advance()


def turn_options(g: Game, p: int) -> list[Action]:
    """The turn actions seat ``p`` would have in the current state."""
    if isinstance(g, CoreGame):
        return [act(kind, *args) for kind, args in g.core.turn_options(p)]
    return g._turn_options(p)


def refresh_turn(g: Game) -> None:
    """After an edit of the state at a turn decision: the options again, for the seat to move."""
    if isinstance(g, CoreGame):
        g.core.refresh_turn()
        return
    g.options = g._turn_options(g.to_move)


def hidden(g: Game, site: int) -> dict[str, list]:
    """Site ``site``'s hidden parts by name (``Site.hidden``: Market B's ``pair``, Market
    D's ``stacks``, Pyramid C's ``stack`` and ``removed``, the Tomb's ``tokens``); live lists."""
    return g.sites[site].hidden()


def set_hidden(g: Game, site: int, name: str, value: list) -> None:
    """Replace one of site ``site``'s hidden parts (its contents, in place)."""
    place = g.sites[site].hidden()[name]
    place[:] = value


def question_context(g: Game) -> tuple:
    """The context the pending question was asked with (the Market D stack looked at is its
    last item)."""
    if isinstance(g, CoreGame):
        raise TypeError("scenario.question_context: the core keeps its questions' context "
                        "inside (read the options)")
    return g._context


def round_start(g: CoreGame, site: int) -> None:
    """Site ``site``'s round start (its new round's set-up), then on to the next decision
    (the core's game)."""
    g.core.round_start(site)


def game_end(g: CoreGame, site: int) -> None:
    """Site ``site``'s game-end scoring alone (the core's game)."""
    g.core.game_end(site)


def gain(g: CoreGame, p: int, card: str) -> None:
    """Seat ``p`` takes market card ``card`` (a red card acts at once), then on to the next
    decision (the core's game)."""
    g.core.gain(p, card)


def score_cards(g: CoreGame) -> None:
    """The market cards' game-end scoring alone: decorations, statues, unused blue cards,
    stone ornaments (docs/rules.md §2.5; the core's game)."""
    g.core.score_cards()


def score_prophecies(g: CoreGame) -> None:
    """The prophecies' game-end scoring alone (docs/rules.md §9; the core's game)."""
    g.core.score_prophecies()
