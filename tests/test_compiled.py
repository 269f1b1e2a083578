"""The compiled engine (imhotep_stats/sim/compiled.py, setup.py): compiled and pure Python play the
same games to the decision, IMHOTEP_PURE=1 forces pure Python, a source checkout whose compiled
modules are older than their sources runs pure Python with a warning (an installed package never
refuses its extensions), every process runs the same way, and the module list follows the tree.
Nothing here builds or writes files outside pytest's temporary directories (the wheel build is
tests/test_wheel.py)."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from imhotep_stats.sim import compiled

# sides, bots (one per seat), prophecies, games: every side of every site, random, greedy and
# persona bots, 2-4 players, prophecies once
CASES = [
    ("A-A-A-A-A", ["greedy", "random"], False, 2),
    ("B-B-B-B-B", ["greedy", "random", "greedy"], False, 2),
    ("C-C-C-C-C", ["random", "random", "random"], False, 6),
    ("D-D-D-D-D", ["greedy", "random"], False, 3),
    ("A-B-C-D-A", ["greedy", "random", "greedy"], False, 2),
    ("D-A-C-B-D", ["greedy", "greedy", "greedy", "greedy"], True, 2),
    ("B-D-D-C-C", ["temple", "obelisk", "balanced", "market"], False, 1),
]

# Plays CASES (argv[1], JSON) and prints the engine and every game's decisions and result.
PLAY = r"""
import json, sys
from imhotep_stats.sim import compiled
from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

games = []
for sides, bots, prophecies, n in json.loads(sys.argv[1]):
    for i in range(n):
        g = Game(len(bots), sides, seed=chance_seed(31, i), prophecies=prophecies)
        chosen = []
        r = play_game(g, [make_bot(b) for b in bots], [bot_rng(31, i, p) for p in range(len(bots))],
                      on_decision=lambda g, a: chosen.append(f"{g.to_move} {g.kind}: {a} of {len(g.options)}"))
        games.append({"totals": r.totals, "events": [list(e) for e in g.events],
                      "decisions": chosen, "n_decisions": r.decisions, "result": r.to_json(),
                      "by_round": r.by_round, "lead_changes": r.lead_changes, "margin": r.margin})
print(json.dumps({"engine": compiled.engine(), "compiled": compiled.compiled_modules(),
                  "games": games}))
"""


def env(pure: bool, **extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items()
           if k not in (compiled.PURE_ENV, compiled._WARNED_ENV)}
    if pure:
        out[compiled.PURE_ENV] = "1"
    return {**out, **extra}


def python(code: str, *args: str, pure: bool, exe: str = sys.executable, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "-c", code, *args], capture_output=True, text=True,
                          env=env(pure, **kw.pop("extra_env", {})), check=True, timeout=600, **kw)


def assert_same_games(exe: str = sys.executable, **kw) -> None:
    """Compiled and pure Python (IMHOTEP_PURE=1) play CASES alike, decision by decision."""
    cases = json.dumps(CASES)
    pure = json.loads(python(PLAY, cases, pure=True, exe=exe, **kw).stdout)
    fast = json.loads(python(PLAY, cases, pure=False, exe=exe, **kw).stdout)
    assert pure["engine"] == "pure" and pure["compiled"] == []
    assert fast["engine"] == "compiled", fast["compiled"]
    assert len(fast["games"]) == sum(c[3] for c in CASES)
    for i, (a, b) in enumerate(zip(pure["games"], fast["games"], strict=True)):
        assert a["decisions"] == b["decisions"], f"game {i}: the choices differ"
        assert a == b, f"game {i}: same choices, different results"


def engine_available() -> str:
    """The engine a process without IMHOTEP_PURE runs (even if this one is pure)."""
    return python("from imhotep_stats.sim import compiled; print(compiled.engine())", pure=False).stdout.strip()


def needs_compiled():
    if engine_available() != "compiled":
        pytest.skip("the engine is not compiled here (`make`: it needs a C compiler)")


def test_compiled_and_pure_play_the_same_games():
    needs_compiled()
    assert_same_games()



@pytest.mark.parametrize("first", ["imhotep_stats.engine.sites.market", "imhotep_stats.engine.cards",
                                   "imhotep_stats.engine.sites.base", "imhotep_stats.bots.search.rollout"])
def test_a_module_that_cimports_game_can_be_imported_first(first):
    """game.pxd and the sites' .pxd cimport each other (docs/engine.md, "Cimports make
    dependencies"): whichever module a process imports first, the engine loads compiled."""
    needs_compiled()
    out = python(f"import {first}\nfrom imhotep_stats.sim import compiled\n"
                 "from imhotep_stats.engine.game import Game\n"
                 "print(compiled.engine(), Game(2).sites[0].name)", pure=False).stdout.split()
    assert out == ["compiled", "market"]


def test_pure_env_forces_source_everywhere():
    out = python(
        "import imhotep_stats.engine.game as g, imhotep_stats.bots.greedy.turn as b\n"
        "from imhotep_stats.sim import compiled\n"
        "print(compiled.engine(), g.__file__, b.__file__, compiled.describe())", pure=True)
    kind, game_file, greedy_file, described = out.stdout.split(maxsplit=3)
    assert kind == "pure" and described.strip() == "pure Python (IMHOTEP_PURE=1)"
    assert game_file.endswith("game.py") and greedy_file.endswith("turn.py")
    assert out.stderr == ""


def test_compiled_modules_report_their_extension_file():
    needs_compiled()
    out = python("from imhotep_stats.sim import compiled\n"
                 "import importlib\n"
                 "for m, _ in compiled.compiled_sources(): print(importlib.import_module(m).__file__)",
                 pure=False)
    files = out.stdout.split()
    assert len(files) == len(compiled.compiled_sources()) and files
    assert all(f.endswith(tuple(EXTENSION_SUFFIXES)) for f in files)
    assert out.stderr == ""


# --- the module list -------------------------------------------------------------------------


def test_the_module_list_follows_the_tree(tmp_path):
    """Every module under engine/ and bots/, at any depth, is compiled, but package __init__
    files, the NOT_COMPILED ones and modules run with `python -m`: a module renamed, moved to a
    subpackage or added needs no edit to the build."""
    files = {
        "engine/__init__.py": "", "engine/game.py": "", "engine/transcript.py": "",
        "engine/sites/__init__.py": "", "engine/sites/temple.py": "",
        "bots/__init__.py": "", "bots/weights.py": "", "bots/mcts.py": "",
        "bots/greedy/__init__.py": "", "bots/greedy/temple.py": "", "bots/greedy/weights.py": "",
        "bots/greedy/errors.py": "",
        "bots/tool.py": 'if __name__ == "__main__":\n    main()\n',
        "bots/notes.txt": "", "reporting/html.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert [m for m, _ in compiled.compiled_sources(str(tmp_path))] == [
        "imhotep_stats.engine.game", "imhotep_stats.engine.sites.temple",
        "imhotep_stats.bots.mcts", "imhotep_stats.bots.greedy.temple"]


def test_the_hot_modules_are_compiled():
    """The engine and the greedy bot's modules are in the list; a module run with `python -m`
    (an extension module has no code object for it) would not be."""
    listed = {m for m, _ in compiled.compiled_sources()}
    assert {"imhotep_stats.engine.game", "imhotep_stats.engine.play",
            "imhotep_stats.engine.sites.temple", "imhotep_stats.bots.base",
            "imhotep_stats.bots.greedy.turn", "imhotep_stats.bots.greedy.sites.temple"} <= listed
    package = Path(compiled.PACKAGE_DIR)
    for path in package.rglob("*.py"):
        if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"):
            assert ".".join(path.relative_to(package.parent).with_suffix("").parts) not in listed


# --- stale extensions in a source checkout ----------------------------------------------------


def _copy_checkout(tmp_path: Path, with_setup: bool = True) -> Path:
    """A copy of the package with its compiled modules, as a source checkout (setup.py beside
    it) or as installed (none); mtimes kept."""
    shutil.copytree(compiled.PACKAGE_DIR, tmp_path / "imhotep_stats",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    if with_setup:
        (tmp_path / "setup.py").write_text("# a source checkout\n")
    return tmp_path


CHECK = ("import imhotep_stats.bots.greedy.turn as b\n"
         "from imhotep_stats.sim import compiled\n"
         "print(compiled.engine(), b.__file__)\n")


def _run_copy(root: Path, code: str = CHECK) -> subprocess.CompletedProcess:
    # the copy first on the path, ahead of the editable install's finder
    return python(code, pure=False, cwd=root, extra_env={"PYTHONPATH": str(root)})


def _later(root: Path, name: str) -> None:
    """Edited after the build: a second newer than every extension."""
    path = root / "imhotep_stats" / name
    built = max(p.stat().st_mtime_ns for p in root.rglob("*.so"))
    os.utime(path, ns=(built + 10**9, built + 10**9))


def test_a_current_checkout_runs_compiled(tmp_path):
    needs_compiled()
    root = _copy_checkout(tmp_path)
    kind, greedy = _run_copy(root).stdout.split()
    assert kind == "compiled" and greedy.startswith(str(root)) and greedy.endswith(".so")


@pytest.mark.parametrize("edited", ["bots/greedy/turn.py", "bots/greedy/sites/base.pxd",
                                    "engine/cards.py"])
def test_a_source_newer_than_its_extension_runs_everything_pure(tmp_path, edited):
    """An edit without `make`: every module loads from source (a compiled site evaluator cannot
    run on a pure SiteEval it cimports: never a mix), with one warning naming what is stale, and
    a game runs."""
    needs_compiled()
    root = _copy_checkout(tmp_path)
    _later(root, edited)
    out = _run_copy(root, CHECK + "from imhotep_stats.cli import main\n"
                    "main(['bench', '--games', '2', '--sides', 'D-D-D-D-D', '--bots', 'greedy'],"
                    " standalone_mode=False)\n")
    kind, greedy = out.stdout.split()[:2]
    assert kind == "pure" and greedy.endswith("turn.py")
    assert "(engine: pure Python (the compiled modules are out of date: run `make`))" in out.stdout
    module = "imhotep_stats." + edited.rpartition(".")[0].replace("/", ".")
    assert out.stderr.count("the compiled modules are out of date with the sources") == 1
    assert f"{module} (older than {edited.rpartition('/')[2]})" in out.stderr


def test_a_leftover_extension_is_never_imported(tmp_path):
    """A module renamed or removed since the build: its extension is not imported (the build
    removes it too), and the rest runs pure."""
    needs_compiled()
    root = _copy_checkout(tmp_path)
    bots = root / "imhotep_stats" / "bots"
    ext = next(bots.glob("base.*.so"))
    shutil.copy2(ext, bots / ext.name.replace("base.", "gone."))
    out = _run_copy(root, CHECK + "try:\n    import imhotep_stats.bots.gone\n"
                    "except ModuleNotFoundError as e:\n    print('refused:', e)\n")
    assert out.stdout.startswith("pure ")
    assert "refused: No module named 'imhotep_stats.bots.gone': only a stale compiled gone." in out.stdout
    assert "imhotep_stats.bots.gone (its source is gone or not compiled)" in out.stderr


def test_an_installed_package_never_refuses_its_extensions(tmp_path):
    """Installed (no setup.py beside the package, as from a wheel), with sources newer than the
    extensions (an install's file times are arbitrary): compiled, no warning."""
    needs_compiled()
    root = _copy_checkout(tmp_path, with_setup=False)
    _later(root, "bots/greedy/turn.py")
    out = _run_copy(root)
    assert out.stdout.split()[0] == "compiled" and out.stderr == ""


def test_the_stale_check_reads_times(tmp_path):
    """stale_extensions on a hand-built tree: none, current, older than its .py or .pxd, a
    listed module without one, one without a listed module."""
    suffix = EXTENSION_SUFFIXES[0]
    (tmp_path / "engine").mkdir()
    for name in ("a.py", "b.py", "b.pxd"):
        (tmp_path / "engine" / name).write_text("")
    assert compiled.stale_extensions(str(tmp_path)) == []  # nothing compiled: pure, no warning

    def stamp(name: str, seconds: int) -> None:
        path = tmp_path / "engine" / name
        path.touch()
        os.utime(path, (seconds, seconds))

    for name in ("a.py", "b.py", "b.pxd"):
        stamp(name, 100)
    stamp("a" + suffix, 200)
    stamp("b" + suffix, 200)
    assert compiled.stale_extensions(str(tmp_path)) == []
    stamp("b.pxd", 300)
    assert compiled.stale_extensions(str(tmp_path)) == ["imhotep_stats.engine.b (older than b.pxd)"]
    stamp("b.pxd", 100)
    stamp("a.py", 300)
    assert compiled.stale_extensions(str(tmp_path)) == ["imhotep_stats.engine.a (older than a.py)"]
    stamp("a.py", 100)
    (tmp_path / "engine" / "c.py").write_text("")
    stamp("old" + suffix, 200)
    assert compiled.stale_extensions(str(tmp_path)) == [
        "imhotep_stats.engine.c (not compiled)",
        "imhotep_stats.engine.old (its source is gone or not compiled)"]


# --- every process, every report --------------------------------------------------------------


def _child_engine(_=None) -> str:
    return compiled.engine()


@pytest.mark.parametrize("method", ["spawn", "forkserver", "fork"])
def test_workers_run_like_the_parent(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    with multiprocessing.get_context(method).Pool(1) as pool:
        assert pool.apply(_child_engine) == compiled.engine()


def test_version_bench_and_run_say_which_engine_ran(tmp_path):
    exe = str(Path(sys.executable).with_name("imhotep-stats"))
    config = Path(compiled.PACKAGE_DIR).parent / "configs" / "default.toml"
    for pure in (True, False):
        def cli(*args: str, pure: bool = pure) -> subprocess.CompletedProcess:
            return subprocess.run([exe, *args], capture_output=True, text=True, env=env(pure),
                                  check=True, timeout=300, cwd=tmp_path)

        kind = "pure" if pure else engine_available()
        phrase = python("from imhotep_stats.sim import compiled; print(compiled.describe())",
                        pure=pure).stdout.strip()
        assert cli("--version").stdout.startswith(
            f"imhotep-stats, version {compiled_version()}, engine: {phrase}, core: ")
        assert json.loads(cli("bench", "--games", "2", "--json").stdout)["engine"] == kind
        assert f"(engine: {phrase})" in cli("bench", "--games", "2").stdout
        out = cli("run", str(config), "--games", "2", "--out", "r", "--force")
        assert out.stderr.splitlines()[0].endswith(f"(engine: {phrase})")
        manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
        assert manifest["environment"]["engine"] == kind


def compiled_version() -> str:
    from imhotep_stats import __version__

    return __version__


def test_the_build_regenerates_c_that_read_a_removed_pxd(tmp_path):
    """Cython's timestamps miss a removed .pxd (the .c stays newer than the .py): the build
    drops C that quotes a package .pxd which is gone (its own or one it cimports)."""
    bots = tmp_path / "imhotep_stats" / "bots"
    bots.mkdir(parents=True)
    (bots / "a.pxd").write_text("")
    c_file = bots / "b.c"
    text = '/* "imhotep_stats/bots/a.pxd":3\n * cdef class A: */\n/* "imhotep_stats/bots/b.py":1 */\n'
    c_file.write_text(text)
    assert not compiled.forget_removed_pxd(str(c_file), str(tmp_path)) and c_file.exists()
    (bots / "a.pxd").unlink()
    assert compiled.forget_removed_pxd(str(c_file), str(tmp_path)) and not c_file.exists()
    assert not compiled.forget_removed_pxd(str(c_file), str(tmp_path))  # no C yet: nothing to do


def test_the_build_regenerates_c_that_cimports_a_changed_pxd(monkeypatch):
    """What ``cythonize`` compares with a module's C (Cython's dependency tree) holds every
    package .pxd the module's own .pxd cimports, transitively: a changed ``sites/base.pxd``
    regenerates (and the build recompiles) every site module's C, a changed ``game.pxd``
    ``clone``'s. (Measured: touching ``engine/sites/base.pxd`` and running ``make`` rebuilt
    base and the five site modules, and nothing else.)"""
    dependencies = pytest.importorskip("Cython.Build.Dependencies")
    root = Path(compiled.PACKAGE_DIR).parent
    monkeypatch.chdir(root)
    tree = dependencies.create_dependency_tree()
    cimport = re.compile(r"^from (imhotep_stats[\w.]*) cimport", re.M)
    chained = 0
    for module, path in compiled.compiled_sources():
        source = os.path.relpath(path, root).replace(os.sep, "/")
        want, todo = set(), [source[:-3] + ".pxd"]
        while todo:
            pxd = todo.pop()
            if pxd in want or not (root / pxd).exists():
                continue
            want.add(pxd)
            todo += [name.replace(".", "/") + ".pxd" for name in cimport.findall((root / pxd).read_text())]
        deps = {d.replace(os.sep, "/") for d in tree.all_dependencies(source)}
        assert want <= deps, f"{module}: the build would not rebuild it for {sorted(want - deps)}"
        chained += len(want) > 1
    assert chained >= 10  # the engine's site modules, clone, the greedy bot's layers
