"""The packaging as a new user meets it (part of `make test`): maturin builds a wheel from the
checkout (`pip wheel`, pyproject.toml's build backend); installed in a fresh virtual environment
it holds the Rust core in release, the package's data and the example study configs, and runs a
small study from outside the checkout.

The wheel is built with this interpreter in the checkout's cargo target directory (target/),
where `make` built the editable core with the same settings: cargo reuses what is up to date and
rebuilds what is not, so the wheel is what a clean build gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import imhotep_stats

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 1800  # a busy 2-core machine: a crate rebuilt from scratch takes minutes


def run(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True,
                          timeout=TIMEOUT, env=env, **kw)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The wheel maturin builds from the checkout, installed in a fresh virtual environment
    (the base interpreter, not this one's packages)."""
    tmp = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp / "dist", ROOT)
    wheel, = (tmp / "dist").glob("*.whl")
    base = getattr(sys, "_base_executable", sys.executable)
    run(base, "-m", "venv", tmp / "venv")
    python = tmp / "venv" / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", wheel)
    return {"tmp": tmp, "python": python, "wheel": wheel}


def test_the_wheel_holds_the_core_the_data_and_the_configs(built):
    """A CPython-specific wheel: the core is its only compiled module; every data file of the
    package and every example config ships inside imhotep_stats/."""
    tag = f"-cp{sys.version_info.major}{sys.version_info.minor}-"  # not py3-none-any
    assert built["wheel"].name.startswith("imhotep_stats-") and tag in built["wheel"].name
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = set(whl.namelist())
    compiled = [n for n in names if n.endswith((".so", ".pyd"))]
    assert len(compiled) == 1 and compiled[0].startswith("imhotep_stats/_core."), compiled
    shipped = {f"imhotep_stats/{p.relative_to(ROOT / 'imhotep_stats').as_posix()}"
               for top in ("data", "configs") for p in (ROOT / "imhotep_stats" / top).glob("*.toml")}
    assert any("/configs/default.toml" in n for n in shipped)
    assert shipped - names == set()
    assert {n.partition("/")[0] for n in names if not n.startswith("imhotep_stats/")} \
        == {f"imhotep_stats-{imhotep_stats.__version__}.dist-info"}


def test_the_installed_wheel_runs_a_study_outside_the_checkout(built):
    cwd = built["tmp"]  # not the source tree: the installed package only
    exe = built["python"].with_name("imhotep-stats")
    version = run(exe, "--version", cwd=cwd).stdout.strip()
    assert version.endswith("(Rust, release)"), version
    where = run(built["python"], "-c", "import imhotep_stats, imhotep_stats._core as c; "
                "print(imhotep_stats.__file__); print(c.__file__)", cwd=cwd).stdout.split()
    assert all(Path(p).is_relative_to(built["tmp"] / "venv") for p in where), where
    # an example config, read from the installed package, then run
    run(exe, "init", "smoke", "--example", "ci-smoke", cwd=cwd)
    out = run(exe, "run", "smoke.toml", "--out", cwd / "reports", "-q", "--json", "--no-strong",
              cwd=cwd)
    cells = [json.loads(line) for line in out.stdout.splitlines()]  # one line a cell
    assert [[b["bot"] for b in c["bots"]] for c in cells] == [["random"]] * 3
    assert (cwd / "reports" / "manifest.json").is_file()
