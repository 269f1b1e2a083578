"""Every look at a cell's games, counted across runs: the ledger of looks.

A verdict is a look at games: (root seed, cell, game indices). Game i of a cell is the same
game in every run with the same seed, so a second run of a cell (``--force``, another
``--out``, a renamed study, a confirmation after a sweep) looks again at games a verdict
was already read from. Two cases, two answers:

- **a re-look** (the earlier look judged no cell this run leaves out: the same study
  again, more games, a new directory): the same games are played and every verdict is a
  later look at them, judged sequentially (anytime-valid p-values, ``stats.sequential``).
  The first look was a fixed-sample one, so over all the looks the chance of a false
  verdict is at most 2 alpha.
- **a confirmation** (the earlier look judged cells this run leaves out, so this cell
  may have been picked as the extreme of many, as a sweep's top cell is): fresh games,
  under a root seed derived from the study's (``fresh_seed``), so the verdict is an
  independent look at the chosen cell; replaying the chosen games would judge a
  selection as if it were planned. An explicit ``--seed`` is never replaced: it is
  judged as a later look and its note says the games were chosen on.

The ledger is a JSON-lines file in the reports folder (``LEDGER``; ``$IMHOTEP_STATS_LEDGER``
names another), one line per look: the run, its seed and per cell the games looked at.
Each run's manifest keeps what the ledger held about its games (``looks``).
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from imhotep_stats.config import Cell, StudyConfig, canonical_json

LEDGER_ENV = "IMHOTEP_STATS_LEDGER"
LEDGER = Path("reports") / ".looks.jsonl"


def ledger_path() -> Path:
    """The ledger: ``$IMHOTEP_STATS_LEDGER``, else reports/.looks.jsonl (the folder that
    holds the runs by default)."""
    return Path(os.environ.get(LEDGER_ENV) or LEDGER)


def new_run_id() -> str:
    return uuid.uuid4().hex[:16]


def cell_key(config: StudyConfig, cell: Cell) -> str:
    """What makes game i of this cell the same game in two runs (but the seed): the cell
    (sides, players, lineup), the board values, the modules and the bots' definitions."""
    what = {"cell": cell.id, "overrides": config.overrides_json,
            "personas": config.personas_json, "prophecies": config.prophecies,
            "expansion": config.expansion}
    return hashlib.sha256(canonical_json(what).encode()).hexdigest()[:16]


def fresh_seed(root: int, k: int) -> int:
    """The k-th root seed derived from ``root`` for fresh games (k >= 1)."""
    return int(hashlib.sha256(f"{root}/fresh/{k}".encode()).hexdigest()[:8], 16)


def read(path: Path) -> list[dict[str, Any]]:
    """The ledger's looks (none when it does not exist). A line that is not a look (a write
    cut short) is skipped: a lost line can only make a look look fresh, never hide games."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("cells"), dict):
            out.append(entry)
    return out


def record(path: Path, config: StudyConfig, run_dir: Path, run_id: str, kind: str,
           games: Mapping[int, tuple[int, int]] | None = None) -> None:
    """Append one look: every cell of ``config`` (games ``[0, config.games)``, or the
    ranges in ``games`` by cell index, e.g. a sweep's adaptive rounds) in ``run_dir``."""
    spans = games or {}
    entry = {
        "time": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "run": str(Path(run_dir).resolve()), "run_id": run_id, "kind": kind,
        "study": config.name, "seed": config.seed,
        "cells": {cell_key(config, c): list(spans.get(c.index, (0, config.games)))
                  for c in config.cells},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:  # one write of one line: appends from parallel runs do not interleave
        os.write(fd, line)
    finally:
        os.close(fd)


@dataclass
class Looks:
    """What the ledger says about the games a run is about to play, and the seed it plays.

    ``prior``: the earlier looks at these games (run, kind, study, time, the game range and
    how many cells that look judged); ``chosen_from``: the most cells an earlier look
    judged that this run leaves out plus this run's (a selection), 0 for none;
    ``seed_from``: the study's own seed when fresh games replaced it."""

    seed: int
    seed_from: int | None = None
    prior: list[dict[str, Any]] = field(default_factory=list)
    chosen_from: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "seed_from": self.seed_from, "prior": self.prior,
                "chosen_from": self.chosen_from}


def _overlapping(entries: Iterable[dict[str, Any]], seed: int, keys: dict[str, int],
                 games: int, run_id: str | None) -> list[dict[str, Any]]:
    """The earlier looks (not this run's own passes) at games 0..games-1 of these cells."""
    out = []
    for e in entries:
        if e.get("seed") != seed or (run_id and e.get("run_id") == run_id):
            continue
        hit = [rng for k, rng in e["cells"].items() if k in keys and rng[0] < games]
        if hit:
            out.append({"run": e.get("run"), "kind": e.get("kind", "run"),
                        "study": e.get("study"), "time": e.get("time"),
                        "games": [min(r[0] for r in hit), max(r[1] for r in hit)],
                        "cells": len(e["cells"]), "cells_seen": len(hit),
                        "left_out": len(set(e["cells"]) - set(keys))})
    return out


def plan(config: StudyConfig, ledger: list[dict[str, Any]], run_id: str | None = None,
         keep_seed: bool = False) -> Looks:
    """The seed a run of ``config`` plays and the earlier looks its verdicts must count.

    ``run_id``: the run being resumed or topped up (its own looks are passes of one run,
    counted by the manifest's ``passes``). ``keep_seed``: the seed was asked for
    explicitly (``--seed``): never replaced, however its games were looked at."""
    keys = {cell_key(config, c): c.index for c in config.cells}
    prior = _overlapping(ledger, config.seed, keys, config.games, run_id)
    chosen = max((p["cells"] for p in prior if p["left_out"]), default=0)
    if not chosen or keep_seed:
        return Looks(config.seed, None, prior, chosen)
    k = 1
    while _overlapping(ledger, fresh_seed(config.seed, k), keys, config.games, run_id):
        k += 1
    return Looks(fresh_seed(config.seed, k), config.seed, [], 0)


def resumed_seed(config: StudyConfig, manifest: Mapping[str, Any] | None) -> int | None:
    """The seed of the run in a directory when it played fresh games instead of this
    study's seed (so asking again resumes it instead of deriving yet another)."""
    looks = (manifest or {}).get("looks") or {}
    if looks.get("seed_from") == config.seed:
        return int(looks["seed"])
    return None
