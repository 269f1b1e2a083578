# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Both create (or refresh) the project virtual environment in .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
CONFIG ?= configs/default.toml
# `make run` resumes reports/<study>/ (an interrupted run continues, a finished one is
# re-reported): re-simulating the same games would be a second look at them
# (docs/reports.md, "Every look counted"). `make run RUN_ARGS=--force` plays it again.
RUN_ARGS ?=
# The compiled parts (docs/engine.md): the package is installed editable (`pip install -e .`),
# which runs the standard build (setup.py: cargo builds the Rust core, Cargo.toml and src/, in
# release as imhotep_stats._core; Cython compiles the modules imhotep_stats/sim/compiled.py lists,
# in place). Any change in engine/ or bots/ (a .py or .pxd changed, added or removed: the
# list of them is a prerequisite too, rewritten only when it changes, not the directories, whose
# times change with every __pycache__) or in the crate reinstalls it, which recompiles only what
# changed (a module of the crate removed changes the file that named it). The core needs cargo
# (the build stops without it); without a C compiler the Cython modules run as pure Python; the
# last line of the build says which engine and core run.
BUILT     = $(VENV)/.built-stamp
COMPILED  = $(shell find imhotep_stats/engine imhotep_stats/bots -name __pycache__ -prune -o \
              \( -name '*.py' -o -name '*.pxd' \) -print | sort)
SOURCES   = $(VENV)/.compiled-sources
_ := $(shell [ -d $(VENV) ] && { echo '$(COMPILED)' | cmp -s - $(SOURCES) || echo '$(COMPILED)' > $(SOURCES); })
CRATE     = Cargo.toml Cargo.lock $(shell find src -name '*.rs')

.PHONY: install run test lint bench clean browser

# Each step says what it does and roughly how long it takes (times measured on an idle 2-core
# machine; README "Set up and run"): pip and Cython are quiet for minutes otherwise.
$(STAMP): pyproject.toml
	@echo "make: [1/2] creating $(VENV): installing the dependencies (polars, scipy, Cython, ...) and building the package, Cython compiling the engine and bots (the first time: several minutes, README \"Set up\"; pip is quiet meanwhile)" >&2
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(SOURCES): $(STAMP)
	echo '$(COMPILED)' > $@

$(BUILT): $(STAMP) $(SOURCES) $(COMPILED) $(CRATE) setup.py imhotep_stats/sim/compiled.py
	@echo "make: [2/2] compiling what changed in the Rust core (cargo) and in engine/ and bots/ (Cython, only the changed modules; the last line says which engine runs)" >&2
	$(PY) -m pip install --quiet --no-deps -e .
	@v="$$($(VENV)/bin/imhotep-stats --version)"; echo "$$v" >&2; case "$$v" in *"engine: compiled"*) ;; \
		*) echo "WARNING: the engine is not compiled (no C compiler?): pure Python, the same results at about half the speed" >&2;; esac
	touch $(BUILT)

install: $(BUILT)

run: $(BUILT)
	@echo "make: running the study $(CONFIG) (it prints its size, progress and the answer)" >&2
	$(VENV)/bin/imhotep-stats run $(CONFIG) $(RUN_ARGS)

# The HTML report's browser test needs headless Chromium (Debian's `chromium`, about 2 minutes
# to install, no screen needed). Installed here only when missing and we may (root with
# apt-get, as in CI); elsewhere the test skips and says why.
browser:
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the HTML browser test (apt-get)" >&2; \
		(apt-get install -y -qq chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)) \
			|| echo "WARNING: chromium could not be installed; the browser test will skip" >&2; \
	fi

test: $(BUILT) browser
	@echo "make: testing the Rust core (cargo test, cargo clippy: the first time they compile the crate twice more)" >&2
	cargo test --release --quiet
	cargo clippy --quiet --all-targets --all-features -- -D warnings
	@echo "make: running the test suite (about 5-10 minutes on 2 cores; the slow ones are left out)" >&2
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check imhotep_stats tests

bench: $(BUILT)
	$(VENV)/bin/imhotep-stats bench --sides A-A-A-A-A --players 3 --bots random --games 2000

clean:
	rm -rf $(VENV) build dist *.egg-info target
	find imhotep_stats \( -name '*.so' -o -name '*.pyd' -o -name '*.c' \) -delete
