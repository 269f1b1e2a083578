"""No measured figure in the code's comments and docstrings: the package outside engine/ and
bots/ (which the Rust core replaces), and the Rust core's comments (src/, and the crate's
tests/*.rs and examples/). Instruction counts, memory, times and speed-ups drift as the code
changes, so they live in docs/evidence.md with the command that remakes them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = ("engine", "bots")
MEASURED = re.compile(
    r"\d[\d.,]*\s?[KM]\b[^\n]*instructions|instructions[^\n]*\d[\d.,]*\s?[KM]\b"  # 247.6K instructions
    r"|\b\d+(?:\.\d+)?\s?[MG]B\b"                                                  # 30 MB
    r"|\b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?s of (?:start-up|CPU)\b"               # 0.5-1.9 s of start-up
    r"|\b\d+(?:\.\d+)?\s?(?:ns|µs)\b"                                              # 230 -> 58 ns
    r"|\b\d+(?:\.\d+)?x (?:faster|slower|fewer|cheaper)\b"                         # 2.5x faster
    r"|\b\d+(?:\.\d+)?% (?:faster|slower|fewer|cheaper)\b")                        # 4% faster
RUST_COMMENT = re.compile(r"//[^\n]*")


def found(text: str) -> list[str]:
    return [m.group(0) for m in MEASURED.finditer(text)]


def rust_comments(text: str) -> str:
    """The comments of a Rust source (`//`, `///`, `//!`), one a line."""
    return "\n".join(m.group(0) for m in RUST_COMMENT.finditer(text))


def test_the_pattern_sees_measured_figures():
    assert found("# 6.8K of an mcts400 iteration's 247.6K instructions")
    assert found('"""bounds memory (about 30 MB of rows)"""')
    assert found("cost 0.5-1.9 s of start-up on the shared machine")
    assert found("/// a copy by value (Obelisk D's copy 230 -> 58 ns)")
    assert found("// the block's refill is 2.5x faster") and found("//! 4% fewer with the rows")
    assert not found("CHUNK_ROWS = 500_000") and not found("# 2 seconds, seat 1 (3 players)")
    assert not found("/// 4 ships of at most 4 slots: slot k of ship s at 4 s + k.")
    assert not found("pub const DECK: usize = 512; // cards.*.count at most 20")


def test_only_the_comments_of_rust_are_read():
    src = 'let x = "5 ns"; // the 12x faster path\nlet y = 3; /// 17 MB\n'
    assert rust_comments(src) == "// the 12x faster path\n/// 17 MB"
    assert found(rust_comments(src)) == ["12x faster", "17 MB"]


def test_no_measured_figures_in_package_comments():
    bad = []
    for f in sorted((ROOT / "imhotep_stats").rglob("*.py")):
        if f.relative_to(ROOT / "imhotep_stats").parts[0] in SKIP:
            continue
        bad += [f"{f.relative_to(ROOT)}: {hit}" for hit in found(f.read_text(encoding="utf-8"))]
    assert not bad, bad


def test_no_measured_figures_in_the_cores_comments():
    files = [*sorted((ROOT / "src").rglob("*.rs")), *sorted((ROOT / "tests").rglob("*.rs")),
             *sorted((ROOT / "examples").glob("*.rs"))]
    assert len(files) > 20
    bad = [f"{f.relative_to(ROOT)}: {hit}" for f in files
           for hit in found(rust_comments(f.read_text(encoding="utf-8")))]
    assert not bad, bad
