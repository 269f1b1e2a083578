"""The turn, priced (docs/rules.md §2.2): every turn action on one scale, the change it makes
to my objective, and the blue cards played from the hand (docs/rules.md §3).

- **sail s to i**: the delivery's value at i, minus what the ship was already expected to
  bring (so sailing wins when the ship is better now than in others' hands).
- **place s k**: how much the ship's expected value rises with my stone in that slot, minus
  the stone's worth on my sled.
- **get**: stones on the sled are worth ``stones`` x a value that falls with each stone
  already there (an empty sled leaves only sailing), and less in the last round.
- **blue cards**: the best use of the card now minus what holding it is worth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy.context import DECAY, DPOW
from imhotep_stats.bots.greedy.errors import UnknownDecision
from imhotep_stats.bots.greedy.sites.base import POSITIONS

if TYPE_CHECKING:
    import random

    from imhotep_stats.bots.greedy.context import Ctx


def _turn_fast(ctx: Ctx, legal: list, rng: random.Random):
    """The turn's best action without scoring every legal one: each ship's cached best
    slot and best sail compete with the get and card actions (same prices as ``_turn``).

    Relies on the engine's order of turn actions (get first, cards last) to find the few
    others; any surprise falls back to scoring the whole list.
    """
    me = ctx.me
    dock = ctx.dock
    cache = ctx.ship_res
    sled = ctx.sled[me]
    place_cost = ctx.stone_now * DPOW[sled - 1] if 0 < sled <= 32 else ctx.sled_value(sled - 1)
    best = -1e18
    cands: tuple = ()  # tuples, never mutated: a ship's own tuples are shared with its cache
    slots_all = ctx.slots
    for s in range(4):
        if dock[s] >= 0:
            continue
        slots = slots_all[s]
        r = cache[s]  # ctx.ship(s), inlined
        if r is None or r[7] != slots:
            r = cache[s] = ctx._ship(s, slots)
        if sled:
            v = r[3]
            if v is not None:
                v -= place_cost
                if v > best + 1e-9:
                    best = v
                    cands = r[4]
                elif v >= best - 1e-9:
                    cands += r[4]
        v = r[5]
        if v is not None:
            if v > best + 1e-9:
                best = v
                cands = r[6]
            elif v >= best - 1e-9:
                cands += r[6]
    i = 0
    n = len(legal)
    a = legal[0]  # (compiled: a typed Action, its kind and args C fields)
    if a.kind == "get":
        gv = _get_value(ctx, sled, me)
        while i < n:
            a = legal[i]
            if a.kind != "get":
                break
            v = gv + _get_extra(ctx, a) if a.args else gv
            if v > best + 1e-9:
                best, cands = v, (a,)
            elif v >= best - 1e-9:
                cands += (a,)
            i += 1
    j = n - 1
    a = legal[j]
    if a.kind == "play":  # blue cards: priced from every ship's evaluation
        res = [r if d < 0 else None for d, r in zip(dock, cache, strict=True)]
    while j >= i:
        a = legal[j]
        if a.kind != "play":
            break
        v = _card_play(ctx, a.args[0], res, sled)
        if v > best + 1e-9:
            best, cands = v, (a,)
        elif v >= best - 1e-9:
            cands += (a,)
        j -= 1
    if cands:
        a = cands[0] if len(cands) == 1 else cands[int(rng.random() * len(cands))]
        if a in legal:
            return a
    scores = _turn(ctx, legal)  # not expected: a turn action this pricing did not foresee
    top = max(scores)
    idx = [x for x, v in enumerate(scores) if v >= top - 1e-9]
    return legal[idx[0]] if len(idx) == 1 else legal[idx[int(rng.random() * len(idx))]]


def _turn(ctx: Ctx, legal: list) -> list[float]:
    """Score every turn action (docs/rules.md §2.2) on one scale: change in my objective."""
    me = ctx.me
    dock = ctx.dock
    res = [ctx.ship(s) if dock[s] < 0 else None for s in range(4)]
    fpos = ctx.fpos
    sled = ctx.sled[me]
    place_cost = ctx.sled_value(sled - 1)
    out: list[float] = []
    cards = False
    for a in legal:
        k = a.kind
        if k == "place":
            s, slot = a.args
            out.append(ctx.slot_gains(s)[slot] - place_cost)
        elif k == "sail":
            s, site = a.args
            r = res[s]
            out.append(r[1][fpos[site]] - r[0])
        elif k == "get":
            v = _get_value(ctx, sled, me)
            if a.args:
                v += _get_extra(ctx, a)
            out.append(v)
        elif k == "play":
            cards = True
            out.append(0.0)
        elif k == "pass":
            out.append(0.0)
        else:
            raise UnknownDecision(f"no scripted-bot handler for turn action {a}")
    if cards:
        for i, a in enumerate(legal):
            if a.kind == "play":
                out[i] = _card_play(ctx, a.args[0], res, sled)
    return out


def _get_value(ctx: Ctx, sled: int, me: int) -> float:
    gain = ctx.get_stones  # min(get_stones, room on the sled, stones in the quarry)
    room = ctx.sled_cap[me] - sled
    if room < gain:
        gain = room
    if ctx.quarry[me] < gain:
        gain = ctx.quarry[me]
    base = ctx.stone_now
    v = 0.0
    for j in range(sled, sled + gain):  # sled_value(j), inlined
        d = DPOW[j] if j < 32 else DECAY**j  # (a C double compiled: no float object)
        v += base * d
    return v


def _get_extra(ctx: Ctx, a) -> float:
    """Extras of a get action (Pyramid D's figure move): the pyramid evaluator prices them."""
    fn = getattr(ctx.evals[1], "get_extra", None)
    if fn is None:
        raise UnknownDecision(f"no scripted-bot handler for turn action {a}")
    return fn(a)


def _places(ctx: Ctx, res: list) -> list[float]:
    """Every open slot's gain for my stone, best first (Chisel, Hammer)."""
    gains = [ctx.slot_gains(s) for s, r in enumerate(res) if r is not None]
    return sorted((v for pv in gains for v in pv if v is not None), reverse=True)


def _card_play(ctx: Ctx, name: str, res: list, sled: int) -> float:
    """A blue card now: its best use minus what holding it is worth (docs/rules.md §3)."""
    me = ctx.me
    keep = ctx.cards.value(me, name)
    evals = ctx.evals
    slots_all = ctx.slots
    if name == "chisel":
        places = _places(ctx, res)
        if len(places) < 2:
            return -keep
        return places[0] + places[1] - ctx.sled_value(sled - 1) - ctx.sled_value(sled - 2) \
            + ctx.sled_value(0) - keep
    if name == "hammer":
        places = _places(ctx, res)
        gain = _get_value(ctx, sled, me)
        return gain + (places[0] if places else 0.0) - keep
    if name == "lever":
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is not None:
                owners = [o for o in slots_all[s] if o >= 0]
                if len(owners) >= ctx.mins[s]:
                    e0 = r[0]
                    orders = _lever_orders(ctx.me, owners)
                    for t in ctx.free_tabs:  # this epoch's tables (see "sail" below)
                        v = _lever_obj(t, orders) - e0
                        if v > best:
                            best = v
        return best - keep
    if name == "sail":
        # the free sites' tables are this epoch's (set_free ensured them): read them directly
        tabs = ctx.free_tabs
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is None:
                continue
            owners = [o for o in slots_all[s] if o >= 0]
            m = len(owners)
            if m < ctx.sizes[s] and m + 1 >= ctx.mins[s]:
                e0 = r[0]
                for j in range(m + 1):
                    new = owners[:j] + [me] + owners[j:]
                    for t in tabs:
                        v = sum([t[o * POSITIONS + x] for x, o in enumerate(new)]) - e0
                        if v > best:
                            best = v
        return best - ctx.sled_value(sled - 1) - keep
    if name == "barge":
        best = -1e9
        for i in range(1, 5):  # (a loop: no closures in compiled code)
            v = evals[i].ensure().obj[me * POSITIONS]
            if v > best:
                best = v
        return best - ctx.sled_value(sled - 1) - ctx.sled_value(sled - 2) \
            - ctx.sled_value(sled - 3) - keep
    if name == "loading_platform":
        used = ctx.used
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is not None and me in slots_all[s]:
                owners = [o for o in slots_all[s] if o >= 0]
                if len(owners) < ctx.mins[s]:
                    continue
                for i in range(5):
                    if used[i] == 1:
                        best = max(best, evals[i].batch_obj(owners) - r[0])
        return best - ctx.sled_value(sled - 1) - keep
    raise UnknownDecision(f"no scripted-bot handler for blue card {name!r}")


def _lever_value(ctx: Ctx, owners: list[int], i: int) -> float:
    """Lever: the better of the normal order, my stones first and my stones last."""
    ev = ctx.evals[i]
    me = ctx.me
    mine = [o for o in owners if o == me]
    rest = [o for o in owners if o != me]
    return max(ev.batch_obj(owners), ev.batch_obj(mine + rest), ev.batch_obj(rest + mine))


def _lever_orders(me: int, owners: list[int]) -> tuple:
    """The unloading orders _lever_value compares, as flat table indexes."""
    mine = [o for o in owners if o == me]
    rest = [o for o in owners if o != me]
    return tuple([[o * POSITIONS + j for j, o in enumerate(order)]
                  for order in (owners, mine + rest, rest + mine)])


def _lever_obj(t: list[float], orders: tuple) -> float:
    """_lever_value on a free site's table t (the max of the orders' sums, the first of
    equals; plain loops: typed doubles compiled, the same sums as sum())."""
    best = 0.0
    first = True
    for order in orders:
        v = 0.0
        for x in order:
            v += t[x]
        if first or v > best:
            best = v
            first = False
    return best
