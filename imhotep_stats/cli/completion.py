"""Shell completion of option values (Click's completion; README "Shell completion"):
bot names in ``--bots`` lists, side letters in ``--sides``, ``SITE.SIDE`` names and the
dotted board paths of ``tune --param``. Imports the package's data only when asked."""

from __future__ import annotations


def complete_bots(_ctx, _param, incomplete: str) -> list[str]:
    """``gre`` -> ``greedy``; ``greedy,ra`` -> ``greedy,random``: one name per seat."""
    from imhotep_stats.bots import REGISTRY

    done, _, part = incomplete.rpartition(",")
    head = f"{done}," if done else ""
    return [head + name for name in sorted(REGISTRY) if name.startswith(part)]


def complete_sides(_ctx, _param, incomplete: str) -> list[str]:
    """The next site's side letters: ``D-A-`` -> ``D-A-A-`` ... ``D-A-D-``."""
    from imhotep_stats.rules.board import SIDES, SITES

    letters = incomplete.upper().split("-")
    done, part = letters[:-1], letters[-1]
    if len(done) >= len(SITES) or any(x not in SIDES for x in done):
        return []
    last = len(done) == len(SITES) - 1
    head = "".join(f"{x}-" for x in done)
    return [head + x + ("" if last else "-") for x in SIDES if x.startswith(part)]


def complete_site_side(_ctx, _param, incomplete: str) -> list[str]:
    """``pyr`` -> ``pyramid.A`` ... ``pyramid.D``."""
    from imhotep_stats.rules.board import SIDES, SITES

    return [f"{site}.{side}" for site in SITES for side in SIDES
            if f"{site}.{side}".startswith(incomplete)]


def board_paths() -> list[str]:
    """Every dotted path ``tune --param`` can change: game.KEY and SITE.SIDE.KEY."""
    from imhotep_stats.rules.board import default_board

    board = default_board()
    paths = [f"game.{k}" for k in board.tables.get("game", {}) if k != "provenance"]
    for name, side in board.sides.items():
        paths += [f"{name}.{k}" for k in side.values]
    return paths


def complete_param(_ctx, _param, incomplete: str) -> list[str]:
    """``game.st`` -> ``game.starting_sled=`` ... (then the candidates are the user's)."""
    if "=" in incomplete:
        return []
    return [f"{p}=" for p in board_paths() if p.startswith(incomplete)]
