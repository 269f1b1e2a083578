"""The greedy bot and its personas: one-step look-ahead with a value estimate.

Every legal action is scored as the change it makes to "my expected final score minus
``deny`` times the opponents' mean", and the best is taken (ties: the bot's own rng).
The estimate is cheap by design (docs/engine.md, Architecture: speed): no copies of the game,
per-site tables (``sites/``) that price "a stone of player o unloaded j-th at site i",
rebuilt only when that site changes, and per-ship results cached by the ship's contents.

The pieces: ``context.Ctx`` (what a bot knows and caches per game and seat), ``cards`` (card
pricing), ``sites/`` (one module per site, all four sides, named like ``engine/sites/``),
``turn`` (the turn's actions and the blue cards), ``prophecies``; here, the bot and the
sub-decisions (a card's follow-up choices, the Lever's unloading order...).

Personas are this bot with other weights (``weights.WEIGHT_DOCS``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy import sites
from imhotep_stats.bots.greedy.cards import CardValues
from imhotep_stats.bots.greedy.context import Ctx
from imhotep_stats.bots.greedy.errors import UnknownDecision
from imhotep_stats.bots.greedy.prophecies import prophecy_scores
from imhotep_stats.bots.greedy.sites.base import POSITIONS
from imhotep_stats.bots.greedy.turn import _get_extra, _lever_value, _turn, _turn_fast
from imhotep_stats.bots.weights import SITE_KEYS, full_weights
from imhotep_stats.engine.kinds import TURN

if TYPE_CHECKING:
    import random

    from imhotep_stats.bots.greedy.sites.base import SiteEval
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.view import View

SITE_INDEX = {name: i for i, name in enumerate(SITE_KEYS)}


class GreedyBot:
    """One-step greedy over a cheap value model; ``weights`` make the personas."""

    def __init__(self, name: str = "greedy", weights: Mapping[str, float] | None = None):
        self.name = name
        self.weights = full_weights(weights)
        self._ctx: dict[View, Ctx] = {}  # per game (one view per seat and game)

    def __repr__(self) -> str:
        return f"GreedyBot({self.name!r})"

    def context_for(self, view: View) -> Ctx:
        ctx = self._ctx.get(view)
        if ctx is None:
            if len(self._ctx) > 16:
                self._ctx.clear()
            ctx = self._ctx[view] = Ctx(self.weights, view, CardValues)
        return ctx

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        ctx = self.context_for(view)
        if len(legal) == 1:
            return legal[0]
        ctx.begin()
        if view.kind_code == TURN:  # the code: in pure Python no call (View.kind is one)
            return _turn_fast(ctx, legal, rng)
        scores = self._scores(ctx, view, legal)
        best = max(scores)
        idx = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        if len(idx) == 1:
            return legal[idx[0]]
        return legal[idx[int(rng.random() * len(idx))]]

    def scores(self, view: View, legal: list[Action]) -> list[float]:
        """Every legal action's price on one scale (the change in my objective): the
        search bot's priors (``bots/search``)."""
        ctx = self.context_for(view)
        ctx.begin()
        if view.kind_code == TURN:  # the code: in pure Python no call (View.kind is one)
            return _turn(ctx, legal)
        return self._scores(ctx, view, legal)

    @staticmethod
    def _scores(ctx: Ctx, view: View, legal: list[Action]) -> list[float]:
        kind = view.kind
        if kind not in NO_REFRESH:
            ctx.touch()  # mid-unload: sites may have changed without a new epoch key
        handler = HANDLERS.get(kind)
        if handler is not None:
            return handler(ctx, view, legal)
        return _site_handler(ctx, kind).decide(kind, view, legal)


def _site_handler(ctx: Ctx, kind: str) -> SiteEval:
    for ev in ctx.evals:
        if kind in ev.kinds:
            return ev
    raise UnknownDecision(
        f"no scripted-bot handler for decision kind {kind!r} (sides {'-'.join(ctx.sides)}): "
        "add one to imhotep_stats/bots/greedy/bot.py or the site's module in bots/greedy/sites/"
    )


def _place_only(ctx: Ctx, view, legal) -> list[float]:
    """chisel_place / hammer_place: the slot that raises its ship's expectation most."""
    return [ctx.slot_gains(a.args[0])[a.args[1]] for a in legal]


def _sail_place(ctx: Ctx, view, legal) -> list[float]:
    """Sail card, step 1: the slot whose ship then sails best."""
    me = ctx.me
    out = []
    for a in legal:
        s, k = a.args
        slots = list(ctx.slots[s])
        slots[k] = me
        owners = [o for o in slots if o >= 0]
        out.append(max(ctx.evals[i].batch_obj(owners) for i in ctx.free) if ctx.free else 0.0)
    return out


def _sail_to(ctx: Ctx, view, legal) -> list[float]:
    """sail_sail / lever_sail / platform_sail: the delivery's value at that site."""
    lever = ctx.get("kind") == "lever_sail"
    out = []
    for a in legal:
        owners = [o for o in ctx.slots[a.args[0]] if o >= 0]
        i = SITE_INDEX[a.args[1]]
        out.append(_lever_value(ctx, owners, i) if lever else ctx.evals[i].batch_obj(owners))
    return out


def _lever_unload(ctx: Ctx, view, legal) -> list[float]:
    """Lever: which stone unloads next; the rest follow bow to stern."""
    slots_all = ctx.slots
    dock = ctx.dock
    s = next(s for s in range(4) if dock[s] >= 0 and any(o >= 0 for o in slots_all[s]))
    slots = slots_all[s]
    ev = ctx.evals[dock[s]]
    out = []
    for a in legal:
        k = a.args[0]
        rest = [o for j, o in enumerate(slots) if o >= 0 and j != k]
        out.append(ev.batch_obj([slots[k], *rest]))
    return out


def _barge_site(ctx: Ctx, view, legal) -> list[float]:
    me = ctx.me
    return [ctx.evals[SITE_INDEX[a.args[0]]].ensure().obj[me * POSITIONS] for a in legal]


def _hammer_get(ctx: Ctx, view, legal) -> list[float]:
    """Hammer with Pyramid D: get, or get and move the figure."""
    return [_get_extra(ctx, a) if a.args else 0.0 for a in legal]


NO_REFRESH = frozenset({"market_pick", "market_keep", "temple_keep", "chisel_place",
                        "hammer_place", "prophecy"})  # card values, ships only
HANDLERS: dict[str, Callable[..., list[float]]] = {
    "hammer_get": _hammer_get,
    "prophecy": prophecy_scores,
    "chisel_place": _place_only,
    "hammer_place": _place_only,
    "sail_place": _sail_place,
    "sail_sail": _sail_to,
    "lever_sail": _sail_to,
    "lever_unload": _lever_unload,
    "platform_sail": _sail_to,
    "barge_site": _barge_site,
}


def handled_kinds() -> set[str]:
    """Every decision kind the scripted bots make a reasoned choice for."""
    return {"turn"} | set(HANDLERS) | set(sites.site_kinds())
