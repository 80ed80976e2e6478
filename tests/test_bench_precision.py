"""bench/precision.py: matching a run's findings to the hand labels, and the figures."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_bench

precision = load_bench("precision", "precision.py")
sample = load_bench("bench_sample", "labels/sample.py")
Finding = precision.Finding


def label(post: str, line: int, value: str, **keys: Any) -> dict[str, Any]:
    return {"post": post, "line": line, "label": value, "class": keys.pop("cls", "x"), **keys}


def test_gate2_pairs_same_token_by_closest_line_and_keeps_occurrences_apart() -> None:
    findings = [
        Finding(2, "a.md", 12, "Foo.bar"),
        Finding(2, "a.md", 53, "Foo.bar"),
        Finding(2, "b.md", 12, "Foo.bar"),  # other post: never paired with a.md's labels
    ]
    labels = [
        label("a.md", 50, "defect", token="Foo.bar"),
        label("a.md", 10, "false", token="Foo.bar"),
    ]
    result = precision.match(findings, labels, 2)
    paired = {(f.post, f.line): lab["label"] for f, lab in result.pairs}
    assert paired == {("a.md", 12): "false", ("a.md", 53): "defect"}
    assert [(f.post, f.line) for f in result.unmatched_findings] == [("b.md", 12)]
    assert result.unmatched_labels == []


def test_gate2_token_must_match_exactly_and_lines_may_not_drift_far() -> None:
    findings = [Finding(2, "a.md", 10, "foo.bar"), Finding(2, "a.md", 300, "Baz")]
    labels = [label("a.md", 10, "false", token="Foo.bar"), label("a.md", 10, "defect", token="Baz")]
    result = precision.match(findings, labels, 2)
    assert result.pairs == []
    assert len(result.unmatched_findings) == 2
    assert {lab["token"] for lab in result.unmatched_labels} == {"Foo.bar", "Baz"}


def test_gate2_fewer_findings_than_labels_leaves_the_farther_label_unmatched() -> None:
    findings = [Finding(2, "a.md", 41, "x")]
    labels = [label("a.md", 10, "false", token="x"), label("a.md", 40, "defect", token="x")]
    result = precision.match(findings, labels, 2)
    assert [(f.line, lab["line"]) for f, lab in result.pairs] == [(41, 40)]
    assert [lab["line"] for lab in result.unmatched_labels] == [10]


def test_gate7_matches_on_number_not_on_unit_or_excerpt() -> None:
    findings = [Finding(7, "a.md", 20, "500", "In our tests 500 queries ...", {"unit": "q"})]
    labels = [
        label("a.md", 18, "defect", number="500", unit="queries"),
        label("a.md", 20, "false", number="50", unit="%"),
    ]
    result = precision.match(findings, labels, 7)
    assert [(f.key, lab["label"]) for f, lab in result.pairs] == [("500", "defect")]


def test_gate6_matches_paragraph_by_its_start_even_when_lines_move_or_paragraphs_merge() -> None:
    start = "Three details are doing real work in those few lines: the result is memoized"
    findings = [
        Finding(
            6, "a.md", 230, start + " in a Map and more text", start + " in a Map and more text"
        ),
        Finding(6, "a.md", 40, "Short lead-in:", "Short lead-in:"),
        Finding(6, "a.md", 77, "A wholly different paragraph", "A wholly different paragraph"),
    ]
    labels = [
        label("a.md", 217, "defect", text=start),
        label("a.md", 40, "false", text="Short lead-in now merged with the next one"),
        label("a.md", 70, "false", text="Some paragraph that is no longer flagged"),
    ]
    result = precision.match(findings, labels, 6)
    paired = {f.line: lab["line"] for f, lab in result.pairs}
    # 230 <- 217 by text; 40 <- 40 by line although the text changed; 77 matches nothing.
    assert paired == {230: 217, 40: 40}
    assert [f.line for f in result.unmatched_findings] == [77]
    assert [lab["line"] for lab in result.unmatched_labels] == [70]


def _run(gate: int, verdicts: dict[str, str], findings: list[Any]) -> Any:
    run = precision.GateRun(gate)
    run.verdicts = verdicts
    run.findings = findings
    return run


def test_figures_precision_excludes_unsure_and_reports_vanished_defects() -> None:
    run = _run(
        2,
        {"a.md": "FAIL", "b.md": "PASS"},
        [
            Finding(2, "a.md", 1, "t1"),
            Finding(2, "a.md", 2, "t2"),
            Finding(2, "a.md", 3, "t3"),
            Finding(2, "b.md", 1, "new"),
            Finding(2, "b.md", 4, "letThrough"),
        ],
    )
    labels = [
        label("a.md", 1, "defect", token="t1"),
        label("a.md", 2, "false", token="t2", cls="third-party"),
        label("a.md", 3, "unsure", token="t3"),
        label("b.md", 9, "defect", token="gone"),
        label("b.md", 9, "false", token="fixed"),
        label("b.md", 4, "defect", token="letThrough"),
    ]
    fig, _ = precision.figures(run, labels)
    assert (fig.posts, fig.failing, fig.findings, fig.labelled) == (2, 1, 5, 4)
    assert (fig.defects, fig.false, fig.unsure) == (2, 1, 1)
    assert fig.precision == pytest.approx(2 / 3)
    assert fig.defects_in_passing_posts == 1
    assert [lab["token"] for lab in fig.vanished_defects] == ["gone"]
    assert fig.vanished_false == 1
    assert fig.unlabelled == 1
    assert fig.false_classes == {"third-party": 1}


def test_false_failures_split_failing_posts_by_what_their_tokens_are() -> None:
    run = _run(
        2,
        {"real.md": "FAIL", "clean.md": "FAIL", "open.md": "FAIL", "pass.md": "PASS"},
        [
            Finding(2, "real.md", 1, "inv"),
            Finding(2, "real.md", 2, "ok"),
            Finding(2, "clean.md", 1, "ok1"),
            Finding(2, "clean.md", 2, "ok2"),
            Finding(2, "open.md", 1, "ok"),
            Finding(2, "open.md", 2, "unknown"),
            Finding(2, "pass.md", 1, "ok"),
        ],
    )
    labels = [
        label("real.md", 1, "defect", token="inv"),
        label("real.md", 2, "false", token="ok"),
        label("clean.md", 1, "false", token="ok1"),
        label("clean.md", 2, "false", token="ok2"),
        label("open.md", 1, "false", token="ok"),
        label("pass.md", 1, "false", token="ok"),
    ]
    _, result = precision.figures(run, labels)
    ff = precision.false_failures(run, result)
    assert ff.failing == 3
    assert ff.with_defect == 1
    assert ff.without_defect == ["clean.md"]
    assert ff.undecided == ["open.md"]


def test_summary_carries_the_same_figures_as_data() -> None:
    run2 = _run(2, {"a.md": "FAIL", "b.md": "ERROR"}, [Finding(2, "a.md", 1, "t")])
    runs = {gate: _run(gate, {"a.md": "PASS"}, []) for gate in precision.GATES}
    runs[2] = run2
    data = precision.summary(runs, {2: [label("a.md", 1, "false", token="t", cls="blog")]})
    assert data["2"]["posts_failing"] == 1
    assert data["2"]["posts_not_judged"] == 1
    assert data["2"]["precision"] == 0.0
    assert data["2"]["false_classes"] == {"blog": 1}
    assert data["2"]["failing_without_defect"] == ["a.md"]
    assert data["6"]["precision"] is None
    json.dumps(data)  # serialisable as it stands


def test_a_scorecard_without_the_findings_list_is_reported_not_read_as_zero(
    tmp_path: Path,
) -> None:
    card = {"verdict": "FAIL", "detail": {"paragraphs": []}}
    (tmp_path / "p-gate6-readability_links.json").write_text(json.dumps(card), encoding="utf-8")
    runs = precision.findings_from_cards(tmp_path, ["p.md"])
    assert runs[6].problems == ["p-gate6-readability_links.json: no 'low_flesch' list in detail"]
    text = precision.report(runs, {})
    assert "WARNING p-gate6-readability_links.json: no 'low_flesch' list" in text
    assert "not judged: 1" in text  # the gate 2 and 7 cards are missing


def test_report_flags_a_vanished_defect_as_a_recall_regression() -> None:
    runs = {gate: _run(gate, {"a.md": "PASS"}, []) for gate in precision.GATES}
    labels = {2: [label("a.md", 5, "defect", token="inventedThing")]}
    text = precision.report(runs, labels)
    assert "labelled defects no longer flagged  1  <- RECALL REGRESSION" in text
    assert "a.md:5  'inventedThing'" in text
    assert "precision                n/a" in text


def test_findings_are_read_from_the_scorecards(tmp_path: Path) -> None:
    cards = {
        "p-gate2-symbol_grounding.json": {
            "verdict": "FAIL",
            "detail": {
                "ungrounded": [{"token": "X.y", "line": 4, "kind": "symbol", "reason": "r"}]
            },
        },
        "p-gate6-readability_links.json": {
            "verdict": "FAIL",
            "detail": {
                "low_flesch": [{"line": 9, "text": "Para", "flesch": 3.0}],
                "internal_links": {"broken": [{"line": 3, "url": "/posts/gone/"}]},
            },
        },
        "p-gate7-numerical_claims.json": {
            "verdict": "FAIL",
            "detail": {"uncited": [{"line": 2, "number": "5", "unit": "ms", "text": "5 ms"}]},
        },
    }
    for name, card in cards.items():
        (tmp_path / name).write_text(json.dumps(card), encoding="utf-8")
    runs = precision.findings_from_cards(tmp_path, ["p.md", "missing.md"])
    assert runs[2].verdicts == {"p.md": "FAIL", "missing.md": "MISSING"}
    assert [(f.key, f.line, f.extra["kind"]) for f in runs[2].findings] == [("X.y", 4, "symbol")]
    assert [(f.key, f.line) for f in runs[6].findings] == [("Para", 9)]
    assert runs[6].broken_link_posts == {"p.md"}
    assert [(f.key, f.text) for f in runs[7].findings] == [("5", "5 ms")]


def test_load_labels_skips_the_rules_and_rejects_an_unknown_label(tmp_path: Path) -> None:
    path = tmp_path / "gate2.jsonl"
    path.write_text(
        '# RULES\n# defect: ...\n\n{"post": "a.md", "line": 1, "token": "x", "label": "false"}\n',
        encoding="utf-8",
    )
    assert [lab["token"] for lab in precision.load_labels(path)] == ["x"]
    path.write_text('{"post": "a.md", "line": 1, "token": "x", "label": "maybe"}\n')
    with pytest.raises(ValueError, match=r"gate2.jsonl:1: label must be one of"):
        precision.load_labels(path)


def test_select_posts_keeps_dated_posts_up_to_the_cutoff(tmp_path: Path) -> None:
    for name in ("2026-06-30-last.md", "2026-07-01-after.md", "README.md", "2025-01-01-a.md"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert precision.select_posts(tmp_path, "2026-06-30") == [
        "2025-01-01-a.md",
        "2026-06-30-last.md",
    ]


def test_missing_repository_exits_with_a_message_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(precision.REPO_ENV, raising=False)
    args = argparse.Namespace(repo=None, posts=str(tmp_path))
    with pytest.raises(SystemExit, match=precision.REPO_ENV):
        precision.resolve_inputs(args)
    args = argparse.Namespace(repo=str(tmp_path), posts=str(tmp_path))
    with pytest.raises(SystemExit, match="is not a git repository"):
        precision.resolve_inputs(args)


def test_unlabelled_keeps_only_findings_no_committed_label_matches() -> None:
    labels = precision.load_labels(precision.LABELS_DIR / "gate2.jsonl")
    known = labels[0]
    findings = [
        Finding(2, known["post"], known["line"], known["token"]),
        Finding(2, known["post"], known["line"], "aTokenNobodyLabelled"),
    ]
    assert [f.key for f in sample.unlabelled(2, findings)] == ["aTokenNobodyLabelled"]


def test_sample_order_is_fixed_by_the_seed_and_independent_of_input_order() -> None:
    findings = [Finding(2, f"p{i % 7}.md", i, f"t{i}") for i in range(40)]
    first = sample.sample_order(findings)
    again = sample.sample_order(list(reversed(findings)))
    assert first == again
    assert sorted(first, key=lambda f: f.line) == sorted(findings, key=lambda f: f.line)
    assert sample.sample_order(findings, seed=1) != first


@pytest.mark.parametrize("gate", sorted(precision.GATES))
def test_committed_labels_are_well_formed(gate: int) -> None:
    path = precision.LABELS_DIR / f"gate{gate}.jsonl"
    text = path.read_text(encoding="utf-8")
    assert "RULES" in text.split("\n{", 1)[0], "labelling rules come first"
    labels = precision.load_labels(path)
    assert len(labels) >= sample.MINIMUM[gate]
    ranks = [lab["rank"] for lab in labels if lab.get("rank") is not None]
    # The labelled ranks are the first N of the seeded order: a uniform random sample
    # (findings labelled later, from --unlabelled, carry "rank": null).
    assert len(ranks) >= sample.MINIMUM[gate]
    assert sorted(ranks) == list(range(1, len(ranks) + 1))
    for lab in labels:
        assert lab["why"].strip() and lab["class"].strip()
    if gate in (2, 7):
        keys = [(lab["post"], precision.label_key(gate, lab), lab["occurrence"]) for lab in labels]
        assert len(keys) == len(set(keys)), "post + key + occurrence identifies one finding"
