"""Every test counts its looks in a ledger of its own (``sim/looks.py``): runs in one test
never see another test's games as looked at, and no test writes the repository's
reports/.looks.jsonl."""

import pytest

from imhotep_stats.sim.looks import LEDGER_ENV


@pytest.fixture(autouse=True)
def _own_ledger(tmp_path_factory, monkeypatch):
    monkeypatch.setenv(LEDGER_ENV, str(tmp_path_factory.mktemp("looks") / ".looks.jsonl"))
