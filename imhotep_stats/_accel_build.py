"""Build the optional compiled accelerator: ``python -m imhotep_stats._accel_build`` (what
``make accel`` runs).

Compiles the modules in ``imhotep_stats._accel.ACCEL_MODULES`` with Cython in pure-Python mode
(the ``.py`` files unchanged; C type declarations only in the augmenting ``.pxd`` files beside
some of them, the typed layer) into extension modules next to their source, rebuilding only what
changed (Cython regenerates a ``.c`` only when its ``.py`` or ``.pxd`` is newer, setuptools
recompiles an extension only when its ``.c`` is newer), then records what each extension was
built from (``.py``, ``.pxd`` and the other modules' ``.pxd`` files that ``.pxd`` cimports) in
``imhotep_stats/_accel_manifest.json`` for the import-time guard.

Without Cython or a C compiler it prints a warning, removes compiled modules it can no longer
vouch for, and exits with status 1; the package then runs (or partly runs) as pure Python.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

from imhotep_stats._accel import (
    ACCEL_MODULES,
    MANIFEST,
    PACKAGE_DIR,
    _check,
    _finder,
    file_stamp,
    pxd_path,
    rel,
    source_digest,
)

ROOT = os.path.dirname(PACKAGE_DIR)
BUILD_TEMP = os.path.join(ROOT, "build", "accel")
# Compile the Python source as Python: no C typing from annotations (an ``x: float`` would
# otherwise become a C double, an ``n: int`` an exact-type check), so the compiled modules keep
# the pure-Python semantics to the bit; the only C types are the .pxd files' (docs/engine.md).
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
# -O2 builds faster than Python's default -O3 with no measurable speed loss; -g0 drops debug
# info (the largest part of the object files and of the compile time).
DEFAULT_CFLAGS = "-O2 -g0"
# Always added: the typed layer (the .pxd files) computes some float expressions in C, and a
# fused multiply-add (a compiler may contract a * b + c into one on FMA hardware, e.g. with
# -march=native) rounds once where Python rounds twice. Off, every C double operation rounds as
# Python's float does.
REQUIRED_CFLAGS = ["-ffp-contract=off"]


def source_path(module: str) -> str:
    return os.path.join(ROOT, *module.split(".")) + ".py"


def warn(message: str) -> None:
    sys.stderr.write(f"WARNING: imhotep_stats accelerator: {message}\n")


def read_manifest() -> dict:
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def write_manifest(data: dict) -> None:
    tmp = MANIFEST + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, MANIFEST)


def extension_files() -> dict[str, list[str]]:
    """Every extension module under the package: module name -> files."""
    from importlib.machinery import EXTENSION_SUFFIXES

    out: dict[str, list[str]] = {}
    for directory, _dirs, files in os.walk(PACKAGE_DIR):
        for name in files:
            for suffix in EXTENSION_SUFFIXES:
                if name.endswith(suffix):
                    stem = name[: -len(suffix)]
                    module = ".".join(["imhotep_stats", *rel(os.path.join(directory, stem)).split("/")])
                    out.setdefault(module, []).append(os.path.join(directory, name))
                    break
    return out


def clean() -> None:
    """Remove every compiled module, generated C file and the manifest."""
    for files in extension_files().values():
        for path in files:
            os.remove(path)
    for module in ACCEL_MODULES:
        c_file = source_path(module)[:-3] + ".c"
        if os.path.exists(c_file):
            os.remove(c_file)
    if os.path.exists(MANIFEST):
        os.remove(MANIFEST)


# ``from a.b cimport c`` / ``from . cimport c`` / ``cimport a.b, c as d`` at the start of a line
_FROM_CIMPORT = re.compile(r"^\s*from\s+([\w.]+)\s+cimport\s+(.+)$")
_CIMPORT = re.compile(r"^\s*cimport\s+(.+)$")


def _module_pxd(module: str) -> str | None:
    """The package's .pxd of a dotted module name, if there is one (not ``cython``, ``libc``...)."""
    parts = module.split(".")
    if parts[0] != "imhotep_stats" or len(parts) < 2:
        return None
    path = os.path.join(PACKAGE_DIR, *parts[1:]) + ".pxd"
    return path if os.path.exists(path) else None


def pxd_dependencies(pxd: str) -> list[tuple[str, str]]:
    """(module, .pxd path) of every package .pxd that ``pxd`` cimports, directly or through
    another one, in a fixed order. Such a module's compiled form copies the C layout of what it
    cimports (a cdef subclass of a cimported cdef class, say): it must be rebuilt when that
    changes, and may run only on top of that module compiled (``_accel._check``)."""
    package = ".".join(["imhotep_stats", *rel(pxd)[: -len(".pxd")].split("/")[:-1]])
    out: dict[str, str] = {}
    todo = [(pxd, package)]
    while todo:
        path, pkg = todo.pop()
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        names = []
        for line in lines:
            line = line.split("#", 1)[0].strip()
            m = _FROM_CIMPORT.match(line)
            if m:
                base, what = m.groups()
                if base.startswith("."):  # relative to the .pxd's package
                    dots = len(base) - len(base.lstrip("."))
                    parent = pkg.split(".")[: len(pkg.split(".")) - dots + 1]
                    base = ".".join(parent + ([base.lstrip(".")] if base.lstrip(".") else []))
                names.append(base)  # from a.b cimport c: a.b, or the module a.b.c
                names += [f"{base}.{n.split()[0]}" for n in what.strip("()").split(",") if n.strip()]
                continue
            m = _CIMPORT.match(line)
            if m:
                names += [n.split()[0] for n in m.group(1).split(",") if n.strip()]
        for name in names:
            dep = _module_pxd(name)
            if dep is not None and name not in out and os.path.abspath(dep) != os.path.abspath(pxd):
                out[name] = dep
                todo.append((dep, name.rpartition(".")[0]))
    return sorted(out.items())


def typed_layer_changed(old_entry, new_entry: dict) -> bool:
    """Whether a module's .pxd, or a .pxd it cimports, differs from the one its last build
    recorded (added, removed or edited; unknown without a previous entry)."""
    if not isinstance(old_entry, dict) or old_entry.get("pxd_sha256") != new_entry.get("pxd_sha256"):
        return True

    def deps(entry: dict) -> list:
        return [(d.get("pxd"), d.get("pxd_sha256")) for d in entry.get("deps", [])
                if isinstance(d, dict)]

    return deps(old_entry) != deps(new_entry)


def build(jobs: int, cflags: list[str], force: bool) -> None:
    from Cython import __version__ as cython_version
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    settings = {"cython": cython_version, "directives": DIRECTIVES, "cflags": cflags,
                "python": sys.implementation.cache_tag}
    old = read_manifest()
    if old.get("settings") != settings:
        force = True  # other flags, directives or Cython: everything is rebuilt
    old_modules = old.get("modules") if isinstance(old.get("modules"), dict) else {}
    # stamps taken before building: an edit made during the build shows as stale, never as current
    before = {}
    for module in ACCEL_MODULES:
        path = source_path(module)
        size, mtime = file_stamp(path)
        before[module] = {"source": rel(path), "source_size": size, "source_mtime_ns": mtime,
                          "source_sha256": source_digest(path)}
        pxd = pxd_path(path)
        if os.path.exists(pxd):  # its typed layer (Cython reads the .pxd of the same name)
            size, mtime = file_stamp(pxd)
            before[module].update({"pxd": rel(pxd), "pxd_size": size, "pxd_mtime_ns": mtime,
                                   "pxd_sha256": source_digest(pxd)})
            deps = []  # the other modules' .pxd files it cimports (their C layout is in it)
            for dep_module, dep in pxd_dependencies(pxd):
                size, mtime = file_stamp(dep)
                deps.append({"module": dep_module, "pxd": rel(dep), "pxd_size": size,
                             "pxd_mtime_ns": mtime, "pxd_sha256": source_digest(dep)})
            if deps:
                before[module]["deps"] = deps
        # Cython's timestamps miss a .pxd removed (or added, or restored with an old mtime)
        # since the last build, its own or one it cimports: drop that module's .c, so it is
        # regenerated
        if typed_layer_changed(old_modules.get(module), before[module]):
            c_file = path[:-3] + ".c"
            if os.path.exists(c_file):
                os.remove(c_file)
    extensions = [Extension(m, [os.path.relpath(source_path(m), ROOT)], extra_compile_args=cflags)
                  for m in ACCEL_MODULES]
    extensions = cythonize(extensions, compiler_directives=DIRECTIVES, nthreads=jobs,
                           force=force, quiet=True)
    dist = Distribution({"name": "imhotep-stats-accel", "ext_modules": extensions})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.parallel = jobs
    cmd.force = force
    cmd.build_temp = os.path.relpath(BUILD_TEMP, ROOT)
    dist.run_command("build_ext")
    modules = {}
    for module in ACCEL_MODULES:
        ext = os.path.join(ROOT, cmd.get_ext_filename(module))
        size, mtime = file_stamp(ext)
        modules[module] = {**before[module], "ext": rel(ext), "ext_size": size, "ext_mtime_ns": mtime}
    write_manifest({"settings": settings, "modules": modules})


def salvage() -> list[str]:
    """After a failed build: keep the compiled modules the manifest still vouches for, delete
    the others (so nothing stale is left to warn about). Returns the modules kept."""
    data = read_manifest()
    entries = data.get("modules", {}) if isinstance(data.get("modules"), dict) else {}
    _finder.invalidate_caches()  # _check reads the dependencies' entries from the manifest
    kept = {}
    for module, files in extension_files().items():
        entry = entries.get(module)
        good = (module in ACCEL_MODULES and len(files) == 1
                and _check(entry, source_path(module), files[0]))
        if good:
            kept[module] = entry
        else:
            for path in files:
                os.remove(path)
    write_manifest({"settings": data.get("settings"), "modules": kept})
    return sorted(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m imhotep_stats._accel_build", description=__doc__.split("\n\n")[0])
    parser.add_argument("-j", "--jobs", type=int, default=2, help="parallel compile jobs (default 2)")
    parser.add_argument("--cflags", default=os.environ.get("ACCEL_CFLAGS", DEFAULT_CFLAGS),
                        help=f"extra C compiler flags (default {DEFAULT_CFLAGS!r}, or $ACCEL_CFLAGS)")
    parser.add_argument("--force", action="store_true", help="rebuild everything")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules and exit")
    parser.add_argument("--list", action="store_true", help="print the compiled modules' sources and exit")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    if args.list:
        print("\n".join(os.path.relpath(source_path(m), ROOT) for m in ACCEL_MODULES))
        return 0
    if args.clean:
        clean()
        return 0
    # a module dropped from ACCEL_MODULES must not keep running from an old extension
    for module, files in extension_files().items():
        if module not in ACCEL_MODULES:
            for path in files:
                os.remove(path)
    t0 = time.perf_counter()
    try:
        build(args.jobs, args.cflags.split() + REQUIRED_CFLAGS, args.force)
    except (Exception, SystemExit) as exc:  # no Cython, no compiler, a compile error
        kept = salvage()
        now = (f"{len(kept)} of {len(ACCEL_MODULES)} modules still compiled and current, the others "
               "run as pure Python" if kept else "everything runs as pure Python")
        warn(f"build failed ({type(exc).__name__}: {exc}); {now} (same results, slower). "
             "With Cython and a C compiler, `make accel` builds the ~2x faster modules.")
        return 1
    print(f"imhotep_stats accelerator: {len(ACCEL_MODULES)} modules compiled and current "
          f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
