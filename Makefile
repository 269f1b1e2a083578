# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Both create (or refresh) the project virtual environment in .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
CONFIG ?= configs/default.toml

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/imhotep-stats run $(CONFIG)

test: $(STAMP)
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check imhotep_stats tests

bench: $(STAMP)
	$(VENV)/bin/imhotep-stats bench --sides A-A-A-A-A --players 3 --bots random --games 2000

clean:
	rm -rf $(VENV) build *.egg-info
