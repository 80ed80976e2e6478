"""What a run leaves behind: scorecards, overall verdicts, JUnit properties, retry feedback;
and the settings and front-matter expectations that change them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

GOOD = "2026-01-01-good"
BAD = "2026-01-02-bad"
CLAIMS = "2026-01-03-claims"
CARD_KEYS = {"gate", "name", "advisory", "verdict", "detail"}
CALL_GRAPH_DETAIL_KEYS = {
    "threshold",
    "claim_score",
    "claim_count",
    "mermaid_function_flows",
    "by_code",
    "note",
    "claims",
}


def three_posts(blog: Blog) -> None:
    """A clean post, a post failing hard gate 11, a post failing only advisory gate 13."""
    blog.post(f"{GOOD}.md")
    blog.post(f"{BAD}.md", blog.BROCHURE)
    blog.post(f"{CLAIMS}.md", blog.CLAIMS)


def files_for(stem: str) -> set[str]:
    return {
        f"{stem}-gate11-narrative_opening.json",
        f"{stem}-gate13-call_graph_claims.json",
        f"{stem}-overall.json",
    }


def keys_sorted_everywhere(value: Any) -> bool:
    """True when every JSON object in ``value`` lists its keys in sorted order."""
    if isinstance(value, dict):
        return list(value) == sorted(value) and all(map(keys_sorted_everywhere, value.values()))
    if isinstance(value, list):
        return all(map(keys_sorted_everywhere, value))
    return True


# --------------------------------------------------------------------------- scorecard files


def test_scorecard_files_per_gate_and_per_post(pytester: pytest.Pytester, blog: Blog) -> None:
    """Each gate run writes ``<stem>-gate<id>-<name>.json``; each post a ``-overall.json``."""
    three_posts(blog)
    pytester.runpytest().assert_outcomes(passed=2, failed=1, xfailed=1, xpassed=2)
    assert set(blog.scorecards()) == files_for(GOOD) | files_for(BAD) | files_for(CLAIMS)


def test_scorecard_shape_and_file_line_numbers(pytester: pytest.Pytester, blog: Blog) -> None:
    """Cards have the common shape; detail keeps the seeds' keys with file line numbers."""
    three_posts(blog)
    pytester.runpytest()
    opening = blog.card(f"{BAD}-gate11-narrative_opening.json")
    assert set(opening) == CARD_KEYS
    assert (opening["gate"], opening["name"], opening["advisory"], opening["verdict"]) == (
        11,
        "narrative_opening",
        False,
        "FAIL",
    )
    assert [(hit["line"], hit["phrase"]) for hit in opening["detail"]["banned_phrases"]] == [
        (8, "paradigm shift")
    ]
    claims = blog.card(f"{CLAIMS}-gate13-call_graph_claims.json")
    assert set(claims) == CARD_KEYS
    assert claims["advisory"] is True
    assert claims["verdict"] == "FAIL"
    assert set(claims["detail"]) >= CALL_GRAPH_DETAIL_KEYS
    detail = claims["detail"]
    assert (detail["threshold"], detail["claim_score"], detail["claim_count"]) == (6, 7, 7)
    assert detail["mermaid_function_flows"] == 0
    # Body starts on file line 6; the claim lines are every other line from line 8.
    assert [(c["line"], c["code"], c["in_code"]) for c in detail["claims"]] == [
        (8, "CALLS", False),
        (10, "ORCHESTRATES", False),
        (12, "GATE_ROLE", False),
        (14, "SWITCH", False),
        (16, "RETURN_TYPE", False),
        (18, "VISIBILITY", False),
        (20, "THIN_CLASS", False),
    ]
    assert detail["claims"][0]["text"] == "The loader calls the parser once."
    # Gate 13 costs nothing: it runs on the post whose gate 11 failed (short_circuit =
    # "judges" skips only the paid gates).
    after_failure = blog.card(f"{BAD}-gate13-call_graph_claims.json")
    assert after_failure["verdict"] == "PASS"
    assert "short_circuited_at" not in after_failure["detail"]


def test_scorecards_are_stable_snapshots(pytester: pytest.Pytester, blog: Blog) -> None:
    """Sorted keys, no timestamps, no absolute paths, byte-identical on a second run."""
    three_posts(blog)
    blog.git_init()
    pytester.runpytest()
    folder = pytester.path / ".postgates" / "scorecards"
    first = {path.name: path.read_bytes() for path in folder.glob("*.json")}
    assert len(first) == 9
    for name, data in first.items():
        text = data.decode("utf-8")
        assert keys_sorted_everywhere(json.loads(text)), name
        assert not re.search(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d", text), name
        assert not re.search(r'"[^"]*(time|date)[^"]*":', text), name
        assert str(pytester.path) not in text, name
        assert not re.search(r'"/(tmp|home|root|Users|var)/', text), name
    pytester.runpytest()
    second = {path.name: path.read_bytes() for path in folder.glob("*.json")}
    assert second == first
    assert not list(folder.glob(".*.tmp")), "atomic writes leave no temporary files"


def test_scorecards_hold_no_absolute_path_without_git(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """Gate 11 works without a git repository; its scorecard still names no absolute path."""
    blog.post(f"{GOOD}.md")
    pytester.runpytest().assert_outcomes(passed=1, xpassed=1)
    for name, card in blog.scorecards().items():
        assert str(pytester.path) not in json.dumps(card), name


def test_overall_verdicts(pytester: pytest.Pytester, blog: Blog) -> None:
    """overall PASS iff every non-advisory gate passed; a short-circuit is recorded (the
    paid judge gate 4 after gate 11 failed; the good post's gate 4 is unverified: no judge)."""
    three_posts(blog)
    pytester.runpytest("--postgates-only=11,13,4")
    good = blog.card(f"{GOOD}-overall.json")
    assert (good["overall"], good["short_circuited_at"], good["failing_gates"]) == (
        "PASS",
        None,
        [],
    )
    assert good["post"] == f"_posts/{GOOD}.md"
    assert [(g["gate"], g["verdict"]) for g in good["gates"]] == [
        (4, "SKIP"),
        (11, "PASS"),
        (13, "PASS"),
    ]
    assert good["unverified_gates"] == [4]
    advisory_only = blog.card(f"{CLAIMS}-overall.json")
    assert advisory_only["overall"] == "PASS"
    assert [(g["gate"], g["advisory"], g["verdict"]) for g in advisory_only["gates"]] == [
        (4, False, "SKIP"),
        (11, False, "PASS"),
        (13, True, "FAIL"),
    ]
    bad = blog.card(f"{BAD}-overall.json")
    assert (bad["overall"], bad["short_circuited_at"], bad["failing_gates"]) == ("FAIL", 11, [11])
    assert [(g["gate"], g["verdict"]) for g in bad["gates"]] == [
        (4, "SKIP"),
        (11, "FAIL"),
        (13, "PASS"),
    ]
    assert bad["unverified_gates"] == []  # its gate 4 was short-circuited, not unverified


def test_overall_with_postgates_all(pytester: pytest.Pytester, blog: Blog) -> None:
    """Without short-circuit every gate has a real verdict and nothing is short-circuited."""
    blog.post(f"{BAD}.md", blog.NO_ENTITY_CLAIMS)
    pytester.runpytest("--postgates-all").assert_outcomes(failed=1, xfailed=1)
    bad = blog.card(f"{BAD}-overall.json")
    assert (bad["overall"], bad["short_circuited_at"], bad["failing_gates"]) == ("FAIL", None, [11])
    assert [(g["gate"], g["verdict"]) for g in bad["gates"]] == [(11, "FAIL"), (13, "FAIL")]


def test_same_stem_in_two_folders_gets_two_scorecard_sets(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """Two posts called ``same.md`` do not overwrite each other's scorecards."""
    blog.post("same.md", folder="en/_posts")
    blog.post("same.md", blog.NO_ENTITY, folder="fr/_posts")
    pytester.runpytest().assert_outcomes(passed=1, failed=1, xpassed=2)
    cards = blog.scorecards()
    assert len(cards) == 6
    overall = {card["post"]: card["overall"] for name, card in cards.items() if "overall" in name}
    assert overall == {"en/_posts/same.md": "PASS", "fr/_posts/same.md": "FAIL"}
    stems = {name.rsplit("-gate", 1)[0] for name in cards if "-gate" in name}
    assert len(stems) == 2
    assert all(stem.startswith("same~") for stem in stems)  # both hashed, whatever the order
    assert sorted(card["verdict"] for name, card in cards.items() if "gate11" in name) == [
        "FAIL",
        "PASS",
    ]


def test_posts_named_on_command_line_keep_plain_stems(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """``pytest _posts/a.md _posts/b.md`` writes ``a-...`` and ``b-...`` (no stem collides)."""
    blog.post(f"{GOOD}.md")
    blog.post(f"{BAD}.md", blog.NO_ENTITY)
    pytester.runpytest(f"_posts/{GOOD}.md", f"_posts/{BAD}.md").assert_outcomes(
        passed=1, failed=1, xpassed=2
    )
    assert set(blog.scorecards()) == files_for(GOOD) | files_for(BAD)


def test_default_scorecards_folder_is_under_rootdir(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a sub-folder, scorecards still go to ``<rootdir>/.postgates/scorecards``."""
    blog.post(f"{GOOD}.md")
    blog.raw("pyproject.toml", b"[tool.pytest.ini_options]\n")
    monkeypatch.chdir(pytester.path / "_posts")
    pytester.runpytest(".").assert_outcomes(passed=1, xpassed=1)
    assert set(blog.scorecards()) == files_for(GOOD)
    assert not (pytester.path / "_posts" / ".postgates").exists()


def test_scorecards_option_and_precedence(pytester: pytest.Pytester, blog: Blog) -> None:
    """``[tool.postgates] scorecards`` < ``postgates_scorecards`` ini key < the flag."""
    blog.post(f"{GOOD}.md")
    blog.raw(
        "pyproject.toml",
        b'[tool.pytest.ini_options]\npostgates_scorecards = "ini-cards"\n\n'
        b'[tool.postgates]\nscorecards = "toml-cards"\n',
    )
    pytester.runpytest()
    assert set(blog.scorecards("ini-cards")) == files_for(GOOD)
    pytester.runpytest("--postgates-scorecards", "out/cards")
    assert set(blog.scorecards("out/cards")) == files_for(GOOD)
    assert not (pytester.path / "toml-cards").exists()
    assert not (pytester.path / ".postgates").exists()


# --------------------------------------------------------------------------- JUnit XML


def junit_properties(path: Any) -> dict[str, dict[str, str]]:
    """``{classname::name: {property: value}}`` for every testcase of a JUnit file."""
    root = ET.parse(path).getroot()
    return {
        f"{case.get('classname')}::{case.get('name')}": {
            prop.get("name", ""): prop.get("value", "") for prop in case.iter("property")
        }
        for case in root.iter("testcase")
    }


def test_junit_testcases_carry_gate_properties(pytester: pytest.Pytester, blog: Blog) -> None:
    """Every gate testcase has gate_id, verdict and score properties.

    Only under the legacy ``junit_family=xunit1``, where pytest writes ``record_property``'s
    output too; under ``xunit2`` the testsuite's properties say the same
    (tests/test_junit_schema.py).
    """
    three_posts(blog)
    pytester.runpytest("--junitxml=gates.xml", "-o", "junit_family=xunit1")
    assert junit_properties(pytester.path / "gates.xml") == {
        f"_posts.{GOOD}.md::narrative_opening": {"gate_id": "11", "verdict": "PASS", "score": "0"},
        f"_posts.{GOOD}.md::call_graph_claims": {"gate_id": "13", "verdict": "PASS", "score": "0"},
        f"_posts.{BAD}.md::narrative_opening": {"gate_id": "11", "verdict": "FAIL", "score": "1"},
        f"_posts.{BAD}.md::call_graph_claims": {"gate_id": "13", "verdict": "PASS", "score": "0"},
        f"_posts.{CLAIMS}.md::narrative_opening": {
            "gate_id": "11",
            "verdict": "PASS",
            "score": "0",
        },
        f"_posts.{CLAIMS}.md::call_graph_claims": {
            "gate_id": "13",
            "verdict": "FAIL",
            "score": "7",
        },
    }
    xml = (pytester.path / "gates.xml").read_text("utf-8")
    assert f'file="_posts/{BAD}.md"' in xml


# --------------------------------------------------------------------------- retry feedback


def test_feedback_file_lists_failing_posts(pytester: pytest.Pytester, blog: Blog) -> None:
    """``--postgates-feedback`` writes, per failing post, its gate and line-numbered findings."""
    three_posts(blog)
    pytester.runpytest("--postgates-feedback", "feedback.txt")
    text = (pytester.path / "feedback.txt").read_text("utf-8")
    lines = text.splitlines()
    assert f"# _posts/{BAD}.md" in lines
    assert f"# _posts/{GOOD}.md" not in lines
    bad_section = text.split(f"# _posts/{BAD}.md", 1)[1].split("\n# ", 1)[0]
    assert "## gate 11 narrative_opening (hard) FAIL" in bad_section
    assert '  - line 8: BANNED_PHRASE brochure phrase "paradigm shift"' in bad_section
    assert "short-circuited" not in bad_section


def test_feedback_file_is_empty_when_everything_passes(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """A clean corpus still writes the file, with nothing to fix in it."""
    blog.post(f"{GOOD}.md")
    pytester.runpytest("--postgates-feedback", "feedback.txt").assert_outcomes(passed=1, xpassed=1)
    assert (pytester.path / "feedback.txt").read_text("utf-8") == ""


def test_feedback_lines_are_actionable(pytester: pytest.Pytester, blog: Blog) -> None:
    """Each feedback finding tells the drafter what to change (DESIGN: retry feedback)."""
    blog.post(f"{BAD}.md", blog.NO_ENTITY_CLAIMS.replace("general", "general, a paradigm shift"))
    pytester.runpytest("--postgates-all", "--postgates-feedback", "feedback.txt")
    findings = [
        line
        for line in (pytester.path / "feedback.txt").read_text("utf-8").splitlines()
        if line.startswith("  - ")
    ]
    assert len(findings) == 9
    verbs = re.compile(
        r"; .*\b(remove|replace|delete|rewrite|verify|check|label|name|link|import)\b", re.I
    )
    assert [line for line in findings if not verbs.search(line)] == []


# --------------------------------------------------------------------------- settings


def test_unknown_setting_is_a_usage_error(pytester: pytest.Pytester, blog: Blog) -> None:
    """A misspelt key in ``[tool.postgates]`` stops the run and names the key."""
    blog.post(f"{GOOD}.md")
    blog.pyproject("scorecard = 'cards'\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *pyproject.toml*unknown postgates setting(s) scorecard*"])
    assert not (pytester.path / ".postgates").exists()


def test_unknown_gate_name_in_gates_table_is_a_usage_error(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """``gates.call_graph_claim.advisory`` (a typo) must not silently do nothing."""
    blog.post(f"{CLAIMS}.md", blog.CLAIMS)
    blog.pyproject("gates.call_graph_claim.advisory = false\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_gate_can_be_made_hard(pytester: pytest.Pytester, blog: Blog) -> None:
    """``gates.call_graph_claims.advisory = false`` makes a gate 13 FAIL fail the run."""
    blog.post(f"{CLAIMS}.md", blog.CLAIMS)
    blog.pyproject("gates.call_graph_claims.advisory = false\n")
    selected = pytester.runpytest("--collect-only", "-q", "-m", "hard")
    selected.stdout.fnmatch_lines(
        [
            f"_posts/{CLAIMS}.md::narrative_opening",
            f"_posts/{CLAIMS}.md::call_graph_claims",
        ]
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "call_graph_claims (gate 13) FAIL: claim score 7 > threshold 6",
            f"_posts/{CLAIMS}.md:8: CALLS The loader calls the parser once.",
        ]
    )
    card = blog.card(f"{CLAIMS}-gate13-call_graph_claims.json")
    assert (card["advisory"], card["verdict"]) == (False, "FAIL")
    overall = blog.card(f"{CLAIMS}-overall.json")
    assert (overall["overall"], overall["failing_gates"]) == ("FAIL", [13])


def test_gate_can_be_made_advisory(pytester: pytest.Pytester, blog: Blog) -> None:
    """``gates.narrative_opening.advisory = true``: its FAIL is XFAIL and short-circuits
    nothing."""
    blog.post(f"{BAD}.md", blog.NO_ENTITY)
    blog.pyproject("[tool.postgates.gates.narrative_opening]\nadvisory = true\n")
    result = pytester.runpytest()
    result.assert_outcomes(xfailed=1, xpassed=1)
    assert result.ret == pytest.ExitCode.OK
    assert blog.card(f"{BAD}-overall.json")["overall"] == "PASS"


@pytest.mark.parametrize(("threshold", "verdict"), [("10", "PASS"), ("7", "PASS"), ("6", "FAIL")])
def test_call_graph_threshold_from_environment(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    threshold: str,
    verdict: str,
) -> None:
    """``CALL_GRAPH_CLAIM_THRESHOLD`` overrides the default 6 (PASS when score <= it)."""
    blog.post(f"{CLAIMS}.md", blog.CLAIMS)
    monkeypatch.setenv("CALL_GRAPH_CLAIM_THRESHOLD", threshold)
    result = pytester.runpytest()
    if verdict == "PASS":
        result.assert_outcomes(passed=1, xpassed=1)
    else:
        result.assert_outcomes(passed=1, xfailed=1)
    detail = blog.card(f"{CLAIMS}-gate13-call_graph_claims.json")["detail"]
    assert (detail["threshold"], detail["claim_score"]) == (int(threshold), 7)


def test_bad_threshold_in_environment_is_a_usage_error(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A threshold that is not a number is reported, not ignored."""
    blog.post(f"{CLAIMS}.md", blog.CLAIMS)
    monkeypatch.setenv("CALL_GRAPH_CLAIM_THRESHOLD", "six")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: CALL_GRAPH_CLAIM_THRESHOLD='six' is not a number"])


# --------------------------------------------------------------------------- expectations


def test_declared_failure_is_xfailed(pytester: pytest.Pytester, blog: Blog) -> None:
    """``postgates: {expect: {narrative_opening: FAIL}}`` turns a known FAIL into XFAIL."""
    blog.post(f"{BAD}.md", blog.NO_ENTITY, expect={"narrative_opening": "FAIL"})
    result = pytester.runpytest("-rxs")
    result.assert_outcomes(xfailed=1, xpassed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [f"XFAIL _posts/{BAD}.md::narrative_opening - declared in front matter: FAIL"]
    )


@pytest.mark.parametrize("key", ["postgates", '"postg\\x61tes"'], ids=["plain", "escaped"])
def test_declared_failure_holds_when_results_come_from_the_cache(
    pytester: pytest.Pytester, blog: Blog, key: str
) -> None:
    """A cached run reads the declaration without a parse (the key written in the front
    matter, or a backslash that may spell it), and still finds it."""
    front = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n"
    text = f"{front}{key}: {{expect: {{narrative_opening: FAIL}}}}\n---\n{blog.NO_ENTITY}"
    blog.raw(f"_posts/{BAD}.md", text.encode("utf-8"))
    for _ in range(2):
        pytester.runpytest("--postgates-only=11").assert_outcomes(xfailed=1)


def test_declared_failure_with_matching_count_is_xfailed(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """``{verdict: FAIL, findings: 2}`` holds when the gate reports exactly two findings."""
    body = blog.NO_ENTITY.replace("general", "general, a paradigm shift")
    blog.post(f"{BAD}.md", body, expect={"narrative_opening": {"verdict": "FAIL", "findings": 2}})
    pytester.runpytest().assert_outcomes(xfailed=1, xpassed=1)


def test_declared_failure_that_passes_fails(pytester: pytest.Pytester, blog: Blog) -> None:
    """A post declared to FAIL that now passes is a failure: the declaration is stale."""
    blog.post(f"{GOOD}.md", expect={"narrative_opening": "FAIL"})
    result = pytester.runpytest()
    result.assert_outcomes(failed=1, xpassed=1)
    result.stdout.fnmatch_lines(
        [
            f"_posts/{GOOD}.md: front matter expects narrative_opening to FAIL, but it gave PASS *",
        ]
    )


def test_declared_count_mismatch_fails(pytester: pytest.Pytester, blog: Blog) -> None:
    """A new finding on a known-bad post still fails the run (1 declared, 2 found)."""
    body = blog.NO_ENTITY.replace("general", "general, a paradigm shift")
    blog.post(f"{BAD}.md", body, expect={"narrative_opening": {"verdict": "FAIL", "findings": 1}})
    result = pytester.runpytest()
    result.assert_outcomes(failed=1, xpassed=1)
    result.stdout.fnmatch_lines(
        [
            f"_posts/{BAD}.md: front matter expects narrative_opening to FAIL with 1 finding(s),"
            " but it gave FAIL with 2 finding(s)",
            f"_posts/{BAD}.md:11: NO_ENTITY *",
            f"_posts/{BAD}.md:11: BANNED_PHRASE *",
        ]
    )


def test_advisory_expectation_not_met_fails(pytester: pytest.Pytester, blog: Blog) -> None:
    """The advisory xfail does not swallow a broken declaration on gate 13."""
    blog.post(f"{GOOD}.md", expect={"call_graph_claims": "FAIL"})
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [f"_posts/{GOOD}.md: front matter expects call_graph_claims to FAIL, but it gave PASS *"]
    )


def test_unknown_gate_in_expectation_is_reported(pytester: pytest.Pytester, blog: Blog) -> None:
    """An ``expect`` naming no gate never passes silently: the items report the name."""
    blog.post(f"{GOOD}.md", expect={"narative_opening": "FAIL"})
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [f"_posts/{GOOD}.md: front matter 'postgates: expect:' names unknown gate(s): narative*"]
    )
    result.stdout.no_fnmatch_line("*Traceback*")


def test_unknown_gate_in_expectation_is_an_error(pytester: pytest.Pytester, blog: Blog) -> None:
    """A malformed declaration is a problem with the post, not a gate verdict: ERROR."""
    blog.post(f"{GOOD}.md", expect={"narative_opening": "FAIL"})
    pytester.runpytest().assert_outcomes(errors=2)
