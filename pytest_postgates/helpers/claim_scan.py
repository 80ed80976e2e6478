"""Gate 13's claim scan, shared with gate 16 (which judges what gate 13 finds): the seeds'
nine claim-shape patterns line by line, and their function-flow mermaid detector.

Moved here from the gate so that both gates read one scan (no gate imports another).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.claims import KEYWORDS, PATTERNS
from pytest_postgates.scan_code import FunctionLabel

if TYPE_CHECKING:
    from pytest_postgates.post import Post

TEXT_LIMIT = 160


# The seeds' label signal is camelCase (JavaScript); ``(?<![A-Za-z0-9])`` plus ``_`` in the
# name also catches snake_case calls such as ``parse_post()`` for Python repositories.
# [\[("']([^\]\n)"']*(?<![A-Za-z0-9])[a-z][a-zA-Z_]+\(\)[^\]\n)"']*), ASCII, scanned in
# linear time (as a regex, a line of ``(`` backtracked quadratically).
_FN_LABEL = FunctionLabel()
_CAMEL_NODE = re.compile(r"\b([a-z][a-zA-Z]{4,})\b\s*(?:-->|\{|\()", re.ASCII)
_CAMEL = re.compile(r"[a-z][A-Z]")
# (code, pattern, words one of which a line must hold for the pattern to match it).
_SCANNED = tuple((code, pattern, KEYWORDS[code]) for code, pattern in PATTERNS)
# Any of them: one search rules out a line no pattern can match.
_ANY_KEYWORD = re.compile(
    "|".join(re.escape(word) for words in KEYWORDS.values() for word in words)
)


# Each keyword with the patterns (indices into _SCANNED) that it may let match.
_KEYWORD_CODES: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    (
        word,
        tuple(position for position, (_c, _p, words) in enumerate(_SCANNED) if word in words),
    )
    for word in dict.fromkeys(word for _c, _p, words in _SCANNED for word in words)
)
_LINE_BREAK = re.compile("\n")


@dataclass(frozen=True)
class Claim:
    line: int
    code: str
    in_code: bool
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "code": self.code, "in_code": self.in_code, "text": self.text}


@dataclass(frozen=True)
class MermaidFlow:
    line: int
    fn_labels: tuple[str, ...]
    camel_nodes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "fn_labels": list(self.fn_labels),
            "camel_nodes": list(self.camel_nodes),
        }


def scan_claims(post: Post) -> list[Claim]:
    """Every pattern match, line by line, from the top of the body to the Related-posts line.

    Lines inside fenced (and indented) code are scanned too and tagged ``in_code``; the
    fence marker lines themselves are not prose and are skipped, as in the seeds.
    """
    stop = post.related_posts_line
    code_lines = post.code_lines
    markers = post.fence_marker_lines
    claims: list[Claim] = []
    for number, line, present in _keyword_lines(post, stop):
        if number in markers:
            continue
        for position, (code, pattern, _keywords) in enumerate(_SCANNED):
            if position in present and pattern.search(line):
                claims.append(Claim(number, code, number in code_lines, line.strip()[:TEXT_LIMIT]))
    return claims


def _keyword_lines(post: Post, stop: int | None) -> Iterator[tuple[int, str, set[int]]]:
    """(file line number, text, indices into _SCANNED of the patterns one of whose words
    it holds) of the body lines before ``stop`` whose lower case holds a keyword, in
    order. Each keyword is found with ``str.find`` in the body's lower case, once per line
    at most, instead of a keyword search and a test of every word on each line (issue
    15). Exact: no keyword holds a line break, and the lower case of the lines joined is
    that of each line joined (no character lower-cases to or from a line break)."""
    first = post.body_start_line - 1
    end = len(post.lines) if stop is None else max(first, min(len(post.lines), stop - 1))
    lines = post.lines
    text = "\n".join(lines[first:end]).lower()
    breaks = [match.start() for match in _LINE_BREAK.finditer(text)]
    found: dict[int, set[int]] = {}
    for word, codes in _KEYWORD_CODES:
        at = text.find(word)
        while at >= 0:
            index = bisect_right(breaks, at)
            found.setdefault(index, set()).update(codes)
            if index >= len(breaks):
                break
            at = text.find(word, breaks[index] + 1)
    for index in sorted(found):
        yield first + index + 1, lines[first + index], found[index]


def mermaid_function_flow(block: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The seeds' detector on one mermaid block: (function-call labels, camelCase node ids)
    when the block asserts function wiring, else None."""
    if "-->" not in block:
        return None
    fn_labels = tuple((match.group(1) or "").strip() for match in _FN_LABEL.finditer(block))
    camel_nodes = [m.group(1) for m in _CAMEL_NODE.finditer(block) if _CAMEL.search(m.group(1))]
    # The count keeps repeats, as the seeds' detector does; the report lists them once.
    if fn_labels or len(camel_nodes) >= 2:
        return fn_labels, tuple(dict.fromkeys(camel_nodes))
    return None


def scan_mermaid(post: Post) -> list[MermaidFlow]:
    # The seeds' detector reads every mermaid block of the body; the Related-posts stop
    # applies to the line scan only.
    flows = []
    for fence in post.fences:
        if fence.lang != "mermaid":
            continue
        found = mermaid_function_flow(fence.content)
        if found is not None:
            flows.append(MermaidFlow(fence.start_line, *found))
    return flows
