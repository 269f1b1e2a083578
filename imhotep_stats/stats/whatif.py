"""What-ifs without a file: ``compare --sides ... --param PATH=VALUE`` (several) and
``--whatif-sides``, the notebook API's ``compare``. The what-if is the base study with the
settings applied as overrides (and its sides replaced): same seed, games and lineups, so the
two runs pair game by game as a config's ``[whatif]`` table would."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from imhotep_stats.config import ConfigError, StudyConfig, canonical_json
from imhotep_stats.config.quick import parse_sides
from imhotep_stats.rules.board import SITES, BoardDataError, default_board
from imhotep_stats.stats.tune import Param, split_param, with_value

SOURCE = "--param"


def parse_setting(text: str) -> tuple[Param, Any]:
    """``PATH=VALUE``: VALUE as JSON (``3``, ``2.5``, ``[1, 2, 3]``, ``true``), else a string."""
    _, raw, keys, index = split_param(text, "PATH=VALUE, e.g. game.starting_sled[0]=3 or "
                                      "pyramid.A.points=[2,1,3,2,4,3,2,1,3,2,3,1,3,4]")
    path = text.partition("=")[0].strip()
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return Param(path, keys, index, (value,)), value


def whatif_of(base: StudyConfig, settings: list[str], sides: str | None = None) -> StudyConfig:
    """``base`` with each ``PATH=VALUE`` set and, with ``sides``, another side combination
    (``D-A-C-B-D``). Problems name the ``--param`` (or ``--whatif-sides``) they come from."""
    if not settings and not sides:
        raise ConfigError([("--param", "give at least one --param PATH=VALUE or "
                            "--whatif-sides to compare against")], SOURCE)
    board = base.board()
    overrides = base.overrides
    for text in settings:
        p, value = parse_setting(text)
        overrides = with_value(overrides, board, p, value)
    try:
        default_board().with_overrides(overrides, prefix="--param")
    except BoardDataError as exc:
        raise ConfigError(exc.problems, SOURCE) from None
    new_sides = base.sides
    if sides:
        table = parse_sides(sides, "--whatif-sides")
        new_sides = tuple(tuple(table[site]) for site in SITES)
    tag = hashlib.sha256(canonical_json([settings, sides]).encode()).hexdigest()[:8]
    return base.replace(name=f"{base.name}-whatif-{tag}",
                        overrides_json=canonical_json(overrides) if overrides else "{}",
                        sides=new_sides, whatif_json="{}")
