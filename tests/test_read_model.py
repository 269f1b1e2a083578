"""The read model (docs/engine.md, "The read model"): a seat's view and its sites' windows
(engine/seen.py) hand out nothing that can change the game, lead to no hidden part (compiled
and in pure Python), show every site as it is now, and show all that the greedy bot reads."""

from __future__ import annotations

import ast
import json
import os
import pathlib
import random
import re
import subprocess
import sys
from types import MappingProxyType

import pytest

import imhotep_stats
from imhotep_stats.bots.greedy.sites import MODULES
from imhotep_stats.engine import seen as seen_module
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.seen import SEEN, ProphecySeen, SiteSeen
from imhotep_stats.engine.sites import side_class
from imhotep_stats.engine.view import PUBLIC, View
from imhotep_stats.sim import compiled
from tests.test_bots import fields, snapshot

PACKAGE = pathlib.Path(imhotep_stats.__file__).parent
DOCS = PACKAGE.parent / "docs" / "engine.md"
ALL_SIDES = ("A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D")
# what a window shows beside the site's own fields: its class's side letter and the queries
QUERIES = {"stones", "stones_of", "cells"}


def _mid_game(sides: str, decisions: int, seed: int = 3, players: int = 3) -> Game:
    g = Game(players, sides, seed=seed, prophecies=True)
    rng = random.Random(seed)
    while g.decisions < decisions and not g.over:
        apply(g, g.options[int(rng.random() * len(g.options))])
    return g


def shown(obj) -> dict:
    """Every public name a window or a view shows, with its value (methods left out)."""
    out = {}
    for name in dir(obj):
        if name.startswith("_"):
            continue
        value = getattr(obj, name)
        if not callable(value) or isinstance(value, MappingProxyType | tuple):
            out[name] = value
    return out


def _reached(value, depth: int = 0):
    """Everything reachable from ``value`` through tuples and read-only mappings."""
    yield value
    if depth > 4:
        return
    if isinstance(value, tuple):
        for x in value:
            yield from _reached(x, depth + 1)
    elif isinstance(value, MappingProxyType):
        for k, x in value.items():
            yield from _reached(k, depth + 1)
            yield from _reached(x, depth + 1)


def _deep(v):
    """``v`` with every list and tuple in it a tuple (to compare with what a window shows)."""
    if isinstance(v, list | tuple):
        return tuple(_deep(x) for x in v)
    return v


def test_a_view_hands_out_nothing_that_changes_the_game():
    for sides in ALL_SIDES:
        g = _mid_game(sides, 40)
        before = snapshot(g)
        v = View(g, g.to_move)
        with pytest.raises(TypeError):
            v.get("sled")[1] = 99
        with pytest.raises(TypeError):
            v.ship_slots[0][0] = 1
        for name in sorted(PUBLIC):
            value = v.get(name)
            for x in _reached(value):
                assert not isinstance(x, list | dict | set), f"{sides}: view.{name} hands out {x!r}"
        v.hand["statue"] = 9  # a copy: mine to change
        v.hand_of(0)["statue"] = 9
        assert snapshot(g) == before


def test_a_site_window_hands_out_nothing_that_changes_the_game():
    for sides in ALL_SIDES:
        g = _mid_game(sides, 60)
        before = snapshot(g)
        v = View(g, 0)
        for i in range(5):
            w = v.site(i)
            for name, value in shown(w).items():
                for x in _reached(value):
                    assert not isinstance(x, list | dict | set), \
                        f"{w!r}.{name} hands out {type(x).__name__} {x!r}"
            with pytest.raises(AttributeError):
                w.index = 3  # nothing to set either
        assert snapshot(g) == before


def test_a_window_shows_its_site_as_it_is_now():
    """Every field a window shows is its site's field of that name (frozen), read again
    after moves: the windows are made once and follow the game."""
    for sides in (*ALL_SIDES, "D-C-B-A-C", "B-D-A-C-B"):
        g = _mid_game(sides, 0, players=4)
        v = View(g, 1)
        windows = [v.site(i) for i in range(5)]
        rng = random.Random(5)
        checked = set()
        while not g.over:
            for i, w in enumerate(windows):
                site = g.sites[i]
                assert v.site(i) is w
                for name, value in shown(w).items():
                    if name in ("side",):
                        assert value == site.side
                        continue
                    assert value == _deep(getattr(site, name)), f"{w!r}.{name}"
                    checked.add((type(w).__name__, name))
                assert [w.stones_of(p) for p in range(4)] == [site.stones_of(p) for p in range(4)]
                assert w.stones() == site.stones()
            for _ in range(7):
                if not g.over:
                    apply(g, g.options[int(rng.random() * len(g.options))])
        assert len(checked) > 10


def _hidden_check() -> dict:
    """What can be reached from every view and window, over all sides mid-game: the hidden
    parts met (must be none) and, compiled, which private names are readable (none)."""
    found, private = [], []
    for sides in ALL_SIDES:
        g = _mid_game(sides, 50)
        hidden_ids = {id(x) for site in g.sites for x in site.hidden().values()}
        hidden_ids |= {id(s) for site in g.sites for x in site.hidden().values()
                       for s in x if isinstance(s, list)}
        forbidden = hidden_ids | {id(g), id(g.deck), id(g.round_cards)} | {id(s) for s in g.sites}
        v = View(g, g.to_move)
        objs = [("view", v)] + [(f"site {i}", v.site(i)) for i in range(5)]
        if v.prophecy is not None:
            objs.append(("prophecy", v.prophecy))
        for where, obj in objs:
            for name, value in shown(obj).items():
                found += [f"{where}.{name}" for x in _reached(value) if id(x) in forbidden]
            for name in ("_g", "_site", "_s", "_c", "_l", "_r", "_p", "_hidden_pair",
                         "_hidden_stacks", "_hidden_stack", "_hidden_removed",
                         "_hidden_tokens", "__dict__", "__getattr__"):
                # names read by string on purpose: tests/test_engine_privacy.py scans for them
                try:
                    getattr(obj, name)
                except AttributeError:
                    continue
                if name == "__getattr__" and where == "view":
                    continue  # the view's own, which only raises
                private.append(f"{where}.{name}")
        for site in g.sites:  # compiled, a site's hidden lists are not Python attributes
            for name in site.hidden():
                if hasattr(site, f"_hidden_{name}"):
                    private.append(f"{site.name}._hidden_{name}")
    return {"mode": compiled.engine(), "found": found, "private": private}


def test_no_hidden_part_is_reachable_from_the_read_model_in_this_process():
    got = _hidden_check()
    assert got["found"] == [], got["found"]
    if got["mode"] == "compiled":
        # the view's game, a window's site and a site's hidden lists are C fields
        assert got["private"] == [], got["private"]
    else:
        # pure Python keeps them under private names only (no public one, no fall-through)
        assert all(p.rsplit(".", 1)[1].startswith("_") for p in got["private"])


def test_no_hidden_part_is_reachable_from_the_read_model_in_pure_python():
    env = {k: v for k, v in os.environ.items() if k != "_IMHOTEP_COMPILED_WARNED"}
    env["IMHOTEP_PURE"] = "1"
    code = ("import json; from tests.test_read_model import _hidden_check; "
            "print(json.dumps(_hidden_check()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, timeout=300, cwd=PACKAGE.parent)
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["mode"] == "pure"
    assert got["found"] == [], got["found"]
    # no __dict__ and no __getattr__ on a window: only private slots, read by name
    assert not [p for p in got["private"] if p.endswith(("__dict__", "__getattr__"))]


def _site_reads(cls_node: ast.ClassDef) -> set[str]:
    """Attribute names a greedy evaluator class reads of its site: ``self.site.x`` and
    ``site.x`` after ``site = self.site``."""
    names = set()
    for node in ast.walk(cls_node):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        if isinstance(v, ast.Attribute) and v.attr == "site" and isinstance(v.value, ast.Name) \
                and v.value.id == "self":
            names.add(node.attr)
        elif isinstance(v, ast.Name) and v.id == "site":
            names.add(node.attr)
    return names


def test_the_windows_show_every_site_field_the_greedy_bot_reads():
    """Statically, over the evaluators' source (their base classes' reads included): each
    name an evaluator reads of its site is shown by its side's window."""
    checked = 0
    for index, module in enumerate(MODULES):
        source = pathlib.Path(module.__file__).parent / f"{module.__name__.rsplit('.', 1)[1]}.py"
        tree = ast.parse(source.read_text())
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        for side, ev in module.SIDES.items():
            window = SEEN[side_class(index, side)]
            reads = set()
            for cls in ev.__mro__:
                if cls.__name__ in classes:
                    reads |= _site_reads(classes[cls.__name__])
            missing = {r for r in reads if not hasattr(window, r)}
            assert not missing, f"{ev.__name__} reads {sorted(missing)}: not on {window.__name__}"
            checked += len(reads)
    assert checked > 60  # the ~61 site attributes the evaluators read


def test_the_windows_show_only_public_site_fields():
    """A window shows the site's own public fields (and its side letter, data and queries):
    nothing named ``_...`` and nothing the site does not have."""
    for sides in ALL_SIDES:
        g = _mid_game(sides, 20)
        for site in g.sites:
            w = SEEN[type(site)](site)
            for name in shown(w):
                assert not name.startswith("_")
                assert name in fields(site) or name in ("side", *QUERIES), f"{w!r}.{name}"


def test_every_side_has_a_window_and_the_docs_describe_them():
    for index in range(5):
        for side in "ABCD":
            assert issubclass(SEEN[side_class(index, side)], SiteSeen)
    text = DOCS.read_text()
    section = text[text.index("## The read model"):]
    section = section[:section.index("\n## ", 4)]
    for cls in {*SEEN.values(), ProphecySeen}:
        assert f"`{cls.__name__}`" in section, f"docs/engine.md: {cls.__name__} not described"
        for name in vars(cls):
            if not name.startswith("_") and name not in ("index", "name", "side", "data"):
                assert re.search(rf"`{name}(`|\()", section), \
                    f"docs/engine.md, The read model: {cls.__name__}.{name} not described"
    assert seen_module.__doc__ and "read model" in seen_module.__doc__


@pytest.mark.parametrize("sides", ALL_SIDES)
def test_counters_are_the_properties_they_name(sides):
    # View.counters (one call for what greedy reads at every decision) reads the kept lists
    # by their index in view.LISTS: each item must be the property of its name
    for decisions in (0, 40, 90):
        g = _mid_game(sides, decisions)
        v = View(g, g.to_move)
        assert v.counters() == (v.sled, v.quarry, v.sled_cap, v.ship_dock, v.dock_used,
                                v.cards_taken, v.discard, v.ship_slots, v.round, v.sailed)
