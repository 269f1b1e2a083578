"""Where batches run: in this process, on a local process pool, or on a Dask cluster.

All three take the same tasks and hand each batch's rows to ``on_result`` as it finishes,
in whatever order; the run store keys shards by (cell, batch), so completion order never
shows in the results. A bounded number of batches is in flight at a time, so neither this
process nor the scheduler holds more than a few batches of rows, however long the study.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from itertools import islice

import polars as pl

from imhotep_stats.engine.errors import RulesError
from imhotep_stats.sim.batches import Task, simulate, to_frame
from imhotep_stats.sim.probe import probe
from imhotep_stats.sim.store import RunStoreError

OnResult = Callable[[Task, pl.DataFrame], None]
IN_FLIGHT_PER_WORKER = 2  # keeps every worker busy while the driver writes a shard
WATCH_SECONDS = 0.5  # how often a worker checks that its parent is alive
CLUSTER_TIMEOUT = "IMHOTEP_CLUSTER_TIMEOUT"  # seconds to reach a Dask scheduler (default 10)


def cluster_timeout() -> float:
    try:
        return max(0.1, float(os.environ.get(CLUSTER_TIMEOUT, "10")))
    except ValueError:
        raise RunStoreError(f"{CLUSTER_TIMEOUT}: expected a number of seconds, got "
                            f"{os.environ[CLUSTER_TIMEOUT]!r}") from None


def _unreachable(address: str, timeout: float, why: str) -> RunStoreError:
    return RunStoreError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s: "
                         f"{why} (check the address; {CLUSTER_TIMEOUT}=SECONDS waits longer)")


def _connect(client_class, address: str):
    """A Dask client for ``address`` within the cluster timeout. What listens there is
    probed first (``probe``: anything but a scheduler is named); the connection is then made
    in a thread because a server that accepts and never answers stalls ``Client`` past its
    own timeout."""
    from distributed.comm.addressing import parse_address, parse_host_port

    timeout = cluster_timeout()
    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        host, port = parse_host_port(location, 8786)
        found = probe(host, port, timeout, tls=scheme == "tls")
        if found:
            raise _unreachable(address, timeout, found)
    box: dict = {}

    def connect() -> None:
        try:
            box["client"] = client_class(address, timeout=f"{timeout}s", set_as_default=False)
        except Exception as exc:  # noqa: BLE001 - what a non-scheduler makes Dask raise varies
            box["error"] = exc

    thread = threading.Thread(target=connect, daemon=True, name="dask-connect")
    thread.start()
    thread.join(timeout + 2)
    if "client" in box:
        return box["client"]
    why = ("no answer" if thread.is_alive() else
           "timed out" if isinstance(box.get("error"), OSError) else
           f"not a Dask scheduler ({type(box['error']).__name__})")
    raise _unreachable(address, timeout, why)


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_serial(tasks: Iterable[Task], on_result: OnResult) -> None:
    """In this process, one batch after another (``--workers 1``; easiest to debug)."""
    for task in tasks:
        on_result(task, to_frame(simulate(task)))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):  # no /proc (not Linux): kill's answer stands
        return True


def _worker_init(driver: int) -> None:
    """Workers leave Ctrl-C to the driver, which stops handing out batches; and end when
    the driver ends, however it ends (``kill -9`` too), instead of playing on for nobody.
    The driver is not their parent (the forkserver is, and outlives the driver while its
    children live), so a thread watches the driver's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while _alive(driver):
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="driver-watch").start()


def _pool_context():
    """forkserver: workers fork from a clean server that has imported the engine once, so
    they start fast and never inherit the driver's polars threads (fork after threads can
    deadlock)."""
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["imhotep_stats.sim.batches"])
        return ctx
    except ValueError:  # pragma: no cover - no forkserver on this platform
        return multiprocessing.get_context("spawn")


def run_pool(tasks: Iterable[Task], on_result: OnResult, workers: int) -> None:
    """On ``workers`` local processes."""
    todo = iter(tasks)
    window = workers * IN_FLIGHT_PER_WORKER
    with ProcessPoolExecutor(workers, mp_context=_pool_context(),
                             initializer=_worker_init, initargs=(os.getpid(),)) as pool:
        pending = {pool.submit(simulate, t): t for t in islice(todo, window)}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    task = pending.pop(fut)
                    on_result(task, to_frame(fut.result()))
                for t in islice(todo, len(done)):
                    pending[pool.submit(simulate, t)] = t
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


@functools.lru_cache(maxsize=1)  # asked with every batch: the answer never changes in a process
def worker_build() -> str:
    """What every Dask worker must share with the client: the package version and the
    Rust core's build (a worker with other code would play other games)."""
    import imhotep_stats
    from imhotep_stats.engine import core

    return f"imhotep-stats {imhotep_stats.__version__} (core: {core.describe()})"


class WorkerMismatch(RunStoreError):
    """A worker whose build differs from the client's (raised on the worker, re-raised here)."""


def simulate_checked(task: Task, expected: str) -> dict:
    """A batch on a Dask worker, refused unless the worker runs ``expected`` (a worker that
    joins after the start-up check is checked here)."""
    ours = worker_build()
    if ours != expected:
        raise WorkerMismatch(f"a Dask worker runs {ours}, this run needs {expected}: "
                             "install the same version on every worker")
    return simulate(task)


def _lost_scheduler(address: str, exc: BaseException) -> RunStoreError:
    return RunStoreError(
        f"lost the Dask scheduler at {address} during the run (no answer within "
        f"{cluster_timeout():g} s: {type(exc).__name__}); the shards written so far are kept: "
        "run the same command again to resume (with a running scheduler, or --workers K here)")


def run_dask(tasks: Iterable[Task], on_result: OnResult, address: str,
             log: Callable[[str], None] | None = None) -> None:
    """On the Dask cluster whose scheduler is at ``address``.

    Every worker needs this package installed (same version and engine, checked at the
    start and again with every batch); the rows come back to this process, which writes
    the shards, so the workers need no shared file system. A worker lost mid-run costs
    nothing (the scheduler gives its batches to another); a lost scheduler stops the run
    with a message, and the same command resumes it.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RunStoreError(
            "--cluster needs Dask distributed: pip install 'imhotep-stats[dask]'"
        ) from None
    client = _connect(Client, address)
    with client:
        try:
            client.wait_for_workers(1, timeout=60)
        except TimeoutError:
            raise RunStoreError(f"no Dask workers joined the scheduler at {address} "
                                "within 60 s (start some with `dask worker ADDRESS`)") from None
        ours = worker_build()
        try:
            builds = client.run(worker_build)
        except ModuleNotFoundError as exc:
            raise RunStoreError(f"Dask workers at {address} cannot import imhotep_stats "
                                f"({exc}); install the package on every worker") from None
        other = {w: v for w, v in builds.items() if v != ours}
        if other:
            worker, theirs = sorted(other.items())[0]
            more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
            raise RunStoreError(f"the Dask worker {worker}{more} runs {theirs}, this run "
                                f"needs {ours}: install the same version on every worker")
        threads = sum(client.nthreads().values())
        if log:
            log(f"Dask cluster {address}: {len(builds)} workers, {threads} threads")
        todo = iter(tasks)
        window = max(1, threads) * IN_FLIGHT_PER_WORKER
        pending: dict[str, tuple] = {}
        stream = as_completed(loop=client.loop)

        def submit(t: Task) -> None:
            fut = client.submit(simulate_checked, t, ours, pure=False)
            pending[fut.key] = (fut, t)
            stream.add(fut)

        try:
            for t in islice(todo, window):
                submit(t)
            for fut in stream:
                _, task = pending.pop(fut.key)
                cols = fut.result()
                fut.release()
                on_result(task, to_frame(cols))
                for t in islice(todo, 1):
                    submit(t)
        except (KeyboardInterrupt, RunStoreError, RulesError):
            _cancel(client, pending)
            raise
        except (Exception, CancelledError, asyncio.CancelledError) as exc:  # noqa: BLE001
            # What Dask raises when the scheduler goes varies (cancelled futures, closed
            # comms, timeouts); a client that is no longer connected says which it was.
            _cancel(client, pending)
            if client.status == "running" and not isinstance(
                    exc, CancelledError | asyncio.CancelledError | OSError):
                raise
            raise _lost_scheduler(address, exc) from None


def _cancel(client, pending: dict) -> None:
    try:
        client.cancel([f for f, _ in pending.values()])
    except Exception:  # noqa: BLE001 - a client without a scheduler cannot cancel: nothing runs
        pass


def execute(tasks: list[Task], on_result: OnResult, workers: int | None = None,
            cluster: str | None = None, log: Callable[[str], None] | None = None) -> str:
    """Run ``tasks`` on the executor the options pick; returns its description."""
    if cluster:
        run_dask(tasks, on_result, cluster, log)
        return f"dask {cluster}"
    workers = workers or default_workers()
    workers = max(1, min(workers, len(tasks)))
    if workers == 1:
        run_serial(tasks, on_result)
        return "serial"
    run_pool(tasks, on_result, workers)
    return f"{workers} processes"
