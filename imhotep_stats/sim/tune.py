"""Playing a ``tune``: one stored run per candidate, then adaptive rounds where it is still open.

Each candidate is an ordinary study (the base with its override values) in its own run
directory ``OUT/<candidate label>/``, so ``report`` works on it and an interrupted tune
resumes (first pass: ``sim.runner``; extra rounds: ``sim.adaptive``, which keeps a
candidate's extra games on its next game indices: the same deals for every candidate).
Which candidates want more games is the policy's business (``stats.tune``); this module
only plays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from imhotep_stats.config import StudyConfig
from imhotep_stats.sim.adaptive import Policy, run_adaptive
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import holds_run

Log = Callable[[str], None]


def candidate_dir(out: Path, label: str) -> Path:
    """``game.starting_sled[0]=3`` -> ``OUT/game.starting_sled_0_=3``: a changed candidate
    list reuses the runs of the candidates it keeps."""
    return Path(out) / re.sub(r"[^A-Za-z0-9._=-]+", "_", label)


def play_candidate(config: StudyConfig, run_dir: Path, policy: Policy, *, max_games: int,
                   rounds: int, settings: dict[str, Any], workers: int | None,
                   cluster: str | None, force: bool, progress: bool | None, log: Log,
                   warn: Log) -> dict[str, int]:
    """The first pass (resumed when present), then up to ``rounds`` rounds that each at most
    double the candidate's games while ``policy`` wants more, up to ``max_games`` in all.
    Returns games played now and reused."""
    again = not force and holds_run(run_dir)
    first = run_study(config, run_dir, workers=workers, cluster=cluster, resume=again,
                      force=force, progress=progress, log=log, warn=warn)
    simulated = first.simulated
    budget = max_games - config.games
    if budget > 0 and rounds > 0:
        extra = run_adaptive(config, run_dir, policy, budget=budget, rounds=rounds,
                             settings=settings, workers=workers, cluster=cluster,
                             progress=progress, log=log)
        simulated += extra.simulated
    return {"simulated": simulated, "reused": first.reused}
