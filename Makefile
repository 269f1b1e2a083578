# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Both create (or refresh) the project virtual environment in .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
CONFIG ?= configs/default.toml
# `make run` re-simulates into reports/<study>/ each time (--force), so its results always come
# from the current code; `make run RUN_ARGS=--resume` continues an interrupted run instead.
RUN_ARGS ?= --force
# The compiled engine (docs/engine.md): the package is installed editable (`pip install -e .`),
# which runs the standard build (setup.py: Cython compiles the modules imhotep_stats/compiled.py
# lists, in place). Any change in engine/ or bots/ (a .py or .pxd changed, added or removed: the
# directories are prerequisites too) reinstalls it, which recompiles only what changed. Without a C
# compiler the package runs as pure Python; the last line of the build says which engine runs.
BUILT     = $(VENV)/.built-stamp
COMPILED  = $(shell find imhotep_stats/engine imhotep_stats/bots -name __pycache__ -prune -o \
              \( -name '*.py' -o -name '*.pxd' -o -type d \) -print)

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BUILT): $(STAMP) $(COMPILED) setup.py imhotep_stats/compiled.py
	$(PY) -m pip install --quiet --no-deps -e .
	@$(VENV)/bin/imhotep-stats --version | tee /dev/stderr | grep -q "engine: compiled" || \
		echo "WARNING: the engine is not compiled (no C compiler?): pure Python, the same results at about half the speed" >&2
	touch $(BUILT)

install: $(BUILT)

run: $(BUILT)
	$(VENV)/bin/imhotep-stats run $(CONFIG) $(RUN_ARGS)

test: $(BUILT)
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check imhotep_stats tests

bench: $(BUILT)
	$(VENV)/bin/imhotep-stats bench --sides A-A-A-A-A --players 3 --bots random --games 2000

clean:
	rm -rf $(VENV) build dist *.egg-info
	find imhotep_stats \( -name '*.so' -o -name '*.pyd' -o -name '*.c' \) -delete
