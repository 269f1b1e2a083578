"""Faults of a Dask cluster (issue 26), on a scheduler and workers each test starts on the
loopback address: a worker killed mid-run changes nothing, a scheduler killed mid-run stops
the run with one line and a resume hint (the resumed run is the same), a worker with another
build is refused naming both. Every process started here is killed when its test ends; the
waits are on conditions (a file, a worker count, a process's end), never fixed sleeps."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import load_config
from imhotep_stats.sim import store
from imhotep_stats.sim.runner import run_study

pytest.importorskip("distributed")

DASK = Path(sys.executable).with_name("dask")
STUDY = """
[study]
name = "dask-faults"
seed = 11
games = 40
players = 2

[run]
batch_size = 4
"""
# A worker that takes batches and never returns them (a hung machine): killing it is then
# sure to take batches with it, however fast the others play.
STUCK = """
import threading
import imhotep_stats.sim.batches as batches
import imhotep_stats.sim.executors as executors

def stuck(*args, **kwargs):
    threading.Event().wait()

batches.simulate = executors.simulate = stuck
"""
START_TIMEOUT = 90  # seconds for a scheduler or worker to come up on a loaded machine
FAST = {"IMHOTEP_CLUSTER_TIMEOUT": "3"}  # how long the client waits for a lost scheduler


def cli(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def one_line_error(r):
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in r.output, r.stderr
    return errors[0]


def shards(run_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in store.shard_files(run_dir, verify=False)}


class Cluster:
    """A scheduler and ``workers`` single-thread workers (no nanny: a killed worker stays
    dead), as processes of their own; ``env`` and ``preload`` go to the workers."""

    def __init__(self, folder: Path, workers: int, env: dict | None = None,
                 preload: Path | None = None, stuck: int = 0):
        if not DASK.exists():
            pytest.skip("no dask command beside this Python")
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.procs: list[subprocess.Popen] = []
        file = folder / "scheduler.json"
        self.scheduler = self._start(["scheduler", "--host", "127.0.0.1", "--port", "0",
                                      "--no-dashboard", "--scheduler-file", str(file)], "scheduler")
        self.address = self._wait(lambda: file.exists() and json.loads(file.read_text() or "{}")
                                  .get("address"), "the scheduler's address")
        (folder / "stuck.py").write_text(STUCK)
        self.workers = []
        for i in range(workers):  # the first ``stuck`` workers never finish a batch
            load = folder / "stuck.py" if i < stuck else preload
            extra = ["--preload", str(load)] if load else []
            self.workers.append(self._start(
                ["worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                 "--death-timeout", "30", "--name", f"w{i}", *extra], f"worker{i}", env))
        from distributed import Client

        with Client(self.address, timeout="30s", set_as_default=False) as probe:
            probe.wait_for_workers(workers, timeout=START_TIMEOUT)

    def _start(self, args: list[str], name: str, env: dict | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen([str(DASK), *args], stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, **(env or {})}, start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def _wait(self, condition, what: str):
        deadline = time.monotonic() + START_TIMEOUT
        while not (value := condition()):
            if time.monotonic() > deadline or self.scheduler.poll() is not None:
                raise AssertionError(f"no {what}: {(self.folder / 'scheduler.log').read_text()}")
            time.sleep(0.05)
        return value

    @staticmethod
    def kill(proc: subprocess.Popen) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            proc.wait()


@pytest.fixture
def clusters(tmp_path):
    """Start clusters with ``clusters(workers, ...)``; all are killed at the end."""
    started: list[Cluster] = []

    def start(workers: int = 1, **kw) -> Cluster:
        started.append(Cluster(tmp_path / f"cluster{len(started)}", workers, **kw))
        return started[-1]

    yield start
    for c in started:
        c.close()


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("dask") / "dask.toml"
    path.write_text(STUDY)
    return path


def simulate(config: Path, out: Path, **kw) -> None:
    """A run without the CLI's report files (the runs' shards are what is compared)."""
    outcome = run_study(load_config(config), out, progress=False, resume=out.exists(), **kw)
    assert outcome.games == outcome.simulated + outcome.reused


@pytest.fixture(scope="module")
def reference(config):
    """The shards of an uninterrupted run in this process."""
    out = config.parent / "local"
    simulate(config, out, workers=1)
    return shards(out)


def after_shards(monkeypatch, n: int, action) -> list:
    """Call ``action()`` once, right after the ``n``-th shard of the run is written."""
    real, written = store.write_shard, []

    def write(*args, **kw):
        out = real(*args, **kw)
        written.append(1)
        if len(written) == n:
            action()
        return out

    monkeypatch.setattr(store, "write_shard", write)
    return written


def test_a_worker_killed_mid_run_changes_nothing(tmp_path, config, reference, clusters,
                                                 monkeypatch):
    from distributed import Client

    cluster = clusters(2, stuck=1)
    victim = cluster.workers[0]
    probe = Client(cluster.address, timeout="30s", set_as_default=False)
    held = []

    def kill_the_stuck_worker() -> None:
        address = next(a for a, pid in probe.run(os.getpid).items() if pid == victim.pid)
        held.extend(probe.processing()[address])
        Cluster.kill(victim)

    try:
        after_shards(monkeypatch, 1, kill_the_stuck_worker)
        out = tmp_path / "run"
        simulate(config, out, cluster=cluster.address)
    finally:
        probe.close()
    assert held  # the worker died holding batches: the other played them
    assert shards(out) == reference
    assert store.load_manifest(out)["status"] == "complete"


def test_a_scheduler_killed_mid_run_stops_with_a_resume_hint(tmp_path, config, reference,
                                                            clusters, monkeypatch):
    cluster = clusters(1)
    after_shards(monkeypatch, 2, lambda: Cluster.kill(cluster.scheduler))
    out = tmp_path / "run"
    t0 = time.monotonic()
    r = cli("run", config, "--out", out, "--cluster", cluster.address, "-q", env=FAST)
    line = one_line_error(r)
    assert time.monotonic() - t0 < 60
    assert f"lost the Dask scheduler at {cluster.address} during the run" in line
    assert "run the same command again to resume" in line
    assert store.load_manifest(out)["status"] == "running"
    assert 2 <= len(shards(out)) < len(reference)
    monkeypatch.undo()
    again = clusters(1)  # the same run against a new cluster
    simulate(config, out, cluster=again.address)
    assert shards(out) == reference


FAKE_VERSION = "import imhotep_stats\nimhotep_stats.__version__ = '0.0.0+other'\n"


def test_a_worker_of_another_build_is_refused(tmp_path, config, clusters):
    import imhotep_stats
    from imhotep_stats.sim.executors import worker_build

    ours = worker_build()
    preload = tmp_path / "other_version.py"
    preload.write_text(FAKE_VERSION)
    cluster = clusters(1, preload=preload)
    theirs = ours.replace(f"imhotep-stats {imhotep_stats.__version__}", "imhotep-stats 0.0.0+other")
    out = tmp_path / "run"
    line = one_line_error(cli("run", config, "--out", out, "--cluster", cluster.address, "-q"))
    assert line.startswith("error: the Dask worker tcp://127.0.0.1:"), line
    assert f"runs {theirs}, this run needs {ours}" in line and "runs imhotep-stats" in line
    assert not (out / "manifest.json").exists()  # refused before any batch


def test_a_batch_on_a_worker_of_another_build_is_refused():
    # A worker that joins after the start-up check: each batch checks its worker's build.
    from imhotep_stats.sim.executors import WorkerMismatch, simulate_checked, worker_build

    with pytest.raises(WorkerMismatch, match=re.escape(f"runs {worker_build()}, this run needs other")):
        simulate_checked(None, "other")
