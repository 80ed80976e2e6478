"""Prose lines with their inline code spans and URLs blanked, shared by the gates that read
prose line by line (placeholders in gate 1, brochure phrases in gate 11).
"""

from __future__ import annotations

import re

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
_URL = re.compile(r"\]\([^)\s]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b[a-z][a-z0-9+.-]*://\S+", re.I)


def prose_without_code(line: str) -> str:
    """A prose line with inline code spans and URLs blanked (same length, same columns)."""
    line = _CODE_SPAN.sub(lambda match: " " * len(match.group(0)), line)
    return _URL.sub(lambda match: " " * len(match.group(0)), line)
