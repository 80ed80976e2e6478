"""Which file of a repository is its CHANGELOG: the first file at the root named like one
(``CHANGELOG``, ``CHANGES``, ``RELEASES``, ``HISTORY``, ``NEWS``, with a text extension or
none). ``NEWS`` and ``HISTORY`` are also what a site calls an ordinary page: a Jekyll blog's
``news.md`` is a page of announcements ("Aug 2026: my paper was accepted"), and counting it
made gate 7 treat an essay blog as a product with a release history, so the author's own
numbers failed as uncited (issue 27). A file of those two names counts only when its text
records releases.

A text records releases when one of its lines names a version or a release date where a
changelog names them: a heading (``## 1.2.0``, ``## [1.2.0] - 2024-01-05``, a title over a
``===``/``---`` underline, a GNU ``* Noteworthy changes in release 1.2``), or a line that
starts with one (``1.2.0 (2024-01-05)``, ``v2.0``, ``Version 1.2``, ``Release 1.2``). A
page's front matter is not read (its ``date`` is no release).
"""

from __future__ import annotations

import re
from collections.abc import Callable

CHANGELOG_NAME = re.compile(
    r"^(changelog|changes|history|releases?|news)(\.(md|markdown|txt|rst))?$", re.I
)
# Names a site also gives an ordinary page: a changelog only when the text records releases.
PAGE_NAMES = frozenset({"news", "history"})
# A version (1.2, v1.2.3, 2024.01) or an ISO date (2024-01-05).
_RELEASE = r"(?:\bv?\d+\.\d+\b|\b\d{4}-\d{2}-\d{2}\b)"
# A Markdown heading naming a release, or a GNU NEWS top-level bullet ("* Noteworthy
# changes in release 1.2"; a bullet of a page's list is not a heading).
_RELEASE_HEADING = re.compile(
    rf"^(?: {{0,3}}#{{1,6}}[ \t]+.*?|\*[ \t]+.*?\b(?:release|version)\b.*?){_RELEASE}", re.I
)
# A line that starts with a release: 1.2.0 (date), [1.2.0], v2.0, Version 1.2, Release 1.2.
_RELEASE_START = re.compile(r"^\s*\[?(?:(?:version|release)\s+)?v?\d+\.\d+\b", re.I)
# A setext (Markdown) or reStructuredText title underline.
_UNDERLINE = re.compile(r"^(?:=+|-+|~+|\^+|\*+)[ \t]*$")
_RELEASE_TEXT = re.compile(_RELEASE, re.I)
# A changelog names a release near its top; a NEWS page that names none in this many lines
# is not read further.
_LINES_READ = 400


def records_releases(text: str) -> bool:
    """Whether ``text`` names a release where a changelog names one (module docstring)."""
    lines = text.splitlines()[:_LINES_READ]
    if lines and lines[0].rstrip() == "---":  # a page's front matter (its date is no release)
        closing = next((n for n, line in enumerate(lines[1:], 1) if line.rstrip() == "---"), 0)
        lines = lines[closing + 1 :]
    for number, line in enumerate(lines):
        if _RELEASE_HEADING.match(line) or _RELEASE_START.match(line):
            return True
        underline = lines[number + 1] if number + 1 < len(lines) else ""
        if line.strip() and _UNDERLINE.match(underline) and _RELEASE_TEXT.search(line):
            return True
    return False


def changelog_of(text_paths: list[str], text_of: Callable[[str], str | None]) -> str | None:
    """The repository's CHANGELOG among the searched files: the first at the root named
    like one, a ``NEWS`` or ``HISTORY`` file only when its text (``text_of``) records
    releases."""
    for path in text_paths:
        name = CHANGELOG_NAME.match(path) if "/" not in path else None
        if name is None:
            continue
        if name.group(1).lower() not in PAGE_NAMES:
            return path
        text = text_of(path)
        if text is not None and records_releases(text):
            return path
    return None
