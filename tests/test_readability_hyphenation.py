"""helpers/readability.py: the pruned hyphenation counts exactly what pyphen counts (gate 6's
syllables, hence every Flesch score), on random words and on every word of the example
posts."""

from __future__ import annotations

import re
from pathlib import Path

import pyphen  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.helpers.readability import hyphenation_points, syllables

PYPHEN = pyphen.Pyphen(lang="en_US")
CORPUS = Path(__file__).resolve().parent.parent / "corpus"

# Letters English patterns know, and ones they do not (capitals, accents, a dotted capital
# I whose lower case is two characters), digits, apostrophes, hyphens.
word_strategy = st.text(
    alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyzEAINTéßİ'\u2019-0.")), max_size=24
)


@settings(max_examples=1000, deadline=None)
@given(word=word_strategy)
def test_points_are_pyphens_on_random_words(word: str) -> None:
    assert hyphenation_points(word) == len(PYPHEN.positions(word)), word


def test_points_are_pyphens_on_every_word_of_the_example_posts() -> None:
    words = {
        word
        for path in sorted(CORPUS.rglob("*.md"))
        for word in re.findall(r"[\w'\u2019-]+", path.read_text(encoding="utf-8"))
    }
    assert len(words) > 500
    differing = [w for w in words if hyphenation_points(w) != len(PYPHEN.positions(w))]
    assert differing == []
    assert syllables("readability") == len(PYPHEN.positions("readability")) + 1 == 4
