"""The prophecy choice, priced (docs/rules.md §9; the engine's ``engine/prophecies.py``): where
to place a scarab, or whether to keep it."""

from __future__ import annotations

import math

from imhotep_stats.bots.greedy.sites.base import rounds_left


def prophecy_scores(ctx, view, legal) -> list[float]:
    """Place a scarab where the expected gain beats keeping it for a later window.

    P(fulfil) is logistic in my lead over the best other count of the god's task, wider
    the more of the game is left; a scarab kept is worth what a later, smaller window
    would pay at even odds, unless I have no spare window left.
    """
    state = ctx.get("prophecy")
    me = ctx.me
    n = ctx.n
    w = state.window_of.get(ctx.round, -1)
    windows = len(state.fulfilled)
    sigma = 0.8 + 1.2 * rounds_left(ctx)
    weight = ctx.w["prophecy"]
    spare = (windows - 1 - w) >= state.left[me]  # later windows enough for my scarabs
    keep = 0.0
    if spare and w + 1 < windows:
        keep = max(0.0, 0.55 * state.fulfilled[w + 1] + 0.45 * state.failed[w + 1])
    out = []
    for a in legal:
        if a.kind != "scarab":
            out.append(weight * keep)
            continue
        god = a.args[0]
        c = _god_counts(ctx, god)
        lead = c[me] - max(c[q] for q in range(n) if q != me)
        x = (lead + 0.5) / sigma
        p = 1.0 / (1.0 + math.exp(-x)) if c[me] or rounds_left(ctx) > 1 else 0.0
        out.append(weight * (p * state.fulfilled[w] + (1 - p) * state.failed[w]))
    return out


def _god_counts(ctx, god: str) -> list[int]:
    n = ctx.n
    get = ctx.get
    if god == "amun":
        return list(get("red_kept"))
    if god == "hathor":
        red = get("red_kept")
        return [sum(ctx.cards.hand(p).values()) + red[p] for p in range(n)]
    if god == "anubis":
        return list(ctx.sled)
    site = ctx.view.site({"ra": 2, "horus": 1, "osiris": 3, "thoth": 4}[god])
    return [site.stones_of(p) for p in range(n)]
