"""Hostile posts silencing their own gates (issue 25).

Under ``allow_suppression = false`` (or a list without the gate), a post's markdownlint
inline comments (``disable``, ``disable-line``, ``capture``/``restore``,
``configure-file``) do not silence gate 12: it lints as if they were not there and counts
what they would have hidden. And ``postgates: expect:`` is a suppression too: it never turns
a failing hard gate into pytest exit 0 where suppression is not allowed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.batch import RunBatches
from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.gates import markdownlint as gate12
from pytest_postgates.post import parse_post
from tests.helpers import FRONT_MATTER

if TYPE_CHECKING:
    from tests.conftest import Blog

CONFIG = {"default": True, "MD013": False, "MD041": False}
# File lines: front matter 1-5. Line 7 is a heading with no blank line after it (MD022),
# line 9 a fence with no language (MD040).
BROKEN = "Intro paragraph.\n\n## Setup\nText.\n```\ncode\n```\n"
SILENCERS = {
    "disable": "<!-- markdownlint-disable -->\n\n",
    "disable-file": "<!-- markdownlint-disable-file MD022 MD040 MD031 -->\n\n",
    "capture/restore": "<!-- markdownlint-capture -->\n<!-- markdownlint-disable -->\n\n",
    "configure-file": '<!-- markdownlint-configure-file {"default": false} -->\n\n',
}


def _post(root: Path, body: str, config: dict[str, Any] | None = CONFIG) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    if config is not None:
        (root / ".markdownlint.json").write_text(json.dumps(config), encoding="utf-8")
    path = root / "_posts" / "2026-06-03-test.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FRONT_MATTER + body, encoding="utf-8")
    return path


def _gate12(path: Path, **settings: Any) -> Any:
    context = GateContext.create(default_settings(**settings), batches=RunBatches(posts=(path,)))
    return gate12.GATE.evaluate(parse_post(path), context)


def _rules(card: Any) -> list[str]:
    return sorted({v["rule"] for v in card.detail["violations"]})


@pytest.mark.parametrize("name", sorted(SILENCERS))
@pytest.mark.parametrize("policy", [False, ("narrative_opening",)])
def test_markdownlint_comments_do_not_silence_gate_12_when_suppression_is_not_allowed(
    name: str, policy: bool | tuple[str, ...], tmp_path: Path
) -> None:
    path = _post(tmp_path, SILENCERS[name] + BROKEN)
    allowed = _gate12(path)  # the default policy: a post may silence gate 12
    assert allowed.verdict == "PASS"
    card = _gate12(path, allow_suppression=policy)
    assert card.verdict == "FAIL"
    assert {"MD022", "MD040"} <= set(_rules(card))
    ignored = card.detail["inline_config_ignored"]
    assert ignored["lines"] == [6] or ignored["lines"][0] == 6
    assert ignored["would_suppress"] == len(card.detail["violations"])
    assert "ignored (allow_suppression)" in card.summary


def test_a_disable_line_comment_is_counted_on_its_line(tmp_path: Path) -> None:
    body = "Intro paragraph.\n\n## Setup <!-- markdownlint-disable-line -->\nText.\n"
    path = _post(tmp_path, body)
    assert _gate12(path).verdict == "PASS"
    card = _gate12(path, allow_suppression=False)
    assert [(v["line"], v["rule"]) for v in card.detail["violations"]] == [(8, "MD022")]
    assert card.detail["inline_config_ignored"] == {"lines": [8], "would_suppress": 1}


def test_a_policy_naming_gate_12_keeps_the_comments(tmp_path: Path) -> None:
    path = _post(tmp_path, SILENCERS["disable"] + BROKEN)
    card = _gate12(path, allow_suppression=("markdownlint",))
    assert card.verdict == "PASS" and "inline_config_ignored" not in card.detail


def test_columns_and_lengths_stay_when_the_comments_are_ignored(tmp_path: Path) -> None:
    """MD013 counts characters: the inert comment is exactly as long as the real one."""
    comment = "<!-- markdownlint-disable-line MD013 -->"
    line = "x" * (60 - len(comment) - 1) + " " + comment
    path = _post(
        tmp_path, f"Intro paragraph.\n\n{line}\n", {"default": False, "MD013": {"line_length": 60}}
    )
    assert _gate12(path).verdict == "PASS"
    card = _gate12(path, allow_suppression=False)
    assert card.verdict == "PASS"  # exactly 60 characters: within the limit either way
    assert card.detail["inline_config_ignored"] == {"lines": [8], "would_suppress": 0}


# ------------------------------------------------------------- postgates: expect:
# Gate 11 FAIL (no real tool in the opening) and gate 13 FAIL (seven claim lines).
@pytest.mark.parametrize("policy", ["false", '["call_graph_claims"]'])
def test_a_declared_expectation_is_not_honoured_where_suppression_is_not_allowed(
    pytester: pytest.Pytester, blog: Blog, policy: str
) -> None:
    blog.post(body=blog.NO_ENTITY, expect={"narrative_opening": "FAIL"})
    blog.pyproject(f"allow_suppression = {policy}\n")
    result = pytester.runpytest("_posts", "--postgates-only=11")
    result.assert_outcomes(failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*allow_suppression does not let a post silence*ignored*"])


def test_a_declared_expectation_is_honoured_where_suppression_is_allowed(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.post(body=blog.NO_ENTITY, expect={"narrative_opening": "FAIL"})
    blog.pyproject('allow_suppression = ["narrative_opening"]\n')
    result = pytester.runpytest("_posts", "--postgates-only=11")
    result.assert_outcomes(xfailed=1)
    assert result.ret == pytest.ExitCode.OK


def test_capture_and_restore_around_the_broken_lines_are_ignored(tmp_path: Path) -> None:
    body = (
        "Intro paragraph.\n\n"  # 6-7
        "<!-- markdownlint-capture -->\n<!-- markdownlint-disable MD022 MD031 MD040 -->\n\n"  # 8-10
        "## Setup\nText.\n```\ncode\n```\n\n"  # 11-16
        "<!-- markdownlint-restore -->\n"  # 17
    )
    path = _post(tmp_path, body)
    assert _gate12(path).verdict == "PASS"
    card = _gate12(path, allow_suppression=False)
    assert {(v["line"], v["rule"]) for v in card.detail["violations"]} >= {
        (11, "MD022"),
        (13, "MD040"),
    }
    assert card.detail["inline_config_ignored"]["lines"] == [8, 9, 17]
