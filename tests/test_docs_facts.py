"""What the README and docs/ quote about the code, checked against the code: the `--version`
line, the commands and sub-commands, the files they name, the README's length,
and the evidence file's commands."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# where a path quoted without its folder may live (docs/engine.md speaks of the bots' files
# relative to their package)
BASES = [ROOT, ROOT / "imhotep_stats", ROOT / "imhotep_stats" / "bots" / "greedy",
         ROOT / "imhotep_stats" / "engine"]


def _texts():
    return [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")) for p in DOCS]


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_version_line_quoted_is_the_clis():
    quoted = [(name, line) for name, text in _texts()
              for line in re.findall(r"imhotep-stats --version +# (.+)", text)]
    assert quoted, "the README quotes the --version line"
    out = CliRunner().invoke(main, ["--version"]).output.strip()
    assert all(line == out for _, line in quoted), (out, quoted)


def _commands_quoted() -> list[tuple[str, list[str]]]:
    out = []
    for name, text in _texts():
        for m in re.finditer(r"imhotep-stats ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)", text):
            out.append((name, m.group(1).split()))
    return out


def test_commands_quoted_exist():
    quoted = _commands_quoted()
    assert len(quoted) > 20
    bad = []
    for name, words in quoted:
        cmd = main.commands.get(words[0])
        if cmd is None:
            bad.append((name, " ".join(words)))
        elif isinstance(cmd, click.Group) and len(words) > 1 and words[1] not in cmd.commands:
            bad.append((name, " ".join(words)))
    assert not bad, bad


def test_every_command_is_in_the_readme_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z]+)", readme, re.M)
    assert sorted(set(rows)) == sorted(main.commands)


PATH = re.compile(r"`([A-Za-z0-9_./-]+/[A-Za-z0-9_.-]+\.(?:py|pxd|rs|toml|md|json))`")


@pytest.mark.parametrize("name,text", _texts(), ids=lambda x: x if x.endswith(".md") else "")
def test_files_quoted_exist(name, text):
    # run-directory paths (reports/NAME/..., adaptive/, tables/) are not repository files
    missing = [p for p in PATH.findall(text) if not p.startswith(("reports/", "adaptive/", "tables/"))
               and not any((base / p).exists() for base in BASES)]
    assert not missing, f"{name} names files that are not there: {missing}"


def test_the_evidence_file_names_its_commands():
    from scripts.evidence import blocks

    found = blocks((ROOT / "docs" / "evidence.md").read_text(encoding="utf-8"))
    names = [m["name"] for m in found]
    assert {"speed", "bots-wins", "bots-sources", "bots-sides", "ladder"} <= set(names)
    for m in found:
        assert m["commands"].strip() and m["body"].strip(), m["name"]


BARE = re.compile(r"`([A-Za-z0-9_]+\.(?:py|pxd))`")


def test_module_files_quoted_by_name_exist():
    """A module named without its folder (`game.pxd`, `temple.py`) exists somewhere."""
    here = {p.name for top in ("imhotep_stats", "tests", "scripts")
            for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".pxd")}
    missing = [(name, f) for name, text in _texts() for f in BARE.findall(text) if f not in here]
    assert not missing, missing


def test_the_expert_the_pages_name_is_the_expert():
    """docs/search.md and docs/skill.md say which search `expert` is: the bot it makes."""
    from imhotep_stats.bots import make_bot

    keys = ("iterations", "rollout", "exploration", "truncate", "bias", "margin", "stop")
    expert = make_bot("expert").spec
    for page in ("search.md", "skill.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        named = set(re.findall(r"`expert` is `(mcts[\w.-]+)`", text))
        assert len(named) == 1, (page, named)
        bot = make_bot(named.pop()).spec
        assert [bot[k] for k in keys] == [expert[k] for k in keys], page


def test_every_ladder_file_has_its_command_in_the_search_page():
    """docs/search.md gives, for each results file in docs/ladder/, the `ladder play` command
    that makes it: the lineup, players, sides, seed and game count the file holds."""
    import json

    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    files = sorted((ROOT / "docs" / "ladder").rglob("*.jsonl"))
    assert files
    missing = []
    for f in files:
        lines = f.read_text(encoding="utf-8").splitlines()
        g = json.loads(lines[0])
        command = (f"--players {g['players']} --lineup {','.join(g['bots'])} --sides {g['sides']} "
                   f"--seed {g['seed']} --games {len(lines)} --out "
                   f"{f.relative_to(ROOT).as_posix()}")
        if command not in text:
            missing.append(command)
    assert not missing, missing


def test_the_evaluate_help_names_the_page_holding_its_tables():
    r = CliRunner().invoke(main, ["evaluate", "--help"])
    assert "docs/evidence.md" in r.output, r.output
    assert "imhotep-stats evaluate" in (ROOT / "docs" / "evidence.md").read_text(encoding="utf-8")


def test_configs_quote_the_experts_iterations_right():
    """A config's comment that gives the expert's budget gives the budget it has."""
    from imhotep_stats.bots import make_bot

    iterations = make_bot("expert").spec["iterations"]
    quoted = [(f.name, int(k.replace(",", ""))) for f in sorted((ROOT / "configs").glob("*.toml"))
              for k in re.findall(r"expert\b[^\n]*?([\d,]+) iterations", f.read_text())]
    assert all(k == iterations for _, k in quoted), (iterations, quoted)


NARRATION = re.compile(
    r"\bstop \d+\b"                                          # "since stop 41"
    r"|\bsession\b"
    r"|(?<![#\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"  # a commit hash
    r"|\b20\d\d-\d\d-\d\d\b")                                # a date


def narration(text: str) -> list[str]:
    return [m.group(0) for m in NARRATION.finditer(text)]


def test_the_pattern_sees_build_narration():
    assert narration("since stop 41 its next32 is small") == ["stop 41"]
    assert narration("against the live objects before (aa513f5: 9.49M A)") == ["aa513f5"]
    assert narration("(compiled accelerator, 2026-11-30, load about 1)") == ["2026-11-30"]
    assert not narration("seat 1 blue (#1f77b4), 1,024 combinations, mcts1900-b1-s, 12,405")
    assert not narration("every decision stops the playout; a 2-player seat-game")


@pytest.mark.parametrize("name,text", _texts(), ids=lambda x: x if x.endswith(".md") else "")
def test_pages_do_not_narrate_builds(name, text):
    """Reference and results pages: the history of how a number was reached is the git log's."""
    assert not narration(text), f"{name}: {narration(text)}"
