"""Edits to a study's board values, the one place that reads and writes them by path:
``--param PATH=VALUE`` (``compare``) and ``PATH=CANDIDATES`` (``tune``), the value a board
plays at a dotted path, the what-if built from settings, tune's candidate studies, and a
change between two configs in words.

Paths are the overrides' dotted keys with list positions on the last key:
``pyramid.A.points[0]``, ``game.starting_sled[2]``, ``round_cards.3.cards``.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from imhotep_stats.config import ConfigError, StudyConfig, board_for, canonical_json, parse_config
from imhotep_stats.config.quick import parse_sides
from imhotep_stats.rules.board import SITE_TITLES, SITES, BoardDataError, default_board

SOURCE = "tune"  # the errors of tune's --param
SETTING = "--param"  # the errors of compare's --param
_SEGMENT = re.compile(r"^([A-Za-z0-9_]+)((?:\[\d+\])*)$")


@dataclass(frozen=True)
class Param:
    """A dotted override path (``keys``, then list ``index`` steps) and its candidates."""

    path: str
    keys: tuple[str, ...]
    index: tuple[int, ...]
    values: tuple[Any, ...]


def _number(text: str, where: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise ConfigError([(where, f"expected a number, got {text!r}")], SOURCE) from None


def parse_path(path: str, where: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``pyramid.A.points[0]`` -> (("pyramid", "A", "points"), (0,)); ``where`` names the
    option in errors."""
    parts = path.split(".")
    keys: list[str] = []
    index: list[int] = []
    for i, part in enumerate(parts):
        m = _SEGMENT.match(part)
        if not m or (m.group(2) and i != len(parts) - 1):
            raise ConfigError([(where, f"bad path segment {part!r}: keys joined by '.', list "
                                "positions as [i] on the last key only")], SOURCE)
        keys.append(m.group(1))
        index += [int(x) for x in re.findall(r"\[(\d+)\]", m.group(2))]
    return tuple(keys), tuple(index)


def split_param(text: str, expected: str) -> tuple[str, str, tuple[str, ...], tuple[int, ...]]:
    """``--param PATH=SPEC`` into (where, SPEC, keys, index); ``expected`` says what the
    option takes when the text is not PATH=SPEC."""
    where = f"--param {text}"
    path, sep, spec = text.partition("=")
    path, spec = path.strip(), spec.strip()
    if not sep or not path or not spec:
        raise ConfigError([(where, f"expected {expected}")], SOURCE)
    return (where, spec, *parse_path(path, where))


def parse_param(text: str) -> Param:
    """``PATH=V1,V2,...`` or ``PATH=LOW..HIGH`` (integers, inclusive) or ``LOW..HIGH/STEP``."""
    where, spec, keys, index = split_param(
        text, "PATH=CANDIDATES, e.g. game.starting_sled[0]=1..4 or pyramid.A.points[0]=1,2,3")
    path = text.partition("=")[0].strip()
    m = re.fullmatch(r"(-?[\d.]+)\.\.(-?[\d.]+)(?:/([\d.]+))?", spec)
    if m:
        low, high = _number(m.group(1), where), _number(m.group(2), where)
        step = _number(m.group(3), where) if m.group(3) else 1
        if step <= 0 or high < low:
            raise ConfigError([(where, "a range needs LOW <= HIGH and a positive STEP")], SOURCE)
        count = int(math.floor((high - low) / step + 1e-9)) + 1
        values = [low + i * step for i in range(count)]
        if all(isinstance(x, int) for x in (low, high, step)):
            values = [int(v) for v in values]
        else:
            values = [round(float(v), 10) for v in values]
    else:
        values = [_number(v.strip(), where) for v in spec.split(",") if v.strip()]
    if len(values) < 2 or len(set(values)) != len(values):
        raise ConfigError([(where, "expected at least two different candidates")], SOURCE)
    if len(values) > 50:
        raise ConfigError([(where, f"{len(values)} candidates: at most 50")], SOURCE)
    return Param(path, keys, index, tuple(values))


def _get(tree: dict[str, Any], keys: tuple[str, ...]) -> Any:
    node: Any = tree
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return None
        node = node[k]
    return node


def with_value(overrides: dict[str, Any], board, p: Param, value: Any) -> dict[str, Any]:
    """``overrides`` with ``p`` set to ``value`` (a list position keeps the rest of the list,
    as the study's overrides or else the board data have it)."""
    out = copy.deepcopy(overrides)
    leaf: Any = value
    if p.index:
        current = _get(out, p.keys)
        if current is None:
            current = value_at(board, ".".join(p.keys))
        if current is None:
            raise ConfigError([(f"--param {p.path}", f"no board value at {'.'.join(p.keys)} "
                                "(`imhotep-stats sides SITE.SIDE` lists the keys)")], SOURCE)
        leaf = copy.deepcopy(current)
        node = leaf
        for depth, i in enumerate(p.index):
            if not isinstance(node, list) or i >= len(node):
                raise ConfigError([(f"--param {p.path}", f"{'.'.join(p.keys)} has no position "
                                    f"{list(p.index[:depth + 1])} (value {current!r})")], SOURCE)
            if depth == len(p.index) - 1:
                node[i] = value
            else:
                node = node[i]
    node = out
    for k in p.keys[:-1]:
        node = node.setdefault(k, {})
    node[p.keys[-1]] = leaf
    return out


def printed_value(base: StudyConfig, p: Param) -> Any:
    """The value the base study plays at ``p`` (the printed board's, or the study's override;
    None where there is none), which tune.html marks among the candidates."""
    node = value_at(base.board(), ".".join(p.keys))
    for i in p.index:
        if not isinstance(node, list) or i >= len(node):
            return None
        node = node[i]
    return node


def _no_none(tree: Any) -> Any:
    """A config's canonical JSON as TOML would give it (TOML has no null: unset is absent)."""
    if isinstance(tree, dict):
        return {k: _no_none(v) for k, v in tree.items() if v is not None}
    return tree


@dataclass(frozen=True)
class Candidate:
    label: str  # "game.starting_sled[0]=3"
    values: tuple[Any, ...]  # one per parameter
    config: StudyConfig


def candidates(base: StudyConfig, params: list[Param]) -> list[Candidate]:
    """Every combination of the parameters' values, each a validated study: the base with
    the overrides set (same seed, games, cells: common random numbers)."""
    if not 1 <= len(params) <= 2:
        raise ConfigError([("--param", "give one or two parameters")], SOURCE)
    if len(base.cells) != 1:
        raise ConfigError([("study", f"tune needs a study of one cell (one side combination, "
                            f"player count and lineup); this one has {len(base.cells)}")], SOURCE)
    board = base.board()
    out = []
    for combo in itertools.product(*[p.values for p in params]):
        ov = base.overrides
        for p, v in zip(params, combo, strict=True):
            ov = with_value(ov, board, p, v)
        raw = _no_none(base.to_json())
        raw["overrides"] = ov
        label = ", ".join(f"{p.path}={v}" for p, v in zip(params, combo, strict=True))
        out.append(Candidate(label, combo, parse_config(raw, f"{SOURCE} candidate {label}")))
    return out


def _leaves(value: Any, prefix: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{prefix}.{k}" if prefix else k)
    else:
        yield prefix, value


def _board(config: dict[str, Any]):
    return board_for(canonical_json(config.get("overrides") or {}))


def value_at(board, dotted: str) -> Any:
    """The value a board plays with at an override's dotted key (None if not found)."""
    head, _, rest = dotted.partition(".")
    if head in SITE_TITLES:
        side, _, rest = rest.partition(".")
        node: Any = board.side(head, side).values
    elif head == "round_cards":
        players, _, rest = rest.partition(".")
        node = board.tables.get(f"round_cards.{players}")
    else:
        node = board.tables.get(head)
    for part in rest.split(".") if rest else []:
        if not hasattr(node, "get"):
            return None
        node = node.get(part)
    return _plain(node)


def _plain(v: Any) -> Any:
    if hasattr(v, "items"):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    return v


def describe_change(base: dict[str, Any], whatif: dict[str, Any]) -> str:
    """The change from the base config to the what-if, in words ("Pyramid A with points[0] =
    5 (was 2)", "the rule option game.sled_capacity = 4 (was 5)", "Pyramid D instead of A")."""
    label = (whatif.get("whatif") or {}).get("label") or (base.get("whatif") or {}).get("label")
    if label:
        return label
    parts = []
    for site in SITE_TITLES:
        b, w = base["sides"].get(site), whatif["sides"].get(site)
        if b != w:
            parts.append(f"{SITE_TITLES[site]} {'/'.join(w)} instead of {'/'.join(b)}")
    bo, wo = dict(_leaves(base.get("overrides", {}))), dict(_leaves(whatif.get("overrides", {})))
    bboard, wboard = _board(base), _board(whatif)
    changed: dict[str, list[str]] = {}
    for key in sorted(set(bo) | set(wo)):
        b_val, w_val = value_at(bboard, key), value_at(wboard, key)
        if b_val != w_val:  # an override that restates the data file's value is no change
            bo[key], wo[key] = b_val, w_val
            head, _, rest = key.partition(".")
            if head in SITE_TITLES:
                side, _, what = rest.partition(".")
                changed.setdefault(f"{SITE_TITLES[head]} {side}", []).append(what)
            else:
                parts.append(f"the rule option {key} = {wo[key]} (was {bo[key]})")
    for name, keys in changed.items():
        steps = [step for k in keys for step in _steps(k, bo[f"{_key(name)}.{k}"],
                                                         wo[f"{_key(name)}.{k}"])]
        parts.append(f"{name} with {', '.join(steps[:MAX_STEPS])}"
                     + (f" and {len(steps) - MAX_STEPS} more values" if len(steps) > MAX_STEPS
                        else ""))
    return " and ".join(parts) if parts else "the what-if (identical to the base)"


MAX_STEPS = 4  # changed values a what-if's label names one by one


def _key(name: str) -> str:
    """"Pyramid A" -> "pyramid.A" (the overrides' key of a site side's title)."""
    title, _, side = name.rpartition(" ")
    site = next(k for k, t in SITE_TITLES.items() if t == title)
    return f"{site}.{side}"


def _steps(key: str, was: Any, now: Any) -> list[str]:
    """Each changed value of ``key`` as "points[0] = 5 (was 2)": a list changed in place is
    named position by position, as ``--param`` writes them."""
    if isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        return [step for i, (b, w) in enumerate(zip(was, now, strict=True)) if b != w
                for step in _steps(f"{key}[{i}]", b, w)]
    return [f"{key} = {json.dumps(now)} (was {json.dumps(was)})"]


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


def _slug(settings: list[str], sides: str | None) -> str:
    """A what-if's name after its change and a hash of it (two changes that read alike
    keep two run directories): "pyramid.A.points0-to-5-1f0c9e2a"; a study name's
    characters only (letters, digits, '.', '_', '-')."""
    text = "_".join([*settings, *([f"sides-{sides}"] if sides else [])])
    slug = re.sub(r"[^A-Za-z0-9._-]", "", text.replace("=", "-to-").replace(",", "_"))[:40]
    tag = hashlib.sha256(canonical_json([settings, sides]).encode()).hexdigest()[:8]
    return f"{slug.strip('._-')}-{tag}" if slug.strip("._-") else f"whatif-{tag}"


def whatif_of(base: StudyConfig, settings: list[str], sides: str | None = None) -> StudyConfig:
    """``base`` with each ``PATH=VALUE`` set and, with ``sides``, another side combination
    (``D-A-C-B-D``). Problems name the ``--param`` (or ``--whatif-sides``) they come from."""
    if not settings and not sides:
        raise ConfigError([("--param", "give at least one --param PATH=VALUE or "
                            "--whatif-sides to compare against")], SETTING)
    board = base.board()
    overrides = base.overrides
    for text in settings:
        p, value = parse_setting(text)
        overrides = with_value(overrides, board, p, value)
    try:
        default_board().with_overrides(overrides, prefix="--param")
    except BoardDataError as exc:
        raise ConfigError(exc.problems, SETTING) from None
    new_sides = base.sides
    if sides:
        table = parse_sides(sides, "--whatif-sides")
        new_sides = tuple(tuple(table[site]) for site in SITES)
    return base.replace(name=f"{base.name}-{_slug(settings, sides)}",
                        overrides_json=canonical_json(overrides) if overrides else "{}",
                        sides=new_sides, whatif_json="{}")
