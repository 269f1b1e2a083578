"""tools/train_value.py: the conditional logit it fits recovers the weights that made the
data, and the file it writes is the one src/search/value.rs reads (its feature names)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    return load_script("tools/train_value.py")


def test_the_fit_recovers_known_weights(tmp_path):
    tool = _tool()
    k = len(tool.FEATURES)
    truth = np.array([0.3, -0.2, 0.1, 0.0, 0.5, -0.4, 0.2, 0.0])[:k]
    rng = np.random.default_rng(5)
    lines = ["game,players,sides,decision,seat," + ",".join(tool.FEATURES) + ",share"]
    for game in range(3000):
        players = 2 + game % 2
        x = rng.normal(0, 2, (players, k))
        z = x @ truth
        p = np.exp(z - z.max())
        winner = rng.choice(players, p=p / p.sum())
        for seat in range(players):
            feats = ",".join(f"{v:.6f}" for v in x[seat])
            lines.append(f"{game},{players},A-A-A-A-A,10,{seat},{feats},{float(seat == winner)}")
    src, dst = tmp_path / "positions.csv", tmp_path / "value.json"
    src.write_text("\n".join(lines) + "\n")
    tool.main(str(src), str(dst))
    got = json.loads(dst.read_text())
    assert got["features"] == tool.FEATURES
    assert np.allclose(got["weights"], truth, atol=0.08), got["weights"]


def test_the_tool_and_the_core_name_the_same_features():
    rust = (ROOT / "src" / "search" / "value.rs").read_text(encoding="utf-8")
    block = rust[rust.index("pub const FEATURES"):rust.index("];")]
    assert re.findall(r'"(\w+)"', block) == _tool().FEATURES
    shipped = json.loads((ROOT / "imhotep_stats" / "data" / "search_value.json").read_text())
    assert shipped["features"] == _tool().FEATURES
