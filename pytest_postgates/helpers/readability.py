"""Readability maths for gate 6: Flesch reading ease, syllables, compounds, and the
post-level judgement of scored paragraphs.

Flesch reading ease is 206.835 - 1.015 x words/sentence - 84.6 x syllables/word with
textstat's word count and textstat's English hyphenation dictionary (pyphen ``en_US``) for
syllables. Two deliberate differences from calling ``textstat.flesch_reading_ease``:
textstat's English syllable path loads the CMU dictionary through NLTK, which downloads
it at run time (a network request in a test run, and a crash without network), so the
syllables are textstat's own pyphen fallback for every word; and sentences are the prose
view's ``boundary="sentence_start"`` sentences (sentence-final punctuation followed by a
capital, a digit or code), because textstat splits at every period, so ``post.py`` and
``v1.2.3`` would end sentences. Hyphen, slash and dash compounds are scored as their
parts: "production-ready" is two words of two syllables each, not one word of four.

Plain functions of text and counts: the gate (:mod:`pytest_postgates.gates.readability_links`)
chooses the paragraphs and the thresholds.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import pyphen  # type: ignore[import-untyped]

from pytest_postgates import prose
from pytest_postgates.prose import CODE_MARK, CODE_WORD
from pytest_postgates.scorecard import Finding

__all__ = ["CODE_MARK", "CODE_WORD"]

MIN_SCORED_WORDS = 20
LONG_SENTENCE_WORDS = 40.0
EXCERPT = 100

# Flesch (1948) constants for English, as in textstat's language table.
FRE_BASE, FRE_SENTENCE_LENGTH, FRE_SYLLABLES_PER_WORD = 206.835, 1.015, 84.6
# Hyphens, slashes and dashes between two word characters join parts, not syllables:
# "production-ready", "read/write", "input\u2014output" are scored as their words.
_COMPOUND_JOINER = re.compile(r"(?<=[^\W_])[-/\u2010-\u2015](?=[^\W_])")


@cache
def _hyphenator() -> pyphen.Pyphen:
    # Loading the dictionary takes a fifth of a second; a run served from the result
    # cache never needs it.
    return pyphen.Pyphen(lang="en_US")


@cache
def hyphenation_version() -> str:
    """The pyphen version (its dictionary decides syllables, so cached verdicts name it)."""
    try:
        return importlib.metadata.version("pyphen")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Paragraph:
    line: int  # first file line
    end_line: int
    text: str  # plain text, code spans marked with CODE_MARK
    words: int
    sentences: int
    flesch: float | None  # None: too short to score alone
    syllables: int = 0
    longest_sentence: int = 0  # words in the paragraph's longest sentence

    @property
    def words_per_sentence(self) -> float:
        return self.words / max(1, self.sentences)

    @property
    def syllables_per_word(self) -> float:
        return self.syllables / max(1, self.words)

    @property
    def excerpt(self) -> str:
        text = self.text.replace(CODE_MARK, "`code`")
        return text if len(text) <= EXCERPT else text[: EXCERPT - 3].rstrip() + "..."


def split_sentences(text: str) -> list[str]:
    """Sentences of a plain-text paragraph, as readability counts them: the prose view's
    ``boundary="sentence_start"`` (see :func:`pytest_postgates.prose.sentence_spans`)."""
    return prose.split_sentences(text, "sentence_start")


def words_of(text: str) -> list[str]:
    """Words as textstat counts them (punctuation removed, contractions kept, a code span
    one word), with hyphen, slash and dash compounds split into their parts."""
    return prose.words(_COMPOUND_JOINER.sub(" ", text))


def flesch_of(words: int, sentences: int, syllable_count: int) -> float:
    """Flesch reading ease from counts, rounded to two decimals (stable in scorecards)."""
    if not words:
        return 0.0
    score = (
        FRE_BASE
        - FRE_SENTENCE_LENGTH * (words / max(1, sentences))
        - FRE_SYLLABLES_PER_WORD * (syllable_count / words)
    )
    return round(score, 2)


@lru_cache(maxsize=65536)
def syllables(word: str) -> int:
    """Syllables of one word: textstat's pyphen rule (hyphenation points + 1)."""
    return _syllables_of_lower(word.lower())


@lru_cache(maxsize=65536)
def _syllables_of_lower(word: str) -> int:
    # "The" and "the" are hyphenated once.
    return hyphenation_points(word) + 1


# Pattern lines pyphen skips (comments and the dictionary's settings).
_IGNORED_LINES = (
    "%", "#", "LEFTHYPHENMIN", "RIGHTHYPHENMIN", "COMPOUNDLEFTHYPHENMIN", "COMPOUNDRIGHTHYPHENMIN",
)  # fmt: skip


def read_patterns(path: Path) -> dict[str, tuple[int, tuple[int, ...]]] | None:
    """pyphen's ``HyphDict(path).patterns`` (letters -> (offset, inter-letter values with
    the zeros at either end dropped)), read by a plain pass over each line instead of
    pyphen's regex pairs; None for what this reader does not handle (a dictionary not in
    UTF-8, ``^^`` escapes, nonstandard ``/`` hyphenation, two digits in a row), which
    pyphen then reads itself."""
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n")
    if head.strip().upper() not in (b"UTF-8", b"UTF8"):
        return None
    patterns: dict[str, tuple[int, tuple[int, ...]]] = {}
    for line in body.decode("utf-8").split("\n"):
        pattern = line.strip()
        if not pattern or pattern.startswith(_IGNORED_LINES):
            continue
        if "^^" in pattern or "/" in pattern:
            return None
        letters: list[str] = []
        values = [0]
        after_digit = False
        for character in pattern:
            if character.isdecimal():
                if after_digit:
                    return None
                values[-1] = int(character)
                after_digit = True
            else:
                letters.append(character)
                values.append(0)
                after_digit = False
        if max(values) == 0:
            continue
        start, end = 0, len(values)
        while not values[start]:
            start += 1
        while not values[end - 1]:
            end -= 1
        patterns["".join(letters)] = start, tuple(values[start:end])
    return patterns


@cache
def _pattern_trie() -> dict[str, Any]:
    """pyphen's en_US patterns as a trie of characters; a pattern's (offset, values)
    under the key "" of the node its last character reaches."""
    patterns = read_patterns(pyphen.LANGUAGES[pyphen.language_fallback("en_US")])
    if patterns is None:
        patterns = _hyphenator().hd.patterns
    root: dict[str, Any] = {}
    for key, found in patterns.items():
        node = root
        for character in key:
            node = node.setdefault(character, {})
        node[""] = found
    return root


def hyphenation_points(word: str) -> int:
    """``len(pyphen.Pyphen(lang="en_US").positions(word))``, computed from pyphen's own
    patterns by pyphen's algorithm (Liang's: every pattern found in ``.word.`` raises
    the inter-letter values it covers; odd values are points, two letters from either
    end), with the patterns in a trie: pyphen looks up every substring up to the
    longest pattern, most of them in vain, where the trie stops at the first character
    no pattern continues with. A third of pyphen's time per word
    (``tests/test_readability_hyphenation.py`` checks the counts against pyphen's)."""
    root = _pattern_trie()
    pointed = f".{word.lower()}."
    size = len(pointed)
    values = [0] * (size + 1)
    for start in range(size - 1):
        node = root
        for character in pointed[start:]:
            child = node.get(character)
            if child is None:
                break
            node = child
            found = node.get("")
            if found is None:
                continue
            offset, pattern_values = found
            at = start + offset
            for value in pattern_values:
                if at > size:
                    break
                if value > values[at]:
                    values[at] = value
                at += 1
    right = len(word) - 2
    return sum(1 for at in range(3, size + 1) if values[at] % 2 and at - 1 <= right)


def flesch_reading_ease(text: str, sentence_count: int | None = None) -> float:
    """Flesch reading ease of plain text, rounded to two decimals (stable in scorecards)."""
    words = words_of(text)
    if not words:
        return 0.0
    if sentence_count is None:
        sentence_count = max(1, len(split_sentences(text)))
    return flesch_of(len(words), sentence_count, sum(syllables(word) for word in words))


def score_paragraph(line: int, end_line: int, text: str) -> Paragraph | None:
    """A paragraph's counts and score (None when it has no word): Flesch only from
    :data:`MIN_SCORED_WORDS` words on, since on fewer it measures one word's syllables."""
    # The compounds split once for the paragraph and its sentences: the joiner is one
    # character for one, and a sentence starts and ends next to a space (or the text's
    # ends), where no joiner matches, so a sentence's slice of it is its words_of.
    joined = _COMPOUND_JOINER.sub(" ", text)
    words = prose.words(joined)
    if not words:
        return None
    spans = prose.sentence_spans(text, "sentence_start")
    count = max(1, len(spans))
    total = sum(map(syllables, words))
    score = flesch_of(len(words), count, total) if len(words) >= MIN_SCORED_WORDS else None
    longest = max((len(prose.words(joined[s:e])) for s, e in spans), default=len(words))
    return Paragraph(line, end_line, text, len(words), count, score, total, longest)


@dataclass(frozen=True)
class Readability:
    """The post-level readability judgement (see the module docstring)."""

    post_flesch: float | None  # every prose paragraph pooled; None without prose
    flagged: list[Paragraph]  # hard to read: under the floor with long sentences
    long_words_only: list[Paragraph]  # under the floor, but short sentences
    too_short: list[Paragraph]  # not scored alone
    hard_share: float  # share of the post's prose words in flagged paragraphs
    failed: bool
    reason: str


def judge_readability(
    paragraphs: list[Paragraph], floor: float, post_floor: float, max_share: float
) -> Readability:
    words = sum(p.words for p in paragraphs)
    post_flesch = (
        flesch_of(words, sum(p.sentences for p in paragraphs), sum(p.syllables for p in paragraphs))
        if words
        else None
    )
    low = [p for p in paragraphs if p.flesch is not None and p.flesch < floor]
    flagged = [p for p in low if p.longest_sentence >= LONG_SENTENCE_WORDS]
    long_words_only = [p for p in low if p.longest_sentence < LONG_SENTENCE_WORDS]
    too_short = [p for p in paragraphs if p.flesch is None]
    share = sum(p.words for p in flagged) / words if words else 0.0
    reasons = []
    if post_flesch is not None and post_flesch < post_floor:
        reasons.append(f"the post's prose scores Flesch {post_flesch:.1f}, under {post_floor:g}")
    if flagged and share >= max_share:
        held = "paragraph holds" if len(flagged) == 1 else "paragraphs hold"
        reasons.append(
            f"{len(flagged)} hard-to-read {held} {100 * share:.0f}% of the post's "
            f"prose words (limit {100 * max_share:g}%)"
        )
    if reasons:
        reason = "; ".join(reasons)
    elif post_flesch is None:
        reason = "no prose paragraphs"
    else:
        reason = (
            f"the post's prose scores Flesch {post_flesch:.1f} (floor {post_floor:g}); "
            f"hard-to-read paragraphs hold {100 * share:.0f}% of its words "
            f"(limit {100 * max_share:g}%)"
        )
    return Readability(
        post_flesch, flagged, long_words_only, too_short, round(share, 4), bool(reasons), reason
    )


def why_hard(paragraph: Paragraph) -> str:
    return (
        f"its longest sentence has {paragraph.longest_sentence} words (long from "
        f"{LONG_SENTENCE_WORDS:g}), its sentences average {paragraph.words_per_sentence:.0f} "
        f"words and its words {paragraph.syllables_per_word:.2f} syllables"
    )


def readability_findings(
    readability: Readability,
    long: list[Paragraph],
    floor: float,
    post_floor: float,
    max_sentences: int,
) -> list[Finding]:
    """Gate 6's readability findings: the post's pooled score under ``post_floor``
    (HARD_TO_READ), each hard paragraph (LOW_FLESCH), each paragraph of more than
    ``max_sentences`` sentences (LONG_PARAGRAPH)."""
    findings: list[Finding] = []
    if readability.post_flesch is not None and readability.post_flesch < post_floor:
        findings.append(
            Finding(
                None,
                "HARD_TO_READ",
                f"the post is hard to read: its prose scores Flesch "
                f"{readability.post_flesch:.1f}, under {post_floor:g}",
                "use shorter sentences and plainer words throughout; split the longest sentences",
            )
        )
    for p in readability.flagged:
        findings.append(
            Finding(
                p.line,
                "LOW_FLESCH",
                f"Flesch reading ease {p.flesch:.1f} is under the floor {floor:g}, "
                f"{why_hard(p)}: {p.excerpt}",
                "split the long sentences; use plainer words",
            )
        )
    for p in long:
        findings.append(
            Finding(
                p.line,
                "LONG_PARAGRAPH",
                f"{p.sentences} sentences, over the limit of {max_sentences}: {p.excerpt}",
                f"split the paragraph into paragraphs of at most {max_sentences} sentences",
            )
        )
    return findings
