"""The packaging as a new user meets it (what CI checks, as part of `make test`): in a fresh
virtual environment `python -m build` makes an sdist, and from it a compiled wheel; installed, the
wheel runs the compiled engine and the Rust core (release), says so, and plays the same games as
pure Python on every side. The sdist holds everything a build needs. Without a C compiler the
Cython part warns and gives pure-Python engine modules; without cargo the build fails and says why.

About 1.5 minutes of CPU (the wheel compiles every module; pip's cache serves the packages)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from imhotep_stats.sim import compiled
from tests.test_compiled import assert_same_games, env

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 1800  # a busy 2-core machine: the compile alone can take minutes
WARNING = "WARNING: imhotep-stats: the compiled engine could not be built"
NO_CARGO = "error: imhotep-stats: cargo (the Rust toolchain) is not on PATH"
CORE = "imhotep_stats/_core."  # the Rust core's extension module, in a wheel


def _compiler() -> str | None:
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    return shutil.which(os.environ.get("CC", cc[0]))


pytestmark = pytest.mark.skipif(_compiler() is None, reason="no C compiler here: nothing to compile")


@pytest.fixture(scope="module", autouse=True)
def cargo_target(tmp_path_factory):
    """One cargo target directory for this module's builds: the crate's dependencies are
    compiled once, not once a build (each builds from a fresh copy of the sources)."""
    target = tmp_path_factory.mktemp("cargo-target")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARGO_TARGET_DIR", str(target))
        yield target


def run(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("env", env(pure=False))
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True,
                          timeout=TIMEOUT, **kw)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A fresh virtual environment (the base interpreter, not this one's packages) with the
    sdist and wheel that `python -m build` made in it, and the wheel installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    base = getattr(sys, "_base_executable", sys.executable)
    run(base, "-m", "venv", tmp / "venv")
    python = tmp / "venv" / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "build")
    run(python, "-m", "build", "--outdir", tmp / "dist", ROOT)
    sdist, = (tmp / "dist").glob("*.tar.gz")
    wheel, = (tmp / "dist").glob("*.whl")
    run(python, "-m", "pip", "install", "--quiet", wheel)
    return {"tmp": tmp, "python": python, "sdist": sdist, "wheel": wheel}


def _sources(*tops: str) -> set[str]:
    """The project's files under these folders: git's list in a checkout (a developer's tree
    holds ignored leftovers, e.g. an old build's files), else every file but generated ones."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "ls-files", "--", *tops], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        return {line for line in out.splitlines() if (ROOT / line).is_file()}
    return {path.relative_to(ROOT).as_posix() for top in tops for path in (ROOT / top).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
            and path.suffix not in (".c", ".so")}


def test_the_sdist_holds_what_a_build_needs(built):
    """Every source, typed layer (.pxd) and data file of the package, the crate (Cargo.toml,
    Cargo.lock, src/), the study configs (configs/), the build files, docs/ and tests/; no
    generated C or compiled module."""
    with tarfile.open(built["sdist"]) as tar:
        names = {n.partition("/")[2] for n in tar.getnames()}
    expected = {"setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "Makefile",
                "Cargo.toml", "Cargo.lock"}
    expected.update(_sources("imhotep_stats", "configs", "docs", "tests", "scripts", "src"))
    assert any(n.startswith("src/") and n.endswith(".rs") for n in expected)
    assert expected - names == set()
    assert {n for n in names if n.endswith((".c", ".so", ".pyd", ".pyc"))} == set()
    assert any(n.endswith(".pxd") for n in names) and "configs/default.toml" in names


def test_the_wheel_is_compiled(built):
    """A CPython-specific wheel with an extension module for every module the build compiles,
    the Rust core's, and the study configs."""
    tag = f"-cp{sys.version_info.major}{sys.version_info.minor}-"  # not py3-none-any
    assert built["wheel"].name.startswith("imhotep_stats-") and tag in built["wheel"].name
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = set(whl.namelist())
    for module, _source in compiled.compiled_sources():
        stem = module.replace(".", "/")
        assert any(n.startswith(stem + ".") and n.endswith(".so") for n in names), module
    assert any(n.startswith(CORE) and n.endswith(".so") for n in names)
    assert {n for n in names if n.endswith(".c")} == set()
    shipped = {f"imhotep_stats/configs/{p.name}" for p in (ROOT / "configs").glob("*.toml")}
    assert shipped and shipped - names == set()  # configs/ ships as imhotep_stats.configs


def test_the_installed_wheel_runs_compiled_and_plays_like_pure_python(built):
    cwd = built["tmp"]  # not the source tree: the installed package only
    exe = built["python"]
    out = run(exe.with_name("imhotep-stats"), "--version", cwd=cwd)
    assert f"engine: compiled (Cython, {len(compiled.compiled_sources())} modules), " in out.stdout
    assert out.stdout.strip().endswith("(Rust, release)")
    where = run(exe, "-c", "import imhotep_stats.engine.game as g; print(g.__file__)", cwd=cwd)
    assert Path(where.stdout.strip()).is_relative_to(built["tmp"] / "venv")
    assert_same_games(exe=str(exe), cwd=cwd)


def _unpacked(built, tmp_path) -> Path:
    """The sdist unpacked, with the C that Cython already generated, when there is some, so a
    build only compiles it again."""
    src = tmp_path / "src"
    with tarfile.open(built["sdist"]) as tar:
        tar.extractall(tmp_path, filter="data")
    (tmp_path / built["sdist"].name.removesuffix(".tar.gz")).rename(src)
    for c_file in (ROOT / "imhotep_stats").rglob("*.c"):
        shutil.copy2(c_file, src / c_file.relative_to(ROOT))
    return src


def test_without_a_c_compiler_the_build_warns_and_gives_pure_python(built, tmp_path):
    """CC=false: every C compile fails; the wheel has no Cython extension module, the build log
    says so, and the engine runs as pure Python; the Rust core is still built (cargo's own
    linker, not $CC)."""
    src = _unpacked(built, tmp_path)
    out = run(built["python"], "-m", "pip", "wheel", "-v", "--no-deps", "-w", tmp_path / "dist",
              src, env=env(pure=False, CC="false"), cwd=tmp_path)
    assert WARNING in out.stdout + out.stderr
    wheel, = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as whl:
        extensions = [n for n in whl.namelist() if n.endswith((".so", ".pyd"))]
        assert len(extensions) == 1 and extensions[0].startswith(CORE), extensions
        whl.extractall(tmp_path / "installed")
    kind = run(built["python"], "-c", "from imhotep_stats.sim import compiled; print(compiled.describe())",
               cwd=tmp_path, env=env(pure=False, PYTHONPATH=str(tmp_path / "installed")))
    assert kind.stdout.strip() == "pure Python (no compiled modules: built without a C compiler?)"
    assert kind.stderr == ""


def test_without_cargo_the_build_stops_and_says_why(built, tmp_path):
    """The core is required: with no cargo on PATH the build fails at once, naming it."""
    src = _unpacked(built, tmp_path)
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "cargo")))
    with pytest.raises(subprocess.CalledProcessError) as failed:
        run(built["python"], "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "dist", src,
            env=env(pure=False, PATH=path), cwd=tmp_path)
    assert NO_CARGO in failed.value.stdout + failed.value.stderr
    assert not list(tmp_path.glob("dist/*.whl"))
