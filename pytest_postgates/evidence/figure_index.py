"""Where the repository's text writes a figure with a space or a sign ("5 ms", "40%",
"1,000 tokens"): found from the digit runs of the text instead of a scan per spelling.

The index's word postings cannot narrow such a spelling: its words (a lone digit, ``s``,
``ms``) are in almost every file, so each one used to cost a scan of the whole tracked
text. Here a spelling is split at its last run of ASCII digits, ``prefix + digits +
rest`` with ``rest`` non-empty and digit-free. Every occurrence of the spelling ends a
digit run of the text right where ``rest`` starts, so the occurrences are among the places
where a digit is followed by ``rest``: found once per distinct ``rest`` (a closed set:
the units, with or without a space) by one literal search of the text with every digit
read as ``0``, grouped by the digit run that ends there, and each candidate confirmed
against the text. The answers are exactly those of :meth:`RepoIndex.contains` and
:meth:`RepoIndex.files_containing` (``tests/test_figure_index.py`` checks it).

Built lazily, per process, from an already loaded :class:`RepoIndex`: the digits-as-zero
copy of the text costs one ``bytes.translate`` (tens of milliseconds), each ``rest`` one
search of it.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex

# Every ASCII digit read as "0": a digit followed by ``rest`` is a literal "0" + rest.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"0" * 9)
_ZERO = ord("0")
# The last digit run, and after it a rest that starts with neither a digit nor a word
# character: a space or a sign. A rest that starts with a letter ("2.5ms") makes a word
# run the index's words narrow well.
_SPLIT = re.compile(rb"(.*?)([0-9]+)([^0-9A-Za-z_][^0-9]*)\Z", re.S)
KEY_BYTES = 4  # bytes after a digit run that group its occurrences


def split_figure(needle: bytes) -> tuple[bytes, bytes, bytes] | None:
    """(prefix, digits, rest): ``digits`` the needle's last run of ASCII digits, ``rest``
    the non-empty, digit-free text after it; None when the needle does not end that way
    (or holds a newline or NUL, which no text search matches)."""
    if b"\n" in needle or b"\0" in needle:
        return None
    parts = _SPLIT.match(needle)
    if parts is None:
        return None
    return parts.group(1), parts.group(2), parts.group(3)


class FigureIndex:
    """Occurrences of spellings that end ``digits + rest`` (see the module docstring)."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._zeroed: bytes | None = None
        # rest -> the digit run that ends right before an occurrence of rest -> where
        # each such run ends (ascending)
        self._runs_before: dict[bytes, dict[bytes, list[int]]] = {}
        # first byte of a rest -> KEY_BYTES bytes after a digit run -> (run, its end)
        self._by_first: dict[bytes, dict[bytes, list[tuple[bytes, int]]]] = {}
        self._starts: dict[bytes, list[int]] = {}  # needle -> every occurrence's start
        # anchor -> KEY_BYTES bytes after it -> the starts of its occurrences (ascending)
        self._anchored: dict[bytes, dict[bytes, list[int]]] = {}

    @staticmethod
    def handles(needle: bytes) -> bool:
        return split_figure(needle) is not None

    def contains(self, token: str) -> bool:
        """:meth:`RepoIndex.contains` for a spelling :meth:`handles` accepts."""
        return bool(self._occurrences(token.encode("utf-8")))

    def files_containing(self, token: str, limit: int = 64) -> list[tuple[str, int]]:
        """:meth:`RepoIndex.files_containing`, as a list, for a spelling :meth:`handles`
        accepts: (path, offset of its first occurrence there) in index order."""
        return self._first_per_file(self._occurrences(token.encode("utf-8")), limit)

    def locate(self, token: str) -> str | None:
        """:meth:`RepoIndex.locate` (the first text file holding it) for a spelling
        :meth:`handles` accepts."""
        first = self.files_containing(token, limit=1)
        return first[0][0] if first else None

    def files_containing_after(
        self, anchor: str, token: str, limit: int = 64
    ) -> list[tuple[str, int]]:
        """:meth:`RepoIndex.files_containing` of a ``token`` that begins with ``anchor``
        (``.length > 100`` and ``.length > ``): the occurrences of the anchor, found once
        for every token it begins, each compared with the token."""
        needle, start = token.encode("utf-8"), anchor.encode("utf-8")
        if not needle.startswith(start) or not start or b"\n" in needle or b"\0" in needle:
            raise ValueError(f"{token!r} does not begin with the anchor {anchor!r}")
        after = self._anchored.get(start)
        if after is None:
            # Each occurrence of the anchor, grouped by the KEY_BYTES bytes after it.
            text, after = self.index.text, {}
            at = text.find(start)
            while at >= 0:
                key = bytes(text[at + len(start) : at + len(start) + KEY_BYTES])
                after.setdefault(key, []).append(at)
                at = text.find(start, at + 1)
            self._anchored[start] = after
        tail = needle[len(start) :]
        if len(tail) >= KEY_BYTES:
            candidates = after.get(tail[:KEY_BYTES], [])
        else:
            candidates = sorted(
                itertools.chain.from_iterable(
                    positions for key, positions in after.items() if key.startswith(tail)
                )
            )
        text, size = self.index.text, len(needle)
        return self._first_per_file(
            (at for at in candidates if text[at : at + size] == needle), limit
        )

    def _first_per_file(self, starts: Iterable[int], limit: int) -> list[tuple[str, int]]:
        """(path, offset) of the first of ``starts`` (ascending) in each file, at most
        ``limit`` files."""
        offsets, paths = self.index.offsets, self.index.text_paths
        found: list[tuple[str, int]] = []
        last_file = -1
        for start in starts:
            if len(found) >= limit:
                break
            file_id = bisect.bisect_right(offsets, start) - 1
            if file_id != last_file:
                found.append((paths[file_id], start - offsets[file_id]))
                last_file = file_id
        return found

    def _occurrences(self, needle: bytes) -> list[int]:
        """Start of every occurrence of ``needle`` in the text, ascending."""
        known = self._starts.get(needle)
        if known is not None:
            return known
        parts = split_figure(needle)
        if parts is None:
            raise ValueError(f"not a figure spelling: {needle!r}")
        prefix, digits, rest = parts
        runs = self._runs(rest)
        if prefix:
            # The prefix ends in a non-digit, so the text's run is exactly ``digits``.
            ends = runs.get(digits, [])
        else:
            ends = sorted(
                end for run, run_ends in runs.items() if run.endswith(digits) for end in run_ends
            )
        text, back = self.index.text, len(prefix) + len(digits)
        known = [
            end - back
            for end in ends
            if end >= back and (not prefix or text[end - back : end - len(digits)] == prefix)
        ]
        self._starts[needle] = known
        return known

    def _runs(self, rest: bytes) -> dict[bytes, list[int]]:
        """The digit runs of the text followed by ``rest``, each with where it ends."""
        known = self._runs_before.get(rest)
        if known is not None:
            return known
        after = self._after(rest[:1])
        if len(rest) >= KEY_BYTES:
            keys = [rest[:KEY_BYTES]]
        else:  # a short rest: every key it begins
            keys = [key for key in after if key.startswith(rest)]
        text, size = self.index.text, len(rest)
        known = {}
        for key in keys:
            for run, end in after.get(key, ()):
                if size <= KEY_BYTES or text[end : end + size] == rest:
                    known.setdefault(run, []).append(end)
        for ends in known.values():
            ends.sort()
        self._runs_before[rest] = known
        return known

    def _after(self, first: bytes) -> dict[bytes, list[tuple[bytes, int]]]:
        """Every digit run of the text followed by the byte ``first``, as (run, where it
        ends), grouped by the KEY_BYTES bytes after it: one search of the digits-as-zero
        text per first byte (a space, "%", the lead byte of a multiplication sign), for
        every spelling that starts with it."""
        known = self._by_first.get(first)
        if known is not None:
            return known
        zeroed = self._zeroed_text()
        text = self.index.text
        known = {}
        pattern = b"0" + first
        at = zeroed.find(pattern)
        while at >= 0:
            begin = at
            while begin > 0 and zeroed[begin - 1] == _ZERO:
                begin -= 1
            end = at + 1
            known.setdefault(bytes(text[end : end + KEY_BYTES]), []).append(
                (bytes(text[begin:end]), end)
            )
            at = zeroed.find(pattern, end + 1)  # "0" + first cannot overlap itself
        self._by_first[first] = known
        return known

    def _zeroed_text(self) -> bytes:
        if self._zeroed is None:
            # One copy out of the mapped file, translated in place of a second one.
            self._zeroed = self.index.text[:].translate(_DIGITS_AS_ZERO)
        return self._zeroed
