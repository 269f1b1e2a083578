"""One writer per run directory: a lock file holding the writer's pid, host and start time.

The lock is an ``fcntl.flock`` on ``<run dir>/run.lock``: the kernel drops it when its
process dies, however it dies (``kill -9`` too), so a lock file left behind by a dead
writer is stale by construction and is taken over, with a message naming the old holder.
A live holder makes the second writer stop at once with an error naming the holder.
"""

from __future__ import annotations

import fcntl
import os
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from imhotep_stats.sim.store import RunStoreError

LOCK = "run.lock"


def _holder(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 1024).decode("utf-8", "replace").split()
    pid, host, since = (text + ["?", "?", "?"])[:3]
    return f"pid {pid} on host {host}, since {since}"


@contextmanager
def run_lock(run_dir: Path, warn: Callable[[str], None]) -> Iterator[None]:
    """Hold the run directory's lock for the block; RunStoreError when another process does."""
    path = Path(run_dir) / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            who = _holder(fd)
            os.close(fd)
            raise RunStoreError(f"{run_dir} is in use by another imhotep-stats run ({who}); "
                                "wait for it to finish, or use --out DIR") from None
        try:  # the holder before us may have removed the file between our open and lock
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        if os.fstat(fd).st_size:
            warn(f"taking over the stale lock of {run_dir} ({_holder(fd)}: that process "
                 "is gone)")
        since = datetime.now(UTC).replace(microsecond=0).isoformat()
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()} {socket.gethostname()} {since}\n".encode())
        yield
    finally:
        path.unlink(missing_ok=True)  # before the unlock: a waiter then re-opens a new file
        os.close(fd)
