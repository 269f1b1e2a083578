"""The Rust core as the package runs it: built (imhotep_stats._core), in release, the crate's
version, the package's only compiled module, and `--version` names it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import imhotep_stats
from imhotep_stats import _core
from imhotep_stats.engine import core

ROOT = Path(__file__).resolve().parents[1]


def test_the_core_is_the_crates_release_build():
    crate = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]
    assert (_core.__version__, _core.PROFILE) == (crate["version"], "release")
    assert core.describe() == f"{crate['name']} {crate['version']} (Rust, release)"


def test_version_names_the_core():
    exe = Path(sys.executable).with_name("imhotep-stats")
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    assert out.rstrip("\n") == f"imhotep-stats, version {imhotep_stats.__version__}, core: {core.describe()}"


def test_the_core_is_the_only_compiled_module():
    """Python prefers an extension module to the .py beside it: a leftover one (an old build's)
    would run instead of the source."""
    package = Path(imhotep_stats.__file__).parent
    found = [p.relative_to(package).as_posix() for p in package.rglob("*")
             if p.name.endswith(tuple(EXTENSION_SUFFIXES))]
    assert found == [Path(_core.__file__).name], found
