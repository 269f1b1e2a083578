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

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/imhotep-stats run $(CONFIG) $(RUN_ARGS)

test: $(STAMP)
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check imhotep_stats tests

bench: $(STAMP)
	$(VENV)/bin/imhotep-stats bench --sides A-A-A-A-A --players 3 --bots random --games 2000

clean:
	rm -rf $(VENV) build *.egg-info
