"""JUnit XML (``--junitxml``) against pytest's own schema of its ``xunit2`` family.

pytest validates its xunit2 reports against ``junit-10.xsd`` (kept in tests/data, see
SOURCES.txt there) with xmlschema; the plugin's reports must pass the same check and still
say, for each gate item, its verdict and findings.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import xmlschema

    from tests.conftest import Blog

SCHEMA = Path(__file__).resolve().parent / "data" / "junit-10.xsd"


@pytest.fixture(scope="module")
def junit_schema() -> xmlschema.XMLSchema:
    import xmlschema

    return xmlschema.XMLSchema(SCHEMA)


def write_blog(blog: Blog) -> None:
    """Gate 11 PASS and FAIL (hard), gate 13 FAIL (advisory), and an ERROR (a NUL byte)."""
    blog.post("good.md", blog.GOOD)
    blog.post("brochure.md", blog.BROCHURE)
    blog.post("claims.md", blog.CLAIMS)
    blog.raw("_posts/nul-byte.md", b"---\ntitle: T\n---\nPython\x00 here.\n")


def suite_properties(path: Path) -> dict[str, str]:
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None
    return {p.get("name", ""): p.get("value", "") for p in suite.findall("properties/property")}


def case_named(path: Path, classname: str, name: str) -> ET.Element:
    for case in ET.parse(path).getroot().iter("testcase"):
        if (case.get("classname"), case.get("name")) == (classname, name):
            return case
    raise AssertionError(f"no testcase {classname}::{name}")


def test_junit_xunit2_is_valid_and_says_each_gates_verdict_and_findings(
    pytester: pytest.Pytester, blog: Blog, junit_schema: xmlschema.XMLSchema
) -> None:
    """Under pytest's default family the file validates (no testcase carries properties),
    the testsuite's properties give every item's verdict, and the findings of a failing
    gate are in its ``<failure>`` text (hard) or the testsuite property (advisory)."""
    write_blog(blog)
    pytester.runpytest("--junitxml=gates.xml", "-o", "junit_family=xunit2")
    report = pytester.path / "gates.xml"
    junit_schema.validate(str(report))
    cases = list(ET.parse(report).getroot().iter("testcase"))
    assert len(cases) == 8 and all(case.find("properties") is None for case in cases)
    properties = suite_properties(report)
    assert properties["_posts/good.md::narrative_opening"].startswith(
        "PASS (gate 11, hard, score 0)"
    )
    brochure = properties["_posts/brochure.md::narrative_opening"].splitlines()
    assert brochure[0].startswith("FAIL (gate 11, hard, score 1): ")
    assert brochure[1].startswith('line 8: BANNED_PHRASE brochure phrase "paradigm shift"')
    claims = properties["_posts/claims.md::call_graph_claims"].splitlines()
    assert claims[0].startswith("FAIL (gate 13, advisory, score 7): ")
    assert len(claims) == 1 + 7 and claims[1].startswith("line ")
    assert properties["_posts/nul-byte.md::narrative_opening"].startswith("ERROR (gate 11")
    failure = case_named(report, "_posts.brochure.md", "narrative_opening").find("failure")
    assert failure is not None and "_posts/brochure.md:8: BANNED_PHRASE" in (failure.text or "")
    # An advisory FAIL is an expected failure, which pytest writes as a typed <skipped>;
    # its message says it is a FAIL.
    (expected,) = list(case_named(report, "_posts.claims.md", "call_graph_claims"))
    assert expected.tag == "skipped" and expected.get("type") == "pytest.xfail"
    assert expected.get("message", "").startswith("advisory gate call_graph_claims FAIL: ")


def test_junit_xunit1_is_pytests_legacy_format_and_invalid_only_by_its_own_additions(
    pytester: pytest.Pytester, blog: Blog, junit_schema: xmlschema.XMLSchema
) -> None:
    """The legacy family is not valid against the schema (as docs/ci.md says): pytest gives
    each testcase ``file`` and ``line`` attributes, and the plugin, as pytest does for
    ``record_property``, gives each testcase its own properties. Without those the file
    validates: the plugin adds nothing else the schema refuses."""
    write_blog(blog)
    pytester.runpytest("--junitxml=legacy.xml", "-o", "junit_family=xunit1")
    report = pytester.path / "legacy.xml"
    assert not junit_schema.is_valid(str(report))
    tree = ET.parse(report)
    cases = list(tree.getroot().iter("testcase"))
    assert all(case.get("file") and case.find("properties") is not None for case in cases)
    for case in cases:
        case.attrib.pop("file")
        case.attrib.pop("line", None)
        own = case.find("properties")
        assert own is not None
        assert {p.get("name") for p in own} == {"gate_id", "verdict", "score"}
        case.remove(own)
    stripped = pytester.path / "stripped.xml"
    tree.write(stripped, encoding="utf-8")
    junit_schema.validate(str(stripped))
    assert suite_properties(stripped)["_posts/claims.md::call_graph_claims"].startswith("FAIL")
