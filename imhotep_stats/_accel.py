"""The optional compiled accelerator: which modules `make accel` compiles, and the guard that
never lets a stale compiled module run.

`make accel` compiles the modules in ``ACCEL_MODULES`` with Cython in pure-Python mode (the
``.py`` files are compiled unchanged and stay the single source of truth) into extension
modules next to their source, and records in ``_accel_manifest.json`` what each was built from.

Python prefers an extension module over a ``.py`` of the same name, so after an edit without a
rebuild the old compiled code would silently run. ``install()`` (called from the package's
``__init__``, so every process, worker and subprocess that imports the package has it) puts a
finder first on ``sys.meta_path`` that, for every ``imhotep_stats`` submodule with an extension
file next to its source, loads the extension only when the manifest says it was built from the
current source and the current typed layer (the ``.pxd`` beside it, if any; size and mtime
first, a SHA-256 when those differ), and the ``.py`` source otherwise, warning once on stderr.
A ``.pxd`` that cimports another module's ``.pxd`` (``bots/greedy/sites/temple.pxd`` cimports
``sites/base.pxd``: its cdef classes extend ``SiteEval``, whose C layout they copy) makes its
module depend on that one: the manifest lists those ``.pxd`` files (``deps``), and the module
is current only if each is unchanged and its module is current too (a compiled subclass cannot
run on a base class loaded from source). ``IMHOTEP_PURE=1`` loads every module from source.
``mode()`` says what runs: "compiled", "pure" or "mixed".

Standard library only, and cheap: a directory listing per package directory and a stat or two
per compiled module (the manifest is read only when an extension file exists).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, SourceFileLoader
from importlib.util import spec_from_file_location

# The modules `make accel` compiles (the one list: imhotep_stats/_accel_build.py reads it).
# Not compiled: package __init__ files (engine/sites/__init__.py has no hot code, and a compiled
# package __init__ would be found by the default finder, not this guard); transcript.py
# (read and written once per game file, not hot); bots/__init__.py and weights.py
# (set-up only); bots/evaluate.py (it only drives games, and `python -m` needs its source);
# bots/greedy/errors.py (exceptions only).
ACCEL_MODULES: tuple[str, ...] = (
    "imhotep_stats.engine.game",
    "imhotep_stats.engine.cards",
    "imhotep_stats.engine.view",
    "imhotep_stats.engine.play",
    "imhotep_stats.engine.result",
    "imhotep_stats.engine.actions",
    "imhotep_stats.engine.prophecies",
    "imhotep_stats.engine.sites.base",
    "imhotep_stats.engine.sites.burial_chamber",
    "imhotep_stats.engine.sites.market",
    "imhotep_stats.engine.sites.obelisk",
    "imhotep_stats.engine.sites.pyramid",
    "imhotep_stats.engine.sites.temple",
    "imhotep_stats.bots.base",
    "imhotep_stats.bots.greedy.bot",
    "imhotep_stats.bots.greedy.turn",
    "imhotep_stats.bots.greedy.context",
    "imhotep_stats.bots.greedy.cards",
    "imhotep_stats.bots.greedy.prophecies",
    "imhotep_stats.bots.greedy.sites.base",
    "imhotep_stats.bots.greedy.sites.burial_chamber",
    "imhotep_stats.bots.greedy.sites.market",
    "imhotep_stats.bots.greedy.sites.obelisk",
    "imhotep_stats.bots.greedy.sites.pyramid",
    "imhotep_stats.bots.greedy.sites.temple",
)

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(PACKAGE_DIR, "_accel_manifest.json")
PURE_ENV = "IMHOTEP_PURE"
# set once this process has warned, so its workers and subprocesses do not repeat the warning
_WARNED_ENV = "_IMHOTEP_ACCEL_WARNED"
_PARENT_WARNED = bool(os.environ.get(_WARNED_ENV))


def pure_forced() -> bool:
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def source_digest(path: str) -> str:
    import hashlib

    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def file_stamp(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def rel(path: str) -> str:
    """A path relative to the package directory, '/'-separated (the manifest's form)."""
    return os.path.relpath(path, PACKAGE_DIR).replace(os.sep, "/")


class _State:
    def __init__(self) -> None:
        self.listings: dict[str, frozenset[str]] = {}
        self.manifest: dict | None = None
        self.verdicts: dict[str, bool] = {}  # module name -> its extension is current
        self.warned: set[str] = set()


_state = _State()


def _listing(directory: str) -> frozenset[str]:
    names = _state.listings.get(directory)
    if names is None:
        try:
            names = frozenset(os.listdir(directory))
        except OSError:
            names = frozenset()
        _state.listings[directory] = names
    return names


def _manifest_modules() -> dict:
    if _state.manifest is None:
        try:
            import json

            with open(MANIFEST, encoding="utf-8") as f:
                data = json.load(f)
            modules = data.get("modules", {}) if isinstance(data, dict) else {}
            _state.manifest = modules if isinstance(modules, dict) else {}
        except (OSError, ValueError):
            _state.manifest = {}
    return _state.manifest


def _locate(fullname: str, path) -> tuple[str | None, str | None]:
    """(source .py, extension file) of a submodule in the given package path, or Nones."""
    tail = fullname.rpartition(".")[2]
    for directory in path:
        names = _listing(directory)
        if tail + ".py" not in names:
            continue
        source = os.path.join(directory, tail + ".py")
        for suffix in EXTENSION_SUFFIXES:
            if tail + suffix in names:
                return source, os.path.join(directory, tail + suffix)
        return source, None
    return None, None


def is_current(fullname: str, source: str, ext: str) -> bool:
    """Whether the manifest says ``ext`` was built from ``source`` as it is now."""
    verdict = _state.verdicts.get(fullname)
    if verdict is None:
        _state.verdicts[fullname] = False  # while deciding: a dependency cycle is never current
        verdict = _check(_manifest_modules().get(fullname), source, ext)
        _state.verdicts[fullname] = verdict
    return verdict


def _dependency_current(module: str) -> bool:
    """Whether a module some compiled module's typed layer cimports runs compiled and current
    (its files as its own manifest entry names them)."""
    entry = _manifest_modules().get(module)
    if not isinstance(entry, dict) or not isinstance(entry.get("source"), str) \
            or not isinstance(entry.get("ext"), str):
        return False
    return is_current(module, os.path.join(PACKAGE_DIR, entry["source"]),
                      os.path.join(PACKAGE_DIR, entry["ext"]))


def pxd_path(source: str) -> str:
    """The typed layer of a module: the ``.pxd`` next to its ``.py`` (Cython reads it, Python
    never does); it may not exist."""
    return source[:-3] + ".pxd"


def _same(entry: dict, key: str, path: str) -> bool:
    """Whether ``path`` is the file the manifest recorded under ``key`` (size and mtime, else
    the SHA-256: touched by a checkout or a copy but maybe not changed). OSError if missing."""
    if list(file_stamp(path)) == [entry.get(f"{key}_size"), entry.get(f"{key}_mtime_ns")]:
        return True
    return source_digest(path) == entry.get(f"{key}_sha256")


def _check(entry, source: str, ext: str) -> bool:
    if not isinstance(entry, dict):
        return False
    try:
        if entry.get("ext") != rel(ext) or entry.get("source") != rel(source):
            return False
        if list(file_stamp(ext)) != [entry.get("ext_size"), entry.get("ext_mtime_ns")]:
            return False  # the extension was rebuilt or replaced outside `make accel`
        if not _same(entry, "source", source):
            return False
        # the typed layer: the same .pxd as at the build (changed, added or removed: stale)
        pxd = pxd_path(source)
        if entry.get("pxd") is None:
            if os.path.exists(pxd):
                return False
        elif not (entry.get("pxd") == rel(pxd) and _same(entry, "pxd", pxd)):
            return False
        # the .pxd files it cimports: unchanged, and their modules compiled and current
        deps = entry.get("deps", [])
        if not isinstance(deps, list):
            return False
        for dep in deps:
            if not (isinstance(dep, dict) and isinstance(dep.get("pxd"), str)
                    and _same(dep, "pxd", os.path.join(PACKAGE_DIR, dep["pxd"]))
                    and _dependency_current(dep.get("module"))):
                return False
        return True
    except OSError:
        return False


def _warn_stale(fullname: str) -> None:
    if fullname in _state.warned:
        return
    _state.warned.add(fullname)
    if _PARENT_WARNED:
        return
    sys.stderr.write(
        f"imhotep_stats: compiled module {fullname} is out of date with its source; "
        "using pure Python; run `make accel`\n")
    os.environ[_WARNED_ENV] = "1"


class AccelFinder:
    """First on ``sys.meta_path``: decides between the compiled and the source form of every
    ``imhotep_stats`` submodule that has both; leaves all other imports to the default finders."""

    def find_spec(self, fullname, path=None, target=None):
        if path is None or not fullname.startswith("imhotep_stats."):
            return None
        source, ext = _locate(fullname, path)
        if ext is None:
            return None  # no compiled form: the default finders load the source as usual
        if not pure_forced():
            if is_current(fullname, source, ext):
                return spec_from_file_location(fullname, ext, loader=ExtensionFileLoader(fullname, ext))
            _warn_stale(fullname)
        return spec_from_file_location(fullname, source, loader=SourceFileLoader(fullname, source))

    def invalidate_caches(self) -> None:
        _state.listings.clear()
        _state.manifest = None
        _state.verdicts.clear()


_finder = AccelFinder()


def install() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def compiled_modules() -> list[str]:
    """The modules of ``ACCEL_MODULES`` that run compiled in this process (already imported:
    how they were loaded; not yet imported: how they would be)."""
    out = []
    for name in ACCEL_MODULES:
        module = sys.modules.get(name)
        if module is not None:
            if isinstance(getattr(module, "__loader__", None), ExtensionFileLoader):
                out.append(name)
            continue
        if pure_forced():
            continue
        parent = sys.modules.get(name.rpartition(".")[0])
        path = getattr(parent, "__path__", None) or [
            os.path.join(PACKAGE_DIR, *name.split(".")[1:-1])]
        source, ext = _locate(name, path)
        if ext is not None and is_current(name, source, ext):
            out.append(name)
    return out


def mode() -> str:
    """"compiled" (every module of ``ACCEL_MODULES``), "pure" (none) or "mixed"."""
    n = len(compiled_modules())
    return "pure" if n == 0 else "compiled" if n == len(ACCEL_MODULES) else "mixed"


def describe() -> str:
    """One phrase for a benchmark line: "compiled: Cython", "pure Python" or the mix."""
    n = len(compiled_modules())
    if n == 0:
        return "pure Python"
    if n == len(ACCEL_MODULES):
        return "compiled: Cython"
    return f"mixed: {n} of {len(ACCEL_MODULES)} modules compiled"
