"""Reports on synthetic stored runs: every figure against an independent reference, a
planted bias detected, a null case left alone, gates, the Markdown snapshot, outputs.

The synthetic runs are hand-made results tables (``synthetic_run``) written with the run
store's own functions, so these tests do not depend on the engine or the bots: a known
bias is planted in the points, and scores, ranks and shared wins follow from the points.
Set IMHOTEP_UPDATE_SNAPSHOTS=1 to rewrite tests/snapshots/ after an intended change.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from imhotep_stats.reporting.build import FORMATS, build_report, parse_formats
from imhotep_stats.reporting.figures import compute
from imhotep_stats.reporting.gates import GateConfigError, evaluate, gate_problems
from imhotep_stats.sim import store
from imhotep_stats.sim.schema import CARDS, COLUMNS, SOURCES, TOOK
from imhotep_stats.stats.breakdowns import fairness
from imhotep_stats.stats.intervals import min_detectable_difference

SNAPSHOTS = Path(__file__).parent / "snapshots"
SCHEMA = {name: getattr(pl, dtype) for name, dtype in COLUMNS.items()}
USED = ("market", "pyramid", "temple", "burial_chamber", "obelisk", "card_statue")
ROUND_COLS = [f"round_{r}" for r in range(1, 7)]


# --- a synthetic run ---------------------------------------------------------------------


def _game_rows(rng: random.Random, cell: dict, game: int) -> list[dict]:
    """One game: points per source (plus the planted bonuses), then scores, ranks, shares."""
    players, lineup = cell["players"], cell["lineup"]
    seats = []
    for s in range(players):
        bot = lineup[(s + game) % len(lineup)]
        pts = {src: 0 for src in SOURCES}
        pts.update(market=rng.randint(0, 4), pyramid=rng.randint(0, 14),
                   temple=rng.randint(0, 12), burial_chamber=rng.randint(0, 10),
                   obelisk=rng.randint(0, 12), card_statue=rng.randint(0, 3))
        pts["pyramid"] += cell.get("seat_bonus", {}).get(s, 0)
        pts["temple"] += cell.get("bot_bonus", {}).get(bot, 0)
        seats.append((bot, pts))
    scores = [sum(p.values()) for _, p in seats]
    top = max(scores)
    winners = [s for s in range(players) if scores[s] == top]
    second = max([x for s, x in enumerate(scores) if s not in winners], default=top)
    lead, decisions = rng.randint(0, 6), rng.randint(80, 110)
    rows = []
    for s, (bot, pts) in enumerate(seats):
        end = pts["burial_chamber"] + pts["obelisk"]
        rest = scores[s] - end
        rounds = [rest // 6] * 5 + [rest - 5 * (rest // 6)]
        row = {
            "cell": cell["id"], "sides": cell["sides"], "players": players,
            "lineup": ",".join(lineup), "game": game, "seat": s, "bot": bot,
            "score": scores[s], "rank": 1 + sum(x > scores[s] for x in scores),
            "win_share": 1 / len(winners) if s in winners else 0.0, "sled": 0,
            "decisions": decisions, "lead_changes": lead,
            "margin": top - second if len(winners) == 1 else 0,
            **{f"pts_{k}": v for k, v in pts.items()},
            **dict(zip(ROUND_COLS, rounds, strict=True)), "round_end": end,
            # Cards taken, derived without drawing (the random stream stays as it was).
            **{f"took_{c}": 0 for c in CARDS}, "took_statue": pts["card_statue"] % 3,
            "took_sail": (game + s) % 2,
        }
        rows.append(row)
    return rows


def synthetic_run(run_dir: Path, cells: list[dict], games: int, seed: int = 1, *,
                  margin: float = 0.05, gates: dict | None = None,
                  board: dict | None = None, cards: bool = True) -> Path:
    """A finished run directory: manifest plus one shard per cell.

    ``cells``: dicts with sides, players, lineup and optional ``seat_bonus`` {seat: pyramid
    points} and ``bot_bonus`` {bot: temple points}: the planted biases. ``cards=False``
    writes a run as before issue 16: no ``took_*`` columns, none in the manifest's schema.
    """
    rng = random.Random(seed)
    (run_dir / store.SHARDS).mkdir(parents=True, exist_ok=True)
    entries = []
    for i, cell in enumerate(cells):
        cell["lineup"] = tuple(cell["lineup"])
        cell["id"] = f"{cell['sides']}|{cell['players']}p|{','.join(cell['lineup'])}"
        rows = [r for g in range(games) for r in _game_rows(rng, cell, g)]
        frame = pl.DataFrame(rows, schema=SCHEMA)
        store.write_shard(run_dir, i, 0, frame if cards else frame.drop(TOOK))
        entries.append({"index": i, "id": cell["id"], "sides": cell["sides"],
                        "players": cell["players"], "lineup": list(cell["lineup"]),
                        "games": games, "batches": 1})
    sides = {}
    for cell in cells:
        for site, letter in zip(("market", "pyramid", "temple", "burial_chamber", "obelisk"),
                                cell["sides"].split("-"), strict=True):
            sides[f"{site}.{letter}"] = {"provenance": "rulebook", "provisional_keys": [],
                                         "overridden": []}
    board = board or {}
    for name, rec in board.get("sides", {}).items():
        sides[name] = rec
    store.write_manifest(run_dir, {
        "format": store.FORMAT, "tool": "imhotep-stats", "version": "0.0-test",
        "status": "complete", "study": "synthetic", "config_source": "synthetic.toml",
        "config_hash": "0" * 64,
        "config": {"report": {"margin": margin, "confidence": 0.95}, "gates": gates or {}},
        "seeds": {"root": seed}, "games_per_cell": games, "cells": entries,
        "board": {"sides": sides, "overridden": board.get("overridden", {})},
        "started": "2026-01-01T00:00:00+00:00", "finished": "2026-01-01T00:01:00+00:00",
        "schema": {k: v for k, v in COLUMNS.items() if cards or k not in TOOK},
    })
    return run_dir


MIXED = {"sides": "A-A-A-A-A", "players": 3, "lineup": ("strong", "weak", "weak"),
         "bot_bonus": {"strong": 6}}
FOUR = {"sides": "A-B-A-A-A", "players": 4, "lineup": ("weak",)}
TWO = {"sides": "A-A-A-A-A", "players": 2, "lineup": ("weak",)}


@pytest.fixture(scope="module")
def ref_run(tmp_path_factory):
    """Three cells (a mixed lineup, four players, two players) of 90 games."""
    d = tmp_path_factory.mktemp("ref")
    cells = [dict(MIXED), dict(FOUR), dict(TWO)]
    synthetic_run(d, cells, 90, seed=5)
    rows = pl.concat([pl.read_parquet(p) for p in store.shard_files(d)])
    return d, rows, compute(d)


# --- independent references --------------------------------------------------------------

Z = stats.norm.ppf(0.975)


def wilson_by_hand(x: float, n: int) -> tuple[float, float]:
    """Wilson (1927): (p + z^2/2n +/- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = x / n
    centre = p + Z * Z / (2 * n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - half) / (1 + Z * Z / n), (centre + half) / (1 + Z * Z / n)


def t_interval(values) -> tuple[float, float, float]:
    v = np.asarray(values, dtype=float)
    lo, hi = stats.t.interval(0.95, v.size - 1, loc=v.mean(), scale=stats.sem(v))
    return v.mean(), lo, hi


def holm_by_hand(p: list[float]) -> list[float]:
    """Holm (1979) step-down, written out: the i-th smallest times (m - i), running max."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def _df(data, name, cell):
    return data.tables[name].filter(pl.col("cell") == cell)


def test_win_rates_wilson_and_resolvable_difference(ref_run):
    _, rows, data = ref_run
    for c in data.cells:
        for r in _df(data, "win_rates_seat", c.id).iter_rows(named=True):
            x = rows.filter((pl.col("cell") == c.id) & (pl.col("seat") == r["seat"]))
            wins = x["win_share"].sum()
            assert r["games"] == x.height == 90
            assert r["wins"] == pytest.approx(wins, abs=1e-9)
            assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson_by_hand(wins, 90))
            if float(wins).is_integer():  # scipy's Wilson needs whole wins
                ci = stats.binomtest(int(wins), 90).proportion_ci(method="wilson")
                assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high))
            assert r["mdd"] == pytest.approx(min_detectable_difference(90, 1 / c.players))
        for r in _df(data, "win_rates_bot", c.id).iter_rows(named=True):
            x = rows.filter((pl.col("cell") == c.id) & (pl.col("bot") == r["bot"]))
            assert (r["games"], r["wins"]) == (x.height, pytest.approx(x["win_share"].sum()))
    # Shared wins exist in this data and count as fractions.
    assert rows.filter(pl.col("win_share").is_between(0.01, 0.99)).height > 0


def test_seat_fairness_chi_square_and_holm(ref_run):
    _, rows, data = ref_run
    raw, raw_eq, where = [], [], []
    for c in data.cells:
        wins = [rows.filter((pl.col("cell") == c.id) & (pl.col("seat") == s))["win_share"].sum()
                for s in range(c.players)]
        ref = stats.chisquare(wins)
        v = c.verdict
        assert (v.chi2, v.chi2_p) == pytest.approx((ref.statistic, ref.pvalue))
        p0 = 1 / c.players
        rates = [w / 90 for w in wins]
        gap = max(rates, key=lambda r: abs(r - p0)) - p0
        assert v.largest_gap == pytest.approx(abs(gap))
        for s in range(1 if c.players == 2 else c.players):  # two seats: one test
            z = (rates[s] - p0) / math.sqrt(p0 * (1 - p0) / 90)
            raw.append(2 * stats.norm.sf(abs(z)))
            # TOST (Schuirmann): two one-sided score tests at p0 -/+ margin 0.05.
            lo, hi = p0 - 0.05, p0 + 0.05
            raw_eq.append(max(
                stats.norm.sf((rates[s] - lo) / math.sqrt(lo * (1 - lo) / 90)),
                stats.norm.cdf((rates[s] - hi) / math.sqrt(hi * (1 - hi) / 90))))
            where.append((c.id, s))
    assert data.family == len(raw) == 3 + 4 + 1
    adjusted = dict(zip(where, holm_by_hand(raw), strict=True))
    raw_eq = dict(zip(where, raw_eq, strict=True))
    # "Within" is a cell claim: the cell's p-value is its seats' largest, then Holm over
    # the three cells (not the eight seats).
    cells = [c.id for c in data.cells]
    within = dict(zip(cells, holm_by_hand([max(p for (c, _), p in raw_eq.items() if c == cid)
                                           for cid in cells]), strict=True))
    for c in data.cells:
        assert c.verdict.p_within == pytest.approx(within[c.id])
    for r in data.tables["win_rates_seat"].iter_rows(named=True):
        key = (r["cell"], 0 if r["cell"].endswith("2p|weak") else r["seat"])
        assert r["p_deviation"] == pytest.approx(adjusted[key]), key
        assert r["p_equivalence"] == pytest.approx(raw_eq[key]), key
        assert r["gap"] == pytest.approx(r["win_rate"] - 1 / data.cell(r["cell"]).players)


def test_score_sources_against_references(ref_run):
    _, rows, data = ref_run
    cell = data.cells[0]
    x = rows.filter(pl.col("cell") == cell.id)
    for r in _df(data, "points_seat", cell.id).iter_rows(named=True):
        vals = x.filter(pl.col("seat") == r["seat"])[f"pts_{r['source']}"]
        if vals.std() == 0:
            continue
        assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(t_interval(vals))
    for r in _df(data, "points_cell", cell.id).iter_rows(named=True):
        assert r["share"] == pytest.approx(x[f"pts_{r['source']}"].sum() / x["score"].sum())
    # Winner minus the mean of the others, per game, then a t interval over games.
    diffs: dict[str, list[float]] = {s: [] for s in [*USED, "total"]}
    for g in range(90):
        game = x.filter(pl.col("game") == g)
        share = game["win_share"].to_numpy()
        lost = share == 0
        if not lost.any():
            continue
        for s in diffs:
            col = game["score" if s == "total" else f"pts_{s}"].to_numpy().astype(float)
            diffs[s].append(float((share * col).sum() - col[lost].mean()))
    sep = {r["source"]: r for r in _df(data, "winner_separation", cell.id).iter_rows(named=True)}
    for s, v in diffs.items():
        assert (sep[s]["mean"], sep[s]["ci_low"], sep[s]["ci_high"]) == pytest.approx(
            t_interval(v)), s


def test_bot_strength_matrix_and_rating(ref_run):
    _, rows, data = ref_run
    cell = data.cells[0]
    x = rows.filter(pl.col("cell") == cell.id)
    w = {("strong", "weak"): 0.0, ("weak", "strong"): 0.0}
    per_game = []  # strong's wins over weak, comparisons, per game
    for g in range(90):
        game = x.filter(pl.col("game") == g).select("bot", "rank").rows()
        before = w[("strong", "weak")]
        n = 0
        for (a, ra), (b, rb) in combinations(game, 2):
            if a == b:
                continue
            n += 1
            if ra == rb:
                w[(a, b)] += 0.5
                w[(b, a)] += 0.5
            else:
                w[(a, b) if ra < rb else (b, a)] += 1
        per_game.append((w[("strong", "weak")] - before, n))
    m = {(r["bot"], r["opponent"]): r for r in _df(data, "bot_matrix", cell.id).iter_rows(
        named=True)}
    for key, wins in w.items():
        assert m[key]["wins"] == pytest.approx(wins)
        assert m[key]["games"] == 180  # 2 weak seats x 90 games
    ratings = {r["bot"]: r for r in _df(data, "bot_ratings", cell.id).iter_rows(named=True)}
    # Two bots: the MLE is the observed odds, 400 log10(w / l), split around the mean.
    gap = 400 * math.log10(w[("strong", "weak")] / w[("weak", "strong")])
    assert ratings["strong"]["rating"] == pytest.approx(gap / 2)
    assert ratings["weak"]["rating"] == pytest.approx(-gap / 2)
    # Game-clustered (sandwich) interval; with two bots it is the delta method on the
    # clustered variance of the win share p = w / (w + l): var(logit p) = var(p) /
    # (p (1 - p))^2, halved for each bot. A block is a whole rotation of the 3-bot lineup
    # (3 consecutive games, aggregate.RATING_BLOCKS): 30 blocks.
    total = w[("strong", "weak")] + w[("weak", "strong")]
    p = w[("strong", "weak")] / total
    blocks = [tuple(map(sum, zip(*per_game[b:b + 3], strict=True))) for b in range(0, 90, 3)]
    var_p = 30 / 29 * sum((wb - p * n) ** 2 for wb, n in blocks) / total ** 2
    se = 400 / math.log(10) * math.sqrt(var_p) / (p * (1 - p))
    assert ratings["strong"]["se"] == pytest.approx(se / 2)
    assert ratings["strong"]["variance"] == "cluster sandwich"
    assert ratings["strong"]["ci_low"] > 0  # the planted +6 temple points show
    assert data.rows("bot_ratings", data.cells[1].id) == []  # one bot: no rating


def test_game_shape_rounds_and_histograms(ref_run):
    _, rows, data = ref_run
    cell = data.cells[1]
    x = rows.filter(pl.col("cell") == cell.id)
    rp = {(r["seat"], r["round"]): r for r in _df(data, "round_points", cell.id).iter_rows(
        named=True)}
    assert len(rp) == 4 * 7
    for s in range(4):
        for rd, col in [*[(str(i), f"round_{i}") for i in range(1, 7)], ("end", "round_end")]:
            vals = x.filter(pl.col("seat") == s)[col]
            got = rp[(s, rd)]
            assert (got["mean"], got["ci_low"], got["ci_high"]) == pytest.approx(
                t_interval(vals))
    margins = x.filter(pl.col("seat") == 0)["margin"].value_counts()
    hist = dict(_df(data, "margin_distribution", cell.id).select("margin", "count").rows())
    assert hist == dict(margins.rows())
    scores = _df(data, "score_distribution", cell.id)
    assert scores["count"].sum() == 4 * 90
    shape = data.rows("game_shape", cell.id)[0]
    assert shape["score_median"] == pytest.approx(np.median(x["score"].to_numpy()))


# --- planted bias, null case ---------------------------------------------------------------


def test_planted_seat_bias_is_detected_and_gated(tmp_path):
    biased = {"sides": "A-A-A-A-A", "players": 3, "lineup": ("weak",), "seat_bonus": {1: 8}}
    fair = {"sides": "B-A-A-A-A", "players": 3, "lineup": ("weak",)}
    d = synthetic_run(tmp_path, [biased, fair], 300, seed=9, margin=0.05,
                      gates={"no_unbalanced": True, "max_seat_gap": 0.1})
    rep = build_report(d, ())
    b, f = rep.data.cells
    assert b.verdict.verdict == "unbalanced" and b.verdict.largest_gap_seat == 1
    assert re.fullmatch(r"unbalanced beyond ±5\.0 pp: seat 2 wins \d\d\.\d% against 33\.3% "
                        r"fair share", rep.data.tables["seat_fairness"]["text"][0])
    assert f.verdict.verdict != "unbalanced"
    assert [(g.gate, g.passed) for g in rep.gates] == [("max_seat_gap", False),
                                                       ("no_unbalanced", False)]
    assert "seat 2 off by" in rep.gates[0].detail and "A-A-A-A-A" in rep.gates[1].detail
    assert "B-A-A-A-A" not in rep.gates[1].detail
    assert "unbalanced beyond ±5.0 pp: seat 2 wins" in rep.markdown


def test_null_report_calls_no_cell_unbalanced(tmp_path):
    """Twelve identical-bot cells in one report: Holm keeps the chance of any false
    'unbalanced' at 5%, and this seed's report has none."""
    cells = [{"sides": f"{s}-A-A-A-A", "players": n, "lineup": ("weak",)}
             for s in "ABCD" for n in (2, 3, 4)]
    d = synthetic_run(tmp_path, cells, 150, seed=3)
    data = compute(d)
    assert data.family == 4 * (1 + 3 + 4)
    assert [c.verdict.verdict for c in data.cells].count("unbalanced") == 0


def test_null_case_family_wise_rate_within_level():
    """Seat wins of identical players, 5 cells per report, 300 reports: the share of reports
    with any 'unbalanced' cell stays within alpha (plus 3 standard errors)."""
    rng = np.random.default_rng(11)
    reps, alpha, games = 300, 0.05, 400
    hits = 0
    for _ in range(reps):
        rows = []
        for c, players in enumerate((2, 3, 3, 4, 4)):
            winners = rng.integers(0, players, games)
            for s in range(players):
                rows.append({"cell": f"c{c}", "seat": s, "games": games,
                             "wins": float(np.sum(winners == s))})
        verdicts, _ = fairness(pl.DataFrame(rows), [f"c{c}" for c in range(5)], 0.02, alpha)
        hits += any(v.verdict == "unbalanced" for v in verdicts.values())
    assert hits / reps <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)


# --- notes, gates, outputs -----------------------------------------------------------------


BOARD = {"sides": {
    "market.B": {"provenance": "provisional", "provisional_keys": ["display"], "overridden": []},
    "pyramid.A": {"provenance": "rulebook", "provisional_keys": [], "overridden": ["points"]},
}, "overridden": {"pyramid.A": {"points": [1]}, "game": {"rounds": 6}}}


@pytest.fixture(scope="module")
def snapshot_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("snap")
    cells = [{"sides": "A-A-A-A-A", "players": 3, "lineup": ("strong", "weak", "weak"),
              "bot_bonus": {"strong": 4}},
             {"sides": "B-A-A-A-A", "players": 2, "lineup": ("weak",)}]
    gates = {"max_seat_gap": 0.2, "source_share": {"pyramid": [0.3, 0.5]}}
    synthetic_run(d, cells, 40, seed=2, gates=gates, board=BOARD)
    return d


def test_markdown_snapshot(snapshot_run, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    rep = build_report(snapshot_run, ("md",))
    path = SNAPSHOTS / "report_synthetic.md"
    if os.environ.get("IMHOTEP_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(rep.markdown, encoding="utf-8")
    assert (snapshot_run / "report.md").read_text(encoding="utf-8") == rep.markdown
    assert rep.markdown == path.read_text(encoding="utf-8")


def test_data_notes_for_provisional_and_overridden_sides(snapshot_run):
    data = compute(snapshot_run)
    a, b = data.cells
    assert len(a.notes) == 1 and "pyramid.A is overridden by the study config (points)" in a.notes[0]
    assert any("market.B uses provisional board data (display)" in n for n in b.notes)
    assert data.global_notes == ["board table game is overridden by the study config (every "
                                 "cell): a what-if"]


def test_every_output_and_step_summary(snapshot_run, tmp_path, monkeypatch):
    summary = tmp_path / "step.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    rep = build_report(snapshot_run)
    assert summary.read_text() == "earlier step\n" + rep.markdown  # appended, not replaced
    names = {p.relative_to(snapshot_run).as_posix() for p in rep.written}
    assert {"report.md", "report.html", "summary.json", "tables/win_rates_seat.csv",
            "tables/win_rates_seat.parquet", "tables/gates.csv", "tables/bot_ratings.csv",
            "tables/points_seat.parquet"} <= names
    for name in rep.data.tables:
        csv = pl.read_csv(snapshot_run / "tables" / f"{name}.csv")
        pq = pl.read_parquet(snapshot_run / "tables" / f"{name}.parquet")
        assert csv.height == pq.height == rep.data.tables[name].height
    html = (snapshot_run / "report.html").read_text()
    assert html.count("<svg") >= 6 and "<script" not in html and "<link" not in html
    assert not re.search(r"(?:src|href)=\"(?!#)", html)  # nothing fetched, only anchors
    assert set(re.findall(r"https?://[^\s\"']+", html)) == {"http://www.w3.org/2000/svg"}
    js = json.loads((snapshot_run / "summary.json").read_text())
    seat = js["cells"][0]["seats"][0]
    for key in ("seat", "games", "wins", "win_rate", "ci_low", "ci_high", "points"):
        assert key in seat
    assert set(js["cells"][0]["bots"][0]) >= {"bot", "games", "wins", "win_rate", "ci_low",
                                              "ci_high", "points"}
    assert seat["points"]["total"] == pytest.approx(sum(
        v for k, v in seat["points"].items() if k != "total"))
    assert js["cells"][0]["fairness"]["verdict"] in ("balanced", "unbalanced", "inconclusive")
    assert js["gates"]["passed"] is False  # pyramid share is below 0.3 here
    assert [g["gate"] for g in js["gates"]["results"]] == ["max_seat_gap",
                                                           "source_share.pyramid"]
    assert js["cells"][0]["bot_ratings"][0]["bot"] == "strong"


def test_a_second_build_is_byte_identical(snapshot_run, tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    first = build_report(snapshot_run)
    before = {p: p.read_bytes() for p in first.written}
    second = build_report(snapshot_run)
    assert {p: p.read_bytes() for p in second.written} == before


def test_gate_keys_are_validated_with_dotted_keys():
    assert gate_problems({"max_seat_gap": 0.05, "no_unbalanced": True,
                          "require_balanced": False,
                          "source_share": {"pyramid": [0.1, 0.4]}}) == []
    problems = dict(gate_problems({"max_seat_gap": 0, "no_unbalanced": 1, "seat_gap": 1,
                                   "source_share": {"pyramid": [0.5, 0.4], "gold": [0, 1]}}))
    assert set(problems) == {"gates.max_seat_gap", "gates.no_unbalanced", "gates.seat_gap",
                             "gates.source_share.pyramid", "gates.source_share.gold"}
    assert "unknown gate" in problems["gates.seat_gap"]


def test_require_balanced_and_bad_manifest_gates(snapshot_run):
    data = compute(snapshot_run)
    data.gates = {"require_balanced": True, "no_unbalanced": False}
    (res,) = evaluate(data)  # a false boolean gate is off
    assert res.gate == "require_balanced" and not res.passed  # 40 games settle nothing
    assert "inconclusive" in res.detail
    data.gates = {"max_seat_gap": "wide"}
    with pytest.raises(GateConfigError, match="gates.max_seat_gap"):
        evaluate(data)


def test_parse_formats():
    assert parse_formats("all") == FORMATS
    assert parse_formats("html, md") == ("md", "html")
    assert parse_formats("none") == ()
    with pytest.raises(ValueError, match="pdf"):
        parse_formats("md,pdf")


def test_many_cells_get_sections_for_the_worst_only(tmp_path, monkeypatch):
    monkeypatch.setattr("imhotep_stats.reporting.figures.MAX_DETAIL_CELLS", 2)
    cells = [{"sides": f"{s}-A-A-A-A", "players": 3, "lineup": ("weak",)} for s in "ABC"]
    cells[2]["seat_bonus"] = {0: 8}
    d = synthetic_run(tmp_path, cells, 60, seed=4)
    rep = build_report(d, ("md",))
    assert len(rep.data.detail) == 2 and cells[2]["id"] in rep.data.detail
    assert rep.markdown.count("\n## ") == 3 + 2  # answer, overview, 2 cells, data files
    assert "Sections below for the 2 least balanced cells" in rep.markdown
    assert rep.data.detail[0] == cells[2]["id"]  # the least balanced first
