"""The linear-time scanners match exactly what the regexes they replaced matched.

Hypothesis writes text from the characters and words each pattern reacts to (openers
without closers, runs of backticks, ``.*`` bait, half directives); every scanner must give
the same ``finditer`` spans and groups and the same ``search`` as the original regex. The
same comparison over a real published corpus (130 posts, line by line and whole) runs on
``POSTGATES_CORPUS`` (a ``_posts`` folder), else on the blog in ``shared/`` beside the repository;
it runs a benchmark corpus, so it is marked ``bench`` (``pytest --run-bench`` or ``-m bench``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.prose import CODE_MARK
from pytest_postgates.scan import Found, Scanner
from tests.hostile.regex_cases import CASES, Case, matches

PIECES = [
    *"`<>!-{}%[]()*_ .!?:/\\\n\t\"';&|#=~@$1aAzZ\u201c\u201d\u2019\u00e9\u212a",
    CODE_MARK,
    "``",
    "```",
    "<!--",
    "-->",
    "--",
    " postgates-disable",
    "postgates-enable",
    "postgates-disable-next-line",
    "postgates-disable-file",
    " gate ",
    "routes the ",
    "route it",
    " to ",
    "to",
    "internally ",
    "under the hood",
    " calls ",
    "invokes",
    "delegates to",
    "dispatches on",
    "import ",
    "import(",
    "export ",
    " from ",
    "from",
    "'pkg'",
    '"a/b"',
    "`x`",
    "http://",
    "https://x.y",
    "a.",
    "a+b-c.d",
    "://",
    "](",
    "](x)",
    "[x]",
    "![",
    "<a:b>",
    "<https://e.x>",
    "{%",
    "%}",
    "{{",
    "}}",
    "{:",
    "insert",
    "placeholder",
    "foo()",
    "runPost()",
    "_x",
    "A_b",
    "1foo",
    "**",
    "__",
    "&&",
    "||",
    "deadbeef12",
    "...",
    "?!",
    '."',
    ". A",
    "  ",
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _search(pattern: object, text: str) -> tuple[tuple[int, int], ...] | None:
    found = pattern.search(text)  # type: ignore[attr-defined]
    return None if found is None else found.span()


def _assert_same(case: Case, text: str) -> None:
    assert matches(case.new, text, case.groups, case.spans) == matches(
        case.old, text, case.groups, case.spans
    ), text
    if case.spans:
        assert _search(case.new, text) == _search(case.old, text), text


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scanner_matches_what_the_regex_matched(case: Case, data: st.DataObject) -> None:
    own = st.lists(st.sampled_from(case.pieces), max_size=30).map("".join)
    _assert_same(case, data.draw(st.one_of(own, own, TEXT), label="text"))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scanner_substitutes_like_the_regex(case: Case) -> None:
    text = "a `b` [c](d) **e** {% f %} <!-- postgates-disable g --> h. I http://x.y/z"
    for sample in (text, case.adversarial(60), text + case.adversarial(60) + text):
        if not hasattr(case.new, "sub") or not case.spans:
            continue
        assert case.new.sub(lambda m: f"<{m.group(0)}>", sample) == case.old.sub(
            lambda m: f"<{m.group(0)}>", sample
        )


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scanner_matches_on_its_own_adversarial_input(case: Case) -> None:
    # Small enough for the old regex to finish.
    for size in (1, 7, 40, 150):
        _assert_same(case, case.adversarial(size))
        _assert_same(case, "x " + case.adversarial(size) + " `a` [b](c) -->'q'\n")


def test_sub_templates_expand_group_references() -> None:
    from pytest_postgates.prose import _LINK

    assert _LINK.sub(r"\1", "see [the docs](https://x.y) now") == "see the docs now"
    found = Found("abc", [(0, 3), (1, 2), (-1, -1)])
    assert found.groups() == ("b", None) and found.group() == "abc"


# The real blog beside the repository (where CI has it), unless the variable names another.
_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "neurolink-blog" / "_posts"
CORPUS = os.environ.get("POSTGATES_CORPUS") or (str(_BESIDE) if _BESIDE.is_dir() else None)


@pytest.mark.bench
@pytest.mark.skipif(
    not CORPUS, reason="no real posts: set POSTGATES_CORPUS, or put shared/ beside the repository"
)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scanner_matches_the_regex_on_a_real_corpus(case: Case) -> None:
    posts = sorted(Path(str(CORPUS)).glob("*.md"))
    assert posts, f"no posts in {CORPUS}"
    for post in posts:
        text = post.read_text(encoding="utf-8")
        for unit in [*text.split("\n"), text]:
            _assert_same(case, unit)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scanner_honours_pos_and_endpos_like_the_regex(case: Case, data: st.DataObject) -> None:
    if not isinstance(case.new, Scanner):
        return  # a rewritten regex is a regex: re itself handles pos and endpos
    own = st.lists(st.sampled_from(case.pieces), max_size=30).map("".join)
    text = data.draw(st.one_of(own, TEXT), label="text")
    pos = data.draw(st.integers(0, len(text)), label="pos")
    endpos = data.draw(st.one_of(st.none(), st.integers(pos, len(text) + 2)), label="endpos")

    until = len(text) if endpos is None else endpos  # re wants a number

    def spans(pattern: object, end: int | None) -> list[tuple[int, int]]:
        return [m.span() for m in pattern.finditer(text, pos, end)]  # type: ignore[attr-defined]

    assert spans(case.new, endpos) == spans(case.old, until)
    old = case.old.search(text, pos, until)
    new = case.new.search(text, pos, endpos)
    assert (None if new is None else new.span()) == (None if old is None else old.span())
