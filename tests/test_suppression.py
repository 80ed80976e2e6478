"""Inline suppression directives: findings move aside, verdicts are recomputed."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import BY_ID, GATES
from pytest_postgates.runner import PostRun
from tests.helpers import FRONT_MATTER, GATE11_ADOPTED_SETTINGS, context

CLAIMS = "\n".join(f"Line {i}: the runner calls the gate." for i in range(7))  # score 7 > 6


def _run(tmp_path: Path, body: str) -> PostRun:
    path = tmp_path / "2026-01-01-post.md"
    path.write_text(FRONT_MATTER + body)
    return PostRun(
        path,
        path.name,
        path.stem,
        context(repo=tmp_path / "none", **GATE11_ADOPTED_SETTINGS),
        list(GATES),
    )


def _card(tmp_path: Path, body: str, gate: int = 13):
    run = _run(tmp_path, body)
    run.selected = [BY_ID[gate]]
    return run.evaluate(BY_ID[gate])


def test_disable_next_line_suppresses_one_claim_and_the_score_is_recomputed(tmp_path: Path) -> None:
    body = "<!-- postgates-disable-next-line call_graph_claims -->\n" + CLAIMS + "\n"
    card = _card(tmp_path, body)
    assert card.verdict == "PASS"
    assert card.detail["claim_score"] == 6
    assert card.detail["suppressed"] == [
        {"line": 7, "code": "CALLS", "message": "Line 0: the runner calls the gate."}
    ]
    assert len(card.findings) == 6


def test_disable_enable_range_and_ids(tmp_path: Path) -> None:
    body = (
        "<!-- postgates-disable 13 -->\n"
        + CLAIMS
        + "\n<!-- postgates-enable 13 -->\nIt calls more.\n"
    )
    card = _card(tmp_path, body)
    assert card.verdict == "PASS"
    assert len(card.detail["suppressed"]) == 7
    assert [f.line for f in card.findings] == [15]


def test_disable_file_for_a_hard_gate(tmp_path: Path) -> None:
    body = "<!-- postgates-disable-file narrative_opening -->\nIt is a paradigm shift.\n"
    card = _card(tmp_path, body, gate=11)
    assert card.verdict == "PASS"
    assert {s["code"] for s in card.detail["suppressed"]} == {"NO_ENTITY", "BANNED_PHRASE"}


def test_unsuppressed_findings_keep_failing(tmp_path: Path) -> None:
    body = (
        "We use pytest.\n<!-- postgates-disable-next-line narrative_opening -->\n"
        "A paradigm shift.\nAnd cutting-edge.\n"
    )
    card = _card(tmp_path, body, gate=11)
    assert card.verdict == "FAIL"
    assert [f.line for f in card.findings] == [9]
    assert [s["line"] for s in card.detail["suppressed"]] == [8]


def test_unknown_gate_in_a_directive_is_a_finding(tmp_path: Path) -> None:
    body = "We use pytest.\n<!-- postgates-disable narative_opening -->\n"
    card = _card(tmp_path, body, gate=11)
    assert card.verdict == "FAIL"
    assert card.findings[0].code == "SUPPRESSION"
    assert "names no gate 'narative_opening'" in card.findings[0].message


def test_directives_inside_code_are_not_directives(tmp_path: Path) -> None:
    body = "```html\n<!-- postgates-disable-file call_graph_claims -->\n```\n" + CLAIMS + "\n"
    assert _card(tmp_path, body).verdict == "FAIL"


def test_directives_inside_inline_code_are_examples_not_directives(tmp_path: Path) -> None:
    """A page that shows how to silence a gate (as every gate's docs page does) must not
    silence it: a directive written in a code span is text; one beside it still counts."""
    shown = "Put `<!-- postgates-disable-file call_graph_claims -->` at the top.\n"
    assert _card(tmp_path, shown + CLAIMS + "\n").verdict == "FAIL"
    card = _card(tmp_path, "`<!-- postgates-disable-next-line 13 -->` is one directive.\n" + CLAIMS)
    assert card.verdict == "FAIL" and "suppressed" not in card.detail
    real = "Shown: `<!-- postgates-disable-file 13 -->` <!-- postgates-disable-file 13 -->\n"
    assert _card(tmp_path, real + CLAIMS + "\n").verdict == "PASS"


def test_symbol_grounding_share_is_recomputed_without_suppressed_tokens(tmp_path: Path) -> None:
    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "repo", {"src/a.py": "def real_one():\n    pass\n"})
    posts = repo / "_posts"
    posts.mkdir()
    path = posts / "2026-01-01-p.md"
    path.write_text(
        FRONT_MATTER + "Uses `real_one`.\n<!-- postgates-disable-next-line symbol_grounding -->\n"
        "An example `made_up_name` here.\n"
    )
    # Every token a claim (the seeds' mode), so the invented name is a finding to suppress.
    settings = context(repo=repo, symbol_unanchored_claims=True)
    run = PostRun(path, path.name, path.stem, settings, [BY_ID[2]])
    card = run.evaluate(BY_ID[2])
    assert (card.verdict, card.detail["total"], card.detail["grounded_pct"]) == ("PASS", 1, 100.0)
    assert card.detail["ungrounded"] == []
    assert card.detail["suppressed"][0]["line"] == 8


def _grounding_card(tmp_path: Path, body: str):
    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "repo", {"src/a.py": "def real_one():\n    pass\n"})
    posts = repo / "_posts"
    posts.mkdir()
    path = posts / "2026-01-01-p.md"
    path.write_text(FRONT_MATTER + body)
    settings = context(repo=repo, symbol_unanchored_claims=True)
    run = PostRun(path, path.name, path.stem, settings, [BY_ID[2]])
    return run.evaluate(BY_ID[2])


def test_an_ungrounded_token_is_a_finding_on_every_line_it_is_written_on(tmp_path: Path) -> None:
    card = _grounding_card(
        tmp_path,
        "Uses `real_one`.\n\nCall `made_up_name` first.\n\nThen `made_up_name` again.\n",
    )
    assert card.verdict == "FAIL"
    assert [f.line for f in card.findings if f.code == "UNGROUNDED"] == [8, 10]
    (entry,) = card.detail["ungrounded"]
    assert (entry["line"], entry["also_lines"]) == (8, [10])
    assert card.detail["total"] == 2  # one token, however often it is written


def test_a_token_keeps_its_unsuppressed_lines_and_leaves_the_count_when_all_are_suppressed(
    tmp_path: Path,
) -> None:
    skip = "<!-- postgates-disable-next-line symbol_grounding -->\n"
    body = "Uses `real_one`.\n\n" + skip + "Call `made_up_name` first.\n\nThen `made_up_name`.\n"
    card = _grounding_card(tmp_path / "one", body)
    assert card.verdict == "FAIL"
    (entry,) = card.detail["ungrounded"]
    assert (entry["line"], "also_lines" in entry) == (11, False)
    assert card.detail["grounded_pct"] == 50.0
    both = body.replace("Then `", skip + "Then `")
    card = _grounding_card(tmp_path / "both", both)
    assert (card.verdict, card.detail["ungrounded"], card.detail["grounded_pct"]) == (
        "PASS",
        [],
        100.0,
    )
    assert card.detail["total"] == 1
