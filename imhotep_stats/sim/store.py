"""The run store: a directory with a manifest and Parquet result shards.

::

    <run dir>/manifest.json                  resolved config, hash, version, seeds, provenance
    <run dir>/shards/c00000-b000000.parquet  cell 0, batch 0: one row per game and seat

Every file is written atomically (a temporary file in the same directory, fsync, then
``os.replace``), so a run killed at any moment leaves complete shards and at most some
temporary files, which a resume removes. Readers scan the shards lazily
(:func:`load_results`), so memory does not grow with the number of games.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats.sim import integrity
from imhotep_stats.sim.manifest import FORMAT  # noqa: F401 - the writers' name for it
from imhotep_stats.sim.manifest import problem as manifest_problem

MANIFEST = "manifest.json"
SHARDS = "shards"
SHARD_RE = re.compile(r"^c(\d{5})-b(\d{6})\.parquet$")
TMP_SUFFIX = ".tmp"


class RunStoreError(ValueError):
    """A run directory that cannot be used as asked (exists, changed config, not a run)."""


def shard_name(cell: int, batch: int) -> str:
    return f"c{cell:05d}-b{batch:06d}.parquet"


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


_UMASK: list[int] = []


def _umask() -> int:
    """The process's umask (read once: os.umask can only be read by setting it)."""
    if not _UMASK:
        try:  # Linux: readable without changing it, so no other thread sees a 0 umask
            with open("/proc/self/status", encoding="ascii") as fh:
                _UMASK.extend(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
        except (OSError, ValueError):
            pass
        if not _UMASK:
            old = os.umask(0o022)
            os.umask(old)
            _UMASK.append(old)
    return _UMASK[0]


def atomic_write(path: Path, write) -> None:
    """Write ``path`` via ``write(binary_file)`` so that it is either absent, old, or
    complete: temp file in the same directory, flush, fsync, rename over, fsync the dir.
    The file gets the mode any new file would (0666 less the umask), not mkstemp's 0600."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.filename is None:  # a failed write names no file
            exc.filename = str(path)
        raise
    _fsync_dir(path.parent)


def write_shard(run_dir: Path, cell: int, batch: int, df: pl.DataFrame) -> Path:
    path = Path(run_dir) / SHARDS / shard_name(cell, batch)
    buf = io.BytesIO()  # in memory first: polars would wrap a full disk's OSError in its own
    df.write_parquet(buf, compression="zstd", statistics=True)
    atomic_write(path, lambda fh: fh.write(buf.getbuffer()))
    return path


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
    atomic_write(Path(run_dir) / MANIFEST, lambda fh: fh.write(text.encode("utf-8")))


def holds_run(run_dir: str | Path) -> bool:
    """Whether ``run_dir`` holds a run (its manifest): every command resumes one unless told
    ``--force``. False where the directory cannot even be looked at."""
    try:
        return (Path(run_dir) / MANIFEST).is_file()
    except OSError:
        return False


def load_manifest(run_dir: str | Path) -> dict[str, Any]:
    """The run's manifest; RunStoreError when the directory holds no readable run or its
    manifest is damaged (``sim/manifest.py`` names the field)."""
    path = Path(run_dir) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunStoreError(f"{run_dir}: not a run directory (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise RunStoreError(f"{path}: unreadable manifest ({exc})") from None
    bad = manifest_problem(data)
    if bad:
        raise RunStoreError(f"{path}: {bad}; not a run this version can read (a damaged or "
                            "edited manifest: run the study again with --force or --out DIR)")
    return data


def load_results(run_dir: str | Path, allow_incomplete: bool = False,
                 extra: Sequence[Path] = ()) -> pl.LazyFrame:
    """The first pass's result rows as a lazy scan over its shards (schema: sim/schema.py),
    and the ``extra`` shard files (adaptive rounds: ``adaptive.load_all`` reads a whole run).

    Refuses an unfinished run unless ``allow_incomplete``: statistics over a partial run
    would silently describe fewer games than the manifest says.
    """
    manifest = load_manifest(run_dir)
    if manifest.get("status") != "complete" and not allow_incomplete:
        raise RunStoreError(f"{run_dir}: the run is not finished (run the same "
                            "command again to resume it)")
    from imhotep_stats.sim.batches import schema

    files = [*shard_files(run_dir), *extra]
    if not files:
        return pl.LazyFrame(schema=schema())
    # A run written before a column was added reads it as null (figures/ says so).
    return pl.scan_parquet([str(f) for f in files], schema=schema(), missing_columns="insert")


def shard_files(run_dir: str | Path, verify: bool = True) -> list[Path]:
    """The shard files of a run, in (cell, batch) order. For a finished run, ``verify``
    checks them against the manifest first (``sim/integrity.py``): RunStoreError naming
    the first missing, extra or changed file, or an edited manifest."""
    folder = Path(run_dir) / SHARDS
    files = sorted(p for p in folder.iterdir() if SHARD_RE.match(p.name)) if folder.is_dir() else []
    if verify and (Path(run_dir) / MANIFEST).exists():  # no manifest: readers refuse anyway
        manifest = load_manifest(run_dir)
        if manifest.get("status") == "complete":
            bad = integrity.config_problem(manifest)
            if bad:
                raise RunStoreError(f"{Path(run_dir) / MANIFEST}: {bad}")
            bad = integrity.problem(folder, integrity.expected(manifest, shard_name), files)
            if bad:
                raise RunStoreError(bad)
    return files


def shard_problem(path: Path, cell_id: str, start: int, stop: int, players: int) -> str | None:
    """Why a shard on disk is not the complete result of its batch (None when it is).

    Reads the whole file: a truncated or bit-rotten shard fails here, not in a report.
    """
    from imhotep_stats.sim.batches import schema

    try:
        df = pl.read_parquet(path)
    except Exception as exc:  # polars raises several types for a bad file
        return f"unreadable ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
    if dict(df.schema) != schema():
        return "columns or types differ from the results schema"
    expected = (stop - start) * players
    if df.height != expected:
        return f"{df.height} rows, expected {expected}"
    games = df["game"]
    if games.min() != start or games.max() != stop - 1 or df["cell"].n_unique() != 1 \
            or df["cell"][0] != cell_id:
        return f"holds other games than cell {cell_id} games {start}-{stop - 1}"
    return None
