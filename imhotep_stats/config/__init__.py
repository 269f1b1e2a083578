"""Study configs (TOML): load, validate, resolve into an immutable value.

A study config says which board sides, player counts and bot lineups to simulate, how many
games per cell, the root seed, the modules, board-data overrides (docs/rules.md §10) and
report/run options. Validation collects every problem at once, each with its dotted key and
what was expected, so a designer fixes a config in one pass. See docs/studies.md.

The resolved config has a canonical JSON form; its hash covers exactly what determines the
result rows (study, sides, bots, modules, overrides), so a resumed run can refuse a changed
config while report and run options (margin, workers, ...) stay free to change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from imhotep_stats.config import bots as bots_section
from imhotep_stats.config.cluster import cluster_address_problem
from imhotep_stats.config.validate import NAME, Validator, site_keys
from imhotep_stats.errors import describe, toml_problem, unknown_key
from imhotep_stats.rules.board import SITES, Board, BoardDataError, default_board

TOP_KEYS = ("study", "sides", "bots", "modules", "overrides", "report", "gates", "run",
            "whatif", "sweep", "board")
HASHED_KEYS = ("study", "sides", "bots", "modules", "overrides")  # what the rows depend on
# The one default seat-fairness margin (a win-rate difference: 0.05 = ±5 pp), for configs
# without [report] margin, `init`, the one-line `run --sides` and `--margin` alike.
DEFAULT_MARGIN = 0.05
DEFAULT_CONFIDENCE = 0.95
DEFAULT_BATCH_SIZE = 500
# Sizes a study may ask for: far beyond any useful study (10^8 games per cell is days of a
# cluster), small enough that the plan and the manifest's shard list fit in memory.
MAX_GAMES = 100_000_000
MAX_BATCH_SIZE = 1_000_000
MAX_SHARDS = 200_000
MAX_ROUNDS = 100  # adaptive rounds of a sweep
WHATIF_KEYS = ("label", "sides", "overrides")  # [whatif]: what `compare CONFIG` changes
SWEEP_DEFAULTS = {"budget": 0, "rounds": 4, "top": 10, "rank_by": "seat_gap"}
RANK_BY = ("seat_gap", "bot_gap", "dominance")


def valid_name(name: str) -> bool:
    """A study or bot name: letters, digits, '.', '_' or '-' (it names a run directory)."""
    return bool(NAME.match(name))


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def config_hash(full: Mapping[str, Any]) -> str:
    """sha256 of a canonical config's keys that determine the result rows (HASHED_KEYS)."""
    return hashlib.sha256(canonical_json({k: full[k] for k in HASHED_KEYS}).encode()).hexdigest()


class ConfigError(ValueError):
    """A study config with problems; ``problems`` lists (dotted key, what was expected)."""

    def __init__(self, problems: list[tuple[str, str]], source: str = "config"):
        self.problems = problems
        self.source = source
        n = len(problems)
        head = f"{source}: {n} problem{'s' if n != 1 else ''}"
        super().__init__(head + "".join(f"\n  {key}: {msg}" if key else f"\n  {msg}"
                                        for key, msg in problems))


@dataclass(frozen=True)
class Cell:
    """One combination the study simulates: sides, player count and bot lineup."""

    index: int
    sides: str  # market-pyramid-temple-burial_chamber-obelisk, e.g. "D-A-C-B-D"
    players: int
    lineup: tuple[str, ...]  # rotated through the seats game by game

    @property
    def id(self) -> str:
        return f"{self.sides}|{self.players}p|{','.join(self.lineup)}"

    def seat_bots(self, game: int) -> list[str]:
        """Bots by seat in game ``game``: seat s gets table[(s + game) % m], where the table is
        the lineup repeated to m = max(len(lineup), players) entries (["greedy", "random"] at
        4 players: greedy, random, greedy, random). Over m consecutive games every table entry
        sits in every seat once, so every bot sits in every seat equally often whatever the
        lineup's length (a plain rotation mod len(lineup) would not: a 3-bot lineup at 4
        players would put the same bot on seats 1 and 4 every game)."""
        k = len(self.lineup)
        m = max(k, self.players)
        return [self.lineup[((s + game) % m) % k] for s in range(self.players)]


@dataclass(frozen=True)
class StudyConfig:
    """A validated study config. Immutable; derive changed copies with :meth:`replace`."""

    name: str
    seed: int
    games: int  # per cell
    players: tuple[int, ...]
    sides: tuple[tuple[str, ...], ...]  # per site in SITES order
    lineups: tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]  # (players, lineups)
    prophecies: bool = False
    expansion: bool | None = None  # None: automatic (C/D sides or prophecies)
    overrides_json: str = "{}"  # canonical JSON of the overrides table
    personas_json: str = "{}"  # [bots.personas]: bots defined by weights (bots.make_bot)
    margin: float = DEFAULT_MARGIN
    confidence: float = DEFAULT_CONFIDENCE
    gates_json: str = "{}"  # [gates]: balance gates (reporting/gates.py checks the keys)
    workers: int | None = None  # None: all cores
    batch_size: int = DEFAULT_BATCH_SIZE
    cluster: str | None = None  # a Dask scheduler address
    source: str = "config"
    whatif_json: str = "{}"  # [whatif]: label, sides, overrides (docs/designers-guide.md)
    sweep_json: str = canonical_json(SWEEP_DEFAULTS)  # [sweep]: adaptive budget, ranking
    # [board]: the keys a designer's board file set (rules/board_file.py), per side or table;
    # their values are in overrides_json, under the config's own overrides
    designer_json: str = "{}"

    # -- derived values ------------------------------------------------------------------
    @property
    def overrides(self) -> dict[str, Any]:
        return json.loads(self.overrides_json)

    @property
    def gates(self) -> dict[str, Any]:
        return json.loads(self.gates_json)

    @property
    def whatif(self) -> dict[str, Any]:
        return json.loads(self.whatif_json)

    @property
    def sweep(self) -> dict[str, Any]:
        return json.loads(self.sweep_json)

    def whatif_config(self) -> StudyConfig:
        """The [whatif] variant: its sides replace the base's per site, its overrides are
        merged into the base's key by key; seeds, games and lineups stay the base's, so
        the two runs are paired game by game."""
        w = self.whatif
        sides = tuple(tuple(w.get("sides", {}).get(site, base))
                      for site, base in zip(SITES, self.sides, strict=True))
        overrides = _deep_merge(self.overrides, w.get("overrides", {}))
        return self.replace(sides=sides, whatif_json="{}",
                            overrides_json=canonical_json(overrides) if overrides else "{}")

    def lineups_for(self, players: int) -> tuple[tuple[str, ...], ...]:
        return dict(self.lineups)[players]

    @property
    def cells(self) -> list[Cell]:
        """The cartesian product sides x players x lineups, in a fixed order."""
        out = []
        for combo in itertools.product(*self.sides):
            for n in self.players:
                for lineup in self.lineups_for(n):
                    out.append(Cell(len(out), "-".join(combo), n, lineup))
        return out

    def size_problems(self) -> list[tuple[str, str]]:
        """Sizes beyond the limits above (checked again after ``--games`` replaces games)."""
        out = []
        if self.games > MAX_GAMES:
            out.append(("study.games", f"expected at most {MAX_GAMES:,} games per cell, "
                        f"got {self.games:,}"))
        elif len(self.cells) * -(-self.games // self.batch_size) > MAX_SHARDS:
            out.append(("run.batch_size", f"{len(self.cells):,} cells x {self.games:,} games "
                        f"in batches of {self.batch_size:,} make more than {MAX_SHARDS:,} "
                        "shards: raise run.batch_size or lower study.games"))
        return out

    @property
    def total_games(self) -> int:
        return self.games * len(self.cells)

    def board(self) -> Board:
        """The board data of this study (the package's data with the overrides applied)."""
        return board_for(self.overrides_json)

    def to_json(self) -> dict[str, Any]:
        """The canonical form: every default filled in, ``"all"`` expanded."""
        return {
            "study": {"name": self.name, "seed": self.seed, "games": self.games,
                      "players": list(self.players)},
            "sides": {site: list(s) for site, s in zip(SITES, self.sides, strict=True)},
            "bots": {"lineup": {str(n): [list(lu) for lu in lus] for n, lus in self.lineups},
                     **({"personas": json.loads(self.personas_json)}
                        if self.personas_json != "{}" else {}),
                     **self._reference_settings()},
            "modules": {"prophecies": self.prophecies,
                        "expansion": "auto" if self.expansion is None else self.expansion},
            "overrides": self.overrides,
            "report": {"margin": self.margin, "confidence": self.confidence},
            "gates": self.gates,
            "run": {"workers": self.workers, "batch_size": self.batch_size,
                    "cluster": self.cluster},
            "whatif": self.whatif,
            "sweep": self.sweep,
            **({"board": {"designer": self.designer}} if self.designer_json != "{}" else {}),
        }

    def _reference_settings(self) -> dict[str, Any]:
        """``{"expert": its settings}`` when a lineup or persona uses the reference bot: its
        name stays while its settings move with the evidence (docs/search.md), so they are
        hashed and a run of the old expert is not resumed with the new one."""
        personas = json.loads(self.personas_json)
        if not (any("expert" in lu for _, lus in self.lineups for lu in lus)
                or any(p.get("base") == "expert" for p in personas.values())):
            return {}
        from imhotep_stats.bots.search_spec import EXPERT
        return {"expert": dict(sorted(EXPERT.items()))}

    @property
    def designer(self) -> dict[str, list[str]]:
        """Per side or table ("pyramid.A", "game"), the keys a designer's board file set."""
        return json.loads(self.designer_json)

    @property
    def hash(self) -> str:
        """sha256 over the canonical JSON of what determines the result rows."""
        return config_hash(self.to_json())

    def replace(self, **changes: Any) -> StudyConfig:
        """A copy with ``changes`` (e.g. ``games=``, ``seed=`` from the command line)."""
        return dataclasses.replace(self, **changes)


def _deep_merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra``'s leaves put in (tables merge, anything else replaces)."""
    out = dict(base)
    for k, v in extra.items():
        old = out.get(k)
        out[k] = _deep_merge(old, v) if isinstance(old, Mapping) and isinstance(v, Mapping) else v
    return out


_BOARDS: dict[str, Board] = {}


def board_for(overrides_json: str) -> Board:
    """The board for a canonical overrides JSON, built once per process: the engine caches
    per board identity, so workers must reuse one Board object across batches."""
    board = _BOARDS.get(overrides_json)
    if board is None:
        overrides = json.loads(overrides_json)
        board = default_board().with_overrides(overrides) if overrides else default_board()
        _BOARDS[overrides_json] = board
    return board


# -- loading and validation -----------------------------------------------------------------


def load_config(path: str | Path) -> StudyConfig:
    """Read and validate a TOML study config; raises ConfigError with every problem."""
    path = Path(path)
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([("", f"cannot read the file ({exc.strerror})")], source) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([("", f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at "
                            f"offset {exc.start}): save the config as UTF-8")], source) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([toml_problem(exc, text)], source) from None
    return parse_config(raw, source)


def parse_config(raw: Mapping[str, Any], source: str = "config") -> StudyConfig:
    """Validate a parsed config table into a StudyConfig (all problems at once)."""
    v = Validator()
    for key in raw:
        if key not in TOP_KEYS:
            v.problem(key, _unknown_top(key))

    study = v.table(raw, "study", required=True)
    v.known(study, "study", ("name", "seed", "games", "players"))
    name = v.get(study, "study.name", str, required=True, default="study")
    if isinstance(name, str) and not NAME.match(name):
        v.problem("study.name", "expected a name of letters, digits, '.', '_' or '-' "
                  f"(it names the run directory), got {name!r}")
    seed = v.integer(study, "study.seed", default=0)
    games = v.integer(study, "study.games", required=True, minimum=1, default=1)
    players = v.players(study)

    sides = v.sides(v.table(raw, "sides"))
    bots_table = v.table(raw, "bots")
    personas = bots_section.personas(v, bots_table)
    personas_json = canonical_json(personas) if personas else "{}"
    lineups = bots_section.lineups(v, bots_table, players, set(personas))

    modules = v.table(raw, "modules")
    v.known(modules, "modules", ("prophecies", "expansion"))
    prophecies = v.get(modules, "modules.prophecies", bool, default=False)
    expansion = modules.get("expansion", "auto")
    if expansion == "auto":
        expansion = None
    elif not isinstance(expansion, bool):
        v.problem("modules.expansion", f'expected true, false or "auto", got {expansion!r}')
        expansion = None

    overrides, designer_json = _board_file(v, v.table(raw, "board"), raw.get("overrides", {}),
                                           source)
    overrides_json = "{}"
    if not isinstance(overrides, Mapping):
        v.problem("overrides", f"expected a table, got {describe(overrides)}")
    elif overrides:
        if v.json_safe(overrides, "overrides"):
            try:
                board = default_board().with_overrides(overrides, prefix="overrides")
            except BoardDataError as exc:
                v.problems.extend(exc.problems)
            else:
                overrides_json = canonical_json(overrides)
                rounds = board.game["rounds"]
                from imhotep_stats.rules.limits import ROUNDS

                if rounds > ROUNDS:
                    v.problem("overrides.game.rounds", f"expected at most {ROUNDS} (the results "
                              f"table has {ROUNDS} round columns), got {rounds}")

    report = v.table(raw, "report")
    v.known(report, "report", ("margin", "confidence"))
    margin = v.number(report, "report.margin", DEFAULT_MARGIN, 0.0, 0.5,
                      "a seat-fairness margin above 0 and at most 0.5, e.g. 0.02")
    confidence = v.number(report, "report.confidence", DEFAULT_CONFIDENCE, 0.0, 0.999999,
                          "a confidence level between 0 and 1, e.g. 0.95")
    gates = v.table(raw, "gates")
    from imhotep_stats.config.gates import gate_problems  # the gate keys live there

    v.problems.extend(gate_problems(gates))
    gates_json = canonical_json(gates) if v.json_safe(gates, "gates") else "{}"

    run = v.table(raw, "run")
    v.known(run, "run", ("workers", "batch_size", "cluster"))
    workers = v.integer(run, "run.workers", minimum=1, default=None)
    batch_size = v.integer(run, "run.batch_size", minimum=1, default=DEFAULT_BATCH_SIZE,
                           maximum=MAX_BATCH_SIZE)
    cluster = v.get(run, "run.cluster", str, default=None)
    if isinstance(cluster, str):
        problem = cluster_address_problem(cluster)
        if problem:
            v.problem("run.cluster", problem)

    whatif_json = _whatif(v, v.table(raw, "whatif"), overrides)
    sweep_json = _sweep(v, v.table(raw, "sweep"))

    if v.problems:
        raise ConfigError(v.problems, source)
    config = StudyConfig(
        name=name, seed=seed, games=games, players=tuple(players), sides=sides,
        lineups=lineups, prophecies=prophecies, expansion=expansion,
        overrides_json=overrides_json, personas_json=personas_json,
        margin=float(margin), confidence=float(confidence),
        gates_json=gates_json, workers=workers, batch_size=batch_size, cluster=cluster,
        source=source, whatif_json=whatif_json, sweep_json=sweep_json,
        designer_json=designer_json,
    )
    if config.size_problems():
        raise ConfigError(config.size_problems(), source)
    return config


def with_board_file(cfg: StudyConfig, path: str | Path) -> StudyConfig:
    """``cfg`` on a designer's board file (``--board FILE``): the file's values under the
    config's own overrides, labelled designer. Raises ``BoardFileError`` naming the key."""
    from imhotep_stats.rules.board_file import designer_keys, read_board_file

    values = read_board_file(path)
    merged = _deep_merge(values, cfg.overrides)
    try:
        default_board().with_overrides(merged)
    except BoardDataError as exc:
        raise ConfigError(exc.problems, str(path)) from None
    keys = {**cfg.designer, **designer_keys(values)}
    return cfg.replace(overrides_json=canonical_json(merged),
                       designer_json=canonical_json(keys) if keys else "{}")


def _board_file(v: Validator, board: Mapping[str, Any], overrides: Any,
                source: str) -> tuple[Any, str]:
    """``[board] file = "board.toml"`` (a path relative to the config's directory): the
    designer's values under the config's overrides, and the keys they set. ``designer`` is
    the canonical form's record of those keys (``StudyConfig.to_json``)."""
    from imhotep_stats.rules.board_file import BoardFileError, designer_keys, read_board_file

    v.known(board, "board", ("file", "designer"))
    designer = board.get("designer", {})
    if not isinstance(designer, Mapping) or not all(
            isinstance(k, list) and all(isinstance(x, str) for x in k) for k in designer.values()):
        v.problem("board.designer", "expected a table of key lists (written by imhotep-stats)")
        designer = {}
    path = v.get(board, "board.file", str, default=None)
    if not isinstance(path, str):
        return overrides, canonical_json(designer) if designer else "{}"
    base = Path(source).parent if Path(source).is_file() else Path.cwd()
    try:
        values = read_board_file(base / path)
    except BoardFileError as exc:
        for where, what in exc.problems:
            v.problem("board.file", f"{exc.path}: {where}: {what}" if where else
                      f"{exc.path}: {what}")
        return overrides, "{}"
    keys = {**designer, **designer_keys(values)}
    merged = _deep_merge(values, overrides) if isinstance(overrides, Mapping) else overrides
    return merged, canonical_json(keys) if keys else "{}"


def _whatif(v: Validator, whatif: Mapping[str, Any], base_overrides: Any) -> str:
    """Validate [whatif] (label, sides per site, overrides) into canonical JSON."""
    if not whatif:
        return "{}"
    v.known(whatif, "whatif", WHATIF_KEYS)
    out: dict[str, Any] = {}
    label = v.get(whatif, "whatif.label", str, default=None)
    if label:
        out["label"] = label
    table = site_keys(whatif.get("sides", {}))
    if not isinstance(table, Mapping):
        v.problem("whatif.sides", f"expected a table, got {describe(table)}")
    elif table:
        letters = v.sides(table, prefix="whatif.sides", keep_missing=True)
        out["sides"] = {site: list(s) for site, s in zip(SITES, letters, strict=True)
                        if s is not None and site in table}
    overrides = whatif.get("overrides", {})
    if not isinstance(overrides, Mapping):
        v.problem("whatif.overrides", f"expected a table, got {describe(overrides)}")
    elif overrides and v.json_safe(overrides, "whatif.overrides"):
        try:
            default_board().with_overrides(overrides, prefix="whatif.overrides")
        except BoardDataError as exc:
            v.problems.extend(exc.problems)
        else:
            out["overrides"] = json.loads(canonical_json(overrides))
            if isinstance(base_overrides, Mapping):
                merged = _deep_merge(base_overrides, overrides)
                rounds = _safe_rounds(merged)
                from imhotep_stats.rules.limits import ROUNDS

                if rounds is not None and rounds > ROUNDS:
                    v.problem("whatif.overrides.game.rounds", f"expected at most {ROUNDS}, "
                              f"got {rounds}")
    if not out.get("sides") and not out.get("overrides"):
        v.problem("whatif", "expected sides or overrides to change (a what-if identical to "
                  "the base compares nothing)")
    return canonical_json(out)


def _safe_rounds(overrides: Mapping[str, Any]) -> int | None:
    try:
        return default_board().with_overrides(overrides).game["rounds"]
    except BoardDataError:
        return None


def _sweep(v: Validator, sweep: Mapping[str, Any]) -> str:
    """Validate [sweep] (adaptive game budget and rounds, ranking) into canonical JSON."""
    v.known(sweep, "sweep", tuple(SWEEP_DEFAULTS))
    out = dict(SWEEP_DEFAULTS)
    out["budget"] = v.integer(sweep, "sweep.budget", minimum=0, default=0, maximum=MAX_GAMES)
    out["rounds"] = v.integer(sweep, "sweep.rounds", minimum=1, default=4, maximum=MAX_ROUNDS)
    out["top"] = v.integer(sweep, "sweep.top", minimum=1, default=10)
    rank_by = v.get(sweep, "sweep.rank_by", str, default="seat_gap")
    if rank_by not in RANK_BY:
        v.problem("sweep.rank_by", f"expected one of {', '.join(RANK_BY)}, got {rank_by!r}")
        rank_by = "seat_gap"
    out["rank_by"] = rank_by
    return canonical_json(out)


def _unknown_top(key: str) -> str:
    """An unknown top-level key; a board table's name (``[gamez]``, ``[pyramid]``) goes
    under [overrides], which the hint says."""
    message = unknown_key(key, TOP_KEYS)
    if "did you mean" not in message:
        tables = [*SITES, *(t.split(".")[0] for t in default_board().tables)]
        near = unknown_key(key, list(dict.fromkeys(tables)))
        if "did you mean" in near:
            name = near.split("'")[1]
            message = message.replace("(", f"(board values go under [overrides]: did you mean "
                                      f"[overrides.{name}]? ", 1)
    return message

