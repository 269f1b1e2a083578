"""tools/train_policy.py: the softmax over options it fits recovers the weights that made the
choices, and the file it writes is the one src/search/policy.rs reads (its feature names)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    return load_script("tools/train_policy.py")


def test_the_fit_recovers_known_weights(tmp_path):
    tool = _tool()
    k = len(tool.FEATURES)
    truth = np.resize([0.6, -0.4, 0.2, 0.0, 0.8, -0.6], k)
    rng = np.random.default_rng(5)
    lines = ["game,players,sides,decision,kind,option,visits," + ",".join(tool.FEATURES)]
    for game in range(4000):
        options = 2 + game % 5
        x = rng.normal(0, 1, (options, k))
        z = x @ truth
        p = np.exp(z - z.max())
        chosen = rng.choice(options, p=p / p.sum())
        for j in range(options):
            feats = ",".join(f"{v:.6f}" for v in x[j])
            lines.append(f"{game},2,A-A-A-A-A,10,1,{j},{10 if j == chosen else 1},{feats}")
    src, dst = tmp_path / "decisions.csv", tmp_path / "policy.json"
    src.write_text("\n".join(lines) + "\n")
    tool.main(str(src), str(dst))  # the default target: the chosen (most visited) option
    got = json.loads(dst.read_text())
    assert got["features"] == tool.FEATURES
    assert np.allclose(got["weights"], truth, atol=0.12), got["weights"]


def test_the_tool_and_the_core_name_the_same_features():
    rust = (ROOT / "src" / "search" / "policy.rs").read_text(encoding="utf-8")
    block = rust[rust.index("pub const FEATURES"):rust.index("];")]
    assert re.findall(r'"(\w+)"', block) == _tool().FEATURES
    shipped = json.loads((ROOT / "imhotep_stats" / "data" / "search_policy.json").read_text())
    assert shipped["features"] == _tool().FEATURES
