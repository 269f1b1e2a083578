"""No bot module and no test touches an underscore attribute of the engine: bots read the
view (engine/view.py), tests build positions through ``imhotep_stats.engine.scenario``
(docs/engine.md, "The read model"). An AST scan: the engine's private names are collected
from its source (attributes it assigns as ``self._x`` or ``g._x`` or sets with
``object.__setattr__(self, "_x", ...)``, methods and module-level functions named ``_x``),
and every attribute access ``obj._x`` and every ``from ... import _x`` of an engine module in
bots/ and tests/ is checked against them, but for the names a file defines itself, for its
own objects. Names that a bot also defines for its own objects in another module cannot be
told apart by a scan: they would be listed in SHARED, each really defined by a bot."""

from __future__ import annotations

import ast
import pathlib

import imhotep_stats

PACKAGE = pathlib.Path(imhotep_stats.__file__).parent
ENGINE = PACKAGE / "engine"
ROOTS = (PACKAGE / "bots", pathlib.Path(__file__).parent)
# private names an engine module and a bot module both define (the bot's are the ones read)
SHARED: frozenset[str] = frozenset()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(paths) -> set[str]:
    """Private attribute, method and function names defined in ``paths``."""
    names = set()
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if _private(node.attr):
                    names.add(node.attr)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef) and _private(node.name):
                names.add(node.name)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "__setattr__" and len(node.args) >= 2
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and _private(node.args[1].value)):
                names.add(node.args[1].value)  # object.__setattr__(self, "_x", ...)
    return names


def engine_private_names() -> set[str]:
    return _defined(ENGINE.rglob("*.py"))


def bot_private_names() -> set[str]:
    return _defined((PACKAGE / "bots").rglob("*.py"))


def touches(path: pathlib.Path, private: set[str]) -> list[str]:
    """``file:line name`` for every engine-private name ``path`` reads or writes."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            out.append(f"{path.name}:{node.lineno} .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "imhotep_stats.engine"):
            out += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names
                    if _private(a.name)]
    return out


def test_the_scan_finds_the_engine_private_names():
    private = engine_private_names()
    # the scan sees what it must: the core's game's state and its sending, a view's game
    assert {"_read", "_sync", "_state", "_sent", "_core", "_fields", "_flat", "_changes",
            "_g", "_now"} <= private
    assert SHARED <= private & bot_private_names()


def test_the_scan_catches_a_touch(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from imhotep_stats.engine.game import _flat\n"
                   "def f(g):\n    g._sync()\n    return g.sites[0]._fields()\n")
    found = touches(bad, engine_private_names())
    assert sorted(found) == ["bad.py:1 import _flat", "bad.py:3 ._sync",
                             "bad.py:4 ._fields"]


def test_no_bot_and_no_test_touches_an_engine_private_name():
    private = engine_private_names() - SHARED
    found = []
    for root in ROOTS:
        for path in sorted(root.rglob("*.py")):
            if path.name != pathlib.Path(__file__).name:
                found += touches(path, private - _defined([path]))
    assert not found, "engine internals touched (use the view or engine.scenario): " + \
        ", ".join(found)
