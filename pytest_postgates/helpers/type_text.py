"""Type annotations as text, the part gate 15's typers share: a type split at a separator
that stands outside brackets (``A | B[C | D]`` -> ``A``, ``B[C | D]``)."""

from __future__ import annotations


def split_top_level(text: str, separator: str, brackets: str = "[]()") -> list[str]:
    """``text`` split at ``separator`` where no bracket of ``brackets`` (opening and
    closing characters in pairs: ``"[]()"``) is open; each part stripped, empty ones kept."""
    opening, closing = brackets[0::2], brackets[1::2]
    parts: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char in opening:
            depth += 1
        elif char in closing:
            depth -= 1
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [part.strip() for part in parts]
