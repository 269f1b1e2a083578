"""The compiled engine: which modules the build compiles, and which engine runs (compiled or pure).

The build (``setup.py``, run by ``pip install``, ``pip wheel``, ``python -m build`` and ``make``)
compiles with Cython, in pure-Python mode, every module ``compiled_sources()`` lists: each ``.py``
under ``COMPILED_DIRS`` (searched recursively, so a module added, renamed or moved into a
subpackage there is compiled with no edit here) but package ``__init__`` files, the modules in
``NOT_COMPILED`` (not hot) and a module with a ``__main__`` block (``python -m`` needs its
source). This is the one list; ``setup.py`` loads this file by path, so it imports nothing from
the package and only the standard library.

``engine()`` says which engine this process runs: "compiled", "pure" or "mixed".

Python prefers an extension module to the ``.py`` beside it. Two cases load the ``.py`` instead
(``install()``, called by the package's ``__init__`` so every process and worker does the same):
``IMHOTEP_PURE=1``, and, in a source checkout only (``setup.py`` beside the package, as with
``make`` and ``pip install -e .``), compiled modules out of step with the sources: an extension
older than its ``.py`` or ``.pxd``, one whose source is gone, or a listed module left without one.
Then every module runs as pure Python (never a mix: a compiled module can depend on the C layout
of another, ``from ... cimport``) and one warning asks for ``make``. An installed package (a
wheel) is never second-guessed.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
from importlib.util import spec_from_file_location

PACKAGE = "imhotep_stats"
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # imhotep_stats/
# What is compiled: every module under these package directories (recursively) but ...
COMPILED_DIRS = ("engine", "bots")
# ... these (fnmatch patterns on the path inside the package; * spans directories): read once
# per game file, set-up only or exceptions only, not worth the build time; the Rust core's
# Python face (its work is compiled already)
NOT_COMPILED = ("engine/transcript.py", "engine/core.py", "engine/facade*.py", "bots/weights.py", "bots/*/weights.py",
                "bots/core_bot.py", "bots/search_spec.py",
                "bots/*/errors.py")
PURE_ENV = "IMHOTEP_PURE"
# set once a process has warned, so its workers and subprocesses do not repeat the warning
_WARNED_ENV = "_IMHOTEP_COMPILED_WARNED"
_stale: list[str] = []  # set by install(): why the compiled modules do not run here


def _runnable(path: str) -> bool:
    """A module ``python -m`` runs: an extension has no code object for it."""
    with open(path, encoding="utf-8") as f:
        return "if __name__ == \"__main__\"" in f.read()


def compiled_sources(package_dir: str = PACKAGE_DIR) -> list[tuple[str, str]]:
    """(module name, path of its .py) of every module the build compiles, sorted."""
    out = []
    for top in COMPILED_DIRS:
        for directory, dirs, files in os.walk(os.path.join(package_dir, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                path = os.path.join(directory, name)
                rel = os.path.relpath(path, package_dir).replace(os.sep, "/")
                if (not name.endswith(".py") or name == "__init__.py" or _runnable(path)
                        or any(fnmatch.fnmatchcase(rel, p) for p in NOT_COMPILED)):
                    continue
                out.append((".".join([PACKAGE, *rel[:-3].split("/")]), path))
    return out


def pure_forced() -> bool:
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def source_checkout(package_dir: str = PACKAGE_DIR) -> bool:
    """Whether the package runs from its source tree (``make``, an editable install)."""
    return os.path.exists(os.path.join(os.path.dirname(package_dir), "setup.py"))


def extension_files(package_dir: str = PACKAGE_DIR) -> dict[str, str]:
    """Every extension module file under the compiled directories: module name -> path."""
    out = {}
    for top in COMPILED_DIRS:
        for directory, _dirs, files in os.walk(os.path.join(package_dir, top)):
            for name in files:
                suffix = next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)
                if suffix is not None:
                    rel = os.path.relpath(os.path.join(directory, name[: -len(suffix)]), package_dir)
                    out[".".join([PACKAGE, *rel.replace(os.sep, "/").split("/")])] = \
                        os.path.join(directory, name)
    return out


def stale_extensions(package_dir: str = PACKAGE_DIR) -> list[str]:
    """Why the compiled modules are out of step with the sources (empty: they are not, or there
    are none): an extension older than its .py or .pxd (what Cython and setuptools rebuild), one
    no listed module owns (its source gone or now not compiled), a listed module without one."""
    exts = extension_files(package_dir)
    if not exts:
        return []
    listed = dict(compiled_sources(package_dir))
    problems = []
    for module, source in listed.items():
        ext = exts.get(module)
        if ext is None:
            problems.append(f"{module} (not compiled)")
            continue
        built = os.stat(ext).st_mtime_ns
        for path in (source, source[:-3] + ".pxd"):
            if os.path.exists(path) and os.stat(path).st_mtime_ns > built:
                problems.append(f"{module} (older than {os.path.basename(path)})")
                break
    problems += [f"{m} (its source is gone or not compiled)" for m in sorted(set(exts) - set(listed))]
    return problems


def forget_removed_pxd(c_file: str, root: str) -> bool:
    """For the build: Cython regenerates a module's C when its .py or a .pxd it reads is newer,
    not when such a .pxd was removed. Removes C (Cython's output, beside the .py) that quotes a
    package .pxd no longer under ``root``, so it is made again; True if it did."""
    import re

    try:
        with open(c_file, encoding="utf-8", errors="replace") as f:
            quoted = set(re.findall(r'"(imhotep_stats/[\w/]+\.pxd)"', f.read()))
    except FileNotFoundError:
        return False
    if all(os.path.exists(os.path.join(root, pxd)) for pxd in quoted):
        return False
    os.remove(c_file)
    return True


class SourceFinder:
    """First on ``sys.meta_path`` when the compiled modules must not run: loads every package
    submodule that has a ``.py`` from it, and refuses a leftover extension with no source."""

    def find_spec(self, fullname, path=None, target=None):
        if path is None or not fullname.startswith(PACKAGE + "."):
            return None
        tail = fullname.rpartition(".")[2]
        for directory in path:
            source = os.path.join(directory, tail + ".py")
            if os.path.isfile(source):
                return spec_from_file_location(fullname, source)
            if os.path.isdir(os.path.join(directory, tail)):
                return None  # a package: its __init__.py is never compiled
            for suffix in EXTENSION_SUFFIXES:
                if os.path.exists(os.path.join(directory, tail + suffix)):
                    raise ModuleNotFoundError(
                        f"No module named {fullname!r}: only a stale compiled "
                        f"{tail + suffix} is left; run `make`", name=fullname)
        return None


_finder = SourceFinder()


def install() -> None:
    """Run pure Python where the compiled modules must not run (see the module docstring)."""
    if _finder in sys.meta_path:
        return
    if not pure_forced():
        if not source_checkout():
            return
        stale = stale_extensions()
        if not stale:
            return
        _stale[:] = stale
        if not os.environ.get(_WARNED_ENV):
            shown = ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else "")
            sys.stderr.write(f"imhotep_stats: the compiled modules are out of date with the "
                             f"sources ({shown}); running pure Python; run `make` to rebuild\n")
            os.environ[_WARNED_ENV] = "1"
    sys.meta_path.insert(0, _finder)


def compiled_modules() -> list[str]:
    """The listed modules that run compiled in this process (imports them all: what ran, not
    what would)."""
    import importlib

    out = []
    for module, _source in compiled_sources():
        loaded = importlib.import_module(module)
        if isinstance(getattr(loaded, "__loader__", None), ExtensionFileLoader):
            out.append(module)
    return out


def engine() -> str:
    """"compiled" (every listed module), "pure" (none) or "mixed"."""
    n, total = len(compiled_modules()), len(compiled_sources())
    return "pure" if n == 0 else "compiled" if n == total else "mixed"


def describe() -> str:
    """One phrase for people: "compiled (Cython, N modules)", "pure Python" or the mix."""
    n, total = len(compiled_modules()), len(compiled_sources())
    if n == 0:
        why = (" (IMHOTEP_PURE=1)" if pure_forced() else
               " (the compiled modules are out of date: run `make`)" if _stale else
               " (no compiled modules: built without a C compiler?)")
        return f"pure Python{why}"
    if n == total:
        return f"compiled (Cython, {n} modules)"
    return f"mixed ({n} of {total} modules compiled)"
