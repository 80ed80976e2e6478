"""The claim lines gate 16 reads beyond gate 13's scan.

Gate 13's nine patterns are the seeds' and keep their scores (its seed-parity test), so
they miss call claims a docs page words otherwise: "`a` forwards to `b`", "`b` is
directly called by `a`", "this method is called inside `a`", "by calling `b` in `a`",
"`a`, which wraps the `b` method", "`a` runs the code with `b`", "`f` returns a
`Promise`" (gate 13's return pattern wants a generic's ``<``). :func:`extra_claims` lists
the prose lines that hold one of these frames and that gate 13 flags with no claim of the
same kind, each as the gate-13 shape its frame is (``CALLS``, ``RETURN_TYPE``) and the
frame's name; gate 16 reads their ends and judges them as it judges gate 13's claims.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.helpers.wiring_names import continuation

if TYPE_CHECKING:
    from pytest_postgates.post import Post

TEXT_LIMIT = 160
# Gate 13's shapes each frame stands in for: a line gate 13 already flags with one of them
# is read as gate 13's claim, not again.
_CALL_CODES = frozenset({"CALLS", "CALL_DIRECTION"})
# (frame, shape, pattern): a code span before the verb, and one after it (a call frame's
# ``verb`` group: its callee may be wrapped onto the paragraph's next line).
FRAMES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "forwards to",
        "CALLS",
        re.compile(
            r"`[^`\n]+`[^`\n]{0,60}?\b(?P<verb>(?:forwards?|hands? off) to)\b[^`\n]{0,30}`",
            re.I,
        ),
    ),
    (
        "is called by",
        "CALLS",
        # the passive gate 13's "is called by" misses: a plural, "gets", an adverb, or
        # "is called inside `X`" (the caller's body holds the call)
        re.compile(
            r"(?:`[^`\n]+`[^`\n]{0,60}?|\bthis (?:method|function)\s+)"
            r"\b(?P<verb>(?:is|are|gets?)\s+(?:\w+ly\s+)?(?:called|invoked)\s+(?:\w+ly\s+)?"
            r"(?:by|from|inside|within|in))\b[^`\n]{0,30}`",
            re.I,
        ),
    ),
    (
        "runs with",
        "CALLS",
        # "`runPythonAsync` now runs the code with `eval_code_async`"
        re.compile(
            r"`[^`\n]+`[^`\n]{0,60}?\b(?P<verb>runs\s+(?:(?:the|its|a|an)\s+)?(?:[a-z]+\s+){0,2}?"
            r"(?:with|via|through))\b[^`\n]{0,30}`",
            re.I,
        ),
    ),
    (
        "calling in",
        "CALLS",
        # "The VM loads builtins by calling `load_builtin()` in `byte_LOAD_NAME`": the
        # caller after the callee
        re.compile(
            r"\b(?P<verb>calling|invoking)\s+(?:the\s+)?`[^`\n]+`\s+(?:in|inside|within)\s+"
            r"(?:the\s+)?`",
            re.I,
        ),
    ),
    (
        "wraps a method",
        "CALLS",
        # "`constant_to_value`, which wraps the `_constant_to_value` method": gate 13's
        # "wraps" wants "function" or "method" before it
        re.compile(
            r"`[^`\n]+`[^`\n]{0,60}?\b(?P<verb>wraps)\s+(?:the\s+)?`[^`\n]+`\s+"
            r"(?:method|function|helper)s?\b",
            re.I,
        ),
    ),
    (
        "this method calls",
        "CALLS",
        # "This method resolves the files by calling `x`": gate 13 wants "calls"
        re.compile(
            r"\bthis (?:method|function)\s[^`\n]{0,100}?\b(?P<verb>calling|invoking)\b"
            r"[^`\n]{0,30}`",
            re.I,
        ),
    ),
    (
        "returns a code type",
        "RETURN_TYPE",
        # "`f` returns a `Promise`": a type written as a code span right after the verb (a
        # capitalised name or a primitive, a generic's arguments allowed); a value
        # (`true`, `None`, `result.data`, `status: "done"`) is no type
        re.compile(
            r"`[^`\n]+`[^`\n]{0,60}?\b[Rr]eturns?\s+(?:a\s+|an\s+)?"
            # a MyST role or a link's bracket before the span is markup ("returns a
            # {js:class}`Promise`", "returns [`Vitest`](/api/vitest) instance")
            r"(?:\{[\w:.-]+\}|\[)?`(?!(?:None|True|False|NaN|Infinity)`)"
            r"(?:[A-Z][\w$]*|string|number|boolean|void|bigint|str|int|float|bool|bytes|dict"
            r"|list|tuple|set|frozenset)(?:[<\[][^`\n]*)?`"
        ),
    ),
)


@dataclass(frozen=True)
class FrameClaim:
    """A prose line one of :data:`FRAMES` reads: its number, the gate-13 shape the frame
    stands in for, the line's text (as gate 13 lists it) and the frame's name."""

    line: int
    code: str
    text: str
    frame: str


def extra_claims(post: Post, flagged: Collection[tuple[int, str]]) -> list[FrameClaim]:
    """The lines of :data:`FRAMES` in the post's prose (fenced code, its markers and the
    Related-posts tail left out) that gate 13 did not flag with a claim of the same kind
    (``flagged``: gate 13's (line, code) pairs); at most one claim per line and shape."""
    stop = post.related_posts_line
    code_lines = post.code_lines | post.fence_marker_lines
    first = post.body_start_line
    last = len(post.lines) if stop is None else min(len(post.lines), stop - 1)
    found: list[FrameClaim] = []
    for number in range(first, last + 1):
        if number in code_lines:
            continue
        text = post.lines[number - 1]
        if "`" not in text:
            continue
        taken: set[str] = set()
        following = continuation(post, number)
        for frame, code, pattern in FRAMES:
            if code in taken or _flagged(flagged, number, code):
                continue
            if pattern.search(text) or _wrapped(pattern, text, following):
                taken.add(code)
                found.append(FrameClaim(number, code, text.strip()[:TEXT_LIMIT], frame))
    return found


def _wrapped(
    pattern: re.Pattern[str],
    text: str,
    following: tuple[str, list[tuple[int, int, str]]] | None,
) -> bool:
    """Whether a call frame's verb is on ``text`` and its callee on the next line of the
    paragraph."""
    if following is None or "verb" not in pattern.groupindex:
        return False
    found = pattern.search(f"{text} {following[0]}")
    return found is not None and found.start("verb") < len(text)


def _flagged(flagged: Collection[tuple[int, str]], line: int, code: str) -> bool:
    if code in _CALL_CODES:
        return any((line, other) in flagged for other in _CALL_CODES)
    return (line, code) in flagged
