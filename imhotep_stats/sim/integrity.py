"""A run directory that knows its own contents: what every shard should be, checked on read.

The manifest lists every shard the plan expects (``"shards"``: file, cell, batch, game
range, rows) from the start, and a finished run adds each file's sha256. Readers
(``store.shard_files``, hence ``report``, ``compare``, ``sweep``) refuse a finished run
whose shards are missing, extra, or not byte for byte what was written, and a manifest
whose config no longer matches its config hash: a report is about the games the manifest
describes or it is an error naming the file, never a smaller or different sample.

Generic on purpose: it checks files against checksums, whatever columns the shards hold
or whichever command wrote them (a sweep's adaptive rounds record theirs the same way).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

_CACHE: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> sha256: one read per file


def file_sha256(path: Path) -> str:
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    digest = _CACHE.get(key)
    if digest is None:
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        digest = _CACHE[key] = h.hexdigest()
    return digest


def planned(file: str, cell: int, batch: int, start: int, stop: int, rows: int) -> dict[str, Any]:
    """The manifest's entry for one expected shard (``sha256`` filled in when sealed)."""
    return {"file": file, "cell": cell, "batch": batch, "games": [start, stop], "rows": rows,
            "sha256": None}


def expected(manifest: Mapping[str, Any], name) -> list[Mapping[str, Any]]:
    """The shards a finished run's manifest expects: its ``"shards"`` list, or for a run
    written before there was one, the names its cells' batch counts imply (no checksums).
    ``name(cell, batch)`` is the store's shard file name."""
    if "shards" in manifest:
        return manifest["shards"]
    return [{"file": name(int(c["index"]), b)} for c in manifest.get("cells", ())
            for b in range(int(c["batches"]))]


def seal(entries: Iterable[dict[str, Any]], folder: Path) -> None:
    """Record the checksum of every expected shard, as the run finishes."""
    for e in entries:
        e["sha256"] = file_sha256(folder / e["file"])


def problem(folder: Path, entries: Iterable[Mapping[str, Any]], present: Iterable[Path]) -> str | None:
    """Why the shards in ``folder`` (``present``) are not exactly the sealed ``entries``."""
    expected = {e["file"]: e for e in entries}
    have = {p.name: p for p in present}
    missing = sorted(set(expected) - set(have))
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        return (f"{folder / missing[0]}{more}: shard missing (the run's manifest expects "
                f"{len(expected)} shards, {len(set(expected) & set(have))} are there)")
    extra = sorted(set(have) - set(expected))
    if extra:
        return f"{have[extra[0]]}: shard not in the run's plan (remove it or run again)"
    for name, e in expected.items():
        if e.get("sha256") and file_sha256(have[name]) != e["sha256"]:
            return (f"{have[name]}: shard differs from the one the run wrote (checksum "
                    f"mismatch: damaged, or copied from another run, cell or batch)")
    return None


def config_problem(manifest: Mapping[str, Any]) -> str | None:
    """Why the manifest's config does not hash to its recorded config hash."""
    from imhotep_stats.config import HASHED_KEYS, config_hash

    config = manifest.get("config")
    if not isinstance(config, Mapping):
        return "the manifest holds no config"
    if all(k in config for k in HASHED_KEYS) and config_hash(config) != manifest.get("config_hash"):
        return ("the manifest's config does not match its config hash (the file was edited); "
                "run the study again")
    return None
