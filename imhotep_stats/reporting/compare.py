"""Terminal text, Markdown, HTML and JSON for paired comparisons (``compare``) and sweeps
(``sweep``). The numbers come from ``stats.compare`` and ``stats.sweep``; this module only
lays them out, so the formats always say the same thing.
"""

from __future__ import annotations

import math
from typing import Any

from tabulate import tabulate

from imhotep_stats.reporting import charts, html
from imhotep_stats.reporting.document import Block, Bullets, Charts, Heading, Para, Table
from imhotep_stats.reporting.headline import sweep_sentences
from imhotep_stats.reporting.palette import source_colour, source_name
from imhotep_stats.stats.compare import Comparison, Figure, seat_name, summarize
from imhotep_stats.stats.sweep import WIN_UNIT

# --- comparisons --------------------------------------------------------------------------


def comparison_json(comp: Comparison) -> dict[str, Any]:
    """Every figure with ``base``, ``whatif``, ``diff``, ``ci_low``, ``ci_high`` (and the
    p- and BH q-value), the change in words and the plain-language summary."""
    return {
        "base_dir": comp.base_dir, "whatif_dir": comp.whatif_dir, "change": comp.change,
        "confidence": comp.confidence, "identical": comp.identical,
        "intervals": "confidence sequences" if comp.sequential else "fixed-sample",
        "summary": summarize(comp), "notes": comp.notes,
        "figures": [f.to_json() for f in comp.figures],
    }


def _num(x: float, scale: float = 1.0, digits: int = 2, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x * scale:{'+' if sign else ''}.{digits}f}"


def _row(label: str, f: Figure, scale: float, digits: int) -> list[str]:
    return [label, _num(f.base, scale, digits), _num(f.whatif, scale, digits),
            _num(f.diff, scale, digits, sign=True),
            f"[{_num(f.ci_low, scale, digits)}, {_num(f.ci_high, scale, digits)}]",
            "yes" if f.q_value <= 0.05 else ""]


def _cell_tables(comp: Comparison, cell: str) -> list[tuple[str, list[list[str]]]]:
    figs = [f for f in comp.figures if f.cell == cell]
    tables = []
    seats = [_row(seat_name(f.who), f, 100, 1) for f in figs
             if f.group == "seat" and f.figure == "win_rate"]
    tables.append(("Win rate by seat (%; change in pp)", seats))
    bots = [f for f in figs if f.group == "bot" and f.figure == "win_rate"]
    if len(bots) > 1:
        tables.append(("Win rate by bot (%; change in pp)", [_row(f"bot {f.who}", f, 100, 1)
                                                    for f in bots]))
    pts = [_row("total score" if f.figure == "score" else f.source, f, 1, 2) for f in figs
           if f.group == "all" and f.figure in ("score", "points")]
    tables.append(("Mean points per player by source", pts))
    seat_pts = [_row(f"{seat_name(f.who)}: {f.source}", f, 1, 2) for f in figs
                if f.group == "seat" and f.figure == "points" and f.q_value <= 0.05]
    if seat_pts:
        tables.append(("Points by seat and source (real changes only; all in --json)",
                       seat_pts))
    names = {"decisions": "game length (decisions)", "margin": "winning margin",
             "lead_changes": "lead changes"}
    tables.append(("Game", [_row(names[f.figure], f, 1, 2) for f in figs
                            if f.group == "game"]))
    return tables


def _headers(comp: Comparison) -> list[str]:
    return ["", "base", "what-if", "change", f"{round(comp.confidence * 100)}% interval",
            "real (BH)"]


def comparison_text(comp: Comparison) -> str:
    """Summary sentences, then per cell the seat, bot, source and game tables."""
    out = [f"What-if: {comp.change}", ""]
    out += summarize(comp)
    for cell in dict.fromkeys(f.cell for f in comp.figures):
        f0 = next(f for f in comp.figures if f.cell == cell)
        out += ["", f"== {f0.whatif_cell.split('|')[0]} (base {cell.split('|')[0]}), "
                f"{f0.players} players, lineup {cell.split('|')[2]}: {f0.games:,} paired games"]
        for title, rows in _cell_tables(comp, cell):
            out += ["", title, tabulate(rows, headers=_headers(comp), tablefmt="simple",
                                        disable_numparse=True)]
    return "\n".join(out) + "\n"


def comparison_markdown(comp: Comparison) -> str:
    """The same as ``comparison_text`` in GitHub Markdown."""
    out = [f"# What-if: {comp.change}", "", *[f"- {s}" for s in summarize(comp)], "",
           f"Paired on the same seeds: base `{comp.base_dir}`, what-if `{comp.whatif_dir}`. "
           "Intervals use the per-game differences; \"real\" means the change survives "
           "Benjamini-Hochberg at 5% over every figure of this comparison."
           + (" The runs were looked at more than once (topped up, or their games judged "
              "before), so the intervals are confidence sequences and the p-values hold at "
              "every look." if comp.sequential else "")]
    for cell in dict.fromkeys(f.cell for f in comp.figures):
        f0 = next(f for f in comp.figures if f.cell == cell)
        out += ["", f"## {f0.whatif_cell.split('|')[0]}, {f0.players} players "
                f"({f0.games:,} paired games)"]
        for title, rows in _cell_tables(comp, cell):
            out += ["", f"### {title}", "", tabulate(rows, headers=_headers(comp),
                                                     tablefmt="github", disable_numparse=True)]
    return "\n".join(out) + "\n"


def _change_chart(figs: list[Figure], labels: list[str], colours: list[str], *, title: str,
                  x_label: str, percent: bool) -> str:
    return charts.interval_rows(labels, [f.diff for f in figs], [f.ci_low for f in figs],
                                [f.ci_high for f in figs], title=title, x_label=x_label,
                                reference_label="no change", percent=percent,
                                colours=colours)


def _cell_charts(comp: Comparison, cell: str) -> list[str]:
    """The changes with their intervals: seat win rates (seat colours) and mean points per
    player by source (source colours)."""
    conf = f"{round(comp.confidence * 100)}%"
    figs = [f for f in comp.figures if f.cell == cell]
    seats = [f for f in figs if f.group == "seat" and f.figure == "win_rate"]
    pts = [f for f in figs if f.group == "all" and f.figure == "points"
           and not (f.base == 0 and f.whatif == 0)]
    out = []
    if seats:
        out.append(_change_chart(
            seats, [f"seat {f.who + 1}" for f in seats],
            charts.seat_colours(len(seats)), percent=True,
            title=f"Change in seat win rate ({conf} CI)",
            x_label="what-if minus base (pp of win rate)"))
    if pts:
        out.append(_change_chart(
            pts, [source_name(f.source) for f in pts], [source_colour(f.source) for f in pts],
            percent=False, title=f"Change in points by source ({conf} CI)",
            x_label="what-if minus base (mean points per player)"))
    return out


def comparison_blocks(comp: Comparison, verdicts: list[str], trust: list[str]) -> list[Block]:
    """compare.html's content: the verdicts before and after, the trust lines, the summary,
    then per cell the charts of the changes and the tables of ``comparison_text``."""
    blocks: list[Block] = [Heading(1, f"What-if: {comp.change}"),
                           Heading(2, "The answer", "answer"), Bullets(verdicts + summarize(comp)),
                           Bullets(trust, "trust"),
                           Para(f"Paired on the same seeds: base `{comp.base_dir}`, what-if "
                                f"`{comp.whatif_dir}`. Intervals use the per-game differences; "
                                "\"real\" means the change survives Benjamini-Hochberg at 5% "
                                "over every figure of this comparison.")]
    blocks += [Para(n) for n in comp.notes]
    for i, cell in enumerate(dict.fromkeys(f.cell for f in comp.figures)):
        f0 = next(f for f in comp.figures if f.cell == cell)
        blocks += [Heading(2, f"{f0.whatif_cell.split('|')[0]} (base {cell.split('|')[0]}), "
                              f"{f0.players} players, lineup {cell.split('|')[2]}: "
                              f"{f0.games:,} paired games", f"cell-{i + 1}"),
                   Charts(_cell_charts(comp, cell))]
        for title, rows in _cell_tables(comp, cell):
            blocks += [Heading(3, title), Table(_headers(comp), rows)]
    return blocks


def comparison_html(comp: Comparison, verdicts: list[str], trust: list[str]) -> str:
    """compare.html: one self-contained page, like report.html (``reporting.html``)."""
    return html.render(comparison_blocks(comp, verdicts, trust), f"What-if: {comp.change}")


# --- sweeps -------------------------------------------------------------------------------


def _pct(x: Any, digits: int = 1) -> str:
    return "-" if x is None else f"{x * 100:.{digits}f}"


def _effect_rows(rows: list[dict[str, Any]], interaction: bool = False) -> list[list[str]]:
    out = []
    for e in rows:
        scale, digits = (100, 1) if e["unit"] == WIN_UNIT else (1, 2)
        what = (f"{e['site']} {e['side']} x {e['site2']} {e['side2']}" if interaction
                else f"{e['site']} {e['side']}")
        out.append([f"{e['players']}p", e["response"], what,
                    _num(e["effect"], scale, digits, sign=True),
                    f"[{_num(e['ci_low'], scale, digits)}, {_num(e['ci_high'], scale, digits)}]",
                    f"{e['q_value']:.3g}" if e["q_value"] is not None else "-"])
    return out


def _ranking_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    return [[r["rank"], r["sides"], r["players"], f"{r['games']:,}", _pct(r["seat_gap"]),
             f"{_pct(r.get('gap_low'))}-{_pct(r.get('gap_high'))}",
             _pct(r["start_player"]), _pct(r["bot_gap"]),
             f"{r['top_source']} {_pct(r['dominance'], 0)}%", r["verdict_text"]]
            for r in rows]


RANK_HEAD = ["#", "sides", "players", "games", "seat gap", "gap bounds", "start player", "bot gap",
             "top source share", "verdict (BH)"]
EFFECT_HEAD = ["players", "response", "side", "effect", "95% interval", "q (BH)"]


def sweep_text(res: dict[str, Any], fmt: str = "simple") -> str:
    """Ranking, verdict counts, main effects and the strongest interactions."""
    md = fmt == "github"
    h = (lambda t: f"## {t}") if md else (lambda t: f"== {t}")
    v = res["verdicts"]
    out = [("# " if md else "") + f"Sweep {res['study']}: {res['cells']} cells, "
           f"{res['games']:,} games",
           "", *[("- " if md else "") + s for s in sweep_sentences(res)],  # the answer first
           "",
           f"Seat fairness within ±{res['margin'] * 100:.1f} pp (Benjamini-Hochberg over "
           f"every cell): {v['balanced']} balanced, {v['tilted']} within the margin but "
           f"tilted, {v['unbalanced']} unbalanced beyond it, "
           f"{v['inconclusive']} inconclusive."]
    if res.get("adaptive"):
        a = res["adaptive"]
        out += ["", f"Adaptive allocation: {a['extra_games']:,} extra games in "
                f"{len(a['rounds'])} round(s) (budget {a['budget']:,}); stopped: {a['stopped']}."]
    by = ("the seat gap shown at least (lower bound)" if res["rank_by"] == "seat_gap"
          else res["rank_by"].replace("_", " "))
    out += ["", h(f"Most imbalanced combinations (by {by}, win rates in %, gaps in pp)"), "",
            tabulate(_ranking_rows(res["ranking"]), headers=RANK_HEAD, tablefmt=fmt,
                     disable_numparse=True), "", _confirm_hint(res)]
    if res.get("confirm"):
        out += ["", h("Confirmation on fresh games (Holm over the confirmed cells)"), "",
                tabulate([[c["rank"], c["sides"], c["players"], c["sweep_verdict"],
                           c.get("bots", c["lineup"]), f"{c['games']:,}", c["seed"],
                           c["verdict_text"]]
                          for c in res["confirm"]],
                         headers=["#", "sides", "players", "sweep verdict (BH)", "bots",
                                  "games", "seed", "confirmation"], tablefmt=fmt,
                         disable_numparse=True),
                "", "Each confirmation played fresh games (another seed): the sweep's own "
                "games chose these combinations, so only new games can confirm them."]
    if res.get("sites"):
        rows = [[f"{e['players']}p", e["site"], f"{e['side']}: {e['response']}",
                 _num(e["effect"], 100, 1, sign=True),
                 f"[{_num(e['ci_low'], 100, 1)}, {_num(e['ci_high'], 100, 1)}]",
                 f"{e['q_value']:.3g}" if e["q_value"] is not None else "-"]
                for e in res["sites"]]
        out += ["", h("Which site moves the seats most (its largest main effect on a seat's "
                      "win rate)"), "",
                tabulate(rows, headers=["players", "site", "side: seat", "effect",
                                        "95% interval", "q (BH)"], tablefmt=fmt,
                         disable_numparse=True)]
    out += ["", h("Main effects (sum-to-zero: cells with the side minus the mean of all "
                  "cells; strongest first)"), "",
            tabulate(_effect_rows(res["main_effects_top"]), headers=EFFECT_HEAD, tablefmt=fmt,
                     disable_numparse=True)]
    if res["interactions_top"]:
        out += ["", h("Strongest two-site interactions"), "",
                tabulate(_effect_rows(res["interactions_top"], True), headers=EFFECT_HEAD,
                         tablefmt=fmt, disable_numparse=True)]
    out += ["", *res["notes"]]
    return "\n".join(out) + "\n"


def _confirm_hint(res: dict[str, Any]) -> str:
    """How to confirm a combination: the ranking's top is the extreme of many cells."""
    if not res["ranking"]:
        return ""
    top = res["ranking"][0]
    return (f"Confirm a combination on fresh games: `imhotep-stats sweep ... --confirm K` "
            f"plays the top K again, or `imhotep-stats run --sides {top['sides']} --players "
            f"{top['players']} --bots {top['lineup']}` (a run of a cell this sweep judged "
            "plays fresh games by default: these games chose it, so they cannot confirm it).")


def sweep_markdown(res: dict[str, Any]) -> str:
    return sweep_text(res, fmt="github")
