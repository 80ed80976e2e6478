"""Prose lines with their inline code spans and URLs blanked, shared by the gates that read
prose line by line (placeholders in gate 1, brochure phrases in gate 11).
"""

from __future__ import annotations

import re

from pytest_postgates.scan import Alternation, CodeSpanExact, Delimited, SchemeUrl, closed_by

# The code-span and URL patterns, scanned in linear time (pytest_postgates.scan): as
# regexes, a line of backtick runs, of ``](`` or of ``a.a.a.`` took minutes.
_CODE_SPAN = CodeSpanExact()  # (?<!`)(`+)(?!`).+?(?<!`)\1(?!`)
_URL = Alternation(
    r"\]\([^)\s]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b[a-z][a-z0-9+.-]*://\S+",
    [
        Delimited(r"\]\([^)\s]*\)", re.compile(r"\]\("), closed_by(")\\s", ")")),
        Delimited(
            r"<[a-z][a-z0-9+.-]*:[^>\s]*>",
            re.compile(r"<[a-z][a-z0-9+.-]*+:", re.I),
            closed_by(">\\s", ">", re.I),
        ),
        SchemeUrl(r"\b[a-z][a-z0-9+.-]*://\S+", r"\S+", re.I),
    ],
)


def prose_without_code(line: str) -> str:
    """A prose line with inline code spans and URLs blanked (same length, same columns)."""
    line = _CODE_SPAN.sub(lambda match: " " * len(match.group(0)), line)
    return _URL.sub(lambda match: " " * len(match.group(0)), line)
