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
# The package is installed editable (`pip install -e .`): maturin (pyproject.toml) builds the
# Rust core (Cargo.toml, src/) in release as imhotep_stats/_core*.so; the Python modules run
# from their sources. A change in the crate rebuilds the core (cargo recompiles what changed,
# with the venv's maturin: no download); a change in pyproject.toml refreshes the whole venv.
BUILT   = $(VENV)/.built-stamp
CRATE   = Cargo.toml Cargo.lock $(shell find src -name '*.rs')

.PHONY: install run test lint bench clean browser

# Each step says what it does and roughly how long it takes (measured on a 2-core machine,
# idle to busy): pip is quiet for minutes otherwise.
$(STAMP): pyproject.toml
	@echo "make: [1/2] creating $(VENV): installing the dependencies (polars, scipy, maturin, ...) and building the Rust core in release (the first time: 2-6 minutes, most of it cargo; pip is quiet meanwhile)" >&2
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@$(VENV)/bin/imhotep-stats --version >&2
	touch $(STAMP) $(BUILT)

# Creating the venv built the core already (it touches $(BUILT)): rebuilt here only when a
# crate file is newer than the last build.
$(BUILT): $(CRATE) | $(STAMP)
	@if [ ! -e $@ ] || [ -n "$$(find $(CRATE) -newer $@)" ]; then \
		echo "make: [2/2] rebuilding the Rust core (cargo, release: about 1-3 minutes, depending on what changed)" >&2; \
		echo "$(PY) -m pip install --quiet --no-deps --no-build-isolation -e ." >&2; \
		$(PY) -m pip install --quiet --no-deps --no-build-isolation -e . && \
		$(VENV)/bin/imhotep-stats --version >&2; \
	fi
	@touch $@

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
	rm -rf $(VENV) dist target
	rm -f imhotep_stats/_core.*.so imhotep_stats/_core.*.pyd
