"""Hand-built positions, for tests and worked examples: the public way to set a game up in a
state the rulebook describes and let the engine carry on from there.

A test builds a game (``Game(..., scenario=True, deck=..., round_cards=...)``), sets public
attributes of the game or a site to the position it wants (a sled, a display, a temple's
stones), and then uses these helpers: deliver a stone as a ship would, run a site's round
end, recompute the turn's options after an edit, read or set a site's hidden parts by their
public name (``Site.hidden``). Each calls the core's own step (src/state.rs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import act

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game


def advance(g: Game) -> None:
    """Run the scheduled work on to the next decision (after an edit that scheduled some)."""
    g.core.resume()


def deliver(g: Game, site: int, owner: int) -> None:
    """A stone of ``owner`` arrives at ``site``, as from a ship; the tasks it schedules run
    and the game stops at the next decision."""
    g.core.deliver(site, owner)


def round_end(g: Game, site: int) -> None:
    """Site ``site``'s round-end rule, run as the engine runs it, then on to the next
    decision."""
    g.core.round_end(site)


def end_round(g: Game, next_start: int) -> None:
    """End the round now (docs/rules.md §2.4: the sites' round ends, then the next round or the
    game end), with ``next_start`` to start the next one."""
    g.core.end_round(next_start)


def turn_options(g: Game, p: int) -> list[Action]:
    """The turn actions seat ``p`` would have in the current state."""
    return [act(kind, *args) for kind, args in g.core.turn_options(p)]


def refresh_turn(g: Game) -> None:
    """After an edit of the state at a turn decision: the options again, for the seat to move."""
    g.core.refresh_turn()


def hidden(g: Game, site: int) -> dict[str, list]:
    """Site ``site``'s hidden parts by name (``Site.hidden``: Market B's ``pair``, Market
    D's ``stacks``, Pyramid C's ``stack`` and ``removed``, the Tomb's ``tokens``); live lists."""
    return g.sites[site].hidden()


def set_hidden(g: Game, site: int, name: str, value: list) -> None:
    """Replace one of site ``site``'s hidden parts (its contents, in place)."""
    place = g.sites[site].hidden()[name]
    place[:] = value


def round_start(g: Game, site: int) -> None:
    """Site ``site``'s round start (its new round's set-up), then on to the next decision."""
    g.core.round_start(site)


def game_end(g: Game, site: int) -> None:
    """Site ``site``'s game-end scoring alone."""
    g.core.game_end(site)


def gain(g: Game, p: int, card: str) -> None:
    """Seat ``p`` takes market card ``card`` (a red card acts at once), then on to the next
    decision."""
    g.core.gain(p, card)


def score_cards(g: Game) -> None:
    """The market cards' game-end scoring alone: decorations, statues, unused blue cards,
    stone ornaments (docs/rules.md §2.5)."""
    g.core.score_cards()


def score_prophecies(g: Game) -> None:
    """The prophecies' game-end scoring alone (docs/rules.md §9)."""
    g.core.score_prophecies()
