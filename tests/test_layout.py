"""The house's layout: no module imports another that imports it back, no import climbs a
layer, and a long module says at its top why it is long."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "imhotep_stats"
LONG = 700  # lines: a module longer than this says so in its docstring


def _modules() -> dict[str, Path]:
    out = {}
    for f in PACKAGE.rglob("*.py"):
        name = ".".join(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = f
    return out


def _imports(name: str, f: Path, mods: dict[str, Path]) -> set[str]:
    """The package modules ``name`` imports at run time (``if TYPE_CHECKING:`` blocks aside;
    imports inside functions count: they run too)."""
    tree = ast.parse(f.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for sub in node.body for n in ast.walk(sub))
    package = name if f.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in mods:
                t = t.rpartition(".")[0]
            if t and t != name and not name.startswith(t + "."):
                out.add(t)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None (a depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_no_import_cycles():
    mods = _modules()
    graph = {name: _imports(name, f, mods) for name, f in mods.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_search_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_a_long_module_says_why():
    quiet = []
    for f in _modules().values():
        text = f.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > LONG and "long" not in (ast.get_docstring(ast.parse(text)) or "").lower():
            quiet.append(f"{f.relative_to(PACKAGE)} ({lines} lines)")
    assert not quiet, "say at the module's top why it is this long: " + ", ".join(quiet)


def test_the_package_root_holds_only_its_face():
    """The package root: the package's face (import, `python -m`, the notebook API, the
    shared error helpers); everything else lives in a layer's folder."""
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert root == ["__init__.py", "__main__.py", "api.py", "errors.py"]


def test_one_cli_module_per_command_group():
    from imhotep_stats.cli import main

    cli = PACKAGE / "cli"
    groups = {p.stem for p in cli.glob("*.py")} - {"__init__", "options", "exits", "completion"}
    owners = {cmd.callback.__module__.rsplit(".", 1)[-1] for cmd in main.commands.values()}
    assert owners == groups  # every command module registers commands, and only they do


LAYERS = ("rules", "engine", "bots", "config", "sim", "stats", "reporting", "cli")
"""The package's layers, lowest first (DESIGN.md "Layout"): a module may import its own layer
and those below, never one above. The root's ``errors`` sits below them all, ``api`` above."""


def _climbs(graph: dict[str, set[str]]) -> list[str]:
    """Every import that climbs a layer, as "importer -> imported"."""

    def layer(name: str) -> int | None:
        parts = name.split(".")
        return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None

    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if layer(a) is not None and layer(b) is not None and layer(b) > layer(a))


def test_no_import_climbs_a_layer():
    mods = _modules()
    graph = {name: _imports(name, f, mods) for name, f in mods.items()}
    assert not _climbs(graph), "imports that climb a layer: " + ", ".join(_climbs(graph))
    assert all(_imports(n, f, mods) <= {"imhotep_stats"} for n, f in mods.items()
               if n == "imhotep_stats.errors")  # the shared wording imports nothing


def test_the_climb_check_finds_a_climb():
    graph = {"imhotep_stats.stats.x": {"imhotep_stats.reporting.y", "imhotep_stats.sim.z"},
             "imhotep_stats.cli.a": {"imhotep_stats.rules.b"}}
    assert _climbs(graph) == ["imhotep_stats.stats.x -> imhotep_stats.reporting.y"]
