"""Where the two backends meet: which rumdl findings markdownlint 0.36.1 would make too
(:func:`keep_rumdl_finding`), and the native rules' findings for one file
(:func:`native_violations`), inline comments applied.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.candidates import (
    may_violate,
)
from pytest_postgates.tools.lint.catalog import ALIAS, DEFAULT_OPTIONS, Violation
from pytest_postgates.tools.lint.document import (
    LINE_BREAK,
    QUOTE_PREFIX,
    Document,
    markdownlint_lines,
    without_front_matter,
)
from pytest_postgates.tools.lint.inline import enabled_per_line
from pytest_postgates.tools.lint.rules import NATIVE, NATIVE_RULES
from pytest_postgates.tools.lint.rules.md013 import DEFINITION, STERN_EXEMPT, link_only


def native_violations(
    text: str,
    config: Mapping[str, Any],
    only: Iterable[str] | None = None,
    file_lines: list[str] | None = None,
    rules: Mapping[str, dict[str, Any]] | None = None,
) -> list[Violation]:
    """The findings of :data:`NATIVE_RULES` (or of those in ``only``) and of MD033's
    component tags for one file's text under ``config``. ``file_lines`` (the text split as
    markdownlint splits it) and ``rules`` (``effective_rules(config)``) save work when the
    caller has them."""
    # The parses make many small objects and free them together: the collector would
    # otherwise walk every object of the run (the repository index, other gates' data)
    # several times per post (issue 15). Paused only here and resumed as found.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _native_violations(text, config, only, file_lines, rules)
    finally:
        if collecting:
            gc.enable()


def _native_violations(
    text: str,
    config: Mapping[str, Any],
    only: Iterable[str] | None,
    file_lines: list[str] | None,
    rules: Mapping[str, dict[str, Any]] | None,
) -> list[Violation]:
    selected = NATIVE_RULES if only is None else tuple(r for r in NATIVE_RULES if r in set(only))
    if file_lines is None:
        lines, offset = markdownlint_lines(text)
    else:
        lines, offset = without_front_matter(file_lines)
    options, per_line, base = enabled_per_line(lines, offset, config, rules)

    def enabled(rule: str) -> bool:
        return bool(base.get(rule) or any(state.get(rule) for state in per_line.values()))

    wanted = [
        rule
        for rule in selected
        if enabled(rule)
        and may_violate(rule, lines, options.get(rule, DEFAULT_OPTIONS.get(rule, {})))
    ]
    if not wanted:
        return []
    front = (file_lines or LINE_BREAK.split(text.removeprefix("\ufeff")))[:offset]
    document = Document(lines, front)
    found: list[tuple[int, str, str]] = []
    for rule in wanted:
        rule_options = options.get(rule, DEFAULT_OPTIONS.get(rule, {}))
        found.extend(
            (index, rule, message) for index, message in NATIVE[rule](document, rule_options)
        )
    violations = []
    for index, rule, message in found:
        line = offset + index + 1
        if per_line.get(line, base).get(rule):
            violations.append(Violation(line, rule, ALIAS[rule], message))
    return violations


_RUMDL_LIMIT = re.compile(r"exceeds (\d+)")


def _markdownlint_long_line(line: str, message: str, options: Mapping[str, Any]) -> bool:
    """markdownlint's MD013 test on a line rumdl reported in its widest mode (strict,
    lengths in UTF-8 bytes, link URLs counted), so that rumdl over-reports and this keeps
    exactly what markdownlint reports: a length in UTF-16 units (JavaScript's) over the
    limit; unless strict, whitespace beyond the limit (a long unbreakable word is fine),
    no exemption for lines made of links only (headings and table rows with a link count
    as such, as their text is no paragraph), and none for link reference definitions."""
    match = _RUMDL_LIMIT.search(message)
    if match is None:
        return True
    limit = int(match.group(1))
    strict = bool(options.get("strict"))
    stern = bool(options.get("stern"))
    if line.isascii():
        rest = line[limit:]
    else:
        units = 0
        cut = len(line)
        for index, char in enumerate(line):
            if units >= limit:
                cut = index
                break
            units += 2 if ord(char) > 0xFFFF else 1
        rest = line[cut:] if units >= limit else ""
    if not rest:
        return False
    if not (strict or stern) and not re.search(r"\s", rest):
        return False
    if DEFINITION.match(line):
        return False
    if strict:
        return True
    if stern and STERN_EXEMPT.match(line):
        return False
    return not link_only(line)


_DELIMITER_ROW = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$")


def _cells(row: str) -> int:
    row = QUOTE_PREFIX.sub("", row).strip()
    row = row.removeprefix("|")
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return len(re.split(r"(?<!\\)\|", row))


def gfm_table_lines(lines: Sequence[str]) -> list[bool]:
    """For each line (index), whether it sits in a GitHub table: in a run of lines with a
    "|", at or below a delimiter row (not the text's first line) whose cell count matches
    its header row's, the nearest such row above deciding. rumdl reads rows under a
    mismatched delimiter as a table; GFM (and markdownlint) read them as a paragraph.
    One pass over the text (asking line by line walks back up every table again)."""
    status = [False] * len(lines)
    current = False
    for index, line in enumerate(lines):
        if "|" not in line:
            current = False
            continue
        row = QUOTE_PREFIX.sub("", line).strip()
        if index > 0 and _DELIMITER_ROW.match(row):
            current = _cells(lines[index - 1]) == _cells(line)
        status[index] = current
    return status


def _in_gfm_table(lines: Sequence[str], number: int) -> bool:
    """:func:`gfm_table_lines` for one file line (1-based)."""
    return 0 < number <= len(lines) and gfm_table_lines(lines)[number - 1]


def keep_rumdl_finding(
    rule: str,
    message: str,
    number: int,
    lines: Sequence[str],
    options: Mapping[str, Any],
    tables: Callable[[], list[bool]] | None = None,
) -> bool:
    """False for rumdl findings markdownlint 0.36.1 never reports. ``tables``: the file's
    :func:`gfm_table_lines`, computed once for all its findings."""
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    if rule == "MD013":
        return _markdownlint_long_line(line, message, options)
    if rule in ("MD055", "MD056") and lines:
        status = tables() if tables is not None else gfm_table_lines(lines)
        return 0 < number <= len(status) and status[number - 1]
    if rule == "MD051" and " not found in '" in message:
        # rumdl also checks fragments of links into other files; markdownlint only checks
        # fragments of the document itself.
        return False
    # `[][]` (as in the type `string[][]`) has an empty label, so CommonMark reads no link
    # there; rumdl reports it as an empty reference link.
    return not (rule == "MD042" and re.search(r"\[\s*\]\[\s*\]\s*$", message))
