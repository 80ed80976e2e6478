"""GFM autolink literals (tools/lint/autolinks.py): the scan that visits only candidate
positions finds exactly what the character-by-character scan finds."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.tools.lint import autolinks
from pytest_postgates.tools.lint.autolinks import (
    _atext,
    _email,
    _is_space,
    _protocol,
    _TrailChecks,
    _www,
)
from pytest_postgates.tools.lint.micromark import Content


def stepwise_autolinks(content: Content) -> Iterator[tuple[int, int]]:
    """The scan as it was written first, character by character, as micromark reads the
    text: the oracle the scan over candidate positions must agree with."""
    text = content.text
    spans = sorted(content.spans)
    blocked = [False] * (len(text) + 1)
    for start, end, kind in spans:
        if kind in ("escape", "entity"):
            continue
        for offset in range(start, min(end, len(text))):
            blocked[offset] = True
    escaped = {start for start, _end, kind in spans if kind == "escape"}
    open_brackets = 0
    position = 0
    length = len(text)
    trail = _TrailChecks(text)
    while position < length:
        if blocked[position]:
            position += 1
            continue
        char = text[position]
        if position in escaped:
            position += 2
            continue
        if char == "[":
            open_brackets += 1
            position += 1
            continue
        if char == "]":
            open_brackets = max(0, open_brackets - 1)
            position += 1
            continue
        if open_brackets:
            position += 1
            continue
        previous = text[position - 1] if position else ""
        end = -1
        lower = char.lower()
        if lower == "w" and (not previous or previous in "(*_[]~" or _is_space(previous)):
            end = _www(text, position, trail)
        if (
            end < 0
            and lower == "h"
            and not (previous.isascii() and previous.isalpha() and previous)
        ):
            end = _protocol(text, position, trail)
        if end < 0 and _atext(char) and not (previous in ("/", ":") or _atext(previous or " ")):
            end = _email(text, position)
        if end > position and not any(blocked[position:end]):
            yield position, end
            position = end
            continue
        position += 1


# Pieces that make the scan's branches come up: URL starts in both cases, e-mail parts,
# brackets, escapes, trailing punctuation, entities, spaces of several kinds, the long s
# and Kelvin sign that fold to ASCII letters.
_PIECES = [
    "www.",
    "WWW.",
    "ww",
    "w",
    "http://",
    "HTTPS://",
    "https:",
    "h",
    "http\u017f://",
    "a",
    "Z",
    "0",
    "_",
    "-",
    "+",
    ".",
    "@",
    "a@b.c",
    "x.y",
    "example.com",
    "/",
    ":",
    "(",
    ")",
    "[",
    "]",
    "\\",
    "&amp;",
    "&",
    ";",
    "!",
    "?",
    "*",
    "~",
    "<",
    ">",
    " ",
    "\n",
    "\u00a0",
    "\u3000",
    "é",
    "K",
    "\u212a",
    "'",
    '"',
    "`",
]
_KINDS = ["code", "html", "autolink", "link", "image", "escape", "entity"]


@st.composite
def _contents(draw: st.DrawFn) -> Content:
    text = "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=30)))
    spans = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(_KINDS))
        size = 2 if kind == "escape" else draw(st.integers(0, 12))
        spans.append((start, min(len(text) + 2, start + size), kind))
    # Escapes where the text has a backslash, as micromark records them.
    spans += [(i, i + 2, "escape") for i, c in enumerate(text) if c == "\\" and draw(st.booleans())]
    return Content(text, 1, False, False, spans)


@settings(max_examples=600)
@given(_contents())
def test_candidate_scan_finds_what_the_stepwise_scan_finds(content: Content) -> None:
    assert list(autolinks.literal_autolinks(content)) == list(stepwise_autolinks(content))


def test_the_scan_finds_each_kind() -> None:
    text = "see www.example.com, [x] https://a.b/c and mail a.b@example.com. \\www.no"
    content = Content(text, 1, False, False, [(text.index("\\"), text.index("\\") + 2, "escape")])
    found = [text[s:e] for s, e in autolinks.literal_autolinks(content)]
    assert found == ["www.example.com", "https://a.b/c", "a.b@example.com"]
    assert found == [text[s:e] for s, e in stepwise_autolinks(content)]
