"""A huge post does not make a huge SARIF log: each gate keeps at most
``SARIF_FINDINGS_PER_GATE`` results per post, one note says how many more there were, and
one message is clipped (a 1.4 MB post once produced a 17 MB log)."""

from __future__ import annotations

import json
from typing import Any

from pytest_postgates import reports


def record(count: int, message: str = "banned phrase 'paradigm shift'") -> dict[str, Any]:
    return {
        "gate": 11,
        "name": "narrative_opening",
        "advisory": False,
        "verdict": "FAIL",
        "summary": "",
        "findings": [(line, "BANNED", message, "") for line in range(1, count + 1)],
    }


def test_findings_past_the_cap_are_counted_not_listed() -> None:
    cap = reports.SARIF_FINDINGS_PER_GATE
    log = reports.sarif({"_posts/huge.md": {11: record(cap * 50)}, "_posts/b.md": {11: record(3)}})
    run = log["runs"][0]
    huge = [r for r in run["results"] if "huge" in json.dumps(r["locations"])]
    errors = [r for r in huge if r["level"] == "error"]
    (note,) = [r for r in huge if r["level"] == "note"]
    assert len(errors) == cap
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in errors] == list(
        range(1, cap + 1)
    )
    left_out = cap * 49
    assert note["properties"]["findingsLeftOut"] == left_out
    assert f"{left_out} more findings" in note["message"]["text"]
    assert run["properties"]["findingsLeftOut"] == left_out
    # The small post keeps all its findings and gets no note.
    small = [r for r in run["results"] if "b.md" in json.dumps(r["locations"])]
    assert len(small) == 3 and {r["level"] for r in small} == {"error"}


def test_a_huge_post_makes_a_small_log() -> None:
    # 20,000 findings with 300-character messages: the uncapped log was over 20 MB.
    text = reports.dumps_sarif({"_posts/huge.md": {11: record(20_000, "x" * 300)}})
    assert len(text) < 500_000


def test_one_huge_message_is_clipped() -> None:
    log = reports.sarif({"_posts/a.md": {11: record(1, "y" * 1_000_000)}})
    (result,) = log["runs"][0]["results"]
    assert len(result["message"]["text"]) <= reports.SARIF_MESSAGE_CHARS


def test_annotations_and_the_html_report_are_capped_too() -> None:
    cap = reports.REPORT_FINDINGS_PER_GATE
    records = {"_posts/huge.md": {11: record(cap * 20)}}
    lines = reports.github_annotations(records)
    assert len(lines) == cap + 1
    assert f"{cap * 19} more findings" in lines[-1]
    page = reports.html_report(records, {"_posts/huge.md": {"overall": "FAIL"}})
    assert page.count("BANNED") <= cap + 1 and f"{cap * 19} more findings" in page
