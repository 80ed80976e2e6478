"""bench/ablation.py: its rule list and its table, without the mirrors the runs need."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.near_miss import WAYS as NEAR_WAYS
from pytest_postgates.helpers.anchor_rules import RULES as ANCHORS
from pytest_postgates.helpers.clearing_rules import RULES as CLEARING
from pytest_postgates.helpers.dependency_rules import RULES as DEPENDENCY_RULES
from pytest_postgates.helpers.history_cues import RULES as CUE_RULES
from pytest_postgates.helpers.model_grounding import RULES
from pytest_postgates.helpers.page_names import RULES as PAGE_RULES
from tests.helpers import load_bench

ablation = load_bench("ablation", "ablation.py")


def test_every_declared_model_rule_anchor_and_the_history_cue_can_be_turned_off() -> None:
    tables = (
        RULES, ANCHORS, PAGE_RULES, CUE_RULES, DEPENDENCY_RULES,
        CLEARING, NEAR_WAYS,
    )  # fmt: skip
    declared = {rule.name for table in tables for rule in table}
    checks = {"historical", "linked-elsewhere", "text-grounding", "prose-only"}
    assert set(ablation.ABLATABLE) == declared | checks


def test_an_unknown_rule_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ablation.main(["--rules", "no-such-rule"])
    assert "not a rule that can be turned off" in capsys.readouterr().err


def _run(
    *findings: tuple[str, int, str, str | None], problems: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A docs-precision run's JSON holding only ``findings`` (doc, line, token, label)."""
    every = [{"doc": doc, "line": line, "token": token, "rule": "r", "label": label}
             for doc, line, token, label in findings]  # fmt: skip
    return {"projects": [{"project": "o/p", "every_finding": every, "problems": list(problems)}]}


def test_the_change_counts_labelled_findings_lost_and_back_and_lists_unlabelled_ones() -> None:
    base = _run(("a.md", 1, "real", "defect"), ("a.md", 2, "kept", "false"), ("a.md", 3, "u", None))
    off = _run(("a.md", 2, "kept", "false"), ("a.md", 5, "noise", "false"), ("b.md", 1, "v", None))
    change = ablation.contribution(off, base)
    assert change["findings_change"] == 0
    assert (change["defects_lost"], change["false_back"]) == (1, 1)
    assert change["unlabelled_came"] == ["b.md:1 `v` (r)"]
    assert change["unlabelled_went"] == ["a.md:3 `u` (r)"]
    assert ablation.verdict({"tune": change, "report": change}) == "earns held out"


def test_a_rule_that_moves_nothing_held_out_earns_nothing_there() -> None:
    base = _run(("a.md", 1, "real", "defect"))
    same = ablation.contribution(_run(("a.md", 1, "real", "defect")), base)
    moved = ablation.contribution(_run(), base)
    assert not ablation.earns(same)
    idle = "decides held-out tokens, earns nothing there; earns nothing on the tune half"
    assert ablation.verdict({"tune": same, "report": same}) == idle
    on_tune = "decides held-out tokens, earns nothing there; earns on the tune half"
    assert ablation.verdict({"tune": moved, "report": same}) == on_tune
    # Off, a rule that only made false findings costs nothing: it earns nothing either.
    noisy = _run(("a.md", 1, "real", "defect"), ("a.md", 2, "noise", "false"))
    quieter = ablation.contribution(base, noisy)
    assert quieter["false_gone"] == 1 and not ablation.earns(quieter)
    assert ablation.verdict({"tune": quieter, "report": same}) == idle
    # Findings with no label that move are to be read first.
    unread = ablation.contribution(
        _run(("a.md", 1, "real", "defect"), ("c.md", 4, "x", None)), base
    )
    assert ablation.verdict({"tune": same, "report": unread}).startswith("read:")


def test_a_rule_that_decides_alone_is_run_again_only_where_it_decided() -> None:
    base = {
        "projects": [
            {"project": "o/a", "decided_by_rule": {"anchor-presented-path": 2}},
            {"project": "o/b", "decided_by_rule": {}},
        ]
    }
    assert ablation.projects_to_run("anchor-presented-path", base) == ["o/a"]
    assert ablation.projects_to_run("anchor-listed", base) == []
    # A model miss a later rule may overrule can change tokens it is not named on.
    assert ablation.projects_to_run("model-near-miss", base) is None


def test_a_run_with_a_doc_that_failed_is_to_be_run_again() -> None:
    base = _run(("a.md", 1, "real", "defect"))
    stopped = _run(problems=("a.md: gate 2 ERROR: took longer than gate_timeout",))
    change = ablation.contribution(stopped, base)
    assert change["new_problems"]
    assert ablation.verdict({"report": change}).startswith("rerun")


def test_a_line_shows_the_change_against_every_rule_on() -> None:
    off = {"findings": 1000, "defect": 5, "labelled": 155, "precision": 5 / 155,
           "labelled_flagged": {"defect": 8, "false": 230}}  # fmt: skip
    base = _run(("a.md", 1, "real", "defect"))
    change = ablation.contribution(_run(("a.md", 2, "noise", "false")), base)
    line = ablation._line("historical", change, off)
    assert "findings 1000" in line and "defects 8, false 230" in line
    assert "precision 3.2% (5/155)" in line
    assert "change +0: defects lost 1, false back 1" in line


def test_a_rule_that_decided_no_held_out_token_has_no_occasion_and_says_what_tune_shows() -> None:
    base = _run(("a.md", 1, "real", "defect"))
    same = {**ablation.contribution(base, base), "decided": 0}
    moved = {**ablation.contribution(_run(), base), "decided": 3}
    no_drift = {"cases_run": 0, "caught_lost": 0, "clean_lost": 0}
    changes = {"tune": moved, "report": same, "drift": no_drift}
    assert ablation.verdict(changes) == "no held-out occasion; earns on the tune half"
    # A drift case it decided is an occasion; a caught case lost off is held-out recall.
    decided = {**no_drift, "cases_run": 2}
    assert ablation.verdict({**changes, "drift": decided}).startswith("decides held-out")
    assert ablation.verdict({"report": same}) == "no held-out occasion; tune half not run"
    lost = {"report": same, "planted": {"planted_run": 4, "caught_lost": 1}}
    assert ablation.verdict(lost) == "earns held out"
    # Recall not run with it off (--kept-only) where it made caught claims: to be read.
    unrun = {"report": same, "drift": {"decided": 2, "caught_decided": 2, "caught_lost": None}}
    assert ablation.verdict(unrun).startswith("read: held-out recall not run")


def _case(project: str, caught: bool, clean: bool | None, rules: list[str]) -> dict[str, Any]:
    return {"project": project, "fix": "f", "doc": "d.md", "line": 3, "token": project,
            "split": "report", "caught": caught, "clean": clean, "rules": rules}  # fmt: skip


def test_drift_is_run_again_only_on_the_projects_where_the_rule_decided_a_held_out_case() -> None:
    base = {"cases": [
        _case("o/a", True, True, ["anchor-listed"]),
        _case("o/b", False, True, ["model-near-miss", "historical"]),
        _case("o/c", False, True, []),
        {**_case("o/d", True, True, ["anchor-listed"]), "split": "tune"},
    ]}  # fmt: skip
    cases = ablation.held_out_cases(base)
    assert ablation.where_decided("anchor-listed", cases, ablation.drift_rules) == ["o/a"]
    assert ablation.where_decided("past-release", cases, ablation.drift_rules) == []
    assert ablation.where_decided("model-near-miss", cases, ablation.drift_rules) == ["o/b"]
    off = {"cases": [_case("o/a", False, False, [])]}
    change = ablation.drift_change(off, base, ["o/a"])
    assert (change["cases_run"], change["caught_lost"], change["clean_lost"]) == (1, 1, 1)
    assert ablation.drift_change(base, base, [])["cases_run"] == 0


def test_planted_inventions_lost_count_only_those_caught_with_every_rule_on() -> None:
    def item(name: str, outcome: str, rule: str) -> dict[str, Any]:
        return {"project": "o/a", "doc": "d.md", "line": 1, "invention": name,
                "outcome": outcome, "rule": rule}  # fmt: skip

    base = {"inventions": [item("opin", "ungrounded", "anchor-named"),
                           item("clse", "grounded", "dependency-found")]}  # fmt: skip
    found = ablation.where_decided("dependency-found", base["inventions"], ablation.planted_rules)
    assert found == ["o/a"]
    off = {"inventions": [item("opin", "unjudged", "-"), item("clse", "ungrounded", "-")]}
    change = ablation.planted_change(off, base, ["o/a"])
    assert (change["caught_lost"], change["caught_gained"]) == (1, 1)
    # Where it decided none, nothing is run and nothing moves.
    assert ablation.planted_change(base, base, [])["caught_gained"] == 0


def test_the_report_half_runs_pass_the_rules_off_and_the_projects(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    commands: list[list[str]] = []

    def fake(command: list[str]) -> None:
        commands.append(command)
        out = command[command.index("--json") + 1]
        data = {"half": "report", "overall": {"caught": 1}}
        with open(out, "w", encoding="utf-8") as handle:
            json.dump(data, handle)

    monkeypatch.setattr(ablation, "_run_bench", fake)
    ablation.run_drift(["historical"], tmp_path, ["a/b"])
    assert ablation.run_planted(["historical"], tmp_path, tmp_path / "c") == {
        "report": {"caught": 1}
    }
    drift, planted = commands
    assert drift[1].endswith("natural_drift.py") and planted[1].endswith("planted_docs.py")
    assert drift[drift.index("--project") :][:2] == ["--project", "a/b"]
    for command in (drift, planted):
        assert 'symbol_rules_off=["historical"]' in command
        assert "report" in command
    # A run already kept is read back, never repeated.
    ablation.run_drift(["historical"], tmp_path, ["a/b"])
    assert len(commands) == 2


def _holdout(*findings: tuple[str, int, str, str | None], decided: dict[str, int]) -> Any:
    """A holdout_precision JSON holding ``findings`` (doc, line, token, label)."""
    every = [{"doc": doc, "line": line, "token": token, "rule": "r", "label": label}
             for doc, line, token, label in findings]  # fmt: skip
    defects = sum(label == "defect" for *_, label in findings)
    return {"ungrounded": len(every), "every_finding": every, "decided_by_rule": decided,
            "defect": defects, "labelled_flagged": defects, "precision": 1.0,
            "problems": []}  # fmt: skip


def test_a_rule_that_keeps_a_real_defect_flagged_on_neurolink_docs_earns_held_out(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    # anchor-typed-key (session 21): no docs-precision token held out, but 2 labelled
    # defects of NeuroLink's own docs folder are flagged through it.
    on = _holdout(("docs/a.md", 3, "fooKey", "defect"), ("docs/b.md", 5, "barKey", "defect"),
                  ("docs/b.md", 9, "x", None), decided={"anchor-typed-key": 2})  # fmt: skip
    off = _holdout(("docs/b.md", 9, "x", None), decided={})
    commands: list[list[str]] = []

    def fake(command: list[str], env: dict[str, str] | None = None) -> None:
        commands.append(command)
        data = off if "--set" in command else on
        with open(command[command.index("--json") + 1], "w", encoding="utf-8") as handle:
            json.dump(data, handle)

    monkeypatch.setattr(ablation, "_run_bench", fake)
    base = ablation.run_holdout([], tmp_path, tmp_path / "cache")
    assert ablation.decided(base, "anchor-typed-key") == 2
    assert base["overall"]["labelled_flagged"] == {"defect": 2, "false": 0}
    change = ablation.held_out_holdout("anchor-typed-key", base, tmp_path, tmp_path / "cache")
    assert (change["defects_lost"], change["findings_change"]) == (2, -2)
    assert 'symbol_rules_off=["anchor-typed-key"]' in commands[-1]
    docs = {**ablation.contribution(_run(), _run()), "decided": 0}
    verdict = ablation.verdict({"report": docs, "holdout": change})
    assert verdict == "earns held out (NeuroLink docs)"
    # Without the NeuroLink docs run, the same rule had no held-out occasion.
    assert ablation.verdict({"report": docs}).startswith("no held-out occasion")
    # A rule that decides alone and decided nothing there is not run: nothing can change.
    runs = len(commands)
    idle = ablation.held_out_holdout("anchor-listed", base, tmp_path, tmp_path / "cache")
    assert len(commands) == runs and not idle["run"] and not ablation.earns(idle)
    assert ablation.verdict({"report": docs, "holdout": idle}).startswith("no held-out")
    # --kept-only: a run not kept is not made (None), one kept is read back.
    kept = ablation.held_out_holdout("model-near-miss", base, tmp_path, tmp_path, kept_only=True)
    assert kept is None and len(commands) == runs
    again = ablation.held_out_holdout("anchor-typed-key", base, tmp_path, tmp_path, kept_only=True)
    assert again is not None and again["defects_lost"] == 2 and len(commands) == runs


def test_a_near_miss_way_is_found_where_it_made_the_claim() -> None:
    # natural_drift.decided_by records a near miss with its way: the way decided the case.
    base = {"cases": [
        _case("o/a", True, True, ["model-near-miss (near-word-added)"]),
        _case("o/b", True, True, ["model-near-miss (near-letter-changed)"]),
    ]}  # fmt: skip
    cases = ablation.held_out_cases(base)
    assert ablation.where_decided("near-word-added", cases, ablation.drift_rules) == ["o/a"]
    where = ablation.where_decided("model-near-miss", cases, ablation.drift_rules)
    assert where == ["o/a", "o/b"]
    held = ablation.held_out_drift("near-word-replaced", base, Path("/nonexistent"))
    assert (held["decided"], held["cases_run"]) == (0, 0)
