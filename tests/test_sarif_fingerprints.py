"""Stable SARIF (issue 13 step 6): partialFingerprints that survive lines inserted above a
finding and change when the finding changes; rules link to the README's gate sections."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates import reports
from pytest_postgates.gates import GATES

if TYPE_CHECKING:
    from tests.conftest import Blog

README = Path(__file__).resolve().parent.parent / "README.md"


def record(findings: list[tuple[int, str, str]], name: str = "narrative_opening") -> Any:
    return {
        "gate": 11,
        "name": name,
        "advisory": False,
        "verdict": "FAIL",
        "summary": "",
        "findings": [(line, code, message, "") for line, code, message in findings],
    }


def prints(findings: list[tuple[int, str, str]], post: str = "_posts/a.md") -> list[str]:
    log = reports.sarif({post: {11: record(findings)}})
    return [r["partialFingerprints"][reports.FINGERPRINT_KEY] for r in log["runs"][0]["results"]]


def test_fingerprint_ignores_the_line_and_line_references() -> None:
    before = prints([(8, "UNCLOSED", "code fence opened at line 8 is never closed")])
    after = prints([(20, "UNCLOSED", "code fence opened at line 20 is never closed")])
    assert before == after


def test_equal_findings_are_told_apart_by_their_order() -> None:
    twice = prints([(3, "BANNED", "banned phrase 'paradigm shift'")] * 2)
    assert len(set(twice)) == 2
    # The same two findings further down keep their fingerprints.
    moved = prints(
        [
            (30, "BANNED", "banned phrase 'paradigm shift'"),
            (40, "BANNED", "banned phrase 'paradigm shift'"),
        ]
    )
    assert moved == twice


def test_fingerprint_changes_with_the_finding_the_gate_or_the_post() -> None:
    base = prints([(3, "BANNED", "banned phrase 'paradigm shift'")])
    assert prints([(3, "BANNED", "banned phrase 'game changer'")]) != base
    assert prints([(3, "OTHER", "banned phrase 'paradigm shift'")]) != base
    assert prints([(3, "BANNED", "banned phrase 'paradigm shift'")], post="_posts/b.md") != base


def test_rules_have_help_uris_to_readme_sections_and_descriptions() -> None:
    rules = reports.sarif({})["runs"][0]["tool"]["driver"]["rules"]
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', README.read_text(encoding="utf-8")))
    assert [rule["id"] for rule in rules] == [gate.name for gate in GATES]
    for rule, gate in zip(rules, GATES, strict=True):
        assert rule["shortDescription"]["text"] == gate.description
        base, anchor = rule["helpUri"].split("#")
        assert base == reports.README_URL and anchor == gate.help_anchor
        assert anchor in anchors, f"README has no section anchor {anchor}"


BROCHURE_BODY = (
    "This post shows how pytest loads a Python plugin.\n\n"
    "Honestly, it is a paradigm shift for reviews.\n"
)


def _fingerprints(blog: Blog, pytester: pytest.Pytester) -> dict[tuple[str, int], str]:
    pytester.runpytest("--postgates-only=11", "--postgates-sarif=out.sarif")
    log = json.loads((blog.path / "out.sarif").read_text(encoding="utf-8"))
    return {
        (r["message"]["text"], r["locations"][0]["physicalLocation"]["region"]["startLine"]): r[
            "partialFingerprints"
        ][reports.FINGERPRINT_KEY]
        for r in log["runs"][0]["results"]
    }


def test_fingerprint_survives_lines_inserted_above_in_a_real_run(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.post("2026-01-01-p.md", BROCHURE_BODY)
    (first,) = _fingerprints(blog, pytester).items()
    blog.post("2026-01-01-p.md", "A new first paragraph about Python.\n\n\n" + BROCHURE_BODY)
    (moved,) = _fingerprints(blog, pytester).items()
    assert moved[0][1] == first[0][1] + 3  # the finding moved three lines down...
    assert moved[1] == first[1]  # ...and kept its fingerprint
    blog.post("2026-01-01-p.md", BROCHURE_BODY.replace("paradigm shift", "game changer"))
    (changed,) = _fingerprints(blog, pytester).items()
    assert changed[1] != first[1]
