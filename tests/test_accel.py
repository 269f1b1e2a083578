"""The compiled accelerator (`make accel`): compiled and pure Python play the same games to the
decision, a compiled module older than its source never runs, IMHOTEP_PURE=1 forces pure Python,
and every process (workers, the CLI) runs the same way. Nothing here builds or writes files
outside pytest's temporary directories."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, SourceFileLoader
from pathlib import Path

import pytest

from imhotep_stats import _accel

# sides, bots (one per seat), prophecies, games: C and D sides, random, greedy and persona bots,
# 2-4 players, prophecies once
CASES = [
    ("C-C-C-C-C", ["random", "random", "random"], False, 6),
    ("D-D-D-D-D", ["greedy", "random"], False, 3),
    ("A-B-C-D-A", ["greedy", "random", "greedy"], False, 2),
    ("D-A-C-B-D", ["greedy", "greedy", "greedy", "greedy"], True, 2),
    ("B-D-D-C-C", ["temple", "obelisk", "balanced", "market"], False, 1),
]

PLAY = r"""
import json, sys
from imhotep_stats import _accel
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
print(json.dumps({"mode": _accel.mode(), "compiled": _accel.compiled_modules(), "games": games}))
"""


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (_accel.PURE_ENV, "_IMHOTEP_ACCEL_WARNED")}
    if pure:
        env[_accel.PURE_ENV] = "1"
    return env


def _python(code: str, *args: str, pure: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=_env(pure), check=True, timeout=600)


def _compiled_available() -> list[str]:
    """The modules a process without IMHOTEP_PURE would run compiled (even if this one is pure)."""
    out = _python("from imhotep_stats import _accel; print(' '.join(_accel.compiled_modules()))",
                  pure=False)
    return out.stdout.split()


def test_compiled_and_pure_play_the_same_games():
    if not _compiled_available():
        pytest.skip("nothing is compiled (run `make accel`; it needs Cython and a C compiler)")
    cases = json.dumps(CASES)
    pure = json.loads(_python(PLAY, cases, pure=True).stdout)
    compiled = json.loads(_python(PLAY, cases, pure=False).stdout)
    assert pure["mode"] == "pure" and pure["compiled"] == []
    assert compiled["mode"] in ("compiled", "mixed")
    assert len(compiled["games"]) == sum(c[3] for c in CASES)
    for i, (a, b) in enumerate(zip(pure["games"], compiled["games"], strict=True)):
        assert a["decisions"] == b["decisions"], f"game {i}: the choices differ"
        assert a == b, f"game {i}: same choices, different results"


def test_pure_env_forces_source_everywhere():
    out = _python(
        "import imhotep_stats.engine.game as g, imhotep_stats.bots.greedy.bot as b\n"
        "from imhotep_stats import _accel\n"
        "print(_accel.mode(), g.__file__, b.__file__)", pure=True)
    mode, game_file, greedy_file = out.stdout.split()
    assert mode == "pure"
    assert game_file.endswith("game.py") and greedy_file.endswith("bot.py")
    assert "out of date" not in out.stderr


def test_compiled_modules_report_their_extension_file():
    compiled = _compiled_available()
    if not compiled:
        pytest.skip("nothing is compiled (run `make accel`; it needs Cython and a C compiler)")
    out = _python(f"import importlib; print(importlib.import_module({compiled[0]!r}).__file__)",
                  pure=False)
    assert out.stdout.strip().endswith(tuple(EXTENSION_SUFFIXES))
    assert "out of date" not in out.stderr


def test_a_real_stale_module_loads_from_source_and_warns():
    """A manifest entry that no longer matches (as after an edit without `make accel`): the
    source runs, with one warning, and the mode says "mixed"."""
    compiled = _compiled_available()
    if "imhotep_stats.bots.greedy.bot" not in compiled:
        pytest.skip("bots/greedy/bot.py is not compiled (run `make accel`)")
    code = (
        "from imhotep_stats import _accel\n"
        "m = _accel._manifest_modules()\n"
        "m['imhotep_stats.bots.greedy.bot'] = dict(m['imhotep_stats.bots.greedy.bot'], source_size=-1, source_sha256='0' * 64)\n"
        "import imhotep_stats.bots.greedy.bot as b\n"
        "print(_accel.mode(), b.__file__)\n")
    out = _python(code, pure=False)
    mode, greedy_file = out.stdout.split()
    assert greedy_file.endswith("bot.py")
    assert mode == "mixed"
    assert out.stderr.count("compiled module imhotep_stats.bots.greedy.bot is out of date") == 1
    assert "make accel" in out.stderr


BCD = "imhotep_stats.bots.greedy.sites.temple"
SV = "imhotep_stats.bots.greedy.sites.base"
# the temple evaluators' typed layer cimports sites/base.pxd; a D game runs their cdef evaluators
DEPENDENT = (
    "from imhotep_stats import _accel\n"
    "m = _accel._manifest_modules()\n"
    "{tamper}\n"
    "from imhotep_stats.bots import make_bot\n"
    "from imhotep_stats.engine.game import Game\n"
    "from imhotep_stats.engine.play import bot_rng, chance_seed, play_game\n"
    "import imhotep_stats.bots.greedy.sites.base as a, imhotep_stats.bots.greedy.sites.temple as b\n"
    "play_game(Game(3, 'D-D-D-D-D', seed=chance_seed(1, 0)), [make_bot('greedy')] * 3,\n"
    "          [bot_rng(1, 0, p) for p in range(3)])\n"
    "print(_accel.mode(), a.__file__, b.__file__)\n")


def test_a_changed_cimported_typed_layer_makes_the_dependent_module_stale():
    """sites/temple.pxd cimports sites/base.pxd: with base.pxd changed since the build (here:
    the recorded hash no longer matches), temple loads from source with the warning, while
    base itself (built from its .pxd as recorded) stays compiled."""
    compiled = _compiled_available()
    if BCD not in compiled or SV not in compiled:
        pytest.skip("bots/greedy/sites/*.py are not compiled (run `make accel`)")
    tamper = (f"e = m[{BCD!r}]\n"
              f"m[{BCD!r}] = dict(e, deps=[dict(d, pxd_size=-1, pxd_sha256='0' * 64) for d in e['deps']])")
    out = _python(DEPENDENT.format(tamper=tamper), pure=False)
    mode, sv_file, bcd_file = out.stdout.split()
    assert mode == "mixed"
    assert sv_file.endswith(tuple(EXTENSION_SUFFIXES)) and bcd_file.endswith("temple.py")
    assert out.stderr.count(f"compiled module {BCD} is out of date") == 1
    assert f"compiled module {SV} is out of date" not in out.stderr


def test_a_stale_cimported_module_makes_the_dependent_module_stale():
    """A compiled temple evaluator cannot run on a sites/base loaded from source (its cdef
    classes extend the compiled SiteEval): stale base, both load from source, and a game runs."""
    compiled = _compiled_available()
    if BCD not in compiled or SV not in compiled:
        pytest.skip("bots/greedy/sites/*.py are not compiled (run `make accel`)")
    tamper = f"m[{SV!r}] = dict(m[{SV!r}], source_size=-1, source_sha256='0' * 64)"
    out = _python(DEPENDENT.format(tamper=tamper), pure=False)
    mode, sv_file, bcd_file = out.stdout.split()
    assert mode == "mixed"
    assert sv_file.endswith("base.py") and bcd_file.endswith("temple.py")
    assert out.stderr.count(f"compiled module {SV} is out of date") == 1
    assert out.stderr.count(f"compiled module {BCD} is out of date") == 1


@pytest.fixture
def fresh_state(monkeypatch):
    """A clean finder state for this test (restored afterwards) and no inherited env."""
    monkeypatch.setattr(_accel, "_state", _accel._State())
    monkeypatch.setattr(_accel, "_PARENT_WARNED", False)
    monkeypatch.delenv(_accel.PURE_ENV, raising=False)
    monkeypatch.delenv("_IMHOTEP_ACCEL_WARNED", raising=False)


def _fake_module(tmp_path: Path) -> tuple[Path, Path, dict]:
    """A source file and a (fake, never loaded) extension next to it, and a manifest entry
    saying the extension was built from the source as it is now."""
    src = tmp_path / "mod.py"
    src.write_text("X = 1\n")
    ext = tmp_path / ("mod" + EXTENSION_SUFFIXES[0])
    ext.write_bytes(b"not really an extension")
    entry = {"source": _accel.rel(str(src)), "source_size": src.stat().st_size,
             "source_mtime_ns": src.stat().st_mtime_ns, "source_sha256": _accel.source_digest(str(src)),
             "ext": _accel.rel(str(ext)), "ext_size": ext.stat().st_size, "ext_mtime_ns": ext.stat().st_mtime_ns}
    return src, ext, entry


NAME = "imhotep_stats.fake.mod"


def _find(manifest_entry: dict | None, directory: Path):
    _accel._state.manifest = {NAME: manifest_entry} if manifest_entry is not None else {}
    _accel._state.verdicts.clear()
    _accel._state.listings.clear()
    return _accel.AccelFinder().find_spec(NAME, [str(directory)])


def test_finder_uses_a_current_extension(tmp_path, fresh_state, capsys):
    src, ext, entry = _fake_module(tmp_path)
    spec = _find(entry, tmp_path)
    assert isinstance(spec.loader, ExtensionFileLoader) and spec.origin == str(ext)
    # touched but not changed (a checkout): the hash decides, still current
    os.utime(src, ns=(src.stat().st_atime_ns, src.stat().st_mtime_ns + 5_000_000_000))
    assert isinstance(_find(entry, tmp_path).loader, ExtensionFileLoader)
    assert capsys.readouterr().err == ""


def test_finder_loads_a_stale_module_from_source_and_warns_once(tmp_path, fresh_state, capsys):
    src, ext, entry = _fake_module(tmp_path)
    src.write_text("X = 2  # edited, not rebuilt\n")
    for _ in range(2):
        spec = _find(entry, tmp_path)
        assert isinstance(spec.loader, SourceFileLoader) and spec.origin == str(src)
    err = capsys.readouterr().err
    assert err.count(f"compiled module {NAME} is out of date with its source; using pure Python; "
                     "run `make accel`") == 1
    # no manifest entry at all, or an extension replaced outside the build: source as well
    assert isinstance(_find(None, tmp_path).loader, SourceFileLoader)
    src.write_text("X = 1\n")
    _src, _ext, entry = _fake_module(tmp_path)
    ext.write_bytes(b"rebuilt by hand")
    assert isinstance(_find(entry, tmp_path).loader, SourceFileLoader)


def test_finder_treats_a_changed_typed_layer_as_stale(tmp_path, fresh_state, capsys):
    """The .pxd beside a module (its typed layer) counts like its source: edited, removed or
    added since the build, the module loads from source."""
    src, ext, entry = _fake_module(tmp_path)
    pxd = tmp_path / "mod.pxd"
    pxd.write_text("cdef class A:\n    cdef public long x\n")
    assert isinstance(_find(entry, tmp_path).loader, SourceFileLoader)  # added after the build
    assert f"compiled module {NAME} is out of date" in capsys.readouterr().err
    _accel._state.warned.clear()
    entry.update({"pxd": _accel.rel(str(pxd)), "pxd_size": pxd.stat().st_size,
                  "pxd_mtime_ns": pxd.stat().st_mtime_ns, "pxd_sha256": _accel.source_digest(str(pxd))})
    assert isinstance(_find(entry, tmp_path).loader, ExtensionFileLoader)
    # touched but not changed: the hash decides, still current
    os.utime(pxd, ns=(pxd.stat().st_atime_ns, pxd.stat().st_mtime_ns + 5_000_000_000))
    assert isinstance(_find(entry, tmp_path).loader, ExtensionFileLoader)
    assert capsys.readouterr().err == ""
    pxd.write_text("cdef class A:\n    cdef public double x\n")  # edited, not rebuilt
    spec = _find(entry, tmp_path)
    assert isinstance(spec.loader, SourceFileLoader) and spec.origin == str(src)
    assert f"compiled module {NAME} is out of date" in capsys.readouterr().err
    pxd.unlink()  # removed, not rebuilt
    assert isinstance(_find(entry, tmp_path).loader, SourceFileLoader)


def test_finder_treats_a_changed_cimported_typed_layer_as_stale(tmp_path, fresh_state, capsys):
    """A module whose .pxd cimports another module's .pxd depends on it: that .pxd changed or
    removed since the build, or that module stale, and the module loads from source."""
    src, ext, entry = _fake_module(tmp_path)
    pxd = tmp_path / "mod.pxd"
    pxd.write_text("from imhotep_stats.fake.base cimport Base\ncdef class A(Base):\n    pass\n")
    base_dir = tmp_path / "base"
    base_dir.mkdir()
    base_src, base_ext, base_entry = _fake_module(base_dir)
    base_pxd = base_dir / "mod.pxd"
    base_pxd.write_text("cdef class Base:\n    cdef public long x\n")

    def stamp(path: Path) -> dict:
        return {"pxd": _accel.rel(str(path)), "pxd_size": path.stat().st_size,
                "pxd_mtime_ns": path.stat().st_mtime_ns, "pxd_sha256": _accel.source_digest(str(path))}

    base_name = "imhotep_stats.fake.base"
    base_entry.update(stamp(base_pxd))
    entry.update(stamp(pxd))
    entry["deps"] = [{"module": base_name, **stamp(base_pxd)}]

    def find():
        _accel._state.manifest = {NAME: entry, base_name: base_entry}
        _accel._state.verdicts.clear()
        _accel._state.listings.clear()
        return _accel.AccelFinder().find_spec(NAME, [str(tmp_path)])

    assert isinstance(find().loader, ExtensionFileLoader)
    # touched but not changed: the hash decides, still current
    os.utime(base_pxd, ns=(base_pxd.stat().st_atime_ns, base_pxd.stat().st_mtime_ns + 5_000_000_000))
    assert isinstance(find().loader, ExtensionFileLoader)
    assert capsys.readouterr().err == ""
    base_pxd.write_text("cdef class Base:\n    cdef public double x\n")  # edited, not rebuilt
    spec = find()
    assert isinstance(spec.loader, SourceFileLoader) and spec.origin == str(src)
    assert f"compiled module {NAME} is out of date" in capsys.readouterr().err
    # the cimported .pxd as built, but its module stale (or gone from the manifest)
    base_pxd.write_text("cdef class Base:\n    cdef public long x\n")
    assert isinstance(find().loader, ExtensionFileLoader)
    base_src.write_text("X = 3  # edited, not rebuilt\n")
    assert isinstance(find().loader, SourceFileLoader)
    base_src.write_text("X = 1\n")
    assert isinstance(find().loader, ExtensionFileLoader)
    del base_entry["ext"]
    assert isinstance(find().loader, SourceFileLoader)
    base_entry["ext"] = _accel.rel(str(base_ext))
    base_pxd.unlink()  # removed, not rebuilt
    assert isinstance(find().loader, SourceFileLoader)


def test_pxd_dependencies_follow_cimports(tmp_path, monkeypatch):
    """The build finds the package .pxd files a .pxd cimports (absolute, relative, through
    another one), not Cython's own (cython, libc)."""
    from imhotep_stats import _accel_build

    monkeypatch.setattr(_accel, "PACKAGE_DIR", str(tmp_path))
    monkeypatch.setattr(_accel_build, "PACKAGE_DIR", str(tmp_path))
    (tmp_path / "bots").mkdir()
    (tmp_path / "engine").mkdir()
    files = {
        "bots/a.pxd": "cimport cython\nfrom libc.math cimport sqrt\n"
                      "from imhotep_stats.bots.b cimport B  # a cdef class\nfrom . cimport c\n",
        "bots/b.pxd": "from ..engine cimport d as dd\ncdef class B:\n    pass\n",
        "bots/c.pxd": "# from imhotep_stats.engine.e cimport E (a comment)\n",
        "engine/d.pxd": "cimport imhotep_stats.bots.a\n",  # a cycle back to a.pxd
        "engine/e.pxd": "",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    deps = _accel_build.pxd_dependencies(str(tmp_path / "bots/a.pxd"))
    assert deps == [("imhotep_stats.bots.b", str(tmp_path / "bots/b.pxd")),
                    ("imhotep_stats.bots.c", str(tmp_path / "bots/c.pxd")),
                    ("imhotep_stats.engine.d", str(tmp_path / "engine/d.pxd"))]
    assert _accel_build.pxd_dependencies(str(tmp_path / "bots/c.pxd")) == []


def test_the_build_regenerates_a_module_whose_typed_layer_changed():
    """Cython's timestamps miss a removed .pxd: the build compares the recorded hash."""
    from imhotep_stats._accel_build import typed_layer_changed

    typed = {"source": "bots/m.py", "pxd": "bots/m.pxd", "pxd_sha256": "a" * 64}
    plain = {"source": "bots/m.py"}
    assert not typed_layer_changed(typed, dict(typed))
    assert not typed_layer_changed(plain, dict(plain))
    assert typed_layer_changed(typed, plain)  # removed
    assert typed_layer_changed(plain, typed)  # added
    assert typed_layer_changed(typed, dict(typed, pxd_sha256="b" * 64))  # edited
    assert typed_layer_changed(None, plain)  # no record: regenerate
    # a .pxd it cimports: added, removed or edited
    dep = {"module": "imhotep_stats.bots.b", "pxd": "bots/b.pxd", "pxd_sha256": "c" * 64}
    with_dep = dict(typed, deps=[dep])
    assert not typed_layer_changed(with_dep, dict(with_dep))
    assert typed_layer_changed(typed, with_dep)
    assert typed_layer_changed(with_dep, typed)
    assert typed_layer_changed(with_dep, dict(typed, deps=[dict(dep, pxd_sha256="d" * 64)]))


def test_the_build_records_the_typed_layer():
    """Every compiled module with a .pxd beside it has that .pxd in the manifest, and the
    .pxd files that one cimports."""
    from imhotep_stats._accel_build import pxd_dependencies

    if not _compiled_available():
        pytest.skip("nothing is compiled (run `make accel`; it needs Cython and a C compiler)")
    with open(_accel.MANIFEST, encoding="utf-8") as f:
        modules = json.load(f)["modules"]
    for name, entry in modules.items():
        pxd = _accel.pxd_path(os.path.join(_accel.PACKAGE_DIR, entry["source"]))
        if os.path.exists(pxd):
            assert entry.get("pxd") == _accel.rel(pxd), name
            assert entry.get("pxd_sha256") == _accel.source_digest(pxd), name
            # and the .pxd files it cimports (sites/temple.pxd: sites/base.pxd)
            deps = pxd_dependencies(pxd)
            assert [(d["module"], d["pxd"]) for d in entry.get("deps", [])] == \
                [(m, _accel.rel(p)) for m, p in deps], name
            for d in entry.get("deps", []):
                assert d["pxd_sha256"] == _accel.source_digest(os.path.join(_accel.PACKAGE_DIR, d["pxd"]))
    assert ["imhotep_stats.bots.greedy.sites.base"] == \
        [d["module"] for d in modules["imhotep_stats.bots.greedy.sites.temple"].get("deps", [])]


def test_finder_pure_env_and_other_modules(tmp_path, fresh_state, monkeypatch, capsys):
    src, ext, entry = _fake_module(tmp_path)
    monkeypatch.setenv(_accel.PURE_ENV, "1")
    spec = _find(entry, tmp_path)
    assert isinstance(spec.loader, SourceFileLoader) and spec.origin == str(src)
    monkeypatch.setenv(_accel.PURE_ENV, "0")  # "0" means not forced
    assert isinstance(_find(entry, tmp_path).loader, ExtensionFileLoader)
    # no extension file: left to the default finders; other packages: never touched
    ext.unlink()
    assert _find(entry, tmp_path) is None
    assert _accel.AccelFinder().find_spec("json.decoder", [str(tmp_path)]) is None
    assert capsys.readouterr().err == ""


def test_finder_comes_before_the_path_finder():
    from importlib.machinery import PathFinder

    assert sys.meta_path.index(_accel._finder) < sys.meta_path.index(PathFinder)


def _child_mode(_=None) -> str:
    return _accel.mode()


@pytest.mark.parametrize("method", ["spawn", "forkserver", "fork"])
def test_workers_run_like_the_parent(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    with multiprocessing.get_context(method).Pool(1) as pool:
        assert pool.apply(_child_mode) == _accel.mode()


def test_bench_labels_what_ran():
    exe = Path(sys.executable).with_name("imhotep-stats")
    for pure in (True, False):
        out = subprocess.run([str(exe), "bench", "--games", "2", "--json"], capture_output=True,
                             text=True, env=_env(pure), check=True, timeout=300)
        engine = json.loads(out.stdout)["engine"]
        assert engine == "pure" if pure else engine in ("compiled", "mixed", "pure")
        text = subprocess.run([str(exe), "bench", "--games", "2"], capture_output=True, text=True,
                              env=_env(pure), check=True, timeout=300).stdout
        assert ("(pure Python)" in text) if engine == "pure" else ("compiled" in text)


def test_modules_run_with_python_m_are_not_compiled():
    # `python -m pkg.mod` runs the source's code object: an extension module has none ("No code
    # object available"), so a module with a __main__ block (bots/evaluate.py, the README's
    # evidence command) must stay out of the accelerator.
    package = Path(_accel.PACKAGE_DIR)
    runnable = set()
    for path in package.rglob("*.py"):
        if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"):
            parts = path.relative_to(package.parent).with_suffix("").parts
            runnable.add(".".join(parts))
    assert "imhotep_stats.bots.evaluate" in runnable
    assert not runnable & set(_accel.ACCEL_MODULES)
