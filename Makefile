# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Both create (or refresh) the project virtual environment in .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
CONFIG ?= imhotep_stats/configs/default.toml
# `make run` re-simulates into reports/<study>/ each time (--force), so its results always come
# from the current code; `make run RUN_ARGS=--resume` continues an interrupted run instead.
RUN_ARGS ?= --force
# The optional compiled accelerator (docs/engine.md): Cython compiles the hot engine and bot
# modules in place. The module list lives in imhotep_stats/_accel.py; any change to a source in
# engine/ or bots/, .py or .pxd (the typed layer), or to the build script reruns the build, which
# recompiles only what changed. The directories are prerequisites too: a deleted .pxd (or .py)
# changes its directory, and the build must run again.
ACCEL_STAMP    = build/accel/.built-stamp
ACCEL_MANIFEST = imhotep_stats/_accel_manifest.json
ACCEL_DIRS     = imhotep_stats/engine imhotep_stats/engine/sites imhotep_stats/bots \
                 imhotep_stats/bots/greedy imhotep_stats/bots/greedy/sites
ACCEL_SRCS     = $(wildcard $(addsuffix /*.py,$(ACCEL_DIRS)) $(addsuffix /*.pxd,$(ACCEL_DIRS))) \
                 $(ACCEL_DIRS) imhotep_stats/_accel.py imhotep_stats/_accel_build.py
ACCEL_ARGS    ?= -j 2
# a deleted manifest means the build must run again
ACCEL_FORCE    = $(if $(wildcard $(ACCEL_MANIFEST)),,FORCE)

.PHONY: install run test lint bench clean accel browser FORCE

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# A failed build (no compiler, no Cython) warns and carries on with pure Python; the stamp is
# not written, so the next `make` tries again.
$(ACCEL_STAMP): $(ACCEL_SRCS) $(STAMP) $(ACCEL_FORCE)
	@if $(PY) -m imhotep_stats._accel_build $(ACCEL_ARGS); then \
		mkdir -p $(dir $@) && touch $@; \
	else \
		echo "WARNING: the compiled accelerator was not built; carrying on (pure Python where not compiled); the next make tries again" >&2; \
	fi

accel: $(ACCEL_STAMP)

install: $(STAMP) accel

run: $(STAMP) accel
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

test: $(STAMP) accel browser
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check imhotep_stats tests

bench: $(STAMP) accel
	$(VENV)/bin/imhotep-stats bench --sides A-A-A-A-A --players 3 --bots random --games 2000

clean:
	rm -rf $(VENV) build *.egg-info $(ACCEL_MANIFEST)
	find imhotep_stats \( -name '*.so' -o -name '*.pyd' -o -name '*.c' \) -delete
