"""Gate 13's keyword search (issue 15: each keyword found once per line in the body's
lower case) yields the claims of the line-by-line scan."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import call_graph_claims as gate
from pytest_postgates.helpers import claim_scan
from pytest_postgates.post import Post
from tests.helpers import make_post

_PIECES = [
    "calls", "invokes", "delegates", "routes to", "dispatches", "orchestrates",
    "orchestrator", "gate", "entry point", "engine", "switch", "a new case", "returns",
    "private", "public", "thin", "small", "wrapper", "function", "method", "class",
    "under the hood", "internally", "parsePost()", "`run()`", "The", "CALLS", "\u0130",
    "x", " ", "\n", "\n\n", "```ts\n", "\n```\n", "## Related posts\n", "- [a](b)\n", ".",
]  # fmt: skip


def _line_by_line(post: Post) -> list[gate.Claim]:
    """The scan as it was: every body line searched for a keyword, then each pattern's."""
    stop = post.related_posts_line
    claims = []
    for number, line in post.body_lines():
        if stop is not None and number >= stop:
            break
        if number in post.fence_marker_lines:
            continue
        lowered = line.lower()
        if not claim_scan._ANY_KEYWORD.search(lowered):
            continue
        for code, pattern, keywords in claim_scan._SCANNED:
            if any(word in lowered for word in keywords) and pattern.search(line):
                in_code = number in post.code_lines
                claims.append(
                    gate.Claim(number, code, in_code, line.strip()[: claim_scan.TEXT_LIMIT])
                )
    return claims


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=50).map(" ".join))
def test_keyword_search_yields_the_line_scans_claims(body: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        post = make_post(body + "\n", Path(folder))
        assert gate.scan_claims(post) == _line_by_line(post)


def test_a_word_inside_another_still_counts(tmp_path: Path) -> None:
    # "gate" inside "delegates": the GATE_ROLE words are tested as substrings, as before
    post = make_post("The router delegates to the gateway, which calls `send()`.\n", tmp_path)
    assert gate.scan_claims(post) == _line_by_line(post)
    assert gate.scan_claims(post)
