"""Linear-time scanners for Markdown inline constructs: code spans (three regex shapes the
gates use, read backtick run by backtick run) and emphasis. See :mod:`pytest_postgates.scan`
for why they exist and what they promise; split from it (issue 14: one concern per module).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from pytest_postgates.scan import Found, Memo, Scanner, clip


# ============================================================================ code spans
def _runs(string: str, start: int, end: int) -> list[tuple[int, int]]:
    """Backtick runs (start, length) of ``string[start:end]``."""
    runs = []
    index = string.find("`", start, end)
    while index >= 0:
        run_end = index + 1
        while run_end < end and string[run_end] == "`":
            run_end += 1
        runs.append((index, run_end - index))
        index = string.find("`", run_end, end)
    return runs


def _suffix_max(runs: list[tuple[int, int]]) -> list[int]:
    """``result[j]``: the longest run after run ``j`` (0 when none)."""
    result = [0] * len(runs)
    longest = 0
    for index in range(len(runs) - 1, -1, -1):
        result[index] = longest
        longest = max(longest, runs[index][1])
    return result


def _first_run_at_least(runs: list[tuple[int, int]], after: int, width: int) -> int:
    index = after + 1
    while runs[index][1] < width:
        index += 1
    return index


class _Segmented(Scanner):
    """Scanners whose regex cannot cross a line break are run line segment by segment."""

    dotall = False

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        for found in self._matches(string, pos):
            return found
        return None

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        return self._matches(clip(string, endpos), pos)

    def _matches(self, string: str, pos: int) -> Iterator[Found]:
        length = len(string)
        start = pos
        while start <= length:
            end = length if self.dotall else string.find("\n", start)
            if end < 0:
                end = length
            if string.find("`", start, end) >= 0:
                yield from self._segment(string, start, end)
            start = end + 1

    def _segment(self, string: str, start: int, end: int) -> Iterator[Found]:
        raise NotImplementedError


class CodeSpanLazy(_Segmented):
    """``(`+)(.+?)\\1`` with DOTALL: an opening run (any tail of a backtick run, longest
    first), at least one character, then the first place the same number of backticks
    follows (possibly inside a longer run).

    From a position ``m`` backticks before the end of its run, with ``M`` the longest run
    after it, the regex settles on width ``k = max(min(m, M), (m - 1) // 2)``: the whole
    tail when a later run is as long, else the longest later run when it beats what fits
    inside the opening run itself (``k`` content backtick plus ``k`` more), else that."""

    dotall = True

    def __init__(self, pattern: str = r"(`+)(.+?)\1") -> None:
        self.pattern = pattern

    def _segment(self, string: str, start: int, end: int) -> Iterator[Found]:
        runs = _runs(string, start, end)
        after = _suffix_max(runs)
        j = 0
        pos = start
        while j < len(runs):
            run_start, run_length = runs[j]
            run_end = run_start + run_length
            i = max(pos, run_start)
            if i >= run_end:
                j += 1
                continue
            longest_after = after[j]
            m = run_end - i
            k = max(min(m, longest_after), (m - 1) // 2)
            if k == 0:
                # m <= 2 and no later run: nothing starts in this run.
                j += 1
                continue
            if k <= (m - 1) // 2:
                close = i + k + 1  # the closing run fits inside the opening run
                close_run = j
            else:
                close_run = _first_run_at_least(runs, j, k)
                close = runs[close_run][0]
            yield Found(string, [(i, close + k), (i, i + k), (i + k, close)])
            pos = close + k
            j = close_run


class CodeSpanNoRepeat(_Segmented):
    """``(`+)(?:(?!\\1).)+?\\1`` (no DOTALL): like :class:`CodeSpanLazy`, but no
    character of the content may start a run of the opening's width, so the opening keeps
    more than half of the backticks left in its run and the closing run comes later: from
    ``m`` backticks before the end of a run, ``k = min(m, M)`` when ``M > m / 2`` (``M``
    the longest later run on the line), and no match from here otherwise."""

    def __init__(self, pattern: str = r"(`+)(?:(?!\1).)+?\1") -> None:
        self.pattern = pattern

    def _segment(self, string: str, start: int, end: int) -> Iterator[Found]:
        runs = _runs(string, start, end)
        after = _suffix_max(runs)
        j = 0
        pos = start
        while j < len(runs):
            run_start, run_length = runs[j]
            run_end = run_start + run_length
            i = max(pos, run_start)
            longest_after = after[j]
            if i >= run_end or longest_after == 0:
                j += 1
                continue
            # The first start with m < 2M, where m counts the backticks left in the run.
            i = max(i, run_end - (2 * longest_after - 1))
            m = run_end - i
            k = min(m, longest_after)
            close_run = _first_run_at_least(runs, j, k)
            close = runs[close_run][0]
            yield Found(string, [(i, close + k), (i, i + k)])
            pos = close + k
            j = close_run


class CodeSpanExact(_Segmented):
    """``(?<!`)(`+)(?!`).+?(?<!`)\\1(?!`)`` (no DOTALL): a whole backtick run, then the
    next whole run of the same length on the line."""

    def __init__(self, pattern: str = r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)") -> None:
        self.pattern = pattern

    def _segment(self, string: str, start: int, end: int) -> Iterator[Found]:
        runs = _runs(string, start, end)
        # Whole runs only: a run cut by the segment start is preceded by a backtick.
        if runs and runs[0][0] == start and start > 0 and string[start - 1] == "`":
            runs = runs[1:]
        next_same: list[int] = [-1] * len(runs)
        seen: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            next_same[index] = seen.get(runs[index][1], -1)
            seen[runs[index][1]] = index
        j = 0
        while j < len(runs):
            run_start, width = runs[j]
            partner = next_same[j]
            if partner < 0 or run_start + width >= end:
                j += 1
                continue
            close = runs[partner][0]
            yield Found(string, [(run_start, close + width), (run_start, run_start + width)])
            j = partner + 1


# =============================================================================== emphasis
class Emphasis(Scanner):
    """``(?<!\\w)(\\*\\*|__|\\*|_)(?=\\S)(.+?)(?<=\\S)\1(?!\\w)`` (no DOTALL): for each
    delimiter, the closing one is the first place at or after a position where the
    delimiter follows a non-space and is not followed by a word character; that place
    does not depend on the opening, so it is found once per delimiter and remembered."""

    pattern = r"(?<!\w)(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?!\w)"
    _OPEN = re.compile(r"(?<!\w)(?:\*|_)")
    _NON_SPACE = re.compile(r"\S")
    _CLOSE: ClassVar[dict[str, re.Pattern[str]]] = {
        delimiter: re.compile(r"(?<=\S)" + re.escape(delimiter) + r"(?!\w)")
        for delimiter in ("**", "__", "*", "_")
    }
    _NEWLINE = re.compile("\n")

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        string = clip(string, endpos)
        memo = Memo(string)
        while True:
            opening = self._OPEN.search(string, pos)
            if opening is None:
                return
            start = opening.start()
            found = None
            for delimiter in ("**", "__", "*", "_"):
                if not string.startswith(delimiter, start):
                    continue
                content = start + len(delimiter)
                if not self._NON_SPACE.match(string, content):
                    continue
                close = memo.index(self._CLOSE[delimiter], content + 1)
                newline = memo.index(self._NEWLINE, content)
                if close >= 0 and (newline < 0 or close < newline):
                    found = Found(
                        string,
                        [(start, close + len(delimiter)), (start, content), (content, close)],
                    )
                    break
            if found is None:
                pos = start + 1
                continue
            yield found
            pos = found.end()
