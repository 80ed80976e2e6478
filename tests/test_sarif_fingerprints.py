"""Stable SARIF (issue 13 step 6): partialFingerprints that survive lines inserted above a
finding and change when the finding changes; rules link to the gate pages of the docs."""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates import reports, rule_help
from pytest_postgates.gates import GATES

if TYPE_CHECKING:
    from tests.conftest import Blog

ROOT = Path(__file__).resolve().parent.parent


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


def test_rules_are_described_by_the_gate_catalogue_and_link_to_its_docs() -> None:
    """Each rule's texts come from its gate's own declaration (the registry's description,
    the gate module's docstring), and ``helpUri`` is an anchor that exists in a file of
    this repository."""
    rules = reports.sarif({})["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [gate.name for gate in GATES]
    for rule, gate in zip(rules, GATES, strict=True):
        docstring = inspect.getdoc(sys.modules[gate.check.__module__])
        assert docstring, f"gate module of {gate.name} has no docstring"
        title, body = docstring.split("\n\n")[:2]
        assert rule["shortDescription"]["text"] == gate.description
        assert rule["fullDescription"]["text"].startswith(title)
        assert " ".join(body.replace("``", "`").split()[:4]) in rule["fullDescription"]["text"]
        # The whole docstring is the help, reStructuredText's ``code`` as Markdown's.
        last_words = " ".join(docstring.replace("``", "`").split()[-6:])
        for form in ("text", "markdown"):
            assert rule["help"][form].startswith(title)
            assert last_words in " ".join(rule["help"][form].split())
        assert rule["helpUri"] in rule["help"]["markdown"]
        prefix = f"{rule_help.REPOSITORY_URL}/blob/HEAD/"
        assert rule["helpUri"].startswith(prefix)
        file_name, anchor = rule["helpUri"].removeprefix(prefix).split("#")
        documented = ROOT / file_name
        assert documented.is_file(), f"{file_name} is not a file of this repository"
        anchors = set(re.findall(r'<a id="([^"]+)"></a>', documented.read_text("utf-8")))
        assert anchor == gate.help_anchor and anchor in anchors, f"{file_name} lacks #{anchor}"


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


def test_uris_and_fingerprints_do_not_depend_on_the_rootdir(tmp_path: Path) -> None:
    """The same post seen from the repository's top and from its ``blog`` folder gets one
    URI (percent-encoded: a URI reference) and one fingerprint."""
    findings = [(3, "BANNED", "banned phrase 'paradigm shift'")]
    logs = [
        reports.sarif({post: {11: record(findings)}}, reports.SourceRoot(tmp_path, rootdir))
        for post, rootdir in (
            ("blog/_posts/a b.md", tmp_path),
            ("_posts/a b.md", tmp_path / "blog"),
        )
    ]
    (first,), (second,) = (log["runs"][0]["results"] for log in logs)
    assert first == second
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "blog/_posts/a%20b.md",
        "uriBaseId": "%SRCROOT%",
    }
