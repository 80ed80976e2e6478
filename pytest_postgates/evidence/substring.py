"""Fixed-string search for the index: ``bytes.find`` semantics, faster.

- :class:`Haystack`: ``find(needle, start, end)`` over the index's text (an mmap or
  bytes), through the C library's ``memmem`` where there is one. CPython's ``find`` scans
  about byte by byte for the short needles gate 2 asks (0.4 to 1 GB/s on the NeuroLink
  text); glibc's ``memmem`` skips by pairs of bytes and scans the same spans in about half
  the CPU. The answers are the same: the first occurrence in ``[start, end)`` or -1.
- :class:`TextProbe`: ``needle in text`` for a text searched often by tokens that are
  mostly not in it (the CHANGELOG, the commit messages): a token whose inner words are no
  words of the text, or whose edge words are in none, is ruled out without a scan.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Callable
from typing import Any

_WORD_RUN = re.compile(rb"[A-Za-z0-9_]+")
_NON_WORD = bytes(b if re.fullmatch(rb"[A-Za-z0-9_]", bytes([b])) else 32 for b in range(256))
# Below this many bytes a span is searched by ``bytes.find``: a call into the C library
# through ctypes costs about a microsecond, more than ``find`` spends on a small file.
_NATIVE_MIN_SPAN = 2048


def _load_memmem() -> Callable[..., Any] | None:
    """libc's ``memmem`` (POSIX systems), or None where it cannot be loaded."""
    if os.name != "posix" or os.environ.get("POSTGATES_NO_MEMMEM"):
        return None
    try:
        import ctypes

        function = ctypes.CDLL(None).memmem
    except (ImportError, OSError, AttributeError):
        return None
    function.restype = ctypes.c_void_p
    function.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
    return function


_MEMMEM = _load_memmem()


class Haystack:
    """A read-only text searched by ``find``, natively where the platform allows.

    ``text`` is an mmap opened with ``ACCESS_COPY`` (private pages: its address can be
    taken, and nothing is ever written, so the pages stay shared with the page cache and
    with other processes) or bytes."""

    def __init__(self, text: bytes | mmap.mmap) -> None:
        self.text = text
        self.size = len(text)
        self._address = 0
        if _MEMMEM is not None and self.size:
            import ctypes

            try:
                if isinstance(text, bytes):
                    self._keep: object = text
                    self._address = ctypes.cast(ctypes.c_char_p(text), ctypes.c_void_p).value or 0
                else:
                    holder = ctypes.c_char.from_buffer(text)
                    self._keep = holder
                    self._address = ctypes.addressof(holder)
            except (TypeError, ValueError, BufferError):  # a read-only mapping
                self._address = 0

    def find(self, needle: bytes, start: int = 0, end: int | None = None) -> int:
        """``text.find(needle, start, end)`` for a non-empty ``needle`` and
        ``0 <= start``."""
        stop = self.size if end is None or end > self.size else end
        length = stop - start
        if length < len(needle):
            return -1
        if not self._address or length < _NATIVE_MIN_SPAN:
            return self.text.find(needle, start, stop)
        hit = _MEMMEM(self._address + start, length, needle, len(needle))  # type: ignore[misc]
        return -1 if not hit else int(hit) - self._address


class TextProbe:
    """``needle in text`` for one text (decoded, or any str), with a cheap proof of
    absence first: every inner run of word characters of the needle is a whole word of
    the text, and every run is part of some word of it. The answer is exactly ``needle in
    text``: UTF-8 is self-synchronising, so a string is in another exactly when its
    encoding is in the other's."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.words = frozenset(self.data.translate(_NON_WORD).split())
        self.blob = b"\n" + b"\n".join(sorted(self.words)) + b"\n"

    def __contains__(self, needle: str) -> bool:
        try:
            encoded = needle.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no proof, the plain search
            return needle in self.text
        if not self.may_hold(encoded):
            return False
        return self.data.find(encoded) >= 0

    def may_hold(self, needle: bytes) -> bool:
        """False when the words of the text rule ``needle`` out."""
        words, size = self.words, len(needle)
        for match in _WORD_RUN.finditer(needle):
            run = match.group()
            if run in words:
                continue
            if match.start() > 0 and match.end() < size:
                return False  # an inner run is a whole word wherever the needle is
            if self.blob.find(run) < 0:
                return False  # an edge run is part of a word wherever the needle is
        return True
