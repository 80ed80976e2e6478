"""bench/precision_ceiling.py: gate 2's precision ceilings from the labelled classes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers import load_bench

bench = load_bench("precision_ceiling", "precision_ceiling.py")


def _finding(label: str, rule: str, cls: str | None = None) -> dict[str, Any]:
    return {"label": label, "rule": rule, "class": cls, "token": "t", "doc": "d.md", "line": 1}


DOCS = {
    "half": "report",
    "projects": [
        {
            "project": "o/p",
            "labelled_findings": [
                _finding("defect", "model-rooted-miss"),
                _finding("defect", "model-near-miss"),
                _finding("false", "model-near-miss", "third-party"),
                _finding("false", "model-near-miss", "example"),
                _finding("false", "model-near-miss", "exists-in-code"),
                _finding("false", "anchor-presented-path", "example"),
                _finding("unsure", "model-near-miss", "other"),
            ],
        }
    ],
}
DRIFT = {
    "cases": [
        {"split": "report", "caught": True, "caught_by": ["model-near-miss (near-word-added)"]},
        {"split": "report", "caught": True, "caught_by": ["model-cli"]},
        {"split": "report", "caught": True, "caught_by": []},
        {"split": "report", "caught": False},
        {"split": "tune", "caught": True, "caught_by": ["model-rooted-miss"]},
    ]
}


def test_ceilings_count_only_the_false_findings_a_model_could_not_refute() -> None:
    items = bench.labelled(DOCS)
    assert len(items) == 6  # unsure left out
    c = bench.counts(items)
    assert c == {"real": 2, "false": 4, "code": 1, "third-party": 1, "prose": 2}
    assert bench.ceilings(c) == (33.3, 40.0, 50.0)


def test_the_frontier_adds_rules_best_ceiling_first_beside_drift_recall(
    tmp_path: Path, capsys: Any
) -> None:
    docs, drift, out = tmp_path / "docs.json", tmp_path / "drift.json", tmp_path / "r.json"
    docs.write_text(json.dumps(DOCS))
    drift.write_text(json.dumps(DRIFT))
    assert bench.main(["--docs", str(docs), "--drift", str(drift), "--results", str(out)]) == 0
    frontier = json.loads(out.read_text())["tables"][1]["rows"]
    # model-cli (no labelled finding) first, then rooted (100%), near miss, the path anchor.
    assert [row[1] for row in frontier] == [
        "model-cli",
        "model-rooted-miss",
        "model-near-miss",
        "anchor-presented-path",
    ]
    assert [row[4] for row in frontier] == [None, 100.0, 66.7, 50.0]
    assert [row[5] for row in frontier] == [1, 1, 2, 2]
    assert "gates 14 and 15 catch 1 more drift cases of the 4" in capsys.readouterr().out
