"""report.html: one self-contained file (inline CSS and SVG, no scripts, no network), so it
opens anywhere, offline, straight from a CI artifact."""

from __future__ import annotations

import re
from html import escape

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

CSS = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
       margin: 0; background: #f6f8fa; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 48px; background: #fff; }
h1 { font-size: 26px; margin: 8px 0 12px; }
h2 { font-size: 20px; margin: 36px 0 10px; padding-top: 12px; border-top: 2px solid #d0d7de; }
h3 { font-size: 16px; margin: 22px 0 8px; }
p { margin: 8px 0; max-width: 980px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3;
       padding: 1px 4px; border-radius: 4px; }
nav { font-size: 13px; margin: 8px 0 16px; }
nav { color: #8c959f; }
nav a { white-space: nowrap; }
.table-wrap { overflow-x: auto; margin: 8px 0 12px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 10px; border-bottom: 1px solid #d8dee4; vertical-align: top;
         white-space: nowrap; }
td.w { white-space: normal; min-width: 7em; }
td.wide { min-width: 13em; }
th { background: #f0f3f6; text-align: left; font-weight: 600; white-space: nowrap; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:hover td { background: #f8fafc; }
.note { border-left: 4px solid #d4a72c; background: #fff8c5; padding: 8px 12px; margin: 10px 0;
        max-width: 980px; }
.note.fail { border-color: #cf222e; background: #ffebe9; }
.note.pass { border-color: #1a7f37; background: #dafbe1; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; margin: 10px 0 16px; }
.charts svg { border: 1px solid #e5e7eb; border-radius: 6px; background: #fff;
              max-width: 100%; height: auto; }
.charts { max-width: 100%; }
.note.verdict { font-size: 15px; }
.v-balanced { border-color: #1a7f37; background: #dafbe1; }
.v-unbalanced { border-color: #cf222e; background: #ffebe9; }
.v-inconclusive { border-color: #9a6700; background: #fff8c5; }
td.v-balanced { color: #1a7f37; background: #dafbe1; }
td.v-unbalanced { color: #a40e26; background: #ffebe9; }
td.v-inconclusive { color: #7d4e00; background: #fff8c5; }
.v-tilted, .v-within { border-color: #0969da; background: #ddf4ff; }
td.v-tilted, td.v-within { color: #0a3069; background: #ddf4ff; }
details { margin: 8px 0; max-width: 980px; }
summary { cursor: pointer; color: #0969da; }
ul.trust { color: #57606a; font-size: 13px; padding-left: 18px; }
@media (max-width: 640px) {
  main { padding: 12px 10px 32px; }
  h1 { font-size: 21px; }
  nav a { white-space: normal; }
  /* Phones: each table row becomes a small card, one "label: value" line per column,
     so nothing (the verdict least of all) sits off-screen to the right. */
  .table-wrap { overflow-x: visible; }
  table, tbody, tr, td { display: block; width: 100%; box-sizing: border-box; }
  thead { display: none; }
  tr { border: 1px solid #d8dee4; border-radius: 6px; margin: 0 0 8px; padding: 4px 0; }
  td, td.r { border: 0; white-space: normal; text-align: left; padding: 2px 8px;
             min-width: 0; overflow-wrap: anywhere; }
  td[data-label]::before { content: attr(data-label) ": "; color: #57606a; font-weight: 600; }
}
footer { color: #57606a; font-size: 12px; margin-top: 32px; }
"""

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text: str) -> str:
    """Escape, then the few inline marks the document uses: **bold**, *italic*, `code`."""
    out = escape(text, quote=False)
    out = _LINK.sub(r'<a href="\2">\1</a>', out)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    return _EM.sub(r"<em>\1</em>", out)


def _table(t: Table) -> str:
    aligns = t.aligns()

    def cls(i: int) -> str:
        return {"r": ' class="r"', "w": ' class="w"', "W": ' class="w wide"'}.get(aligns[i], "")

    verdict = {i for i, h in enumerate(t.headers) if h.startswith("verdict")}

    def td(i: int, x: str) -> str:
        c = cls(i)
        if i in verdict:  # coloured as well as worded: the verdict's first word names it
            word = re.match(r"[*\s]*([a-z]+)", x)
            if word:
                extra = f"v-{word.group(1)}"
                c = f' class="{c[8:-1]} {extra}"' if c else f' class="{extra}"'
        label = f' data-label="{escape(re.sub(r"[*`]", "", t.headers[i]))}"' if t.headers[i] else ""
        return f"<td{c}{label}>{inline(x)}</td>"

    head = "".join(f"<th{cls(i)}>{inline(h)}</th>" for i, h in enumerate(t.headers))
    body = "".join("<tr>" + "".join(td(i, x) for i, x in enumerate(r)) + "</tr>\n"
                   for r in t.rows)
    return (f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead>\n'
            f"<tbody>\n{body}</tbody></table></div>")


def render(blocks: list[Block], title: str) -> str:
    """The full HTML page; a navigation bar links the level-2 headings that have anchors."""
    nav = [f'<a href="#{escape(b.anchor)}">{inline(b.text)}</a>' for b in blocks
           if isinstance(b, Heading) and b.level == 2 and b.anchor]
    body: list[str] = []
    for i, b in enumerate(blocks):
        if isinstance(b, Heading):
            anchor = f' id="{escape(b.anchor)}"' if b.anchor else ""
            body.append(f"<h{b.level}{anchor}>{inline(b.text)}</h{b.level}>")
            if i == 0 and nav:
                body.append("<nav>" + " · ".join(nav) + "</nav>")
        elif isinstance(b, Para):
            body.append(f"<p>{inline(b.text)}</p>")
        elif isinstance(b, Note):
            body.append(f'<div class="note {escape(b.kind)}">{inline(b.text)}</div>')
        elif isinstance(b, Table):
            body.append(_table(b))
        elif isinstance(b, Bullets):
            cls = f' class="{escape(b.kind)}"' if b.kind else ""
            body.append(f"<ul{cls}>" + "".join(f"<li>{inline(x)}</li>" for x in b.items) + "</ul>")
        elif isinstance(b, Fold):
            body.append(f"<details><summary>{inline(b.summary)}</summary><p>{inline(b.text)}</p>"
                        "</details>")
        elif isinstance(b, Charts) and b.svgs:
            body.append('<div class="charts">' + "".join(b.svgs) + "</div>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n<footer>imhotep-stats balance report · self-contained: no scripts, no network"
        "</footer>\n</main>\n</body>\n</html>\n"
    )
