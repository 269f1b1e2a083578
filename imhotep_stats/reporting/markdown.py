"""report.md: GitHub-flavoured Markdown from the report's blocks (charts are HTML-only).

Tables are written here rather than with tabulate's "github" format because that format
drops the column alignment (``---:``) GitHub uses to right-align numbers.
"""

from __future__ import annotations

from imhotep_stats.reporting.document import (
    Block,
    Bullets,
    Charts,
    Fold,
    Heading,
    Note,
    Para,
    Table,
)

_ICONS = {"warning": "⚠️", "fail": "❌", "pass": "✅"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(t: Table) -> str:
    """A GitHub table with aligned columns; pipes in cells escaped."""
    head = [_cell(h) for h in t.headers]
    rows = [[_cell(x) for x in r] for r in t.rows]
    widths = [max([len(head[i]), 3, *[len(r[i]) for r in rows]]) for i in range(len(head))]
    aligns = t.aligns()

    def line(cells: list[str]) -> str:
        out = [c.rjust(w) if a == "r" else c.ljust(w)
               for c, w, a in zip(cells, widths, aligns, strict=True)]
        return "| " + " | ".join(out) + " |"

    rule = ["-" * (w - 1) + ":" if a == "r" else ":" + "-" * (w - 1)  # "l" and "w": left
            for w, a in zip(widths, aligns, strict=True)]
    return "\n".join([line(head), "| " + " | ".join(rule) + " |", *map(line, rows)])


def render(blocks: list[Block]) -> str:
    parts: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            parts.append("#" * b.level + " " + b.text)
        elif isinstance(b, Para):
            parts.append(b.text)
        elif isinstance(b, Note):
            parts.append(f"> {_ICONS.get(b.kind, '')} {b.text}".replace("  ", " "))
        elif isinstance(b, Table):
            parts.append(table(b))
        elif isinstance(b, Bullets):
            parts.append("\n".join(f"- {x}" for x in b.items))
        elif isinstance(b, Fold):  # GitHub renders <details> in Markdown too
            parts.append(f"<details><summary>{b.summary}</summary>\n\n{b.text}\n\n</details>")
        elif isinstance(b, Charts):
            continue
    return "\n\n".join(parts) + "\n"
