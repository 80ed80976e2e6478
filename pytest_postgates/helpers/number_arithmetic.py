"""Arithmetic on the numbers of one sentence: what gate 7 reads as following from the
sentence's own inputs ("with 4 workers at 250 ms each, the batch takes 1 s").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_postgates.helpers.numbers import (
    CLAIM,
    family_of_spelling,
    quantity_of,
    to_float,
)

APPROXIMATE = re.compile(
    r"(?:\b(?:about|roughly|approximately|around|nearly|almost|some|just)\s+|~\s?|\u2248\s?)$",
    re.I,
)


AT_LEAST = re.compile(r"\b(?:over|more than|above|at least|upwards of|beyond)\s+$", re.I)


AT_MOST = re.compile(r"\b(?:under|less than|below|at most|up to|within)\s+$", re.I)


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


# Any number in a sentence (operands of arithmetic: "4 workers", "1,000 items", "10K").
_ANY_NUMBER = re.compile(
    r"(?<![\w.$/#:-])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?(?:\s?([KkMB])\b)?(?![\w.]\d)"
)


NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}


_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.I)


# "Tier 2", "Level 1", "Gate 7": a name, not an amount ("With 4 workers" is an amount).
_LABEL = re.compile(
    r"\b(?!(?:With|At|For|In|Of|On|By|If|Each|Every|All|Only|About|Over|Under|The|And|Or|"
    r"Say|Suppose|Assuming|Imagine|Given|After|Before|Within|Up|To|From|Then|Just)\s)"
    r"[A-Z][a-z]+\s$|#\s?$"
)


_DOLLARS = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


@dataclass(frozen=True)
class Quantity:
    """A number in a sentence with its value in base units (seconds, bytes, ...)."""

    start: int
    end: int
    number: float
    dimension: str  # time, bytes, %, x, tokens, requests, ..., or count
    value: float
    text: str


def sentence_bounds(prose: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around prose[start:end]: from the previous sentence end (or line
    start of a table row or list item) to the next."""
    left = max(prose.rfind("\n", 0, start) + 1, 0)
    for match in _SENTENCE_END.finditer(prose, left, start):
        left = match.end()
    stop = _SENTENCE_END.search(prose, end)
    right = stop.start() if stop else len(prose)
    return left, right


def quantities(prose: str, left: int, right: int) -> list[Quantity]:
    """Every number of prose[left:right], with a unit where one follows."""
    found: list[Quantity] = []
    claimed: set[int] = set()
    for match in CLAIM.finditer(prose, left, right):
        family = family_of_spelling(match.group(3))
        number = to_float(match.group(1), match.group(2))
        dimension, value = quantity_of(family, number)
        found.append(Quantity(match.start(), match.end(), number, dimension, value, match[0]))
        claimed.add(match.start())
    for match in _ANY_NUMBER.finditer(prose, left, right):
        if match.start() in claimed or any(q.start <= match.start() < q.end for q in found):
            continue
        if _LABEL.search(prose[max(left, match.start() - 24) : match.start()]):
            continue  # "Tier 2", "Level 1", "Gate 7": a name, not an amount
        number = to_float(match.group(1), match.group(2))
        scale = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9}.get(match.group(3) or "", 1.0)
        found.append(
            Quantity(match.start(), match.end(), number, "count", number * scale, match[0])
        )
    for match in _NUMBER_WORD.finditer(prose, left, right):
        count = float(NUMBER_WORDS[match.group(0).lower()])
        found.append(Quantity(match.start(), match.end(), count, "count", count, match[0]))
    for match in _DOLLARS.finditer(prose, left, right):
        amount = to_float(match.group(1), match.group(2))
        found.append(Quantity(match.start(), match.end(), amount, "usd", amount, match[0]))
    found.sort(key=lambda q: q.start)
    return found


def close_to(actual: float, stated: float, before: str) -> bool:
    """Whether ``stated`` (as the sentence words it) describes ``actual``."""
    if stated == 0 or actual <= 0:
        return False
    if AT_LEAST.search(before):
        return stated <= actual <= stated * 1.5
    if AT_MOST.search(before):
        return stated * 0.5 <= actual <= stated
    tolerance = 0.15 if APPROXIMATE.search(before) else 0.015
    return abs(actual - stated) <= tolerance * stated


def arithmetic(
    target: Quantity, others: list[Quantity], before: str
) -> tuple[str, list[Quantity]] | None:
    """A formula over the other numbers of the sentence that gives ``target``, with the
    operands it used, or None."""
    same = [q for q in others if q.dimension == target.dimension]
    counts = [q for q in others if q.dimension == "count" and q.value > 1]
    percents = [q for q in others if q.dimension == "%"]
    tries: list[tuple[float, str, list[Quantity]]] = []
    for a in same:
        for c in counts:
            tries.append((a.value * c.value, f"{c.text} \u00d7 {a.text}", [c, a]))
            tries.append((a.value / c.value, f"{a.text} / {c.text}", [a, c]))
        for p in percents:
            tries.append((a.value * p.value / 100, f"{p.text} of {a.text}", [p, a]))
        for b in same:
            if b.start <= a.start:
                continue
            tries.append((a.value + b.value, f"{a.text} + {b.text}", [a, b]))
            tries.append((abs(a.value - b.value), f"{a.text} \u2212 {b.text}", [a, b]))
    if target.dimension in ("%", "x"):
        scale = 100.0 if target.dimension == "%" else 1.0
        for a in others:
            for b in others:
                if a is b or a.dimension != b.dimension or a.dimension in ("%", "x"):
                    continue
                if b.value:
                    tries.append((scale * a.value / b.value, f"{a.text} / {b.text}", [a, b]))
                    if target.dimension == "%" and a.start < b.start and a.value:
                        change = scale * abs(a.value - b.value) / a.value
                        tries.append((change, f"change from {a.text} to {b.text}", [a, b]))
    for actual, formula, operands in tries:
        if close_to(actual, target.value, before):
            return formula, operands
    return None


# "An ensemble of 3 models plus a judge costs roughly 4x a single call"; "a 300-word
# memory adds roughly 400 tokens" (about 4/3 tokens per English word).
_PLUS_ONE = re.compile(r"\bplus (?:an?|one)\b", re.I)


_WORDS_AFTER = re.compile(r"[\s-]words?\b", re.I)


TOKENS_PER_WORD = (1.2, 1.6)


def counted(
    prose: str, left: int, target: Quantity, others: list[Quantity], before: str
) -> tuple[str, list[Quantity]] | None:
    """Counting arithmetic of the sentence: a multiple that is a count plus the one thing
    the sentence adds ("3 models plus a judge" = 4x), or tokens that are a word count
    at about 4/3 tokens per word (with "roughly", "about", "~")."""
    counts = [q for q in others if q.dimension == "count" and q.value >= 1]
    if target.dimension == "x" and _PLUS_ONE.search(prose, left, target.start):
        for count in counts:
            if close_to(count.value + 1, target.value, before):
                return f"{count.text} + 1 (plus one more call)", [count]
    if target.dimension == "tokens" and APPROXIMATE.search(before):
        for count in counts:
            if _WORDS_AFTER.match(prose, count.end) and count.value:
                ratio = target.value / count.value
                if TOKENS_PER_WORD[0] <= ratio <= TOKENS_PER_WORD[1]:
                    return f"{count.text} words at about 4/3 tokens per word", [count]
    return None
