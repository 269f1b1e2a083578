"""Running a study into a run directory: plan, skip what is done, execute, record.

The manifest is written before the first shard (status ``running``) and rewritten with
status ``complete`` after the last, so a directory always says what it holds. A resume
checks that the config (its hash) and the board data are unchanged, removes temporary
files a killed run left behind, re-reads every shard and redoes any that is not the
complete result of its batch; since rows depend only on (seed, cell, game index), the
finished directory is the same as an uninterrupted run's.

The one config change a resume accepts is more games (a top-up): the old shards stay as
they are, the added games 400, 401, ... go into new batches after them, and the manifest's
``passes`` records the game counts the run grew through (``[400, 600]``), which is how a
report knows its verdicts were looked at more than once (``stats.sequential``).
``run_until_decided`` tops a run up pass by pass while its verdicts want more games.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats import __version__
from imhotep_stats.config import ConfigError, StudyConfig, canonical_json
from imhotep_stats.engine import core
from imhotep_stats.rules.board import SITES, Board, default_board
from imhotep_stats.sim import cost, integrity, looks, store
from imhotep_stats.sim.adaptive import ADAPTIVE
from imhotep_stats.sim.batches import Task, plan
from imhotep_stats.sim.executors import default_workers, execute
from imhotep_stats.sim.lock import LOCK, run_lock
from imhotep_stats.sim.manifest import RESUME, missing
from imhotep_stats.sim.progress import Progress
from imhotep_stats.sim.schema import COLUMNS
from imhotep_stats.sim.store import MANIFEST, SHARDS, TMP_SUFFIX, RunStoreError

Log = Callable[[str], None]


@dataclass
class RunOutcome:
    run_dir: Path
    games: int  # all games of the study
    simulated: int  # games played by this invocation
    reused: int  # games found complete on disk (resume)
    redone: list[str] = field(default_factory=list)  # shards found bad and played again
    executor: str = ""
    seconds: float = 0.0
    seed: int = 0  # the root seed the games were played with (fresh games: not the study's)


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    return value


def board_record(config: StudyConfig, board: Board) -> dict[str, Any]:
    """Provenance of every side the study uses, and the full values of changed tables. Keys
    a designer's board file set are "designer" (the printed board), not "overridden"."""
    designer = config.designer
    sides = {}
    for site, letters in zip(SITES, config.sides, strict=True):
        for s in letters:
            sd = board.side(site, s)
            mine = designer.get(sd.name, [])
            rec = {"provenance": sd.provenance,
                   "provisional_keys": [k for k in sd.provisional_keys if k not in mine],
                   "overridden": [k for k in sd.overridden if k not in mine]}
            if sd.provenance == "provisional" and sd.provisional_keys and not rec["provisional_keys"]:
                rec["provenance"] = "designer"  # every placeholder replaced by the designer
            if mine:
                rec["designer"] = list(mine)
            sides[sd.name] = rec
    changed = {}
    for name in board.overridden:
        if name not in board.sides and set(_changed_keys(board, name)) <= set(designer.get(name, [])):
            continue  # a table only the board file changed: the printed board, not a what-if
        values = board.sides[name].values if name in board.sides else board.tables[name]
        changed[name] = _thaw(values)
    record: dict[str, Any] = {"sides": sides, "overridden": changed}
    if designer:
        record["designer"] = designer
    return record


def _changed_keys(board: Board, name: str) -> list[str]:
    """The keys of table ``name`` whose values differ from the package's board."""
    base = default_board().tables.get(name, {})
    return [k for k, v in board.tables[name].items() if base.get(k) != v]


def data_hash(config: StudyConfig, board: Board) -> str:
    """sha256 of the board data the study plays on (used sides and every shared table), so a
    resume refuses when someone edited data/*.toml in between."""
    used = {f"{site}.{s}" for site, letters in zip(SITES, config.sides, strict=True)
            for s in letters}
    data = {"sides": {n: _thaw(board.sides[n].values) for n in sorted(used)},
            "tables": {n: _thaw(t) for n, t in sorted(board.tables.items())}}
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def build_manifest(config: StudyConfig, board: Board, batch_size: int) -> dict[str, Any]:
    cells = config.cells
    batches = -(-config.games // batch_size)
    return {
        "format": store.FORMAT,
        "tool": "imhotep-stats",
        "version": __version__,
        "status": "running",
        "study": config.name,
        "config_source": config.source,
        "config_hash": config.hash,
        "data_hash": data_hash(config, board),
        "config": config.to_json(),
        "seeds": {
            "root": config.seed,
            "games": [0, config.games - 1],
            "chance": "engine.play.chance_seed(root, game) = '<root>:<game>', same in every cell",
            "bots": "engine.play.bot_rng(root, game, seat) = Random('<root>:<game>:bot<seat>')",
            "seats": "game i, seat s: lineup[((s + i) % m) % len(lineup)], m = max(len(lineup), players)",
        },
        "games_per_cell": config.games,
        "batch_size": batch_size,
        "cells": [
            {"index": c.index, "id": c.id, "sides": c.sides, "players": c.players,
             "lineup": list(c.lineup), "games": config.games, "batches": batches}
            for c in cells
        ],
        "board": board_record(config, board),
        "schema": dict(COLUMNS),
        "environment": {"python": platform.python_version(), "polars": pl.__version__,
                        # the core's build this process runs (local workers run the same)
                        "engine": core.describe()},
        "started": _now(),
        "finished": None,
    }


def _diff_keys(old: Any, new: Any, prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two canonical configs."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new)):
            out += _diff_keys(old.get(k), new.get(k), f"{prefix}.{k}" if prefix else k)
        return out
    return [] if old == new else [prefix or "(all)"]


def _clean_dir(run_dir: Path) -> None:
    """--force: remove what a run writes (manifest, shards, a sweep's adaptive games),
    nothing else: extra games allocated from the old results must not outlive them."""
    (run_dir / MANIFEST).unlink(missing_ok=True)
    shutil.rmtree(run_dir / ADAPTIVE, ignore_errors=True)
    shards = run_dir / SHARDS
    if shards.is_dir():
        for p in shards.iterdir():
            if store.SHARD_RE.match(p.name) or p.name.endswith(TMP_SUFFIX):
                p.unlink()


def _remove_temp_files(run_dir: Path, warn: Log) -> None:
    """Temporary files of writes a killed run never finished: never results, just remove."""
    count = 0
    for folder in (run_dir, run_dir / SHARDS):
        if folder.is_dir():
            for p in folder.iterdir():
                if p.name.startswith(".") and p.name.endswith(TMP_SUFFIX) and p.is_file():
                    p.unlink()
                    count += 1
    if count:
        warn(f"removed {count} unfinished temporary file{'s' if count > 1 else ''} "
             "of the interrupted run")


def prepare(config: StudyConfig, run_dir: Path, resume: bool, force: bool, warn: Log,
            log: Log, sequential: bool = False, ledger: Path | None = None,
            keep_seed: bool = False, workers: int | None = 1
            ) -> tuple[dict[str, Any], list[Task], int, list[str], StudyConfig]:
    """Decide what to (re)do in ``run_dir``: returns manifest, tasks, games reused, redone
    and the config played (its seed replaced when the ledger asks for fresh games).
    ``workers``: the cores a new run's batches are sized for (``cost.batch_size``)."""
    board = config.board()
    manifest_path = run_dir / MANIFEST
    old: dict[str, Any] | None = None
    topped_up = False  # its message already says which games are reused
    if manifest_path.exists() and not force:
        old = store.load_manifest(run_dir)
        status = old.get("status")
        if not resume:
            what = "a finished run" if status == "complete" else "an unfinished run"
            raise RunStoreError(
                f"{run_dir} already holds {what} of study {old.get('study')!r}. Resume it "
                "(what the commands do by default; resume=True), choose --out DIR for a new "
                "directory, or --force to overwrite it."
            )
        gone = missing(old, RESUME)
        if gone:
            raise RunStoreError(f"cannot resume {run_dir}: {manifest_path}: {gone} (a damaged "
                                "or edited manifest). Use --out DIR for a new run, or --force "
                                "to discard the old one.")
        keys = [] if old.get("config_hash") == config.hash else _diff_keys(
            {k: old.get("config", {}).get(k) for k in _hashed()},
            {k: config.to_json()[k] for k in _hashed()})
        held = int(old.get("games_per_cell") or 0)
        if keys == ["study.games"] and config.games < held:
            raise RunStoreError(
                f"cannot resume {run_dir}: it holds {held:,} games per cell and a run never "
                f"shrinks (asked for {config.games:,}). Use --games {held} or more to add "
                "games, --out DIR for a new run, or --force to discard the old one.")
        if keys == ["study.games"]:  # a top-up: the same study, more games
            passes = [*_passes(old), config.games]
            topped_up = True
            log(f"topping up {run_dir}: {held:,} -> {config.games:,} games per cell (games "
                f"0-{held - 1:,} reused; the verdicts become sequential)")
            if (run_dir / ADAPTIVE).exists():
                warn(f"{run_dir / ADAPTIVE}: a sweep's adaptive games overlap the added "
                     "game indices; removed (run the sweep again to redo them)")
                shutil.rmtree(run_dir / ADAPTIVE)
        elif not keys and old["config_hash"] != config.hash:
            raise RunStoreError(
                f"cannot resume {run_dir}: {manifest_path}: config_hash "
                f"{old['config_hash'][:12]} is not the hash of the config it holds "
                f"({config.hash[:12]}): the manifest was edited. Use --out DIR for a new run, "
                "or --force to discard the old one.")
        elif keys:
            raise RunStoreError(
                f"cannot resume {run_dir}: the config changed since the run started "
                f"(changed: {', '.join(keys) or 'unknown'}; config hash "
                f"{str(old.get('config_hash'))[:12]} -> {config.hash[:12]}). Use --out DIR "
                "for a new run, or --force to discard the old one."
            )
        if old.get("data_hash") != data_hash(config, board):
            raise RunStoreError(
                f"cannot resume {run_dir}: the board data (imhotep_stats/data/*.toml) "
                "changed since the run started. Use --out DIR or --force."
            )
        if old.get("version") != __version__:
            warn(f"warning: {run_dir} was started by imhotep-stats {old.get('version')}, "
                 f"this is {__version__}")
    elif force:
        _clean_dir(run_dir)
    elif resume:
        log(f"nothing to resume in {run_dir}: starting a new run")
    shards_dir = run_dir / SHARDS
    if old is None and shards_dir.is_dir() and store.shard_files(run_dir, verify=False):
        raise RunStoreError(f"{run_dir} holds result shards but no {MANIFEST}; use --out DIR "
                            "or --force to overwrite them")

    config, seen = _looks(config, old, ledger, keep_seed, log)
    if old:
        batch_size = int(old["batch_size"])
        if batch_size > config.batch_size:  # asked for smaller batches than the run has
            log(f"resuming with the run's batch size {batch_size}")
    else:  # sized by the pilot: a slow bot's games spread over every core
        batch_size = cost.batch_size(cost.pilot_costs(config), config.batch_size,
                                     workers or 1)
    if old is None:
        passes = [config.games]
    elif old.get("config_hash") == config.hash:
        passes = _passes(old)
    manifest = build_manifest(config, board, batch_size)
    manifest["passes"] = passes
    manifest["sequential"] = sequential or bool(old and old.get("sequential"))
    manifest["run_id"] = (old or {}).get("run_id") or looks.new_run_id()
    # whether the first look was sequential (run until decided) or fixed-sample: the
    # error bound over all looks differs (reporting.figures.sequential_note)
    manifest["first_look"] = old.get("first_look", "fixed") if old else (
        "sequential" if sequential else "fixed")
    if seen is not None:
        manifest["looks"] = seen.to_json()
    if old:
        manifest["started"] = old.get("started", manifest["started"])
        manifest["finished"] = old.get("finished") if passes == _passes(old) else None
    tasks = plan(config.cells, config.games, batch_size, config.seed, config.prophecies,
                 config.expansion, config.overrides_json, config.personas_json, passes)
    batches = {t.cell.index: t.batch + 1 for t in tasks}
    for c in manifest["cells"]:
        c["batches"] = batches.get(c["index"], 0)
    manifest["shards"] = [integrity.planned(store.shard_name(t.cell.index, t.batch), t.cell.index,
                                            t.batch, t.start, t.stop, t.games * t.cell.players)
                          for t in tasks]
    sealed = {e["file"]: e.get("sha256") for e in (old or {}).get("shards", ())}

    shards_dir.mkdir(parents=True, exist_ok=True)
    _remove_temp_files(run_dir, warn)
    reused = 0
    redone: list[str] = []
    todo = tasks
    if old:
        by_name = {store.shard_name(t.cell.index, t.batch): t for t in tasks}
        done: set[str] = set()
        for path in store.shard_files(run_dir, verify=False):
            t = by_name.get(path.name)
            problem = ("not part of this study's plan" if t is None else
                       store.shard_problem(path, t.cell.id, t.start, t.stop, t.cell.players))
            if not problem and sealed.get(path.name) \
                    and integrity.file_sha256(path) != sealed[path.name]:
                problem = "differs from the shard the run wrote (checksum)"
            if problem:
                path.unlink()
                if t is None:
                    warn(f"shard {path.name}: {problem}; removed")
                    continue
                warn(f"shard {path.name}: {problem}; playing it again")
                redone.append(path.name)
            else:
                done.add(path.name)
                reused += t.games
        todo = [t for t in tasks if store.shard_name(t.cell.index, t.batch) not in done]
        if done and not topped_up:
            log(f"resuming {run_dir}: {reused:,} of {config.total_games:,} games already done")
    return manifest, todo, reused, redone, config


def adopt_seed(config: StudyConfig, run_dir: Path) -> StudyConfig:
    """``config`` with the seed of the run ``run_dir`` holds when that run played fresh
    games instead of this study's seed (``sim.looks``): asking again resumes it."""
    try:
        old = store.load_manifest(run_dir)
    except RunStoreError:
        return config
    seed = looks.resumed_seed(config, old)
    return config if seed is None else config.replace(seed=seed)


def _looks(config: StudyConfig, old: dict[str, Any] | None, ledger: Path | None,
           keep_seed: bool, log: Log) -> tuple[StudyConfig, looks.Looks | None]:
    """The seed to play and the earlier looks at these games (``sim.looks``); a resumed
    or topped-up run keeps its seed. No ledger: nothing is counted."""
    if ledger is None:
        return config, None
    entries = looks.read(ledger)
    if old is not None:  # this run's own passes are counted by its manifest
        seen = looks.plan(config, entries, old.get("run_id"), keep_seed=True)
        seen.seed_from = (old.get("looks") or {}).get("seed_from")
        return config, seen
    seen = looks.plan(config, entries, keep_seed=keep_seed)
    if seen.seed_from is not None:
        log(f"fresh games: an earlier look chose among these cells' games of seed "
            f"{seen.seed_from} (ledger {ledger}); playing seed {seen.seed} instead, so the "
            f"verdicts are an independent look (--seed {seen.seed_from} replays them)")
        config = config.replace(seed=seen.seed)
    elif seen.prior:
        log(f"looked at before: games of these cells at seed {config.seed} were judged by "
            f"{len(seen.prior)} earlier run{'s' if len(seen.prior) > 1 else ''} (ledger "
            f"{ledger}); the verdicts are a later look, judged sequentially")
    return config, seen


def _passes(manifest: dict[str, Any]) -> list[int]:
    """The game counts a run grew through (one pass unless topped up)."""
    return [int(n) for n in manifest.get("passes") or [manifest["games_per_cell"]]]


def _hashed() -> tuple[str, ...]:
    from imhotep_stats.config import HASHED_KEYS

    return HASHED_KEYS


def run_study(
    config: StudyConfig,
    run_dir: str | Path,
    *,
    workers: int | None = None,
    cluster: str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool | None = None,
    log: Log | None = None,
    warn: Log | None = None,
    sequential: bool = False,
    ledger: Path | None = None,
    keep_seed: bool = False,
    kind: str = "run",
) -> RunOutcome:
    """Simulate ``config`` into ``run_dir`` (see the module docstring).

    A finished or unfinished run of the same study with fewer games is topped up: its
    games are reused and the rest played (game i is always the same game); any other
    change of the config is refused. ``sequential`` marks the run as looked at after
    every pass (``run_until_decided``), which the manifest keeps.

    ``workers``: local processes (1 = in this process; None = all cores); ``cluster``: a
    Dask scheduler address, which takes precedence. ``progress``: None draws the bar only
    when stderr is a terminal.

    ``ledger``: the ledger of looks (``sim.looks``) this run consults and, once finished,
    is recorded in (as ``kind``: "run", "sweep", "compare"); None counts nothing. A new run
    whose cells were chosen on these games plays fresh ones (a derived seed) unless
    ``keep_seed``; the outcome's ``seed`` says which.
    """
    log = log or (lambda _msg: None)
    warn = warn or log
    if config.size_problems():  # --games may have replaced the config's games
        raise ConfigError(config.size_problems(), "--games")
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    refuse_foreign(run_dir)
    if not force:
        config = adopt_seed(config, run_dir)
    with run_lock(run_dir, warn):
        return _run_locked(config, run_dir, workers, cluster, resume, force, progress, log, warn,
                           sequential, ledger, keep_seed, kind)


def refuse_foreign(run_dir: Path) -> None:
    """A directory that holds files but no run is someone else's: never write into it."""
    if (run_dir / MANIFEST).exists():
        return
    ours = {LOCK, SHARDS, ADAPTIVE}
    other = sorted(p.name for p in run_dir.iterdir()
                   if p.name not in ours and not p.name.endswith(TMP_SUFFIX))
    if other:
        raise RunStoreError(f"{run_dir} is not empty and holds no run (it has "
                            f"{', '.join(other[:3])}{' ...' if len(other) > 3 else ''}); "
                            "use --out DIR with a new or empty directory")


def _run_locked(config: StudyConfig, run_dir: Path, workers: int | None, cluster: str | None,
                resume: bool, force: bool, progress: bool | None, log: Log,
                warn: Log, sequential: bool = False, ledger: Path | None = None,
                keep_seed: bool = False, kind: str = "run") -> RunOutcome:
    t0 = time.monotonic()
    new_run = not (run_dir / MANIFEST).exists() or force
    cores = 1 if cluster else (workers or default_workers())  # a cluster: its own cores
    manifest, todo, reused, redone, config = prepare(config, run_dir, resume, force, warn,
                                                     log, sequential, ledger, keep_seed, cores)
    store.write_manifest(run_dir, manifest)

    bar = Progress(config.total_games, reused, enabled=progress)
    if bar.enabled and todo and not cluster:
        bar.set_estimate(_estimate(config, todo, workers))
    written = 0

    def on_result(task: Task, df: pl.DataFrame) -> None:
        nonlocal written
        store.write_shard(run_dir, task.cell.index, task.batch, df)
        written += 1
        bar.update(task.games)

    executor = "none (all shards done)"
    try:
        if todo:
            executor = execute(todo, on_result, workers=workers, cluster=cluster, log=log)
    except RunStoreError:
        # e.g. an unreachable cluster: a new run that wrote nothing leaves no run behind.
        if new_run and not written:
            (run_dir / MANIFEST).unlink(missing_ok=True)
        raise
    finally:
        bar.close()
    if todo or not manifest["finished"]:
        manifest["finished"] = _now()
    integrity.seal(manifest["shards"], run_dir / SHARDS)
    manifest["status"] = "complete"
    store.write_manifest(run_dir, manifest)
    if ledger is not None and (todo or new_run):  # a re-report looks at the same games
        looks.record(ledger, config, run_dir, manifest["run_id"], kind)
    simulated = sum(t.games for t in todo)
    return RunOutcome(run_dir, config.total_games, simulated, reused, redone, executor,
                      time.monotonic() - t0, config.seed)


def _estimate(config: StudyConfig, todo: list[Task], workers: int | None) -> float:
    """Seconds the games left take on local cores by the pilot (``sim.cost``), for the
    progress bar to show before the first batch is back."""
    per_game = {(c.players, c.lineup): c.per_game for c in cost.pilot_costs(config, 1)}
    cpu = sum(per_game[(t.cell.players, t.cell.lineup)] * t.games for t in todo)
    return cpu / max(1, min(workers or default_workers(), len(todo)))


Look = Callable[[int], int]
"""(games per cell now) -> extra games per cell the verdicts still want (0: decided)."""


def held_games(config: StudyConfig, run_dir: Path) -> int:
    """Games per cell a run of this study (same config but for the games) in ``run_dir``
    already holds; 0 when there is none."""
    try:
        old = store.load_manifest(run_dir)
    except RunStoreError:
        return 0
    keys = _diff_keys({k: old.get("config", {}).get(k) for k in _hashed()},
                      {k: config.to_json()[k] for k in _hashed()})
    return int(old.get("games_per_cell") or 0) if keys in ([], ["study.games"]) else 0


def adopt_stored_run(config: StudyConfig, run_dir: str | Path, places: list[Path]
                     ) -> Path | None:
    """Fill an empty ``run_dir`` from a finished run of the same study (config and board
    data) among ``places``, its shards hard-linked (copied where links cannot be made):
    ``compare`` pairs a new what-if with a base already played instead of playing it again.
    Returns the run adopted, or None."""
    run_dir = Path(run_dir)
    if store.holds_run(run_dir):
        return None
    want = data_hash(config, config.board())
    for place in places:
        if place.resolve() == run_dir.resolve():
            continue
        try:
            m = store.load_manifest(place)
        except (RunStoreError, OSError):
            continue
        if (m.get("status"), m.get("config_hash"), m.get("data_hash")) != (
                "complete", config.hash, want):
            continue
        (run_dir / SHARDS).mkdir(parents=True, exist_ok=True)
        for shard in store.shard_files(place):
            target = run_dir / SHARDS / shard.name
            try:
                os.link(shard, target)
            except OSError:
                shutil.copy2(shard, target)
        shutil.copy2(place / MANIFEST, run_dir / MANIFEST)  # last: the run is whole
        return place
    return None


def base_places(name: str, out: Path) -> list[Path]:
    """Where a comparison's base may already be stored: the study's own run directory
    (``reports/<name>``, or beside ``out``) and the bases of other comparisons there."""
    roots = list(dict.fromkeys([Path("reports"), out.parent]))
    return list(dict.fromkeys([*(r / name for r in roots),
                               *(p for r in roots for p in sorted(r.glob("*/base")))]))


def run_until_decided(config: StudyConfig, run_dir: str | Path, look: Look, *,
                      max_games: int, before_pass: Callable[[int, int], bool] | None = None,
                      **run_options: Any) -> tuple[RunOutcome, str]:
    """Play passes into ``run_dir`` until ``look`` wants no more games or ``max_games`` per
    cell are played: the first pass (or the games the directory holds), then each pass at
    most doubles the games, at least one batch, as ``look`` asks. Every pass is a top-up
    of the same run (``run_study(sequential=True)``); ``before_pass(held, games)`` hears of
    each pass after the first before it plays, and stops the run there when it returns
    False (a budget other than games). Returns the last pass's outcome and why it stopped:
    "decided" or "budget"."""
    run_dir = Path(run_dir)
    force = bool(run_options.pop("force", False))
    run_options.pop("resume", None)  # a run in the directory is always continued
    if not force:
        config = adopt_seed(config, run_dir)
    games = min(max(config.games, 0 if force else held_games(config, run_dir)), max_games)
    simulated, reused = 0, None
    while True:
        again = not force and (run_dir / MANIFEST).exists()
        outcome = run_study(config.replace(games=games), run_dir, sequential=True,
                            resume=again, force=force, **run_options)
        force = False
        simulated += outcome.simulated
        reused = outcome.reused if reused is None else reused
        want = look(games)
        held = games
        if want > 0 and games < max_games:
            games = min(max_games, games + max(config.batch_size, min(want, games)))
        if want <= 0 or held >= max_games or (before_pass and not before_pass(held, games)):
            outcome.simulated, outcome.reused = simulated, reused  # over all passes
            return outcome, "decided" if want <= 0 else "budget"
