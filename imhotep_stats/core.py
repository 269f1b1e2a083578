"""The Rust core (Cargo.toml, src/), built as the extension ``imhotep_stats._core``: what it is,
and the Python side of its bindings."""

from __future__ import annotations


def describe() -> str:
    """One phrase for people: the core's crate, version and build profile."""
    try:
        from imhotep_stats import _core
    except ImportError as exc:  # a checkout whose build did not run or failed
        return f"missing ({exc}; run `make`)"
    return f"imhotep-core {_core.__version__} (Rust, {_core.PROFILE})"
