"""Collection, markers, xfail, short-circuit and failure output of the pytest plugin."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pytest_postgates.gates import GATES
from pytest_postgates.nodes import GateItem

if TYPE_CHECKING:
    from tests.conftest import Blog

GOOD_ID = "_posts/2026-01-01-good.md"
BAD_ID = "_posts/2026-01-02-bad.md"


def collected_ids(result: pytest.RunResult) -> list[str]:
    """Node ids printed by ``--collect-only -q``."""
    return [line for line in result.outlines if "::" in line]


# --------------------------------------------------------------------------- collection ids


def test_every_registered_gate_is_collected_in_run_order(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without any gate selection a post yields one item per registered gate, in run order;
    gate 11 comes before gate 13."""
    monkeypatch.setenv("PYTEST_ADDOPTS", blog.QUIET_INNER_RUNS)  # no pinned gate list
    blog.post()
    result = pytester.runpytest("--collect-only", "-q", "_posts")
    names = [node_id.split("::")[1] for node_id in collected_ids(result)]
    assert names == [gate.name for gate in GATES]
    assert names.index("narrative_opening") < names.index("call_graph_claims")


def test_each_post_yields_implemented_gates_in_catalogue_order(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """Node ids are ``_posts/<file>.md::<gate>``, per post gate 11 then gate 13 (the pinned
    gates of the ``blog`` fixture), posts in file order."""
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("--collect-only", "-q", "_posts")
    assert collected_ids(result) == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
        f"{BAD_ID}::narrative_opening",
        f"{BAD_ID}::call_graph_claims",
    ]
    result.stdout.fnmatch_lines(["4 tests collected*"])


def test_whole_run_ids_are_rootdir_relative(pytester: pytest.Pytester, blog: Blog) -> None:
    """Running from the rootdir with no arguments gives the same ``_posts/...`` ids."""
    blog.post()
    result = pytester.runpytest("--collect-only", "-q")
    assert collected_ids(result) == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
    ]


def test_posts_folder_anywhere_below_rootdir_is_collected(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """A ``_posts`` folder nested in a site folder still holds posts."""
    blog.post("2026-01-01-nested.md", folder="site/_posts")
    result = pytester.runpytest("--collect-only", "-q")
    assert collected_ids(result) == [
        "site/_posts/2026-01-01-nested.md::narrative_opening",
        "site/_posts/2026-01-01-nested.md::call_graph_claims",
    ]


def test_markdown_outside_posts_is_not_collected(pytester: pytest.Pytester, blog: Blog) -> None:
    """A README.md next to the tests and notes in other folders are never posts by accident."""
    blog.post()
    blog.post("README.md", folder="")
    blog.post("README.md", folder="tests")
    blog.post("notes.md", folder="docs")
    pytester.makepyfile(**{"tests/test_plain": "def test_ok():\n    pass\n"})
    everything = pytester.runpytest("--collect-only", "-q")
    assert collected_ids(everything) == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
        "tests/test_plain.py::test_ok",
    ]
    everything.stdout.no_fnmatch_line("*README.md*")
    everything.stdout.no_fnmatch_line("*notes.md*")
    tests_only = pytester.runpytest("tests")
    tests_only.assert_outcomes(passed=1)
    tests_only.stdout.no_fnmatch_line("*README.md*")


def test_configured_paths_hold_posts(pytester: pytest.Pytester, blog: Blog) -> None:
    """Folders listed in ``[tool.postgates] paths`` are post folders; others are not."""
    blog.pyproject('paths = ["articles"]\n')
    blog.post("one.md", folder="articles")
    blog.post("two.md", folder="articles/2026")
    blog.post("draft.md", folder="drafts")
    result = pytester.runpytest("--collect-only", "-q")
    assert collected_ids(result) == [
        "articles/2026/two.md::narrative_opening",
        "articles/2026/two.md::call_graph_claims",
        "articles/one.md::narrative_opening",
        "articles/one.md::call_graph_claims",
    ]


def test_markdown_named_on_command_line_is_a_post(pytester: pytest.Pytester, blog: Blog) -> None:
    """Any Markdown file given as an argument is checked, wherever it lives."""
    blog.post("draft.md", folder="drafts")
    blog.post("notes.markdown", folder="drafts")
    result = pytester.runpytest("--collect-only", "-q", "drafts/draft.md")
    assert collected_ids(result) == [
        "drafts/draft.md::narrative_opening",
        "drafts/draft.md::call_graph_claims",
    ]
    run = pytester.runpytest("drafts/draft.md", "drafts/notes.markdown")
    run.assert_outcomes(passed=2, xpassed=2)


def test_reportinfo_and_location_point_at_the_post(pytester: pytest.Pytester, blog: Blog) -> None:
    """An item's reportinfo and location name the post file, not the plugin's code."""
    post = blog.post()
    items = pytester.inline_genitems("_posts")[0]
    assert [item.nodeid for item in items] == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
    ]
    for item in items:
        assert isinstance(item, GateItem)
        path, line, domain = item.reportinfo()
        assert path == post
        assert line == 0
        assert domain == f"{GOOD_ID}::{item.name} (gate {item.gate.id})"
        assert item.location[0] == GOOD_ID


# --------------------------------------------------------------------------- markers


def test_markers_are_registered(pytester: pytest.Pytester, blog: Blog) -> None:
    """``postgates``, ``hard`` and ``advisory`` appear in ``--markers``."""
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(
        ["@pytest.mark.postgates:*", "@pytest.mark.hard:*", "@pytest.mark.advisory:*"],
        consecutive=False,
    )


def test_markers_work_under_strict_markers(pytester: pytest.Pytester, blog: Blog) -> None:
    """Posts run and user tests may use the markers with ``--strict-markers``."""
    blog.post()
    pytester.makepyfile(
        test_marked="""
        import pytest

        @pytest.mark.hard
        @pytest.mark.advisory
        @pytest.mark.postgates
        def test_marked():
            pass
        """
    )
    result = pytester.runpytest("--strict-markers", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, xpassed=1)
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    ("expression", "gates"),
    [
        ("hard", ["narrative_opening"]),
        ("advisory", ["call_graph_claims"]),
        ("postgates", ["narrative_opening", "call_graph_claims"]),
        ("not postgates", []),
    ],
)
def test_marker_selection(
    pytester: pytest.Pytester, blog: Blog, expression: str, gates: list[str]
) -> None:
    """``-m hard`` selects the blocking gate, ``-m advisory`` the advisory one."""
    blog.post()
    result = pytester.runpytest("--strict-markers", "--collect-only", "-q", "-m", expression)
    assert collected_ids(result) == [f"{GOOD_ID}::{gate}" for gate in gates]


def test_keyword_selection(pytester: pytest.Pytester, blog: Blog) -> None:
    """``-k narrative_opening`` selects that gate of every post and deselects the rest."""
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("--collect-only", "-q", "-k", "narrative_opening")
    assert collected_ids(result) == [
        f"{GOOD_ID}::narrative_opening",
        f"{BAD_ID}::narrative_opening",
    ]
    result.stdout.fnmatch_lines(["2/4 tests collected (2 deselected)*"])


# --------------------------------------------------------------------------- advisory xfail


def test_advisory_fail_is_xfailed_and_pass_is_xpassed(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """Gate 13 FAIL is XFAIL, gate 13 PASS is XPASS, and the run still succeeds."""
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-03-claims.md", blog.CLAIMS)
    result = pytester.runpytest("-rxX")
    result.assert_outcomes(passed=2, xfailed=1, xpassed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "XFAIL _posts/2026-01-03-claims.md::call_graph_claims - advisory gate*",
            f"XPASS {GOOD_ID}::call_graph_claims - advisory gate*",
        ],
        consecutive=False,
    )


# --------------------------------------------------------------------------- --postgates-only


def test_only_both_implemented_ids(pytester: pytest.Pytester, blog: Blog) -> None:
    """``--postgates-only 11,13`` runs both implemented gates."""
    blog.post()
    result = pytester.runpytest("--collect-only", "-q", "--postgates-only", "11,13")
    assert collected_ids(result) == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
    ]


@pytest.mark.parametrize("value", ["narrative_opening,13", "call_graph_claims 11", "11, 13"])
def test_only_takes_gate_names_as_well_as_ids(
    pytester: pytest.Pytester, blog: Blog, value: str
) -> None:
    """Names are accepted wherever ids are (-k and suppression take names), separated by
    commas, whitespace or both."""
    blog.post()
    result = pytester.runpytest("--collect-only", "-q", f"--postgates-only={value}")
    assert collected_ids(result) == [
        f"{GOOD_ID}::narrative_opening",
        f"{GOOD_ID}::call_graph_claims",
    ]


def test_only_one_id(pytester: pytest.Pytester, blog: Blog) -> None:
    """``--postgates-only 13`` collects gate 13 alone, and it is not short-circuited."""
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("-v", "--postgates-only=13")
    result.stdout.fnmatch_lines([f"{BAD_ID}::call_graph_claims XPASS*"])
    result.stdout.no_fnmatch_line("*narrative_opening*")
    result.assert_outcomes(xpassed=1)


@pytest.mark.parametrize("value", ["5", "11,99", "eleven"])
def test_only_unknown_ids_are_a_usage_error(
    pytester: pytest.Pytester, blog: Blog, value: str
) -> None:
    """An id or a name that names no gate stops the run with a usage error."""
    blog.post()
    result = pytester.runpytest(f"--postgates-only={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *only*: *gate id*"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


# --------------------------------------------------------------------------- short-circuit


def test_short_circuit_skips_only_judge_gates_by_default(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """After gate 11 fails, the free gate 13 still runs and reports; only the paid judge gate
    4 (tone_fit) is skipped, naming gate 11. The good post's gate 4 skips for its own reason
    (no judge configured), and the overall file keeps where the bad post was cut."""
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("-rs", "-v", "--postgates-only=11,13,4")
    result.assert_outcomes(passed=1, failed=1, skipped=2, xpassed=2)
    result.stdout.fnmatch_lines(
        [
            f"{GOOD_ID}::narrative_opening PASSED*",
            f"{GOOD_ID}::tone_fit SKIPPED (*judge*",
            f"{GOOD_ID}::call_graph_claims XPASS*",
            f"{BAD_ID}::narrative_opening FAILED*",
            f"{BAD_ID}::tone_fit SKIPPED (short-circuited at gate 11*",
            f"{BAD_ID}::call_graph_claims XPASS*",
        ]
    )
    # The skip is reported at the post, not at a line of the plugin.
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] {BAD_ID}:1: short-circuited at gate 11"])
    result.stdout.fnmatch_lines(["*short-circuit of judge gates on first hard failure*"])
    assert blog.card("2026-01-02-bad-overall.json")["short_circuited_at"] == 11
    assert blog.card("2026-01-01-good-overall.json")["short_circuited_at"] is None


def test_short_circuit_all_is_the_seeds_behaviour(pytester: pytest.Pytester, blog: Blog) -> None:
    """``short_circuit = "all"``: a post whose gate 11 fails has every later gate skipped,
    the free gate 13 too, naming gate 11; other posts run."""
    blog.pyproject('short_circuit = "all"\n')
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("-rs", "-v")
    result.assert_outcomes(passed=1, failed=1, skipped=1, xpassed=1)
    result.stdout.fnmatch_lines(
        [
            f"{GOOD_ID}::narrative_opening PASSED*",
            f"{GOOD_ID}::call_graph_claims XPASS*",
            f"{BAD_ID}::narrative_opening FAILED*",
            f"{BAD_ID}::call_graph_claims SKIPPED (short-circuited*",
        ]
    )
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] {BAD_ID}:1: short-circuited at gate 11"])


def test_short_circuit_none_runs_the_judge_gates_too(pytester: pytest.Pytester, blog: Blog) -> None:
    """``short_circuit = "none"``: gate 4 runs after gate 11 failed (and skips for want of
    a judge, its own reason), as with ``--postgates-all``."""
    blog.pyproject('short_circuit = "none"\n')
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("-rs", "-v", "--postgates-only=11,4")
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.no_fnmatch_line("*short-circuited at*")
    result.stdout.fnmatch_lines([f"{BAD_ID}::tone_fit SKIPPED (*judge*"])


def test_postgates_all_disables_short_circuit(pytester: pytest.Pytester, blog: Blog) -> None:
    """With ``--postgates-all`` gate 13 runs after gate 11 failed and reports its own FAIL."""
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY_CLAIMS)
    result = pytester.runpytest("-rs", "--postgates-all")
    result.assert_outcomes(failed=1, xfailed=1)
    result.stdout.no_fnmatch_line("*short-circuited*")
    result.stdout.fnmatch_lines(["*all gates (no short-circuit)*"])


@pytest.mark.parametrize(
    "selection",
    [
        ["-k", "call_graph_claims"],
        ["-m", "advisory"],
        ["--deselect", f"{BAD_ID}::narrative_opening"],
    ],
)
def test_deselection_never_short_circuits(
    pytester: pytest.Pytester, blog: Blog, selection: list[str]
) -> None:
    """A deselected failing gate is not a failure: the selected gate still runs."""
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest("-rs", *selection)
    result.assert_outcomes(xpassed=1, deselected=1)
    result.stdout.no_fnmatch_line("*short-circuited*")


# --------------------------------------------------------------------------- failure output


def test_failure_prints_findings_not_a_traceback(pytester: pytest.Pytester, blog: Blog) -> None:
    """A failing gate shows ``file:line: CODE message`` lines for the post, nothing of Python."""
    blog.post("2026-01-02-bad.md", blog.BROCHURE)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1, xpassed=1)  # gate 13 costs nothing: never short-circuited
    result.stdout.fnmatch_lines(
        [
            f"*_ {BAD_ID}::narrative_opening (gate 11) _*",
            "narrative_opening (gate 11) FAIL: 1 brochure phrase(s)",
            f'{BAD_ID}:8: BANNED_PHRASE brochure phrase "paradigm shift": *',
            "*short test summary info*",
            f"FAILED {BAD_ID}::narrative_opening - narrative_opening (gate*",
        ]
    )
    output = result.stdout.str()
    for python_detail in ("Traceback", "nodes.py", "runner.py", "def _gate_test", "GateFailed"):
        assert python_detail not in output


def test_no_entity_finding_points_at_first_body_line(pytester: pytest.Pytester, blog: Blog) -> None:
    """The opening finding is reported at the first body line of the file (after 5 lines of
    front matter), not at line 1 of the body."""
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    result = pytester.runpytest()
    result.stdout.fnmatch_lines([f"{BAD_ID}:6: NO_ENTITY the first 1200 characters name no *"])
