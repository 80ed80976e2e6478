"""Values of code: numbers a line of code assigns or passes, with the words of their keys,
and the unit rule that matches a code literal to a prose figure (``timeout: 30000`` = "30
s"); the post's own fenced samples; symbols and paths a sentence names in code spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.post import Post

from pytest_postgates.helpers.numbers import (
    BINARY_BYTES,
    CLAIM,
    CODE_WORD,
    SIZE_BYTES,
    TIME_SECONDS,
    content_words,
    normalise_number,
    to_float,
)
from pytest_postgates.scan_markdown import CodeSpanExact

_CODE_SPAN = CodeSpanExact()  # (?<!`)(`+)(?!`).+?(?<!`)\1(?!`)
_CODE_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?(?![\d])")


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


_PATH_LIKE = re.compile(r"[\w.-]+/[\w./-]+\.\w+|[\w-]+\.(?:ts|js|mjs|cjs|tsx|py|go|rs|json)\b")


def literal_matches(literal: float, number: float, family: str) -> str | None:
    """Whether a code literal is the prose number under the unit rule; the rule's name."""

    def same(a: float, b: float) -> bool:
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    if same(literal, number):
        return "as written"
    if family in TIME_SECONDS:
        seconds = number * TIME_SECONDS[family]
        if same(literal, seconds * 1000):
            return "in milliseconds"
        if same(literal, seconds) and family != "s":
            return "in seconds"
        if family != "min" and same(literal, seconds / 60) and seconds >= 60:
            return "in minutes"
    elif family in SIZE_BYTES:
        for scale, name in (
            (SIZE_BYTES[family], "in bytes"),
            (BINARY_BYTES[family], "in bytes (binary)"),
        ):
            if same(literal, number * scale):
                return name
    elif family == "%":
        if same(literal, number / 100):
            return "as a fraction"
    elif family == "K":
        for scale in (1e3, 1024.0):
            if same(literal, number * scale):
                return "in units"
    elif family == "M":
        for scale in (1e6, 2.0**20):
            if same(literal, number * scale):
                return "in units"
    return None


# A literal is a value when something assigns or passes it ("timeout: 30000", "= 3_000",
# "(30, 60000)", "* 1024", a table cell); a bare "2." opening a list item is not.
_VALUE_CONTEXT = re.compile(r"(?:[=:(,\[*|<>]|=>|\breturn)\s*[\"'`]?$")


_LINE_COMMENT = re.compile(r"(?://|#(?![\w{!\[])|--(?=\s)).*$")


# Fences that hold a sample of the post's own code or configuration (not diagrams or
# console output).
NOT_SAMPLE_LANGS = frozenset({"mermaid", "text", "txt", "plaintext", "markdown", "md", "output"})


_CODE_LIKE_TEXT_LANGS = frozenset({"text", "txt", "plaintext"})


LONGEST_CODE_LINE = 400  # longer lines are minified or generated: any number is in them


@dataclass(frozen=True)
class Literal:
    value: float
    written: str
    key_words: frozenset[str]  # words of the identifier it is assigned or passed to


def literal_forms(number: float, family: str) -> list[float]:
    """The values a code literal may hold for the prose number under the unit rule."""
    forms = [number]
    if family in TIME_SECONDS:
        seconds = number * TIME_SECONDS[family]
        forms += [seconds * 1000, seconds]
    elif family in SIZE_BYTES:
        forms += [number * SIZE_BYTES[family], number * BINARY_BYTES[family]]
    elif family == "K":
        forms += [number * 1e3, number * 1024]
    elif family == "M":
        forms += [number * 1e6, number * 2.0**20]
    return list(dict.fromkeys(round(form, 6) for form in forms))


def code_literals(text: str) -> Iterator[Literal]:
    """Numbers that a line of code assigns or passes, with the words of their keys."""
    if len(text) > LONGEST_CODE_LINE:
        return iter(())
    return iter(_line_literals(text))


@lru_cache(maxsize=1 << 16)
def _line_literals(text: str) -> tuple[Literal, ...]:
    """:func:`code_literals` of one line, remembered: gate 7 reads the same repository
    lines (a symbol's window, a named file) for many numbers of many posts."""
    return tuple(_find_literals(text))


def _find_literals(text: str) -> Iterator[Literal]:
    for match in _CODE_NUMBER.finditer(text):
        before = text[max(0, match.start() - 48) : match.start()]
        if not _VALUE_CONTEXT.search(before):
            continue
        try:
            value = to_float(match.group(1), match.group(2))
        except ValueError:
            continue
        keys = CODE_WORD.findall(before)
        yield Literal(
            value, match.group(0), frozenset(content_words(keys[-1])) if keys else frozenset()
        )


@dataclass(frozen=True)
class SampleLine:
    line: int
    text: str
    literals: tuple[Literal, ...]
    # Words and "number unit" phrases the line writes in strings and comments
    # ("next 12 weeks", "// 24 hours for procurement review").
    words: frozenset[str] = frozenset()
    written: str = ""


# A "text" fence that holds code ("const sampler = new RatioSampler(0.1);") is a sample.
_READS_AS_CODE = re.compile(
    r"^\s*(?:const|let|var|function|import|export|def|class|return)\b|\bnew\s+[A-Z]\w*\(|"
    r"^\s*[\w.\"']+\s*[:=]\s*[\w\"'{\[(-]",
    re.M,
)


def sample_lines(post: Post) -> list[SampleLine]:
    """Lines of the post's own fenced code and configuration that assign a number
    (comments removed: a comment is the post's prose again, not its configuration; its
    words still say what the line's values are)."""
    found = []
    for fence in post.fences:
        if fence.lang in NOT_SAMPLE_LANGS and not (
            fence.lang in _CODE_LIKE_TEXT_LANGS and _READS_AS_CODE.search(fence.content)
        ):
            continue
        for offset, text in enumerate(fence.content.split("\n")):
            if len(text) > LONGEST_CODE_LINE:
                continue
            comment = _LINE_COMMENT.search(text)
            code = _LINE_COMMENT.sub("", text)
            literals = tuple(code_literals(code))
            if comment is not None:
                described = frozenset(content_words(comment.group(0)))
                literals = tuple(
                    Literal(lit.value, lit.written, lit.key_words | described) for lit in literals
                )
            if literals or CLAIM.search(text):
                found.append(
                    SampleLine(
                        fence.start_line + 1 + offset,
                        text.strip()[:80],
                        literals,
                        frozenset(content_words(code)),
                        normalise_number(code),
                    )
                )
    return found


def is_identifier_like(name: str) -> bool:
    """A name that reads as code, not as an English word: camelCase, snake_case,
    SCREAMING_CASE, or with digits ("grok-3"). Plain words ("timeout") are everywhere."""
    return bool(
        re.search(r"[a-z][A-Z]|[A-Za-z]_|_[A-Za-z]|\d", name)
        or re.fullmatch(r"[A-Z][A-Z0-9]{3,}", name)
        or re.search(r"[A-Z][a-z]+[A-Z]", name)
    )


def stems_meet(names: set[str], words: set[str]) -> bool:
    """Whether a name and a word share a stem of six letters ("reranker", "reranking")."""
    return any(
        len(name) >= 6 and len(word) >= 6 and name[:6] == word[:6]
        for name in names
        for word in words
    )


def symbols_in(raw: str, left: int, right: int) -> tuple[list[str], list[str]]:
    """(identifiers, paths) named in code spans of raw[left:right]."""
    identifiers: list[str] = []
    paths: list[str] = []
    for match in _CODE_SPAN.finditer(raw, left, right):
        content = match.group(0).strip("`").strip()
        for path in _PATH_LIKE.findall(content):
            if path not in paths:
                paths.append(path)
        for name in _IDENTIFIER.findall(content):
            if name not in identifiers and is_identifier_like(name):
                identifiers.append(name)
        # Model ids and other dashed names are searched as written ("grok-3").
        if re.fullmatch(r"[\w.-]+-[\w.-]+", content) and content not in identifiers:
            identifiers.insert(0, content)
    return identifiers, paths
