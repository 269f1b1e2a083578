"""One colour per score source on every chart (reporting/palette.py): every source the rules
score has its own colour, none of them grey, each far enough from the others and from the
seats' colours to be told apart (CIE Lab distance, CIE76)."""

from __future__ import annotations

import itertools

from imhotep_stats.reporting.palette import SEATS, SOURCES, source_colour, source_name
from imhotep_stats.rules.sources import SOURCES as RULE_SOURCES

APART = 30  # CIE76 distance: well beyond "just noticeable" (about 2.3)


def _lab(colour: str) -> tuple[float, float, float]:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [((u + 0.055) / 1.055) ** 2.4 if u > 0.04045 else u / 12.92 for u in (r, g, b)]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _apart(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


def test_every_source_has_its_own_colour_and_no_grey():
    colours = [source_colour(s) for s in RULE_SOURCES]
    assert set(SOURCES) == set(RULE_SOURCES)
    assert len(set(colours)) == len(colours)
    for s, c in zip(RULE_SOURCES, colours, strict=True):
        _, a, b = _lab(c)
        assert (a * a + b * b) ** 0.5 > 15, f"{s}: {c} is a grey"
    for (s, c), (t, d) in itertools.combinations(zip(RULE_SOURCES, colours, strict=True), 2):
        assert _apart(c, d) >= APART, (s, t, round(_apart(c, d)))
    for s, c in zip(RULE_SOURCES, colours, strict=True):
        for p, seat in enumerate(SEATS):
            assert _apart(c, seat) >= APART, (s, f"seat {p + 1}", round(_apart(c, seat)))


def test_sources_in_words():
    assert source_name("card_statue") == "statue cards"
    assert source_name("burial_chamber") == "burial chamber"
    assert source_name("temple") == "temple"
