"""Studies without a file: one built from command-line flags (``run --sides D-A-C-A-A``), and
the example configs in ``configs/``, shipped in the package as ``imhotep_stats.configs`` (``init``).

A flag-built study is an ordinary :class:`~imhotep_stats.config.StudyConfig` validated by
``parse_config``, named after its flags, so it is stored, resumed and reported like any other.
"""

from __future__ import annotations

import re
import textwrap
from importlib import resources
from typing import Any

from imhotep_stats.config import DEFAULT_MARGIN, ConfigError, StudyConfig, parse_config
from imhotep_stats.rules.board import SITES

QUICK_GAMES = 2000  # per cell, as configs/default.toml: a seat gap of 5 pp is resolved
QUICK_SEED = 2026
QUICK_MARGIN = DEFAULT_MARGIN
SOURCE = "command line"


def parse_sides(text: str, option: str = "--sides") -> dict[str, list[str]]:
    """``D-A-C-A-A`` (market-pyramid-temple-burial_chamber-obelisk) into a [sides] table."""
    from imhotep_stats.engine.errors import RulesError
    from imhotep_stats.engine.setup_checks import parse_sides as letters_of

    try:
        letters = letters_of(text)
    except RulesError:
        raise ConfigError([(option, "expected five side letters A-D joined by '-', one per "
                            f"site ({'-'.join(SITES)}), e.g. D-A-C-A-A; got {text!r}")],
                          SOURCE) from None
    return {site: [s] for site, s in zip(SITES, letters, strict=True)}


def parse_sweep_sides(text: str, option: str = "--sides") -> dict[str, list[str]]:
    """``all-A-all-B-D``: per site "all" (its four sides), a letter, or letters (``AC``)."""
    parts = [s.strip().upper() for s in text.split("-")]
    if len(parts) != len(SITES) or not all(p == "ALL" or re.fullmatch("[ABCD]+", p) for p in parts):
        raise ConfigError([(option, "expected five entries joined by '-', one per site "
                            f"({'-'.join(SITES)}): 'all', a side letter A-D or letters such "
                            f"as AC; e.g. all-A-all-A-D; got {text!r}")], SOURCE)
    return {site: (list("ABCD") if p == "ALL" else list(dict.fromkeys(p)))
            for site, p in zip(SITES, parts, strict=True)}


def quick_raw(sides: str, players: tuple[int, ...] = (3,), bots: str = "greedy",
              games: int = QUICK_GAMES, seed: int = QUICK_SEED,
              margin: float = QUICK_MARGIN, sweep: bool = False) -> dict[str, Any]:
    """The config table a flag-built study stands for (what ``init`` would write);
    ``sweep``: several sides per site allowed (``sweep --sides all-A-all-A-D``)."""
    lineup = [b.strip() for b in bots.split(",") if b.strip()] or ["greedy"]
    table = parse_sweep_sides(sides) if sweep else parse_sides(sides)
    name = "-".join("all" if len(table[s]) == 4 else "".join(table[s]) for s in SITES)
    name += f"-{'-'.join(f'{n}p' for n in players)}-{'_'.join(lineup)}"
    return {
        "study": {"name": name, "seed": seed, "games": games, "players": list(players)},
        "sides": table,
        "bots": {"lineup": lineup},
        "report": {"margin": margin},
    }


def quick_study(sides: str, players: tuple[int, ...] = (3,), bots: str = "greedy",
                games: int = QUICK_GAMES, seed: int = QUICK_SEED,
                margin: float = QUICK_MARGIN, sweep: bool = False) -> StudyConfig:
    """A study of one side combination (``sweep``: of many) built from flags; problems
    name the flag's key."""
    return parse_config(quick_raw(sides, players, bots, games, seed, margin, sweep), SOURCE)


# -- the example configs shipped as package data ----------------------------------------------


def _configs():
    # configs/ at the top of the repository is a link to this package
    return resources.files("imhotep_stats.configs")


def examples_folder() -> str:
    """Where the examples are read from (configs/ in a checkout, the installed package else)."""
    return str(_configs())


def _header(text: str) -> tuple[list[str], str]:
    """An example's leading comment block (its lines) and the rest of the file."""
    lines = text.splitlines(keepends=True)
    n = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    return lines[:n], "".join(lines[n:])


def summary(text: str, at_least: int = 40) -> str:
    """The first whole sentences of an example's header comment, at least ``at_least``
    characters of them (so "Robust to the bots?" brings the sentence that says how)."""
    words = " ".join(line.lstrip("#").strip() for line in _header(text)[0]).strip()
    out = ""
    for m in re.finditer(r".+?(?<!e\.g)(?<!i\.e)[.?!](?=\s|$)", words):
        out = words[:m.end()]
        if len(out) >= at_least:
            break
    return out or words


def examples() -> dict[str, str]:
    """Example name -> the first sentences of its header (what the study asks)."""
    out = {}
    for entry in sorted(_configs().iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".toml"):
            out[entry.name[:-5]] = summary(entry.read_text(encoding="utf-8"))
    return out


def example_text(name: str) -> str:
    """The commented TOML of a shipped example, e.g. ``default``."""
    known = examples()
    if name not in known:
        raise ConfigError([("--example", f"unknown example {name!r} (expected one of "
                            f"{', '.join(known)})")], SOURCE)
    return _configs().joinpath(f"{name}.toml").read_text(
        encoding="utf-8")


def init_text(name: str, example: str = "default", path: str | None = None) -> str:
    """A commented study config: the example with a header of its own (what the example
    asks, how to check and run this file) and its ``[study] name`` set to ``name``."""
    text = example_text(example)
    path = path or f"{name}.toml"
    head = (f"# Study {name!r}, written by `imhotep-stats init` from the example {example!r}"
            " (`imhotep-stats init --list` shows them all). The example asks:\n"
            + "".join(f"#   {line}\n" for line in textwrap.wrap(summary(text), 88))
            + f"# Edit it, check it with `imhotep-stats validate {path}`, run it with\n"
            f"# `imhotep-stats run {path}` (results in reports/{name}/). Every key: "
            "docs/studies.md.\n")
    text = head + _header(text)[1]
    new, count = re.subn(r'(?m)^(name\s*=\s*)"[^"]*"', lambda m: f'{m.group(1)}"{name}"', text,
                         count=1)
    if not count:  # pragma: no cover - every shipped example names its study
        raise ConfigError([("study.name", f"example {example!r} has no study name")], SOURCE)
    return new
