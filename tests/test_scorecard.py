"""Scorecards: safe names, atomic stable JSON, the overall rule."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates import fileio
from pytest_postgates.scorecard import (
    Scorecard,
    dumps,
    overall_path,
    overall_report,
    safe_stem,
    scorecard_path,
    write_atomic,
    write_json,
)


@given(st.text(max_size=200))
def test_no_stem_can_name_a_file_outside_the_folder(stem: str) -> None:
    folder = Path("/tmp/postgates-scorecards-test")
    for path in (scorecard_path(folder, stem, 13, "call_graph_claims"), overall_path(folder, stem)):
        assert path.parent == folder
        assert "/" not in path.name and not path.name.startswith(".")


@pytest.mark.parametrize("stem", ["../../etc/passwd", "..", ".hidden", "a/b", "a\\b", ""])
def test_hostile_stems_are_neutralised(stem: str, tmp_path: Path) -> None:
    path = scorecard_path(tmp_path, stem, 11, "narrative_opening")
    assert path.parent == tmp_path
    assert safe_stem(stem) and "/" not in safe_stem(stem)


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "card.json"
    write_atomic(target, dumps({"b": 1, "a": [2]}))
    assert target.read_text() == '{\n  "a": [\n    2\n  ],\n  "b": 1\n}\n'
    assert [p.name for p in target.parent.iterdir()] == ["card.json"]


def test_a_folder_another_worker_makes_mid_write_does_not_fail_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two xdist workers write their first scorecards at once: the first write of each
    finds no folder, and one of them makes it before the other looks. Both writes land
    (a clean-clone CI run once ERRORed an item with 'No such file or directory')."""
    target = tmp_path / ".postgates" / "scorecards" / "card.json"
    real = fileio._write_atomic
    calls: list[Path] = []

    def raced(path: Path, text: str) -> None:
        calls.append(path)
        if len(calls) == 1:
            try:
                real(path, text)
            finally:
                path.parent.mkdir(parents=True)  # the other worker, just after the miss
        else:
            real(path, text)

    monkeypatch.setattr(fileio, "_write_atomic", raced)
    write_json(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1} and len(calls) == 2


def test_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "card.json"
    write_atomic(target, "old\n")

    class Boom:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    with pytest.raises(TypeError):
        write_atomic(target, Boom())  # type: ignore[arg-type]
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["card.json"]


def test_scorecard_json_shape_is_the_design_shape() -> None:
    card = Scorecard(13, "call_graph_claims", True, "PASS", {"claim_score": 0})
    assert json.loads(dumps(card.to_dict())) == {
        "gate": 13,
        "name": "call_graph_claims",
        "advisory": True,
        "verdict": "PASS",
        "detail": {"claim_score": 0},
    }


def _card(gate: int, advisory: bool, verdict: str) -> Scorecard:
    return Scorecard(gate, f"g{gate}", advisory, verdict)  # type: ignore[arg-type]


def test_overall_ignores_advisory_failures() -> None:
    report = overall_report("p.md", [_card(11, False, "PASS"), _card(13, True, "FAIL")], None)
    assert report["overall"] == "PASS"
    assert report["failing_gates"] == []


def test_overall_fails_on_hard_fail_or_error_and_records_short_circuit() -> None:
    report = overall_report("p.md", [_card(11, False, "FAIL"), _card(13, True, "SKIP")], 11)
    assert (report["overall"], report["short_circuited_at"], report["failing_gates"]) == (
        "FAIL",
        11,
        [11],
    )
    report = overall_report("p.md", [_card(11, False, "ERROR")], None)
    assert report["overall"] == "FAIL"


def test_a_hard_gate_skipped_without_short_circuit_is_listed_as_unverified() -> None:
    report = overall_report("p.md", [_card(11, False, "PASS"), _card(3, False, "SKIP")], None)
    assert report["overall"] == "PASS"
    assert report["unverified_gates"] == [3]


def test_write_json_leaves_a_file_holding_the_same_data_alone(tmp_path: Path) -> None:
    target = tmp_path / "card.json"
    write_json(target, {"b": 1, "a": [2], "t": "ünïcode"})
    assert json.loads(target.read_text(encoding="utf-8")) == {"b": 1, "a": [2], "t": "ünïcode"}
    assert target.read_text(encoding="utf-8") == dumps({"a": [2], "b": 1, "t": "ünïcode"})
    os.utime(target, ns=(0, 0))
    write_json(target, {"a": [2], "t": "ünïcode", "b": 1})  # same data, other key order
    assert target.stat().st_mtime_ns == 0
    write_json(target, {"a": [3], "b": 1})
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": [3], "b": 1}
    target.write_text("{torn", encoding="utf-8")
    write_json(target, {"a": 1})
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": 1}
