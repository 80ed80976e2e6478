"""bench/holdout_precision.py: the seeded draw of docs files, what it collects from gate 2's
scorecards, and its figures against the held-out labels."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_bench

holdout = load_bench("bench_holdout_precision", "holdout_precision.py")

FILES = [f"docs/{folder}/page{n}.md" for folder in ("api", "guides", "features") for n in range(40)]


def test_file_draw_is_fixed_by_the_seed_and_ignores_the_listing_order() -> None:
    first = holdout.sample_files(FILES, 25, seed=7)
    assert first == holdout.sample_files(list(reversed(FILES)), 25, seed=7)
    assert first == sorted(first) and len(set(first)) == 25 and set(first) <= set(FILES)
    assert holdout.sample_files(FILES, 25, seed=8) != first
    # Asking for more than there are takes them all, never fails or repeats.
    assert holdout.sample_files(FILES[:10], 25) == sorted(FILES[:10])


def _card(tokens: dict[str, list[dict[str, Any]]], ungrounded: list[dict[str, Any]]) -> dict:
    return {
        "verdict": "FAIL" if ungrounded else "PASS",
        "detail": {"ungrounded": ungrounded, "outcomes": tokens},
    }


def test_collects_ungrounded_and_only_attribution_rule_decisions(tmp_path: Path) -> None:
    outcomes = {
        "grounded": [
            {"token": "A → B", "line": 3, "rule": "commit-message-outline"},
            {"token": "Real.thing", "line": 4},  # grounded as written: not collected
        ],
        "unjudged": [{"token": "streamX", "line": 5, "rule": "vendor", "reason": "names Acme's"}],
        "not-a-reference": [
            {"token": "<name>", "line": 6, "rule": "placeholder"},  # an older rule
            {"token": "fooBar", "line": 7, "rule": "spelling-variant"},
        ],
        "defined-in-post": [{"token": "riskLevel", "line": 8, "rule": "free-form-key"}],
    }
    cards = tmp_path / "cards"
    cards.mkdir()
    posts = {"docs/a.md": ("a", [{"token": "invented", "line": 9, "kind": "symbol"}]),
             "docs/sub/a.md": ("a-1f2e", [])}  # fmt: skip
    for post, (stem, flagged) in posts.items():
        (cards / f"{stem}-overall.json").write_text(json.dumps({"post": post}))
        card = _card(outcomes if flagged else {}, flagged)
        (cards / f"{stem}-gate2-symbol_grounding.json").write_text(json.dumps(card))
    run = holdout.read_cards(cards, [*posts, "docs/lost.md"])
    assert run.verdicts == {"docs/a.md": "FAIL", "docs/sub/a.md": "PASS"}
    assert [(f.post, f.key) for f in run.ungrounded] == [("docs/a.md", "invented")]
    assert sorted((f.key, f.extra["rule"], f.extra["outcome"]) for f in run.cleared) == [
        ("A → B", "commit-message-outline", "grounded"),
        ("fooBar", "spelling-variant", "not-a-reference"),
        ("riskLevel", "free-form-key", "defined-in-post"),
        ("streamX", "vendor", "unjudged"),
    ]
    assert any("docs/lost.md" in problem for problem in run.problems)  # never silently gone

    labels = [
        {"set": "ungrounded", "post": "docs/a.md", "line": 9, "token": "invented",
         "label": "defect", "class": "invented-name"},
        {"set": "attribution", "post": "docs/a.md", "line": 5, "token": "streamX",
         "label": "defect", "class": "hidden"},
        {"set": "attribution", "post": "docs/a.md", "line": 7, "token": "fooBar",
         "label": "false", "class": "spelling"},
    ]  # fmt: skip
    data = holdout.summary(run, labels)
    assert (data["defect"], data["false"], data["precision"]) == (1, 0, 1.0)
    # Rate 1: every finding is in the keyed sample.
    sample = holdout.summary(run, labels, rate=1.0)["keyed_sample"]
    assert (sample["size"], sample["defect"], sample["unlabelled"]) == (1, 1, [])
    assert sample["precision"] == 1.0 and sample["wilson"][1] > 0.9999
    assert (data["cleared"], data["cleared_labelled"], data["cleared_defect"]) == (4, 2, 1)
    assert data["hidden_fabrications"] == ["docs/a.md:5 'streamX' (vendor)"]
    assert data["cleared_by_rule"]["vendor"] == {"tokens": 1, "defect": 1}
    assert "A RULE HID A LABELLED DEFECT" in holdout.report(data, "release", 1)
    # For an ablation (bench/ablation.py): every finding with its label, and what each rule
    # decided (the findings' rules and every outcome's, unnamed ones as "-").
    assert data["every_finding"] == [
        {"doc": "docs/a.md", "line": 9, "token": "invented", "rule": "", "label": "defect"}
    ]
    assert data["decided_by_rule"] == {
        "commit-message-outline": 1, "-": 2, "vendor": 1, "placeholder": 1,
        "spelling-variant": 1, "free-form-key": 1,
    }  # fmt: skip


def test_a_near_miss_is_decided_by_its_rule_and_by_the_way_it_is_near() -> None:
    miss = {"rule": "model-near-miss", "reason": "did you mean `a_b_c`? (near-word-added)"}
    assert holdout.rules_named(miss) == ["model-near-miss", "near-word-added"]
    assert holdout.rules_named({"reason": "(near-word-added) is not last"}) == ["-"]


def test_a_setting_given_on_the_command_line_is_a_line_of_the_sites_configuration() -> None:
    lines = holdout.settings_lines(['symbol_rules_off=["near-word-added"]', " a = 1"])
    assert lines == ['symbol_rules_off = ["near-word-added"]', "a = 1"]


def _finding(post: str, line: int, token: str) -> Any:
    return holdout.precision.Finding(2, post, line, token, "", {})


def test_keyed_sample_membership_never_depends_on_the_other_findings() -> None:
    findings = [_finding(f"docs/p{n % 37}.md", n, f"token{n % 101}") for n in range(3000)]
    drawn = {(f.post, f.line, f.key) for f in holdout.keyed_sample(findings, 7, 0.05)}
    # About the rate, and fixed by the seed.
    assert 100 < len(drawn) < 200
    assert drawn == {(f.post, f.line, f.key) for f in holdout.keyed_sample(findings, 7, 0.05)}
    assert drawn != {(f.post, f.line, f.key) for f in holdout.keyed_sample(findings, 8, 0.05)}
    # Remove a third of the findings (a rule cleared them) and add new ones: a finding
    # present in both runs is drawn in both or in neither (a shuffled prefix would shift).
    kept = [f for n, f in enumerate(findings) if n % 3] + [
        _finding("docs/new.md", n, f"fresh{n}") for n in range(500)
    ]
    again = {(f.post, f.line, f.key) for f in holdout.keyed_sample(list(reversed(kept)), 7, 0.05)}
    both = {(f.post, f.line, f.key) for f in kept} & {(f.post, f.line, f.key) for f in findings}
    assert again & both == drawn & both and len(drawn & both) > 50


def test_keyed_sample_draws_each_occurrence_of_a_repeated_token_separately() -> None:
    findings = [_finding("docs/a.md", line, "same") for line in range(1, 400)]
    drawn = holdout.keyed_sample(findings, 3, 0.1)
    assert 10 < len(drawn) < 80  # not all or none: each occurrence has its own draw


def test_wilson_interval_matches_known_values() -> None:
    low, high = holdout.wilson(25, 90)
    assert abs(low - 0.1958) < 0.001 and abs(high - 0.3780) < 0.001
    assert holdout.wilson(0, 10)[0] == 0.0 and holdout.wilson(10, 10)[1] > 0.9999
    assert holdout.wilson(0, 0) is None


def test_the_committed_labels_load_and_each_names_its_set_and_evidence() -> None:
    labels = holdout.precision.load_labels(holdout.LABELS)
    assert labels, "bench/labels/gate2_holdout.jsonl holds no labels"
    for item in labels:
        assert item["set"] in ("ungrounded", "attribution")
        samples = ("files200", "all-docs", "keyed", "extra")
        assert item["set"] == "attribution" or item["sample"] in samples
        assert item["post"].startswith("docs/") and item["why"]


NEUROLINK = os.environ.get("POSTGATES_NEUROLINK")


@pytest.mark.skipif(
    not NEUROLINK,
    reason="POSTGATES_NEUROLINK is unset: no NeuroLink checkout to draw docs files from",
)
def test_draw_from_the_real_docs_folder_is_deterministic() -> None:
    repo = Path(str(NEUROLINK))
    files = holdout.docs_files(repo, "release")
    assert len(files) > 1000 and all(f.startswith("docs/") and f.endswith(".md") for f in files)
    drawn = holdout.sample_files(files, holdout.DEFAULT_FILES)
    assert drawn == holdout.sample_files(files, holdout.DEFAULT_FILES)
    assert len(drawn) == holdout.DEFAULT_FILES
    # Every drawn file is a blob of the ref (what the bench writes into its clone).
    listed = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-check"],
        input="".join(f"release:{path}\n" for path in drawn),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert all(" blob " in line for line in listed), listed[:3]
    # The `ungrounded` labels are this draw's findings: each labelled post is a drawn file.
    labels = holdout.precision.load_labels(holdout.LABELS)
    files200 = {item["post"] for item in labels if item.get("sample") == "files200"}
    assert files200 and files200 <= set(drawn)
