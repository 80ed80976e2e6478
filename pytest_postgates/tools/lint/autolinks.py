"""GFM autolink literals (``www.``, ``http(s)://``, e-mail) as micromark finds them: a port
of micromark-extension-gfm-autolink-literal (the version markdownlint 0.36.1 bundles), for
MD034 (bare URLs) and MD051 (heading text without them).

Checked against markdownlint-cli where the extension's source and the bundle disagree:
an e-mail address does not start after ":" (``mailto:a@b.c`` is no bare URL) or "/".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from pytest_postgates.tools.lint.micromark import Content

_TRAIL = set("!\"')*,.:;?_~")
_PATH_PUNCTUATION = set("!\"&')*,.:;<?]_~")


def _is_space(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P") or (
        char.isascii() and not char.isalnum() and not char.isspace() and char.isprintable()
    )


def _atext(char: str) -> bool:
    return char in "+-._" or (char.isascii() and char.isalnum())


def _trail(text: str, position: int) -> tuple[bool, int]:
    """micromark's ``trail`` check from ``position``: whether the punctuation there is
    trailing (only trail characters, then an end), and where the check stopped (the same
    answer holds from any punctuation before that point in the run)."""
    length = len(text)
    while position < length:
        char = text[position]
        if char in _TRAIL:
            position += 1
        elif char == "&":
            position += 1
            if position >= length or not (text[position].isascii() and text[position].isalpha()):
                return False, position
            while position < length and text[position].isascii() and text[position].isalpha():
                position += 1
            if position >= length or text[position] != ";":
                return False, position
            position += 1
        elif char == "]":
            position += 1
            if position >= length or text[position] in "([" or _is_space(text[position]):
                return True, position
        else:
            return char == "<" or _is_space(char), position
    return True, position


class _TrailChecks:
    """:func:`_trail` remembered over one run of punctuation (linear on long runs)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.stop = -1
        self.result = False
        self.start = -1

    def __call__(self, position: int) -> bool:
        if not (self.start <= position < self.stop) or self.text[position] in "&;":
            self.result, self.stop = _trail(self.text, position)
            self.start = position
        return self.result


def _domain(text: str, position: int, trail: _TrailChecks) -> int:
    """The end of a domain starting at ``position``, or -1."""
    underscore_last = underscore_last_last = False
    seen = False
    length = len(text)
    while position < length:
        char = text[position]
        if char in "._":
            if trail(position):
                break
            if char == "_":
                underscore_last = True
            else:
                underscore_last_last = underscore_last
                underscore_last = False
            position += 1
            continue
        if _is_space(char) or (char != "-" and _is_punctuation(char)):
            break
        seen = True
        position += 1
    if underscore_last_last or underscore_last or not seen:
        return -1
    return position


def _path(text: str, position: int, trail: _TrailChecks) -> int:
    opened = closed = 0
    length = len(text)
    while position < length:
        char = text[position]
        if char == "(":
            opened += 1
            position += 1
            continue
        if char == ")" and closed < opened:
            closed += 1
            position += 1
            continue
        if char in _PATH_PUNCTUATION or char == ")":
            if trail(position):
                return position
            if char == ")":
                closed += 1
            position += 1
            continue
        if _is_space(char):
            return position
        position += 1
    return position


def _www(text: str, position: int, trail: _TrailChecks) -> int:
    if text[position : position + 4].lower() != "www." or position + 4 >= len(text):
        return -1
    end = _domain(text, position, trail)
    if end < 0:
        return -1
    return _path(text, end, trail)


def _protocol(text: str, position: int, trail: _TrailChecks) -> int:
    match = re.match(r"(?i:https?)://", text[position : position + 8])
    if match is None:
        return -1
    after = position + match.end()
    if after >= len(text):
        return -1
    char = text[after]
    if ord(char) < 0x20 or ord(char) == 0x7F or _is_space(char) or _is_punctuation(char):
        return -1
    end = _domain(text, after, trail)
    if end < 0:
        return -1
    return _path(text, end, trail)


def _email(text: str, position: int) -> int:
    length = len(text)
    while position < length and _atext(text[position]):
        position += 1
    if position >= length or text[position] != "@":
        return -1
    position += 1
    data = dot = False
    while position < length:
        char = text[position]
        if char == ".":
            following = text[position + 1 : position + 2]
            if not (following.isascii() and following.isalnum() and following):
                break
            dot = True
            position += 1
            continue
        if char in "-_" or (char.isascii() and char.isalnum()):
            data = True
            position += 1
            continue
        break
    previous = text[position - 1]
    if data and dot and previous.isascii() and previous.isalpha():
        return position
    return -1


# Where a ``www.`` or ``http(s)://`` literal can start (the checks _www and _protocol make
# first, in the same case folding); neither can start inside the other.
_URL_START = re.compile(r"(?i:www\.)|(?i:https?)://")


def _candidates(text: str, escaped: set[int]) -> list[int]:
    """The positions where the scan of :func:`literal_autolinks` can do anything: a
    bracket, an escape, a URL start, and the start of a run of atext characters that an
    ``@`` ends (an e-mail address needs one). Every other position only moves it on."""
    found = set(escaped)
    for char in "[]":
        at = text.find(char)
        while at >= 0:
            found.add(at)
            at = text.find(char, at + 1)
    found.update(match.start() for match in _URL_START.finditer(text))
    at = text.find("@")
    while at >= 0:
        start = at
        while start > 0 and _atext(text[start - 1]):
            start -= 1
        if start < at:
            found.add(start)
        at = text.find("@", at + 1)
    return sorted(found)


def literal_autolinks(content: Content) -> Iterator[tuple[int, int]]:
    """(start, end) of each GFM autolink literal of ``content`` as micromark finds them:
    in text outside code, HTML, autolinks, links and images, not after an unbalanced
    ``[``, each kind only after the characters micromark allows before it.

    micromark reads the text character by character; this visits only the positions
    where that reading can change anything (:func:`_candidates`), in the same order, and
    skips what it skips."""
    text = content.text
    if "@" not in text and _URL_START.search(text) is None:
        return iter(())  # every literal holds "www.", "http(s)://" or "@" (issue 15)
    return scan_literal_autolinks(content)


def scan_literal_autolinks(content: Content) -> Iterator[tuple[int, int]]:
    """:func:`literal_autolinks` without its shortcut for text that holds no literal."""
    text = content.text
    length = len(text)
    spans = sorted(content.spans)
    blocked = [False] * (length + 1)
    for start, end, kind in spans:
        if kind in ("escape", "entity"):
            continue
        stop = min(end, length)
        if start < stop:
            blocked[start:stop] = [True] * (stop - start)
    escaped = {start for start, _end, kind in spans if kind == "escape"}
    candidates = _candidates(text, escaped)
    open_brackets = 0
    position = 0
    trail = _TrailChecks(text)
    for candidate in candidates:
        if candidate < position:
            continue  # skipped: inside an escape or a literal already found
        position = candidate
        if position >= length:
            break
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
