"""bench/docs_precision.py: what it collects from gate 2's scorecards, its seeded sample, its
figures against the labels, the committed labels, and one end-to-end run on a small project."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import git, load_bench, make_repo

docs = load_bench("bench_docs_precision", "docs_precision.py")


def _write_card(cards: Path, stem: str, post: str, detail: dict[str, Any]) -> None:
    cards.mkdir(exist_ok=True)
    (cards / f"{stem}-overall.json").write_text(json.dumps({"post": post}), encoding="utf-8")
    card = {"verdict": "FAIL" if detail.get("ungrounded") else "PASS", "detail": detail}
    (cards / f"{stem}-gate2-symbol_grounding.json").write_text(json.dumps(card), encoding="utf-8")


def test_collects_every_ungrounded_finding_and_counts_unjudged_by_rule(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    _write_card(
        cards,
        "guide",
        "docs/guide.md",
        {
            "claims": 3,
            "grounded": 1,
            "ungrounded": [
                {"token": "pkg.gone", "line": 4, "kind": "symbol", "reason": "did you mean"},
                {"token": "--nope", "line": 9, "kind": "flag", "reason": "no such flag"},
            ],
            "outcomes": {
                "grounded": [{"token": "pkg.real", "line": 2, "rule": "model-found"}],
                "unjudged": [
                    {"token": "a", "line": 5, "rule": "prose-only"},
                    {"token": "b", "line": 6, "rule": "prose-only"},
                    {"token": "c", "line": 7, "rule": "vendor"},
                ],
            },
        },
    )
    # A card whose list was cut (more findings than it lists) is reported, not trusted.
    _write_card(
        cards,
        "long",
        "docs/long.md",
        {"claims": 60, "grounded": 0, "ungrounded": [{"token": "x", "line": 1}], "outcomes": {}},
    )
    run = docs.read_cards("o/p", "abc", cards)
    assert sorted((f.doc, f.line, f.token, f.kind) for f in run.findings) == [
        ("docs/guide.md", 4, "pkg.gone", "symbol"),
        ("docs/guide.md", 9, "--nope", "flag"),
        ("docs/long.md", 1, "x", ""),
    ]
    assert run.unjudged_by_rule == Counter({"prose-only": 2, "vendor": 1})
    assert run.verdicts == {"docs/guide.md": "FAIL", "docs/long.md": "FAIL"}
    assert run.problems == ["docs/long.md: the card lists 1 of its findings"]


def _finding(doc: str, line: int, token: str, project: str = "o/p") -> Any:
    return docs.Finding(project, doc, line, token, "", "")


def test_the_sample_is_fixed_by_the_seed_and_a_findings_key_alone() -> None:
    findings = [_finding(f"docs/p{n % 13}.md", n, f"t{n % 29}") for n in range(500)]
    drawn = docs.draw(findings, 7, 35)
    assert len(drawn) == 35 and len(set(drawn)) == 35
    assert drawn == docs.draw(list(reversed(findings)), 7, 35)  # never the listing order
    assert set(drawn) != set(docs.draw(findings, 8, 35))
    # Fewer findings than the size: all of them.
    assert set(docs.draw(findings[:10], 7, 35)) == set(findings[:10])
    # Dropping findings outside the sample leaves the sample as it was.
    outside = [f for f in findings if f not in set(drawn)]
    assert docs.draw(drawn + outside[::2], 7, 35) == drawn
    # The key covers the project: the same place in two projects draws independently.
    other = [_finding(f.doc, f.line, f.token, "x/y") for f in findings]
    assert {(f.doc, f.line) for f in docs.draw(other, 7, 35)} != {(f.doc, f.line) for f in drawn}


def test_figures_leave_unsure_out_and_count_false_classes() -> None:
    run = docs.ProjectRun("o/p", "abc")
    run.verdicts = {"docs/a.md": "FAIL"}
    run.findings = [_finding("docs/a.md", n, f"tok{n}") for n in range(1, 6)]
    labels = [
        {"project": "o/p", "doc": "docs/a.md", "line": 1, "token": "tok1", "label": "defect"},
        {"project": "o/p", "doc": "docs/a.md", "line": 2, "token": "tok2", "label": "false",
         "class": "third-party"},
        {"project": "o/p", "doc": "docs/a.md", "line": 3, "token": "tok3", "label": "false",
         "class": "example"},
        {"project": "o/p", "doc": "docs/a.md", "line": 4, "token": "tok4", "label": "unsure"},
        # Another project's label of the same doc and token never matches.
        {"project": "x/y", "doc": "docs/a.md", "line": 5, "token": "tok5", "label": "defect"},
    ]  # fmt: skip
    data = docs.project_summary(run, labels, seed=1, size=10)
    assert (data["findings"], data["sampled"], data["labelled"]) == (5, 5, 4)
    assert (data["defect"], data["false"], data["unsure"]) == (1, 2, 1)
    assert data["precision"] == 1 / 3
    assert (data["precision_low"], data["precision_high"]) == (1 / 4, 2 / 4)
    assert data["wilson"] == docs.wilson(1, 3)
    assert data["false_classes"] == {"third-party": 1, "example": 1}
    assert [item["token"] for item in data["unlabelled"]] == ["tok5"]
    total = docs.overall([data, {**data, "findings": 15, "precision": 1.0}])
    assert (total["defect"], total["false"], total["unsure"]) == (2, 4, 2)
    assert total["weighted_precision"] == (5 * (1 / 3) + 15 * 1.0) / 20


def test_labels_are_tallied_by_the_rule_that_made_each_finding_a_claim() -> None:
    run = docs.ProjectRun("o/p", "abc")
    run.findings = [
        docs.Finding("o/p", "docs/a.md", n, f"tok{n}", "r", "symbol", rule)
        for n, rule in ((1, "model-near-miss"), (2, "model-near-miss"), (3, "anchor-shape"))
    ]
    labels = [
        {"project": "o/p", "doc": "docs/a.md", "line": n, "token": f"tok{n}", "label": label}
        for n, label in ((1, "defect"), (2, "false"), (3, "false"))
    ]
    data = docs.project_summary(run, labels, seed=1, size=10)
    assert data["labelled_by_rule"] == {
        "model-near-miss": {"defect": 1, "false": 1, "unsure": 0},
        "anchor-shape": {"defect": 0, "false": 1, "unsure": 0},
    }
    total = docs.overall([data, data])
    assert total["labelled_by_rule"]["model-near-miss"] == {"defect": 2, "false": 2, "unsure": 0}
    assert "model-near-miss 2 real / 2 false" in "\n".join(docs.report_lines("t", total))


@pytest.mark.parametrize("half", ["report", "tune"])
def test_the_committed_labels_pin_every_project_and_give_evidence(half: str) -> None:
    projects, path = docs.HALVES[half]
    pins, labels = docs.load_labels(path)
    assert set(pins) == {project.name for project in projects}
    assert all(len(commit) == 40 for commit in pins.values())
    assert labels, f"{path.name} holds no labels"
    for item in labels:
        assert item["project"] in pins and item["doc"].startswith("docs/")
        assert item["why"] and item["token"] and item["line"] > 0
        assert item["label"] != "false" or item["class"] in docs.FALSE_CLASSES


def test_a_small_project_end_to_end(tmp_path: Path) -> None:
    """A project whose docs folder names one real and one invented function of its code,
    and holds a test file of its own that pytest must not collect."""
    repo = make_repo(
        tmp_path / "mirror",
        {
            "pyproject.toml": '[project]\nname = "shapes"\nversion = "1.0"\n',
            "shapes/__init__.py": "from shapes.area import square_area\n",
            "shapes/area.py": "def square_area(side: float) -> float:\n    return side * side\n",
            "docs/guide.md": "# Guide\n\nCall `shapes.square_area()` for a square.\n\n"
            "Call `shapes.circle_area()` for a circle.\n",
            "docs/examples/test_broken.py": "import not_installed_anywhere\n",
        },
    )
    commit = git(repo, "rev-parse", "HEAD").strip()
    project = docs.Project("o/shapes", "docs", "python")
    run = docs.run_gate2(project, repo, commit, tmp_path / "scratch")
    assert run.verdicts == {"docs/guide.md": "FAIL"}
    assert [(f.doc, f.line, f.token) for f in run.findings] == [
        ("docs/guide.md", 5, "shapes.circle_area()")
    ]


def test_the_halves_never_share_a_project() -> None:
    report, tune = (docs.HALVES[half][0] for half in ("report", "tune"))
    assert report == docs.PROJECTS and len(tune) == 10
    assert not {p.name for p in report} & {p.name for p in tune}


def _shapes_repo(root: Path) -> Path:
    return make_repo(
        root,
        {
            "pyproject.toml": '[project]\nname = "shapes"\nversion = "1.0"\n',
            "shapes/__init__.py": "def square_area(side: float) -> float:\n    return side**2\n",
            "docs/guide.md": "# Guide\n\nCall `shapes.circle_area()` for a circle.\n",
        },
    )


def test_half_tune_runs_the_tune_projects_against_the_tune_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--half tune` picks the tune half's projects and reads its own label file (pins and
    labels); the default half does not know a tune project. A small repository stands in
    for the httpx mirror."""
    mirror = _shapes_repo(tmp_path / "mirrors" / "encode+httpx" / "repo")
    commit = git(mirror, "rev-parse", "HEAD").strip()
    labels = tmp_path / "tune.jsonl"
    label = {"project": "encode/httpx", "doc": "docs/guide.md", "line": 3,
             "token": "shapes.circle_area()", "label": "defect", "why": "none"}  # fmt: skip
    labels.write_text(f"# pin encode/httpx {commit}\n{json.dumps(label)}\n", encoding="utf-8")
    monkeypatch.setitem(docs.HALVES, "tune", (docs.TUNE_PROJECTS, labels))
    monkeypatch.setenv(docs.MIRRORS_ENV, str(tmp_path / "mirrors"))
    with pytest.raises(SystemExit, match="known projects"):
        docs.main(["--project", "encode/httpx"])  # the report half, the default
    out = tmp_path / "run.json"
    assert docs.main(["--half", "tune", "--project", "encode/httpx", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"encode/httpx at {commit[:12]}" in printed
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["half"] == "tune"
    (project,) = payload["projects"]
    assert (project["findings"], project["labelled"], project["defect"]) == (1, 1, 1)
