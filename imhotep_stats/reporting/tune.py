"""What ``tune`` prints and writes: the answer first (which candidates bring the target within
the margin, the best one, the games spent), then a table per candidate with its interval and
decision, and in tune.md / tune.html the target against the value (a chart in the HTML)."""

from __future__ import annotations

from typing import Any

from tabulate import tabulate

from imhotep_stats.bots.ratings import basis
from imhotep_stats.reporting import charts, html, markdown
from imhotep_stats.reporting.document import Block, Bullets, Charts, Heading, Note, Para, Table
from imhotep_stats.reporting.headline import spell_sides
from imhotep_stats.reporting.trust import trust_line
from imhotep_stats.stats import fmt as f

DECISION_WORDS = {"within": "within the margin", "outside": "outside the margin",
                  "open": "open: the interval straddles the margin"}
DECISION_KIND = {"within": "v-balanced", "outside": "v-unbalanced", "open": "v-inconclusive"}


def _val(res: dict[str, Any], x: float) -> str:
    return f.pct(x) if res["target"]["percent"] else f.num(x, 3)


def _interval(res: dict[str, Any], c: dict[str, Any]) -> str:
    return f"{_val(res, c['low'])} to {_val(res, c['high'])}"


def _names(labels: list[str]) -> str:
    return ", ".join(f"`{x}`" for x in labels) if labels else "none"


def answer_sentences(res: dict[str, Any]) -> list[str]:
    t, a = res["target"], res["answer"]
    conf = round(100 * res["confidence"])
    band = (f"at most {_val(res, t['goal_high'])}" if t["kind"] == "seat-gap" else
            f"{_val(res, t['goal_low'])} to {_val(res, t['goal_high'])}")
    out = [f"Target: {t['name']} {band} ({spell_sides(res['sides'])}, {res['players']} "
           f"players, {', '.join(res['lineup'])})."]
    out.append(f"Within the margin ({conf}% interval inside it): {_names(a['within'])}.")
    best = next((c for c in res["candidates"] if c["label"] == a["best"]), None)
    if best is not None:
        out.append(f"Closest to the goal: `{best['label']}`, {t['name']} "
                   f"{_val(res, best['value'])} (interval {_interval(res, best)}, "
                   f"{best['games']:,} games; {DECISION_WORDS[best['decision']]}).")
    if a.get("crossing") is not None:
        out.append(f"The estimates cross the goal near {res['params'][0]['path']} = "
                   f"{a['crossing']:.2f} (linear between the neighbouring candidates).")
    for p in res["params"]:
        if p.get("printed") is not None:
            among = "among the candidates" if p["printed"] in p["values"] else "not a candidate"
            out.append(f"Printed value: {p['path']} = {p['printed']} ({among}).")
    if a["open"]:
        out.append(f"Still open (more games, up to --max-games, would decide): "
                   f"{_names(a['open'])}.")
    out.append(f"Outside the margin: {_names(a['outside'])}.")
    out.append(f"Games: {a['games']:,} in all, {res['first_games']:,} per candidate first, "
               f"more only where the decision was close (at most {res['max_games']:,} per "
               "candidate); every candidate plays the same deals (common random numbers).")
    return out


def _rows(res: dict[str, Any]) -> list[list[str]]:
    return [[c["label"], _val(res, c["value"]), _interval(res, c), f"{c['games']:,}",
             DECISION_WORDS[c["decision"]]] for c in res["candidates"]]


def _headers(res: dict[str, Any]) -> list[str]:
    return ["candidate", res["target"]["name"], f"{round(100 * res['confidence'])}% interval",
            "games", "decision"]


def tune_trust(res: dict[str, Any]) -> str:
    """The trust line of a tune: its bots and margin (how near the goal counts as on target)."""
    where = basis(res["players"], res["sides"])
    return trust_line(res["lineup"], res["target"]["margin"], where)[:-1] + \
        " (how near the goal counts as on target)."


def tune_text(res: dict[str, Any]) -> str:
    return ("\n".join(answer_sentences(res)) + "\n" + tune_trust(res) + "\n\n"
            + tabulate(_rows(res), headers=_headers(res), tablefmt="simple",
                       disable_numparse=True) + "\n")


def _chart(res: dict[str, Any]) -> str:
    params = res["params"]
    t = res["target"]
    first = params[0]
    xs = [str(v) for v in first["values"]]
    series: dict[str, list[tuple[float, float, float]]] = {}
    for c in res["candidates"]:
        name = f"{params[1]['path']}={c['values'][1]}" if len(params) > 1 else ""
        series.setdefault(name, []).append((c["value"], c["low"], c["high"]))
    printed = first.get("printed")
    mark = first["values"].index(printed) if printed in first["values"] else None
    return charts.band_points(xs, series, band=(t["goal_low"], t["goal_high"]),
                              title=f"{t['name'][:1].upper()}{t['name'][1:]} by value",
                              percent=t["percent"], band_label="within the margin",
                              mark=mark, mark_label="printed value", x_label=first["path"],
                              y_label=f"{t['name']} ({round(100 * res['confidence'])}% "
                                      "interval)")


def tune_blocks(res: dict[str, Any]) -> list[Block]:
    a = res["answer"]
    kind = "v-balanced" if a["within"] else ("v-inconclusive" if a["open"] else "v-unbalanced")
    conf = round(100 * res["confidence"])
    return [
        Heading(1, f"Tune: {res['target']['name']} against "
                   f"{' and '.join(p['path'] for p in res['params'])}"),
        Note(" ".join(answer_sentences(res)), f"verdict {kind}"),
        Bullets([tune_trust(res)], "trust"),
        Charts([_chart(res)]),
        Table(_headers(res), _rows(res), "lrrrW"),
        Para(f"Intervals are {conf}% confidence sequences: they hold at every look at a "
             f"candidate (the first pass and up to {res['rounds']} adaptive rounds, or any "
             "number of looks), so stopping where an interval clears the margin keeps that "
             "confidence (stats.sequential). Each candidate is a stored run in "
             f"`{res['out']}/` (`imhotep-stats report DIR` renders its full report)."),
    ]


def tune_markdown(res: dict[str, Any]) -> str:
    return markdown.render(tune_blocks(res))


def tune_html(res: dict[str, Any]) -> str:
    return html.render(tune_blocks(res), f"Tune: {res['study']}")
