"""Linear-time scanners for code read in posts: gate 13's mermaid function labels and
gate 14's import and re-export statements. See :mod:`pytest_postgates.scan` for why they
exist and what they promise; split from it (issue 14: one concern per module).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pytest_postgates.scan import Found, Memo, Scanner, clip


# ========================================================================== mermaid labels
class FunctionLabel(Scanner):
    """Gate 13's label signal ``[\\[("']([^\\]\n)"']*(?<![A-Za-z0-9])[a-z][a-zA-Z_]+\\(\\)
    [^\\]\n)"']*)`` (ASCII): the ``)`` of the call is the first stop character after the
    opening, so the label holds when that stop is ``)`` right after ``(`` and a name that
    starts a word; every opening before the same stop gets the same answer."""

    pattern = r"""[\[("']([^\]\n)"']*(?<![A-Za-z0-9])[a-z][a-zA-Z_]+\(\)[^\]\n)"']*)"""
    _OPEN = re.compile(r"""[\[("']""")
    _STOP = re.compile(r"""[\]\n)"']""")

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        string = clip(string, endpos)
        memo = Memo(string)
        name_starts: dict[int, int] = {}  # stop offset -> last start of a valid name, or -1
        while True:
            opening = self._OPEN.search(string, pos)
            if opening is None:
                return
            body = opening.end()
            stop = memo.index(self._STOP, body)
            if stop >= 0 and string[stop] == ")" and string[stop - 1] == "(":
                if stop not in name_starts:
                    name_starts[stop] = self._last_name_start(string, stop - 1)
                if name_starts[stop] >= body:
                    end = memo.index(self._STOP, stop + 1)
                    end = len(string) if end < 0 else end
                    yield Found(string, [(opening.start(), end), (body, end)])
                    pos = end
                    continue
            pos = opening.start() + 1

    @staticmethod
    def _last_name_start(string: str, paren: int) -> int:
        """The largest j with string[j] in [a-z], string[j+1:paren] in [a-zA-Z_]+ and no
        ASCII letter or digit before j; -1 when there is none."""
        if paren < 2 or not _NAME_CHAR(string[paren - 1]):
            return -1
        j = paren - 2
        while j >= 0 and _NAME_CHAR(string[j]):
            if "a" <= string[j] <= "z" and (j == 0 or not _ALNUM(string[j - 1])):
                return j
            j -= 1
        return -1


def _NAME_CHAR(char: str) -> bool:
    return char == "_" or ("a" <= char <= "z") or ("A" <= char <= "Z")


def _ALNUM(char: str) -> bool:
    return ("a" <= char <= "z") or ("A" <= char <= "Z") or ("0" <= char <= "9")


# ================================================================================ imports
class ImportFrom(Scanner):
    """``\bHEAD[^'"`;]*?\bfrom\\s*(['"`])([^'"`\n]+)\1`` (gate 14's import and
    re-export shapes): the body stops at the first quote or ``;``, and ``from`` must end
    right before the whitespace in front of that quote, so every HEAD before the same stop
    shares one answer (``import`` repeated without a quote is read once)."""

    _STOP = re.compile(r"""['"`;]""")
    _FROM = re.compile(r"\bfrom\s*")
    _QUOTED = re.compile(r"""(['"`])([^'"`\n]+)\1""")

    def __init__(self, pattern: str, head: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.head = head

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        string = clip(string, endpos)
        memo = Memo(string)
        answers: dict[int, tuple[int, re.Match[str] | None]] = {}  # stop -> (from, quoted)
        while True:
            head = self.head.search(string, pos)
            if head is None:
                return
            stop = memo.index(self._STOP, head.end())
            if stop < 0:
                return  # no quote after this head, so none after any later one
            if stop not in answers:
                answers[stop] = self._answer(string, stop)
            from_at, quoted = answers[stop]
            if quoted is not None and from_at >= head.end():
                yield Found(string, [(head.start(), quoted.end()), quoted.span(1), quoted.span(2)])
                pos = quoted.end()
            else:
                pos = head.start() + 1

    def _answer(self, string: str, stop: int) -> tuple[int, re.Match[str] | None]:
        if string[stop] == ";":
            return -1, None
        space = stop
        while space > 0 and string[space - 1].isspace():
            space -= 1
        from_at = space - 4
        if from_at < 0:
            return -1, None
        matched = self._FROM.match(string, from_at)
        if matched is None or matched.end() != stop:
            return -1, None
        return from_at, self._QUOTED.match(string, stop)
