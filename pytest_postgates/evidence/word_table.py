"""The index's word table: built from the text of each file, and confirmed against that
text before a yes counts.

A repository index read back from a cache folder without ``POSTGATES_CACHE_KEY`` is checked
against git (``index_seal.matches_tree``: the commit's paths, and each searched file's text
hashing to git's blob id), so its text is the commit's. Its word table (the distinct words,
the files of each) is derived from that text, and checking it on load would mean deriving it
again: a forger could add an invented word to it, and gate 2 would ground the invented name.

So the table is never taken at its word where it says yes: a word it places in file F is
looked for in F's (verified) text before it counts, and remembered. Where it says no it is
believed: a table that leaves a word out can only make a name fail, never pass.

On an honest index the first file tried holds the word (the table was derived from the
text), so a yes costs one search of one file, the smallest the table names. When no file the
table names holds it, the table lied and the answer is the text's own: a scan of all of it.
"""

from __future__ import annotations

import gc
import itertools
import mmap
import re
from array import array
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from pytest_postgates.evidence.substring import Haystack

# Translation table: ASCII word bytes stay, every other byte becomes a space.
_NON_WORD = bytes(b if re.fullmatch(rb"[A-Za-z0-9_]", bytes([b])) else 32 for b in range(256))
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


class WordCheck:
    """Searches of the index's text (``text``, files NUL-separated, file ``i`` starting at
    ``offsets[i]`` and taking ``sizes[i]`` bytes with its NUL) that confirm the word table."""

    def __init__(
        self, text: bytes | mmap.mmap, haystack: Haystack, offsets: list[int], sizes: list[int]
    ) -> None:
        self._text = text
        self._find = haystack.find
        self._offsets = offsets
        self._sizes = sizes
        self._whole: dict[tuple[bytes, int], bool] = {}

    def whole_word_in(self, word: bytes, file_id: int) -> bool:
        """Whether ``word`` (ASCII word characters) stands as a whole word in the file."""
        key = (word, file_id)
        known = self._whole.get(key)
        if known is None:
            start = self._offsets[file_id]
            known = self._whole[key] = self._whole_word_between(
                word, start, start + self._sizes[file_id] - 1
            )
        return known

    def substring_in(self, needle: bytes, file_id: int) -> bool:
        start = self._offsets[file_id]
        return self._find(needle, start, start + self._sizes[file_id] - 1) >= 0

    def has_whole_word(self, word: bytes, files: Iterable[int]) -> bool:
        """Whether ``word`` is a whole word of the text: of one of ``files`` (the table's,
        smallest first), else (the table lied) of any file."""
        if any(self.whole_word_in(word, file_id) for file_id in files):
            return True
        return self._whole_word_between(word, 0, len(self._text))

    def has_substring(self, needle: bytes, files: Iterable[int]) -> bool:
        """Whether ``needle`` occurs in the text: in one of ``files`` (those of a word the
        table says holds it, smallest first), else (the table lied) anywhere."""
        if any(self.substring_in(needle, file_id) for file_id in files):
            return True
        return self._find(needle) >= 0

    def _whole_word_between(self, word: bytes, start: int, end: int) -> bool:
        # Files are NUL-separated and NUL is no word byte, so a whole-text span is safe.
        text, size = self._text, len(word)
        position = self._find(word, start, end)
        while position >= 0:
            tail = position + size
            if (position == start or text[position - 1] not in _WORD_BYTES) and (
                tail >= end or text[tail] not in _WORD_BYTES
            ):
                return True
            position = self._find(word, position + 1, end)
        return False


class Postings:
    """The file ids of each word, collected file by file.

    One append per distinct word of each file, about 900k on a large repository: done by
    ``map`` in C (``list.append`` over the words' lists, new words' lists made by the
    dict's ``__missing__``), not by a Python loop, and straight from each file's words
    (no list of every file's word set, no union of them afterwards)."""

    def __init__(self) -> None:
        self._ids_of: defaultdict[bytes, list[int]] = defaultdict(list)

    def add(self, file_id: int, content: bytes) -> None:
        found = set(content.translate(_NON_WORD).split())
        lookup, append = self._ids_of.__getitem__, list.append
        deque(map(append, map(lookup, found), itertools.repeat(file_id)), maxlen=0)

    def arrays(self) -> tuple[list[bytes], array[int], array[int]]:
        """Sorted distinct words, the file ids of each word word after word, and where
        each word's ids start."""
        sorted_words = sorted(self._ids_of)
        in_order = list(map(self._ids_of.__getitem__, sorted_words))
        postings = array("I", itertools.chain.from_iterable(in_order))
        starts = array("I", [0])
        starts.extend(itertools.accumulate(map(len, in_order)))
        return sorted_words, postings, starts


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while the postings grow: the build makes
    about 80k lists that hold no cycles, and each collection they would trigger walks
    every object of the process (a pytest session's are many)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
