"""The Rust core as the package runs it: built (imhotep_stats._core), in release, the crate's
version, and `--version` names it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

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
    assert out.rstrip("\n").endswith(f", core: {core.describe()}")
