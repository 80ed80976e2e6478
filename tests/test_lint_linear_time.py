"""Issue 16: gate 12's own text scanning is linear in the post, whatever the post holds.

Post content is untrusted. Each family below is a shape that made one of the lint layer's
regular expressions (or the loops around them) quadratic or worse before they were rewritten: a
long run of backticks (code spans, link-only lines), many unclosed ``[``, ``<a:`` or
``<a b='`` (links, autolinks, tags), nested emphasis removed pair by pair, a heading
ending in a long run of blanks, a table of many rows each asked about separately, and
many inline comments sharing one ``-->``. At this size the old code took minutes for
several of them (the backtick run alone: about 40 s); linear code takes a second or two.
The bound is loose on purpose, not a speed target, and counts this process's CPU time, not
wall time: on a loaded machine wall time grows with the load (37 s of wall time for 3 s of CPU
was seen), CPU time only with the work.

The timed families are a bench (marked ``bench``: ``pytest --run-bench`` or ``-m bench``
runs them; about 46 s of a loaded CI run); the rest of this file runs by default.
"""

from __future__ import annotations

import time

import pytest

from pytest_postgates.tools import lint
from pytest_postgates.tools.lint import candidates, reconcile, rumdl
from pytest_postgates.tools.lint.rules import md013

N = 32_000
BOUND_SECONDS = 20.0

FAMILIES = {
    "backtick run": "`" * N + " x y",
    "backtick runs of every length": "".join("`" * k + "a " for k in range(1, 300)) * 20,
    "unclosed brackets": "[ " * N,
    "unclosed link destinations": "[a]( " * N,
    "unclosed autolinks": "<a:" * N + " x",
    "unclosed attribute quotes": "<a b=' " * N,
    "unclosed comments": "<!-- " * N,
    # A link on the line takes MD013's link-only test to the emphasis removal; markdown-it's
    # own (linear but slow) inline parse of so many markers sets the smaller size.
    "nested emphasis": "[a](b) " + "*" * (N // 4) + "a " + "*" * (N // 4),
    "intraword emphasis": "[a](b) " + "_a_ " * (N // 4),
    "heading ending in blanks": "# a" + " " * N + "#x",
    "table rows": "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * (N // 4),
    "disable comments sharing one end": "<!-- markdownlint-disable " * (N // 2) + "-->",
    "configure comments sharing one end": "<!-- markdownlint-configure-file " * (N // 2) + "-->",
    "html block with unclosed quotes": "<div>\n" + "<a b='x' " * N,
    # MD037 read the rest of the line for every pair of unmatched markers (96 KB: minutes).
    "unmatched spaced emphasis markers": "*a " * N,
    # MD049/MD050 locate every emphasis of a paragraph; MD056 looks for a directive's
    # opening fence; MD022 counts blank lines up to a configured number.
    "emphasis on every line of one paragraph": "*a* __b__\n" * (N // 8),
    "unpaired dollars around emphasis": "$*a* " * (N // 4),
    "directive fences as table rows": "| a |\n|---|\n" + ":::\n" * (N // 4),
    "blank lines around many headings": "# a\n\n" * (N // 4),
}


def lint_everything_here(text: str) -> None:
    """Every text scan gate 12 makes itself (rumdl, a separate program, aside)."""
    lint.native_violations(text, {"default": True})
    lint.native_violations(text, {"MD013": {"line_length": 20, "stern": True}})
    lint.native_violations(text, {"MD022": {"lines_above": 10**9, "lines_below": 10**9}})
    lines = lint.markdownlint_lines(text)[0]
    candidates.odd_list_start(lines)
    lint.file_config(text, {})
    rumdl._neutral_copy(text.encode("utf-8"))
    status = lint.gfm_table_lines(lines)
    for number in range(1, len(lines) + 1):
        reconcile.keep_rumdl_finding("MD056", "", number, lines, {}, lambda: status)
        reconcile.keep_rumdl_finding("MD013", "exceeds 80", number, lines, {"line_length": 80})


@pytest.mark.bench
@pytest.mark.parametrize("family", list(FAMILIES))
def test_adversarial_text_is_scanned_in_linear_time(family: str) -> None:
    text = "Intro.\n\n" + FAMILIES[family] + "\n"
    start = time.process_time()
    lint_everything_here(text)
    elapsed = time.process_time() - start
    assert elapsed < BOUND_SECONDS, f"{family}: {elapsed:.1f} s CPU for {len(text):,} characters"


def test_code_spans_pair_runs_of_equal_length() -> None:
    text = "a ``b`c`` d `e` ```f `g"
    assert [text[s:e] for s, e in lint.code_spans(text)] == ["``b`c``", "`e`"]
    escaped = "\\`a` `b`"
    assert [escaped[s:e] for s, e in lint.code_spans(escaped)] == ["` `"]


def test_emphasis_removal_keeps_the_text_outside() -> None:
    assert md013._without_emphasis("*a* b **c _d_** e").split() == ["b", "e"]
    assert md013._without_emphasis("a * b * c").split() == ["a", "*", "b", "*", "c"]
