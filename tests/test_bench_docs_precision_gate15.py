"""bench/docs_precision.py --gate 15 (bench/gate15_docs_precision.py): what it collects from
gate 15's scorecards (violations as findings, unjudged uses by reason), its own label file,
and one end-to-end run on a small project through the gate-15 bench."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

# The gate-15 bench imports docs_precision itself: patch the very module it runs.
gate15 = load_bench("bench_gate15_docs_precision", "gate15_docs_precision.py")
docs = gate15.docs_precision


def test_collects_gate15_violations_and_counts_unjudged_by_reason(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    detail = {
        "checked": 4,
        "violations": [
            {"line": 7, "kind": "python_import", "name": "circle_area", "reason": "no such name"},
            {"line": 9, "kind": "keyword_argument", "name": "sides", "reason": "no parameter"},
        ],
        "unjudged": [
            {"line": 3, "text": "x.a()", "reason": "x.a: the type of `x` is not shown"},
            {"line": 4, "text": "y.b()", "reason": "y.b: the type of `y` is not shown"},
            {"line": 5, "text": "f(**o)", "reason": "Shape(**kwargs) takes any keyword"},
        ],
    }
    (cards / "guide-overall.json").write_text(json.dumps({"post": "docs/guide.md"}), "utf-8")
    card = {"verdict": "FAIL", "detail": detail}
    (cards / "guide-gate15-code_samples.json").write_text(json.dumps(card), "utf-8")
    (cards / "other-overall.json").write_text(json.dumps({"post": "docs/other.md"}), "utf-8")
    run = docs.read_gate15_cards("o/p", "abc", cards)
    assert [(f.doc, f.line, f.token, f.kind) for f in run.findings] == [
        ("docs/guide.md", 7, "circle_area", "python_import"),
        ("docs/guide.md", 9, "sides", "keyword_argument"),
    ]
    # One cause counts once whatever name it is about.
    assert run.unjudged_by_rule == Counter(
        {"the type of … is not shown": 2, "… takes any keyword": 1}
    )
    assert run.verdicts == {"docs/guide.md": "FAIL", "docs/other.md": "MISSING"}


def test_the_committed_gate15_labels_pin_every_report_project() -> None:
    pins, labels = docs.load_labels(docs.GATE15_LABELS)
    assert set(pins) == {project.name for project in docs.PROJECTS}
    assert all(len(commit) == 40 for commit in pins.values())
    for item in labels:
        assert item["project"] in pins and item["doc"].startswith("docs/")
        assert item["why"] and item["token"] and item["line"] > 0
        assert item["label"] != "false" or item["class"] in docs.FALSE_CLASSES


def test_the_committed_gate15_tune_labels_pin_every_tune_project() -> None:
    pins, labels = docs.load_labels(docs.GATE15_TUNE_LABELS)
    tune = (*docs.TUNE_PROJECTS, *docs.GATE15_TUNE_EXTRA)
    assert set(pins) == {project.name for project in tune}
    assert labels and all(label["label"] in docs.LABEL_VALUES for label in labels)


def test_gate_15_end_to_end_against_its_own_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The gate-15 bench runs gate 15 alone, takes its violations as the findings (the import
    of a name the package lacks; not the real one), reads the gate-15 label file and names
    its results record after itself. A small repository stands in for the typer mirror."""
    mirror = make_repo(
        tmp_path / "mirrors" / "fastapi+typer" / "repo",
        {
            "pyproject.toml": '[project]\nname = "shapes"\nversion = "1.0"\n',
            "shapes/__init__.py": "def square_area(side: float) -> float:\n    return side**2\n",
            "docs/guide.md": "# Guide\n\n```python\nfrom shapes import circle_area\n"
            "from shapes import square_area\n```\n",
        },
    )
    commit = git(mirror, "rev-parse", "HEAD").strip()
    labels = tmp_path / "gate15.jsonl"
    label = {"project": "fastapi/typer", "doc": "docs/guide.md", "line": 4,
             "token": "shapes.circle_area", "label": "defect", "why": "no def"}  # fmt: skip
    labels.write_text(f"# pin fastapi/typer {commit}\n{json.dumps(label)}\n", encoding="utf-8")
    monkeypatch.setattr(docs, "GATE15_LABELS", labels)
    monkeypatch.setenv(docs.MIRRORS_ENV, str(tmp_path / "mirrors"))
    out, results = tmp_path / "run.json", tmp_path / "results.json"
    argv = ["--project", "fastapi/typer", "--json", str(out), "--results", str(results)]
    assert gate15.main(argv) == 0
    assert f"gate 15: fastapi/typer at {commit[:12]}" in capsys.readouterr().out
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert (payload["gate"], payload["sample"]) == (15, gate15.DEFAULT_SAMPLE)
    (project,) = payload["projects"]
    assert (project["findings"], project["labelled"], project["defect"]) == (1, 1, 1)
    assert project["findings_by_kind"] == {"python_import": 1}
    record = json.loads(results.read_text(encoding="utf-8"))
    assert record["bench"] == "gate15_docs_precision"
    titles = [table["title"] for table in record["tables"]]
    assert "Gate 15 findings on held-out docs folders, a labelled sample of each" in titles
    # The tune half reads its own gate-15 labels (and their pins).
    tune_labels = tmp_path / "gate15_tune.jsonl"
    tune_labels.write_text("# no pins yet\n", encoding="utf-8")
    monkeypatch.setattr(docs, "GATE15_TUNE_LABELS", tune_labels)
    with pytest.raises(SystemExit, match=r"no '# pin encode/httpx <commit>' line in .*gate15_tune"):
        docs.main(["--gate", "15", "--half", "tune", "--project", "encode/httpx"])


def _rules(path: Path) -> list[str]:
    """The labelling rules of a gate-15 label file: its comment lines from the rules' title
    to the pins (each half's own header and pins left out)."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    start = next(n for n, line in enumerate(lines) if line.startswith("# LABELLING RULES"))
    end = next(n for n, line in enumerate(lines) if line.startswith("# Pinned commits"))
    return lines[start:end]


def test_both_halves_label_gate_15_by_the_same_rules_with_an_old_way_clause() -> None:
    """A name in a sample the page shows as the old API, which the page says no longer
    exists, is labelled the same way on both halves: false, class old-way-sample."""
    report, tune = _rules(docs.GATE15_LABELS), _rules(docs.GATE15_TUNE_LABELS)
    assert report == tune
    assert any("old-way-sample" in line for line in report)
    assert "old-way-sample" in docs.FALSE_CLASSES
    for path in (docs.GATE15_LABELS, docs.GATE15_TUNE_LABELS):
        _pins, labels = docs.load_labels(path)
        assert all(
            item["label"] == "false" for item in labels if item.get("class") == "old-way-sample"
        )


def test_gate15s_wider_tune_half_holds_tune_projects_only() -> None:
    """The projects gate 15's tune half adds are tune-half projects of the natural-drift
    split, and neither gate 2's tune half nor the held-out half lists them."""
    from bench.natural_drift import SPLIT

    extra = {project.name for project in docs.GATE15_TUNE_EXTRA}
    assert extra and all(SPLIT[name] == "tune" for name in extra)
    assert not extra & {p.name for p in (*docs.TUNE_PROJECTS, *docs.PROJECTS)}
