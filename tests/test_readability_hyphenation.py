"""helpers/readability.py: the trie hyphenation counts exactly what pyphen counts (gate 6's
syllables, hence every Flesch score), on random words and on every word of the example
posts; a paragraph's score with the compounds split once is the score of the separate
reads."""

from __future__ import annotations

import re
from pathlib import Path

import pyphen  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.helpers.readability import (
    CODE_MARK,
    MIN_SCORED_WORDS,
    Paragraph,
    flesch_of,
    hyphenation_points,
    read_patterns,
    score_paragraph,
    split_sentences,
    syllables,
    words_of,
)

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


def _score_as_before(line: int, end_line: int, text: str) -> Paragraph | None:
    """score_paragraph as it was written before the shared compound split: words and
    sentences each read on their own."""
    words = words_of(text)
    if not words:
        return None
    sentences = split_sentences(text)
    count = max(1, len(sentences))
    total = sum(syllables(word) for word in words)
    score = flesch_of(len(words), count, total) if len(words) >= MIN_SCORED_WORDS else None
    longest = max((len(words_of(sentence)) for sentence in sentences), default=len(words))
    return Paragraph(line, end_line, text, len(words), count, score, total, longest)


PARAGRAPH_PIECES = ["word", "Word", "read-only", "a/b", "x\u2014y", "-", "/", " ", "  ", "\n",
                    ". ", "! ", "? ", ".", "e.g. ", "Mr. ", "A. ", '"', ")", "(", "1.2.3",
                    "post.py", CODE_MARK, "don't", "_", "\u2013", "U.S. ", "9 "]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(
    text=st.lists(st.sampled_from(PARAGRAPH_PIECES), max_size=40).map("".join)
    | st.text(max_size=60)
)
def test_scores_are_those_of_the_separate_reads(text: str) -> None:
    assert score_paragraph(1, 2, text) == _score_as_before(1, 2, text), text


def test_patterns_read_are_pyphens_for_every_dictionary_it_reads() -> None:
    """The plain reader gives pyphen's patterns exactly, for en_US (which gate 6 uses) and
    every other dictionary pyphen ships that it does not hand back to pyphen."""
    read = 0
    for language in sorted(set(pyphen.LANGUAGES.values())):
        patterns = read_patterns(language)
        if patterns is None:
            continue
        read += 1
        assert patterns == pyphen.Pyphen(filename=language).hd.patterns, language
    assert read > 10
    en_us = pyphen.LANGUAGES[pyphen.language_fallback("en_US")]
    assert read_patterns(en_us) == PYPHEN.hd.patterns
