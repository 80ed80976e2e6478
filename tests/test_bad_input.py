"""Bad input: each broken post errors or fails with its file and problem named, the rest of
the corpus still runs, and pytest never reports an INTERNALERROR."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

FRONT = b"---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
BODY = b"This post shows how pytest runs a Python plugin.\n"

# name -> (file bytes, problem code, fnmatch pattern of the message, file line of the problem)
FATAL: dict[str, tuple[bytes, str, str, int]] = {
    "bad-yaml": (
        b"---\nlayout: post\ntitle: [unclosed\ndate: 2026-01-01\n---\n" + BODY,
        "FRONT_MATTER_YAML",
        "front matter is not valid YAML: *",
        4,
    ),
    "unclosed-front-matter": (
        b"---\nlayout: post\ntitle: T\n\n" + BODY,
        "FRONT_MATTER_UNCLOSED",
        "front matter opened at line 1 is never closed *",
        1,
    ),
    "unclosed-fence": (
        FRONT + BODY + b"\n```python\nprint('never closed')\n",
        "UNCLOSED_FENCE",
        "code fence ```python opened at line 8 is never closed*",
        8,
    ),
    "not-utf8": (
        FRONT + b"This post is about Python \xff\xfe bytes.\n",
        "NOT_UTF8",
        "not valid UTF-8: byte 0xff at offset *",
        6,
    ),
    "nul-byte": (
        FRONT + b"This post is about\x00 Python.\n",
        "BINARY",
        "binary content: NUL byte at offset *",
        6,
    ),
    "empty-body": (
        FRONT + b"\n\n",
        "EMPTY_BODY",
        "the post has no body after its front matter",
        6,
    ),
}

# Repairable defects: the gate still judges the repaired text, with file line numbers.
CRLF_POST = (FRONT + BODY + b"\nIt is a paradigm shift.\n\nThe loader calls the parser.\n").replace(
    b"\n", b"\r\n"
)
BOM_POST = b"\xef\xbb\xbf" + FRONT + BODY + b"\nIt is a paradigm shift.\n\nThe loader calls it.\n"


def assert_no_internal_error(result: pytest.RunResult) -> None:
    assert result.ret != pytest.ExitCode.INTERNAL_ERROR
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize("case", sorted(FATAL))
def test_fatal_bad_input_errors_and_names_file_and_problem(
    pytester: pytest.Pytester, blog: Blog, case: str
) -> None:
    """Every gate of the broken post is an ERROR naming the file, line and problem; the good
    post beside it still passes."""
    data, code, message, line = FATAL[case]
    blog.post("2026-01-01-good.md")
    blog.raw(f"_posts/{case}.md", data)
    result = pytester.runpytest("--postgates-all", "-rA")
    assert_no_internal_error(result)
    result.assert_outcomes(passed=1, xpassed=1, errors=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    for gate in ("narrative_opening (gate 11)", "call_graph_claims (gate 13)"):
        result.stdout.fnmatch_lines(
            [
                f"*ERROR at setup of _posts/{case}.md::{gate}*",
                f"{gate} ERROR: cannot check _posts/{case}.md: {message}",
                f"_posts/{case}.md:{line}: {code} {message}",
            ]
        )
    result.stdout.fnmatch_lines(
        [
            "PASSED _posts/2026-01-01-good.md::narrative_opening",
            f"ERROR _posts/{case}.md::narrative_opening - *",
        ],
        consecutive=False,
    )
    result.stdout.no_fnmatch_line("*Traceback*")


@pytest.mark.parametrize("case", sorted(FATAL))
def test_fatal_bad_input_scorecards(pytester: pytest.Pytester, blog: Blog, case: str) -> None:
    """The broken post still gets ERROR scorecards that record the problem, and an overall
    FAIL; gate 13 (free) gets its own ERROR, and with the seeds' short-circuit
    (``short_circuit = "all"``) it is skipped after gate 11's ERROR instead."""
    data, code, _, line = FATAL[case]
    blog.raw(f"_posts/{case}.md", data)
    result = pytester.runpytest("-rs")
    assert_no_internal_error(result)
    result.assert_outcomes(errors=2)
    blog.pyproject('short_circuit = "all"\n')
    result = pytester.runpytest("-rs")
    result.assert_outcomes(errors=1, skipped=1)
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] _posts/{case}.md:1: short-circuited at gate 11"])
    card = blog.card(f"{case}-gate11-narrative_opening.json")
    assert card["verdict"] == "ERROR"
    assert [(p["code"], p["line"]) for p in card["detail"]["input_problems"]] == [(code, line)]
    overall = blog.card(f"{case}-overall.json")
    assert (overall["overall"], overall["failing_gates"]) == ("FAIL", [11])


def test_whole_bad_corpus_in_one_run(pytester: pytest.Pytester, blog: Blog) -> None:
    """All the bad posts together: one good post passes, nothing crashes the session."""
    blog.post("2026-01-01-good.md")
    for case, (data, *_) in FATAL.items():
        blog.raw(f"_posts/{case}.md", data)
    blog.raw("_posts/crlf.md", CRLF_POST)
    blog.raw("_posts/bom.md", BOM_POST)
    result = pytester.runpytest("--postgates-all")
    assert_no_internal_error(result)
    result.assert_outcomes(passed=1, xpassed=1, errors=2 * len(FATAL), failed=2, xfailed=2)
    overall = {
        name: card["overall"]
        for name, card in blog.scorecards().items()
        if name.endswith("-overall.json")
    }
    assert overall.pop("2026-01-01-good-overall.json") == "PASS"
    assert set(overall.values()) == {"FAIL"}
    assert len(overall) == len(FATAL) + 2


@pytest.mark.parametrize(
    ("case", "data", "code", "message"),
    [
        (
            "crlf",
            CRLF_POST,
            "CRLF",
            "10 CRLF line ending(s), first at line 1; save the file with LF",
        ),
        ("bom", BOM_POST, "BOM", "file starts with a UTF-8 byte-order mark*"),
    ],
    ids=["crlf", "bom"],
)
def test_repairable_defect_fails_with_correct_line_numbers(
    pytester: pytest.Pytester, blog: Blog, case: str, data: bytes, code: str, message: str
) -> None:
    """CRLF and a BOM fail the gates with a finding of their own, while each gate's own
    findings keep the file's line numbers (brochure phrase on line 8, claim on line 10)."""
    blog.raw(f"_posts/{case}.md", data)
    result = pytester.runpytest("--postgates-all")
    assert_no_internal_error(result)
    result.assert_outcomes(failed=1, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            f"narrative_opening (gate 11) FAIL: {message}; 1 brochure phrase(s)",
            f"_posts/{case}.md:1: {code} {message}",
            f'_posts/{case}.md:8: BANNED_PHRASE brochure phrase "paradigm shift": *',
        ]
    )
    opening = blog.card(f"{case}-gate11-narrative_opening.json")
    assert opening["verdict"] == "FAIL"
    assert [p["code"] for p in opening["detail"]["input_problems"]] == [code]
    assert [hit["line"] for hit in opening["detail"]["banned_phrases"]] == [8]
    # Gate 11's own check found Python and pytest: only the defect and the phrase failed it.
    assert opening["detail"]["entity_count"] >= 2
    claims = blog.card(f"{case}-gate13-call_graph_claims.json")
    assert claims["verdict"] == "FAIL"
    assert [(c["line"], c["code"]) for c in claims["detail"]["claims"]] == [(10, "CALLS")]
    assert [p["code"] for p in claims["detail"]["input_problems"]] == [code]
    assert json.dumps(claims).count("\\r") == 0


@pytest.mark.parametrize(
    ("case", "data"), [("crlf", CRLF_POST), ("bom", BOM_POST)], ids=["crlf", "bom"]
)
def test_clean_text_with_defect_still_fails_not_passes(
    pytester: pytest.Pytester, blog: Blog, case: str, data: bytes
) -> None:
    """A defect alone (no other finding) turns a would-be PASS into FAIL, never ERROR; with
    the seeds' short-circuit (``short_circuit = "all"``), gate 13 is then skipped."""
    clean = data.replace(b"It is a paradigm shift.", b"It is a small change.")
    blog.raw(f"_posts/{case}.md", clean)
    result = pytester.runpytest("--postgates-all")
    assert_no_internal_error(result)
    result.assert_outcomes(failed=1, xfailed=1)
    assert blog.card(f"{case}-gate11-narrative_opening.json")["detail"]["banned_phrase_count"] == 0
    blog.pyproject('short_circuit = "all"\n')
    short = pytester.runpytest()
    short.assert_outcomes(failed=1, skipped=1)


def test_a_site_page_of_front_matter_only_skips_every_gate_with_why(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """A docs page that is front matter only (a VitePress home page's hero) is no bad input:
    each gate is a SKIP that says the page has no body to check, not an ERROR, and the run
    passes; the same page as a blog post under ``_posts`` is still an empty post (ERROR)."""
    blog.pyproject('paths = ["docs"]\n')
    blog.raw("docs/index.md", b"---\nlayout: home\nhero:\n  name: Tidy\n---\n")
    blog.raw("docs/guide.md", FRONT + BODY)
    result = pytester.runpytest("--postgates-all", "-rs", "docs")
    assert_no_internal_error(result)
    result.assert_outcomes(passed=1, xpassed=1, skipped=2)
    result.stdout.fnmatch_lines(["SKIPPED*docs/index.md*front matter only, with no body*"])
    blog.pyproject('paths = ["_posts"]\n')
    blog.raw("_posts/2026-01-02-empty.md", b"---\nlayout: post\ntitle: T\n---\n")
    result = pytester.runpytest("--postgates-all", "-rA", "_posts")
    assert_no_internal_error(result)
    result.assert_outcomes(errors=2)
