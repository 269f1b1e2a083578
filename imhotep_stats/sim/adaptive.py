"""Adaptive allocation: after a study's first pass, extra games for the cells that need them.

The first pass is an ordinary run (``sim.runner``). Then, round by round, a *policy* (the
statistics layer's: ``stats.sweep.verdict_policy``) says how many more games each cell
wants (those whose seat verdict is still inconclusive), and this module gives them out
under the game budget and plays them, until no cell wants more, the budget is spent or the
round limit is reached.

Reproducible: a cell's extra games take its next game indices (a cell with 2,000 games
gets games 2,000, 2,001, ...), so game i still deals the same cards in every cell, and the
allocation depends only on results, which depend only on seeds. Each round's plan is
recorded in ``<run dir>/adaptive/adaptive.json`` before it is played and its shards go to
``<run dir>/adaptive/shards/``, so an interrupted adaptive run resumes exactly; changed
settings (budget, rounds, margin) discard the extra games and redo them. The first pass's
``shards/`` are untouched (resuming a ``run`` checks them alone); readers that count every
game of the run (``report``, the sweep's per-cell figures, the policy) take the first pass
plus the rounds recorded complete for it (:func:`completed_extra`, :func:`load_all`).

The module knows nothing of statistics (sim sits below stats: docs/engine.md, Architecture);
the policy is passed in.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats.config import MAX_GAMES, MAX_ROUNDS, ConfigError, StudyConfig
from imhotep_stats.sim import integrity, store
from imhotep_stats.sim.batches import Task
from imhotep_stats.sim.executors import execute
from imhotep_stats.sim.lock import run_lock
from imhotep_stats.sim.progress import Progress
from imhotep_stats.sim.schema import COLUMNS

ADAPTIVE = "adaptive"
RECORD = "adaptive.json"
Policy = Callable[[list[str], dict[int, int]], dict[int, int]]
"""(every shard file so far, games per cell index) -> extra games wanted per cell index."""


@dataclass
class AdaptiveOutcome:
    budget: int
    rounds: list[dict[str, Any]] = field(default_factory=list)
    extra_games: int = 0
    stopped: str = ""  # "settled", "budget" or "rounds"
    simulated: int = 0  # extra games played by this invocation

    def to_json(self) -> dict[str, Any]:
        return {"budget": self.budget, "extra_games": self.extra_games,
                "stopped": self.stopped,
                "rounds": [{"round": r["round"], "cells": len({t[0] for t in r["tasks"]}),
                            "games": sum(t[3] - t[2] for t in r["tasks"])}
                           for r in self.rounds]}


def adaptive_dir(run_dir: str | Path) -> Path:
    return Path(run_dir) / ADAPTIVE


@dataclass(frozen=True)
class ExtraGames:
    """The adaptive games a reader counts: those of the rounds recorded complete for the
    run's current first pass. ``note`` says why recorded games were left out, if any."""

    files: tuple[Path, ...] = ()
    per_cell: dict[int, int] = field(default_factory=dict)  # cell index -> extra games
    rounds: int = 0
    note: str | None = None

    @property
    def games(self) -> int:
        return sum(self.per_cell.values())


def completed_extra(run_dir: str | Path, manifest: dict[str, Any]) -> ExtraGames:
    """The shards of the completed adaptive rounds of the first pass ``manifest`` describes.

    Left out, with a note: an interrupted round (its shards may be partial; the next sweep
    finishes it) and rounds played for another config (``--force`` removes adaptive/, but
    one copied from an older run may remain). RunStoreError when the record
    would count a game twice or a completed round's shard is missing.
    """
    record = load_record(run_dir)
    if record is None:
        return ExtraGames()
    folder = adaptive_dir(run_dir)
    if (record.get("settings") or {}).get("config_hash") != manifest.get("config_hash"):
        return ExtraGames(note=f"{folder} holds adaptive games of another config of this run; "
                          "they are not counted (run the sweep again to redo them)")
    # Each cell's extra games must continue its game indices without overlap: the first
    # pass has games 0 .. n-1, round tasks n .. in order (how run_adaptive plans them).
    next_game = {int(c["index"]): int(c["games"]) for c in manifest["cells"]}
    files: list[Path] = []
    per_cell: dict[int, int] = {}
    rounds = [r for r in record.get("rounds", []) if r.get("complete")]
    for rnd in rounds:
        for cell, batch, start, stop in rnd["tasks"]:
            if next_game.get(cell) != start or stop <= start:
                raise store.RunStoreError(
                    f"{folder / RECORD}: round {rnd['round']} plans games {start}-{stop - 1} "
                    f"of cell {cell}, expected them to start at game {next_game.get(cell)}; "
                    "they would be miscounted (run the sweep with --force to redo it)")
            path = folder / store.SHARDS / store.shard_name(cell, batch)
            if not path.is_file():
                raise store.RunStoreError(f"{path}: shard of completed adaptive round "
                                          f"{rnd['round']} is missing (run the sweep again "
                                          "to replay it)")
            sealed = rnd.get("sha256", {}).get(path.name)
            if sealed and integrity.file_sha256(path) != sealed:
                raise store.RunStoreError(f"{path}: shard differs from the one adaptive round "
                                          f"{rnd['round']} wrote (checksum mismatch)")
            next_game[cell] = stop
            per_cell[cell] = per_cell.get(cell, 0) + stop - start
            files.append(path)
    note = None
    if len(rounds) < len(record.get("rounds", [])):
        note = (f"adaptive round {len(rounds) + 1} was interrupted: its games are not counted "
                "(run the sweep again to finish it)")
    return ExtraGames(tuple(files), per_cell, len(rounds), note)


def sequential(run_dir: str | Path, manifest: dict[str, Any]) -> bool:
    """Whether this run's verdicts were (or will be) looked at more than once, so they
    must be the anytime-valid sequential ones: a sweep's adaptive policy ran on its
    first pass, it was topped up (``run --games N`` on it), it runs until decided, or an
    earlier run looked at the same games (``sim.looks``: the manifest's ``looks``)."""
    if manifest.get("sequential") or len(manifest.get("passes", ())) > 1 \
            or (manifest.get("looks") or {}).get("prior"):
        return True
    record = load_record(run_dir)
    return bool(record) and (record.get("settings") or {}).get(
        "config_hash") == manifest.get("config_hash")


def all_files(run_dir: str | Path) -> list[str]:
    """Every shard of a study: the first pass, then its completed adaptive rounds."""
    extra = completed_extra(run_dir, store.load_manifest(run_dir))
    return [str(p) for p in [*store.shard_files(run_dir), *extra.files]]


def load_all(run_dir: str | Path) -> tuple[pl.LazyFrame, ExtraGames]:
    """Every game of a finished run (lazy), first pass and completed adaptive rounds, and
    what the adaptive part holds. Refuses an unfinished first pass, as ``load_results``."""
    extra = completed_extra(run_dir, store.load_manifest(run_dir))
    return store.load_results(run_dir, extra=extra.files), extra


def scan_all(run_dir: str | Path) -> pl.LazyFrame:
    """Every result row of a study: the first pass and its adaptive rounds (lazy)."""
    schema = {name: getattr(pl, dtype) for name, dtype in COLUMNS.items()}
    files = all_files(run_dir)
    if not files:
        return pl.LazyFrame(schema=schema)
    return pl.scan_parquet(files, schema=schema, missing_columns="insert")


def load_record(run_dir: str | Path) -> dict[str, Any] | None:
    path = adaptive_dir(run_dir) / RECORD
    if not path.exists():
        return None
    import json

    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise store.RunStoreError(f"{path}: unreadable ({exc}); run the sweep with --force "
                                  "to redo its adaptive rounds") from None
    if not isinstance(record, dict):
        raise store.RunStoreError(f"{path}: expected a JSON object; run the sweep with "
                                  "--force to redo its adaptive rounds")
    return record


def games_per_cell(manifest: dict[str, Any], record: dict[str, Any] | None) -> dict[int, int]:
    """Games each cell holds after the first pass and the recorded, completed rounds."""
    games = {c["index"]: int(c["games"]) for c in manifest["cells"]}
    for r in (record or {}).get("rounds", []):
        if r.get("complete"):
            for cell, _batch, _start, stop in r["tasks"]:
                games[cell] = max(games[cell], stop)
    return games


def allocate(demands: dict[int, int], games: dict[int, int], budget_left: int) -> dict[int, int]:
    """Extra games per cell: each cell at most doubles per round (the estimate of games
    needed is noisy, so it is re-made after every round); if the budget cannot cover
    every demand, the smallest demands go first (most verdicts settled per game), ties by
    cell index, and the last one gets what is left. Sorted by the demand itself: a cell
    that wants 500 games is nearer its verdict than one that wants 200,000, even when a
    round can give each of them only as many as it has."""
    out: dict[int, int] = {}
    left = budget_left
    for cell, want in sorted(demands.items(), key=lambda kv: (kv[1], kv[0])):
        n = min(want, games[cell], left)
        if n <= 0:
            break
        out[cell] = n
        left -= n
    return out


def _tasks(config: StudyConfig, rows: list[list[int]]) -> list[Task]:
    cells = config.cells
    return [Task(cells[c], b, start, stop, config.seed, config.prophecies, config.expansion,
                 config.overrides_json, config.personas_json) for c, b, start, stop in rows]


def run_adaptive(
    config: StudyConfig,
    run_dir: str | Path,
    policy: Policy,
    *,
    budget: int,
    rounds: int,
    settings: dict[str, Any] | None = None,
    workers: int | None = None,
    cluster: str | None = None,
    progress: bool | None = None,
    log: Callable[[str], None] | None = None,
) -> AdaptiveOutcome:
    """Play adaptive rounds after the finished first pass in ``run_dir`` (module docstring).

    ``settings`` (e.g. the policy's margin) join budget and rounds in what a resume must
    match; on a mismatch the earlier extra games are discarded.
    """
    too_big = [(key, value, most) for key, value, most in
               (("--budget", budget, MAX_GAMES), ("--rounds", rounds, MAX_ROUNDS)) if value > most]
    if too_big:  # the command line's --budget and --rounds skip the config's check
        raise ConfigError([(k, f"expected at most {m:,}, got {v:,}") for k, v, m in too_big],
                          "command line")
    with run_lock(Path(run_dir), log or (lambda _m: None)):
        return _run_adaptive(config, Path(run_dir), policy, budget, rounds, settings, workers,
                             cluster, progress, log)


def _run_adaptive(config: StudyConfig, run_dir: Path, policy: Policy, budget: int, rounds: int,
                  settings: dict[str, Any] | None, workers: int | None, cluster: str | None,
                  progress: bool | None, log: Callable[[str], None] | None) -> AdaptiveOutcome:
    import json

    log = log or (lambda _m: None)
    run_dir = Path(run_dir)
    manifest = store.load_manifest(run_dir)
    if manifest.get("status") != "complete":
        raise store.RunStoreError(f"{run_dir}: the first pass is not finished")
    key = {"config_hash": manifest["config_hash"], "budget": budget, "rounds": rounds,
           "batch_size": int(manifest["batch_size"]), **(settings or {})}
    folder = adaptive_dir(run_dir)
    record = load_record(run_dir)
    if record is not None and record.get("settings") != key:
        log("adaptive settings changed since the last run: discarding its extra games")
        shutil.rmtree(folder)
        record = None
    if record is None:
        record = {"settings": key, "rounds": [], "status": "running"}
    (folder / store.SHARDS).mkdir(parents=True, exist_ok=True)
    planned = {store.shard_name(c, b) for r in record["rounds"] for c, b, _, _ in r["tasks"]}
    for path in folder.joinpath(store.SHARDS).iterdir():
        if path.name not in planned:  # a temp file or a shard of a discarded plan
            path.unlink()

    def save() -> None:
        store.atomic_write(folder / RECORD, lambda fh: fh.write(
            (json.dumps(record, indent=1) + "\n").encode("utf-8")))

    out = AdaptiveOutcome(budget)
    spent = sum(t[3] - t[2] for r in record["rounds"] for t in r["tasks"])
    for number in range(1, rounds + 2):
        if number <= len(record["rounds"]):
            rnd = record["rounds"][number - 1]
        else:
            games = games_per_cell(manifest, record)
            demands = {c: n for c, n in policy(all_files(run_dir), games).items() if n > 0}
            if not demands:
                out.stopped = "settled"
                break
            if spent >= budget:
                out.stopped = "budget"
                break
            if number > rounds:
                out.stopped = "rounds"
                break
            alloc = allocate(demands, games, budget - spent)
            nxt: dict[int, int] = {}
            for r in record["rounds"]:
                for c, b, _, _ in r["tasks"]:
                    nxt[c] = max(nxt.get(c, 0), b + 1)
            rows = []
            bs = int(manifest["batch_size"])
            for c, n in sorted(alloc.items()):
                for start in range(games[c], games[c] + n, bs):
                    rows.append([c, nxt.get(c, 0), start, min(start + bs, games[c] + n)])
                    nxt[c] = nxt.get(c, 0) + 1
            rnd = {"round": number, "tasks": rows, "complete": False,
                   "cells_wanting": len(demands), "wanted": sum(demands.values())}
            record["rounds"].append(rnd)
            spent += sum(t[3] - t[2] for t in rows)
            save()
            log(f"adaptive round {number}: {sum(alloc.values()):,} extra games for "
                f"{len(alloc)} of {len(demands)} inconclusive cells")
        todo = []
        for task in _tasks(config, rnd["tasks"]):
            path = folder / store.SHARDS / store.shard_name(task.cell.index, task.batch)
            if path.exists() and not store.shard_problem(path, task.cell.id, task.start,
                                                         task.stop, task.cell.players):
                continue
            todo.append(task)
        if todo:
            bar = Progress(sum(t.games for t in todo), enabled=progress)

            def on_result(task: Task, df: pl.DataFrame, bar: Progress = bar) -> None:
                store.write_shard(folder, task.cell.index, task.batch, df)
                bar.update(task.games)

            try:
                execute(todo, on_result, workers=workers, cluster=cluster, log=log)
            finally:
                bar.close()
            out.simulated += sum(t.games for t in todo)
        if not rnd["complete"]:
            rnd["sha256"] = {n: integrity.file_sha256(folder / store.SHARDS / n) for n in
                             (store.shard_name(c, b) for c, b, _, _ in rnd["tasks"])}
            rnd["complete"] = True
            save()
    out.rounds = record["rounds"]
    out.extra_games = spent
    record["status"] = "complete"
    record["stopped"] = out.stopped
    save()
    return out
