"""Linear-time stand-ins for the regexes that backtrack super-linearly on hostile posts.

Python's ``re`` is a backtracking engine: a pattern such as ``(`+)(.+?)\\1`` or
``\\bA\\b.*\\bB\\b`` retries every start position against the rest of the line, and one
300 KB line of backticks, ``<!--`` or ``routes the`` kept a gate busy for minutes. Each
scanner here reproduces one such pattern's matches exactly (the same spans and groups, in
the same order, as ``finditer``/``search``/``sub``; ``tests/test_scan.py`` compares them
with the original regex on generated text and on a real corpus) in time linear in the
input: where many start positions would all fail for the same reason (no closing ``-->``,
no closing backtick run, no ``to`` later on the line), the reason is found once and
remembered.

The scanners keep the small part of the ``re.Pattern`` API the gates use (``finditer``,
``search``, ``sub``, ``pattern``), so a gate swaps its constant and nothing else.

This module holds the machinery (:class:`Found`, :class:`Scanner`, :class:`NextMatch`,
:class:`Memo`) and the scanners of general shapes (alternations, head then tail, HTML
comments, bracketed text, URLs); the Markdown inline scanners (code spans, emphasis) are
in :mod:`pytest_postgates.scan_markdown`, the scanners of code (mermaid function labels,
import statements) in :mod:`pytest_postgates.scan_code`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Literal, Protocol, overload


class Found:
    """A match: the part of ``re.Match`` the gates read (group, start, end, span)."""

    __slots__ = ("_spans", "string")

    def __init__(self, string: str, spans: list[tuple[int, int]]) -> None:
        self.string = string
        self._spans = spans  # group 0 first; (-1, -1) for a group that did not take part

    def span(self, group: int = 0) -> tuple[int, int]:
        return self._spans[group]

    def start(self, group: int = 0) -> int:
        return self._spans[group][0]

    def end(self, group: int = 0) -> int:
        return self._spans[group][1]

    @overload
    def group(self, group: Literal[0] = 0) -> str: ...
    @overload
    def group(self, group: int) -> str | None: ...
    def group(self, group: int = 0) -> str | None:
        start, end = self._spans[group]
        return None if start < 0 else self.string[start:end]

    def groups(self) -> tuple[str | None, ...]:
        return tuple(self.group(index) for index in range(1, len(self._spans)))

    def __repr__(self) -> str:
        return f"<Found span={self.span()} match={self.group()!r}>"


class MatchLike(Protocol):
    """What a replacement function may read: both ``re.Match`` and :class:`Found`."""

    def group(self, group: Literal[0] = 0, /) -> str | Any: ...
    def start(self, group: int = 0, /) -> int: ...
    def end(self, group: int = 0, /) -> int: ...


class Matcher(Protocol):
    def search(self, string: str, pos: int = 0) -> Found | re.Match[str] | None: ...


Replacement = str | Callable[[Found], str]
_TEMPLATE_GROUP = re.compile(r"\\(\d)")


class Scanner:
    """Base: subclasses implement ``search(text, pos)``, the leftmost match at or after
    ``pos`` exactly as the original regex's ``search(text, pos)`` finds it. Subclasses keep
    per-text memos, so one instance must not be used from two threads at once."""

    pattern: str = ""  # the regex this scanner replaces (documentation, tests)

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        # Scanners that define only finditer: the first match from ``pos`` is the search.
        return next(iter(self.finditer(string, pos)), None)

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        string = clip(string, endpos)
        while pos <= len(string):
            found = self.search(string, pos)
            if found is None:
                return
            yield found
            start, end = found.span()
            pos = end if end > start else end + 1

    def sub(self, repl: Replacement, string: str) -> str:
        parts: list[str] = []
        last = 0
        for found in self.finditer(string):
            parts.append(string[last : found.start()])
            if callable(repl):
                parts.append(repl(found))
            else:
                parts.append(_expand(repl, found))
            last = found.end()
        parts.append(string[last:])
        return "".join(parts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.pattern!r})"


def clip(string: str, endpos: int | None) -> str:
    """The text as ``re`` sees it with ``endpos``: nothing after it exists."""
    return string if endpos is None or endpos >= len(string) else string[: max(endpos, 0)]


def _expand(template: str, found: Found) -> str:
    """A ``sub`` template with ``\\N`` group references (the only escape the gates use)."""
    return _TEMPLATE_GROUP.sub(lambda m: found.group(int(m.group(1))) or "", template)


def _to_found(match: re.Match[str] | Found) -> Found:
    if isinstance(match, Found):
        return match
    return Found(match.string, [match.span(index) for index in range(len(match.groups()) + 1)])


class NextMatch:
    """The leftmost match at or after a position, remembered: asked again with a larger
    position, the remembered answer holds while it starts at or after that position (no
    match of the pattern lies between), so a scan that moves forward searches each stretch
    of text once. A remembered "no match" holds for every larger position."""

    __slots__ = ("_answer", "_asked", "_pattern", "_string")

    def __init__(self, pattern: re.Pattern[str] | Matcher, string: str) -> None:
        self._pattern = pattern
        self._string = string
        self._asked = -1
        self._answer: re.Match[str] | Found | None = None

    def at_or_after(self, pos: int) -> re.Match[str] | Found | None:
        if self._asked >= 0 and self._asked <= pos:
            if self._answer is None:
                return None
            if self._answer.start() >= pos:
                return self._answer
        self._asked = pos
        self._answer = self._pattern.search(self._string, pos)
        return self._answer

    def index(self, pos: int) -> int:
        """Start of the next match at or after ``pos``, or -1."""
        found = self.at_or_after(pos)
        return -1 if found is None else found.start()


# ============================================================================ alternation
class Alternation(Scanner):
    """``A|B|...``: at the leftmost position where any alternative matches, the first
    alternative (in order) that matches there. Each alternative's leftmost match at or
    after a position is independent of the others, so it is searched once and remembered."""

    def __init__(self, pattern: str, alternatives: list[re.Pattern[str] | Scanner]) -> None:
        self.pattern = pattern
        self.alternatives = alternatives

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Found]:
        string = clip(string, endpos)
        nexts = [NextMatch(alternative, string) for alternative in self.alternatives]
        while pos <= len(string):
            best: re.Match[str] | Found | None = None
            for upcoming in nexts:
                found = upcoming.at_or_after(pos)
                if found is not None and (best is None or found.start() < best.start()):
                    best = found
            if best is None:
                return
            yield _to_found(best)
            start, end = best.span()
            pos = end if end > start else end + 1

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        best: re.Match[str] | Found | None = None
        for alternative in self.alternatives:
            found = alternative.search(string, pos)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return None if best is None else _to_found(best)


class Unanchored(Scanner):
    """A regex that is already linear, wearing the scanner API (for alternations)."""

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.pattern = regex.pattern

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        match = self.regex.search(string, pos)
        return None if match is None else _to_found(match)


# ======================================================================== head, then tail
class HeadThenTail(Scanner):
    """``HEAD.*TAIL`` where ``.`` stops at a line break (no DOTALL) and HEAD's matches
    on a line never nest: the leftmost HEAD on a line whose remainder matches ``.*TAIL``
    (greedy: up to TAIL's last match on the line). When the leftmost HEAD of a line has no
    TAIL after it, no later HEAD of that line has one either, so each line is read once
    instead of once per HEAD (``routes the`` repeated 20,000 times on one line).

    ``head`` must not match across a line break; ``tail`` is ``.*TAIL``, tried with
    ``match`` at the end of the HEAD."""

    def __init__(self, pattern: str, head: re.Pattern[str], tail: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.head = head
        self.tail = tail

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        while pos <= len(string):
            head = self.head.search(string, pos)
            if head is None:
                return None
            tail = self.tail.match(string, head.end())
            if tail is not None:
                spans = [(head.start(), tail.end())]
                spans += [head.span(i) for i in range(1, len(head.groups()) + 1)]
                spans += [tail.span(i) for i in range(1, len(tail.groups()) + 1)]
                return Found(string, spans)
            newline = string.find("\n", head.end())
            if newline < 0:
                return None
            pos = newline + 1
        return None


# =========================================================================== HTML comment
class TerminatedBeforeStop(Scanner):
    """``HEAD([^S]*?)END`` where END is a fixed string that ends with the stop character
    S and contains it nowhere else (``<!--\\s*postgates-(...)\\b([^>]*?)-->``): the body
    reaches the first S after HEAD, and the match holds only when END sits right there.
    The first S after a position is found once for every HEAD before it (a line of
    ``<!-- postgates-disable`` without any ``>`` is read once, not once per directive).

    HEAD must not contain S. Groups: HEAD's, then the body."""

    def __init__(self, pattern: str, head: re.Pattern[str], end: str) -> None:
        assert end and end[-1] not in end[:-1]
        self.pattern = pattern
        self.head = head
        self.end = end
        self.stop = end[-1]

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        stop_at = -2  # first stop character at or after `searched_from`
        searched_from = -1
        while True:
            head = self.head.search(string, pos)
            if head is None:
                return None
            body = head.end()
            if stop_at == -2 or searched_from > body or (0 <= stop_at < body):
                stop_at = string.find(self.stop, body)
                searched_from = body
            if stop_at < 0:
                return None
            end_start = stop_at + 1 - len(self.end)
            if end_start >= body and string.startswith(self.end, end_start):
                spans = [(head.start(), stop_at + 1)]
                spans += [head.span(i) for i in range(1, len(head.groups()) + 1)]
                spans.append((body, end_start))
                return Found(string, spans)
            pos = head.start() + 1


# ============================================================================ bracketed
class Memo:
    """Per-text :class:`NextMatch` memos, one per stop pattern."""

    def __init__(self, string: str) -> None:
        self.string = string
        self._next: dict[re.Pattern[str], NextMatch] = {}

    def index(self, pattern: re.Pattern[str], pos: int) -> int:
        upcoming = self._next.get(pattern)
        if upcoming is None:
            upcoming = self._next[pattern] = NextMatch(pattern, self.string)
        return upcoming.index(pos)


Finish = Callable[[str, "re.Match[str]", Memo], "list[tuple[int, int]] | None"]


class Delimited(Scanner):
    """``OPEN[^X]*CLOSE...`` shapes where a body runs to the first character of a set and
    the match holds only when that character is the expected one. Every OPEN before that
    character looks up the same stop, so stops are found once per text and remembered
    (``[`` repeated 100,000 times without a ``]`` is read once, not once per ``[``).

    ``open_`` finds the candidate starts (leftmost first, as the regex tries them);
    ``finish(string, opening, memo)`` returns the match's spans (group 0 first) or None,
    and finds stop characters through ``memo.index(stop_pattern, pos)``."""

    def __init__(self, pattern: str, open_: re.Pattern[str], finish: Finish) -> None:
        self.pattern = pattern
        self.open = open_
        self.finish = finish
        self._memo: Memo | None = None

    def _memo_for(self, string: str) -> Memo:
        # One memo per text, kept across calls: an alternation asks again and again as
        # its position moves forward over the same text.
        if self._memo is None or self._memo.string is not string:
            self._memo = Memo(string)
        return self._memo

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        memo = self._memo_for(string)
        while True:
            opening = self.open.search(string, pos)
            if opening is None:
                return None
            spans = self.finish(string, opening, memo)
            if spans is not None:
                return Found(string, spans)
            pos = opening.start() + 1


def closed_by(stops: str, closer: str, flags: int = 0, nonempty: bool = False) -> Finish:
    """``finish`` for ``OPEN[^stops]*closer``: the first stop character after the opening
    must be ``closer`` (a single character that is one of the stops)."""
    stop_pattern = re.compile(f"[{stops}]", flags)

    def finish(string: str, opening: re.Match[str], memo: Memo) -> list[tuple[int, int]] | None:
        stop = memo.index(stop_pattern, opening.end())
        if stop < 0 or string[stop] != closer or (nonempty and stop == opening.end()):
            return None
        return [(opening.start(), stop + 1)]

    return finish


def closed_by_string(closer: str) -> Finish:
    """``finish`` for ``OPEN.*?CLOSER`` with DOTALL: the first CLOSER after the opening."""
    closer_pattern = re.compile(re.escape(closer))

    def finish(string: str, opening: re.Match[str], memo: Memo) -> list[tuple[int, int]] | None:
        stop = memo.index(closer_pattern, opening.end())
        return None if stop < 0 else [(opening.start(), stop + len(closer))]

    return finish


def markdown_link(text_stops: str, target_stops: str, text_group: bool) -> Finish:
    r"""``finish`` for ``!?\[[^TEXT]*\]\([^TARGET]*\)`` (the opening is ``!?\[``):
    the first text stop must be ``]`` followed by ``(``, the first target stop ``)``.
    With ``text_group`` the link text is group 1."""
    text_pattern = re.compile(f"[{text_stops}]")
    target_pattern = re.compile(f"[{target_stops}]")

    def finish(string: str, opening: re.Match[str], memo: Memo) -> list[tuple[int, int]] | None:
        bracket = memo.index(text_pattern, opening.end())
        if bracket < 0 or string[bracket] != "]" or string[bracket + 1 : bracket + 2] != "(":
            return None
        paren = memo.index(target_pattern, bracket + 2)
        if paren < 0 or string[paren] != ")":
            return None
        spans = [(opening.start(), paren + 1)]
        if text_group:
            spans.append((opening.end(), bracket))
        return spans

    return finish


# ================================================================================== URLs
class SchemeUrl(Scanner):
    """``\b[a-z][a-z0-9+.-]*://TAIL``: the scheme run ends at the first character outside
    ``[a-z0-9+.-]`` and every start inside one run shares that end, so a run without
    ``://`` after it is skipped whole (``a.a.a.a...`` is read once, not once per ``a``)."""

    def __init__(self, pattern: str, tail: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.start_pattern = re.compile(r"\b[a-z]", flags)
        self.outside = re.compile(r"[^a-z0-9+.-]", flags)
        self.tail = re.compile("://" + tail, flags)
        self._memo: Memo | None = None

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Found | None:
        string = clip(string, endpos)
        if self._memo is None or self._memo.string is not string:
            self._memo = Memo(string)
        while True:
            start = self.start_pattern.search(string, pos)
            if start is None:
                return None
            run_end = self._memo.index(self.outside, start.end())
            if run_end < 0:
                return None
            tail = self.tail.match(string, run_end)
            if tail is not None:
                return Found(string, [(start.start(), tail.end())])
            pos = run_end + 1
