"""The compiled parts. The Rust core (Cargo.toml, src/) is built by setuptools-rust, in release
with the feature ``python``, as the extension ``imhotep_stats._core``: it is required, so without
cargo the build fails and says so. Cython compiles the modules ``imhotep_stats/sim/compiled.py``
lists (the ``.py`` files unchanged, C types from the ``.pxd`` beside some of them) into extension
modules; without a C compiler (or Cython) that part warns and those modules run as pure Python:
the same results, about half the speed. Everything else about the package is in pyproject.toml."""

import importlib.util
import os
import shutil
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools_rust import Binding, RustExtension

HERE = os.path.dirname(os.path.abspath(__file__))
# the module list, read without importing the package (its dependencies may not be installed)
_spec = importlib.util.spec_from_file_location(
    "_imhotep_compiled", os.path.join(HERE, "imhotep_stats", "sim", "compiled.py"))
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)

# Compile the Python source as Python: no C typing from annotations (an ``x: float`` would
# otherwise become a C double), so the compiled modules keep pure Python's semantics to the bit;
# the only C types are the .pxd files'.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
# -O2 -g0: as fast as Python's default -O3 -g, for about 2/3 of the compile time. Required:
# no fused multiply-add (a * b + c rounded once), so C doubles round as Python floats do.
CFLAGS = {"unix": ["-O2", "-g0", "-ffp-contract=off"], "msvc": ["/fp:precise"]}


def warn(message):
    bar = "*" * 78
    sys.stderr.write(f"\n{bar}\nWARNING: imhotep-stats: {message}\nThe package is installed "
                     f"as pure Python: the same results, about half the speed.\n{bar}\n\n")


def require_cargo():
    """The core is required: without cargo the build stops here, saying so (before Cython's
    minutes; setuptools-rust builds the core after build_ext's own extensions)."""
    if shutil.which(os.environ.get("CARGO", "cargo")) is None:
        sys.exit("error: imhotep-stats: cargo (the Rust toolchain) is not on PATH; the Rust core "
                 "(imhotep_stats._core: Cargo.toml, src/) cannot be built without it. Install "
                 "Rust (https://rustup.rs), or install a wheel.")


class BuildExt(build_ext):
    """setuptools' build_ext with Cython first, and all or nothing: when an extension cannot be
    built (no C compiler), none is installed (a compiled module may need another one compiled)
    and the build warns. The Rust core is not optional (require_cargo)."""

    def run(self):
        if self.distribution.rust_extensions:
            require_cargo()
        super().run()

    def finalize_options(self):
        # Cython here, not at setup.py's import: `sdist` and the metadata steps need no C
        dist = self.distribution
        if dist.ext_modules and not getattr(dist, "_cythonized", False):
            try:
                from Cython.Build import cythonize
            except ImportError:
                warn("Cython is not installed (pip installs it for the build: see "
                     "[build-system] in pyproject.toml).")
                dist.ext_modules = []
            else:
                for ext in dist.ext_modules:
                    compiled.forget_removed_pxd(ext.sources[0][:-3] + ".c", HERE)
                dist.ext_modules = cythonize(dist.ext_modules, compiler_directives=DIRECTIVES,
                                             quiet=True, nthreads=os.cpu_count() or 1)
            dist._cythonized = True
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        if self.editable_mode:
            # pip install -e (make) builds in fresh temporary directories: keep the build in
            # build/ instead, so a rebuild compiles only the modules whose C changed
            self.build_temp = os.path.join("build", "editable-temp")
            self.build_lib = os.path.join("build", "editable-lib")

    def build_extensions(self):
        flags = CFLAGS.get(self.compiler.compiler_type, [])
        for ext in self.extensions:
            ext.extra_compile_args = [*flags, *ext.extra_compile_args]
        if self.inplace or self.editable_mode:
            self._remove_leftovers()
        try:
            super().build_extensions()
        except Exception as exc:  # no compiler, or one that fails: pure Python
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []  # nothing to copy into the source tree or to install
            warn(f"the compiled engine could not be built ({type(exc).__name__}: {exc}).")

    def _remove_leftovers(self):
        """In the source tree, an extension of a module no longer compiled (renamed, removed)
        would still be imported: remove it."""
        keep = {ext.name for ext in self.extensions}
        for module, path in compiled.extension_files(os.path.join(HERE, "imhotep_stats")).items():
            if module not in keep:
                os.remove(path)
                c_file = os.path.join(HERE, *module.split(".")) + ".c"
                if os.path.exists(c_file):
                    os.remove(c_file)


# The core: release always (setuptools-rust would build an editable install in debug)
CORE = RustExtension("imhotep_stats._core", path="Cargo.toml", binding=Binding.PyO3,
                     features=["python"], debug=False)

# the .py files are the sources: BuildExt.finalize_options has Cython turn them into C first
EXTENSIONS = [Extension(name, [os.path.relpath(path, HERE)])
              for name, path in compiled.compiled_sources(os.path.join(HERE, "imhotep_stats"))]

# The study configs live at the top (configs/) and ship as the package imhotep_stats.configs
# (`init` reads them there): a package-dir mapping, which pyproject.toml cannot combine with find.
setup(packages=[*find_packages(include=["imhotep_stats*"]), "imhotep_stats.configs"],
      package_dir={"imhotep_stats.configs": "configs"},
      ext_modules=EXTENSIONS, rust_extensions=[CORE],
      cmdclass={"build_ext": BuildExt})
