"""Gate 11's banned-phrase search (issue 15: blocks found from each phrase's anchor and
words, the selected blocks searched joined) finds what the block-by-block search finds."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import narrative_opening as gate
from pytest_postgates.post import Post
from tests.helpers import make_post

_PHRASES = (
    "at the end of the day",
    "in today's",
    "best-in-class",
    "seamless integration",
    "state-of-the-art",
    "game-changer",
    "leverage",
)
_PIECES = [
    "At", "the", "THE", "end", "of", "day", "Day", "in", "today's", "today\u2019s", "today",
    "best", "in", "class", "seamless", "Seamless", "integration", "state", "art", "game",
    "changer", "leverage", "Leveraged", "\u017feamless", "\u212a", "\u0130n", "\u0131n", " ", "  ",
    "-", "\u2014", "\n", "\n\n", "`code`", "x", ".", ",", "\u00e9",
]  # fmt: skip


def _block_by_block(post: Post, phrases: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """The search as it was: every block tested for every phrase's anchor."""
    blocks = gate.prose_blocks(post)
    everything = "\n".join(block for _first, block in blocks).lower()
    entries = [p for p in dict.fromkeys(phrases) if gate._anchor(p, True) in everything]
    hits = []
    for first, block in blocks:
        lowered = block.lower()
        for phrase in entries:
            if gate._anchor(phrase, True) not in lowered:
                continue
            for match in gate._compiled(gate._phrase_source(phrase), True).finditer(block):
                line = first + block.count("\n", 0, match.start())
                hits.append((line, phrase, post.lines[line - 1].strip()[:160]))
    return sorted(hits)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=60).map(" ".join))
def test_phrase_search_finds_what_the_block_search_finds(body: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        post = make_post(body + "\n", Path(folder))
        assert gate.find_banned(post, _PHRASES) == _block_by_block(post, _PHRASES)


def test_a_phrase_in_several_blocks_is_found_in_each(tmp_path: Path) -> None:
    body = "At the end of the day we ship.\n\nAnd at the end\nof the day we rest.\n"
    post = make_post(body, tmp_path)
    found = gate.find_banned(post, _PHRASES)
    assert [phrase for _line, phrase, _text in found] == ["at the end of the day"] * 2
    assert found == _block_by_block(post, _PHRASES)
