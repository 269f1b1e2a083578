"""Every test counts its looks in a ledger of its own (``sim/looks.py``): runs in one test
never see another test's games as looked at, and no test writes the repository's
reports/.looks.jsonl. Fixtures of a module or the session that run studies get a ledger of
their module or session (autouse fixtures of a scope are set up before the others).

The strong-play check (``reporting.strong``) is off unless a test asks for it (``--strong``,
or ``$IMHOTEP_STATS_STRONG`` set by the test): a test of something else plays only its
screen, fast."""

import pytest

from imhotep_stats.cli.options import STRONG_ENV
from imhotep_stats.sim.looks import LEDGER_ENV


def _own(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(LEDGER_ENV, str(tmp_path_factory.mktemp("looks") / ".looks.jsonl"))
        mp.setenv(STRONG_ENV, "off")
        yield


@pytest.fixture(autouse=True, scope="session")
def _session_ledger(tmp_path_factory):
    yield from _own(tmp_path_factory)


@pytest.fixture(autouse=True, scope="module")
def _module_ledger(tmp_path_factory):
    yield from _own(tmp_path_factory)


@pytest.fixture(autouse=True)
def _own_ledger(tmp_path_factory):
    yield from _own(tmp_path_factory)
