"""markdownlint's inline configuration comments: ``markdownlint-configure-file`` (JSONC,
TOML or YAML), ``disable``/``enable`` (``-file``, ``-line``, ``-next-line``) and
``capture``/``restore``, scanned with markdownlint's own quirks, and the rule state they
give each line (:func:`enabled_per_line`).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib
import yaml

from pytest_postgates.tools.lint.catalog import RULES
from pytest_postgates.tools.lint.config import LOOKUP, effective_rules, strip_jsonc
from pytest_postgates.tools.lint.document import markdownlint_lines

_INLINE_COMMENT = re.compile(
    r"(<!--\s*markdownlint-(disable|enable|capture|restore|disable-file|enable-file|"
    r"disable-line|disable-next-line|configure-file))(?:\s|-->)",
    re.IGNORECASE,
)


# Where markdownlint's word stands in an inline comment; renamed, the comment is inert.
_DIRECTIVE_WORD = re.compile(r"(<!--\s*)(markdownlint)(?=-)", re.IGNORECASE)


def inline_comment_lines(text: str) -> list[int]:
    """1-based lines of ``text`` holding a markdownlint inline configuration comment."""
    return sorted({text.count("\n", 0, m.start()) + 1 for m in _INLINE_COMMENT.finditer(text)})


def without_inline_config(text: str) -> str:
    """``text`` with every markdownlint inline configuration comment made inert: its word
    renamed with as many characters, so lines, columns and lengths (MD013) stay."""
    return _DIRECTIVE_WORD.sub(lambda m: m.group(1) + "x" * len(m.group(2)), text)


def _apply_inline(
    state: dict[str, bool], action: str, names: frozenset[str] | None
) -> dict[str, bool]:
    """``state`` after an enable/disable comment naming ``names`` (None: every rule)."""
    state = dict(state)
    enabled = action.startswith("ENABLE")
    for rule in RULES if names is None else names:
        state[rule] = enabled
    return state


def _rules_named(words: str) -> set[str]:
    """The rules that whitespace-separated rule ids, aliases and tags name."""
    return {rule for name in words.upper().split() for rule in LOOKUP.get(name, ())}


def _parse_inline_config(parameter: str) -> Any:
    """A configure-file comment's object, parsed as markdownlint-cli parses it: JSONC,
    then TOML, then YAML; the first that gives a value wins (None: none did)."""
    try:
        return json.loads(strip_jsonc(parameter))
    except json.JSONDecodeError:
        pass
    try:
        parsed: Any = tomllib.loads(parameter)
        if parsed:
            return parsed
    except (tomllib.TOMLDecodeError, ValueError):
        pass
    try:
        return yaml.safe_load(parameter)
    except yaml.YAMLError:
        return None


@dataclass(frozen=True)
class _Comment:
    """One inline configuration comment: its line index and action, the rules its
    parameter names (None: none named, so every rule), and the parameter itself, or None
    when it runs on over later comments to a shared ``-->`` (never a configuration)."""

    index: int
    action: str
    names: frozenset[str] | None
    parameter: str | None


class _CommentScanner:
    """markdownlint's scan for inline comments, quirks included: one global regex whose
    ``lastIndex`` survives a ``break`` (a comment without ``-->`` on its line) into the
    next line and the next pass, as ``RegExp.prototype.exec`` keeps it.

    Linear in the line: comments whose parameters end at one ``-->`` share a suffix, so
    each one's rule names are its own words joined to the next one's set (markdownlint
    splits every parameter afresh, quadratic on a line of many unclosed comments)."""

    def __init__(self) -> None:
        self.last_index = 0

    def scan(self, lines: Sequence[str]) -> list[_Comment]:
        found: list[_Comment] = []
        for index, line in enumerate(lines):
            raw: list[tuple[str, int, int]] = []  # action, parameter start, end
            closing: int | None = None
            while True:
                if self.last_index > len(line):
                    self.last_index = 0
                    break
                match = _INLINE_COMMENT.search(line, self.last_index)
                if match is None:
                    self.last_index = 0
                    break
                self.last_index = match.end()
                start = match.start() + len(match.group(1))
                # Starts only grow along a line: the "-->" found last serves until passed.
                if closing is None or 0 <= closing < start:
                    closing = line.find("-->", start)
                if closing < 0:
                    break
                raw.append((match.group(2).upper(), start, closing))
            named: list[frozenset[str] | None] = [None] * len(raw)
            later: set[str] = set()
            for position in range(len(raw) - 1, -1, -1):
                _, start, end = raw[position]
                shared = position + 1 < len(raw) and raw[position + 1][2] == end
                stop = raw[position + 1][1] if shared else end
                own = _rules_named(line[start:stop])
                later = own | later if shared else own
                empty = not shared and not line[start:end].strip()
                named[position] = None if empty else frozenset(later)
            for position, (action, start, end) in enumerate(raw):
                last = position + 1 == len(raw) or raw[position + 1][2] != end
                parameter = line[start:end] if last else None
                found.append(_Comment(index, action, named[position], parameter))
        return found


def _comments_in_line(text: str) -> list[tuple[str, str]]:
    """(action, parameter) of the inline comments of one string that can configure."""
    return [
        (comment.action, comment.parameter)
        for comment in _CommentScanner().scan([text])
        if comment.parameter is not None
    ]


def enabled_per_line(
    lines: Sequence[str],
    offset: int,
    config: Mapping[str, Any],
    rules: Mapping[str, dict[str, Any]] | None = None,
) -> tuple[Mapping[str, dict[str, Any]], dict[int, dict[str, bool]], dict[str, bool]]:
    """markdownlint's rule state per file line after inline comments: (options in force,
    state of the lines that differ from the base state, base state). ``configure-file``
    comments extend the configuration for this file. ``rules``: ``effective_rules(config)``
    when the caller has it already. Four passes as markdownlint makes them (configure-file
    over the joined text; enable-file/disable-file; the running enable/disable/capture/
    restore state; disable-line/disable-next-line), sharing one scanner."""
    text = "\n".join(lines)
    if "markdownlint-" not in text:
        options = effective_rules(config) if rules is None else rules
        return options, {}, {rule: rule in options for rule in RULES}
    scanner = _CommentScanner()
    for comment in scanner.scan([text]):
        if comment.action != "CONFIGURE-FILE" or comment.parameter is None:
            continue
        parsed = _parse_inline_config(comment.parameter)
        if isinstance(parsed, dict):
            config = {**config, **parsed}
    options = effective_rules(config)
    state = {rule: rule in options for rule in RULES}
    for comment in scanner.scan(lines):
        if comment.action in ("ENABLE-FILE", "DISABLE-FILE"):
            state = _apply_inline(state, comment.action, comment.names)
    captured = state
    per_line: dict[int, dict[str, bool]] = {}
    by_line: dict[int, list[_Comment]] = {}
    for comment in scanner.scan(lines):
        by_line.setdefault(comment.index, []).append(comment)
    for index in range(len(lines)):
        for comment in by_line.get(index, ()):
            if comment.action == "CAPTURE":
                captured = state
            elif comment.action == "RESTORE":
                state = captured
            elif comment.action in ("ENABLE", "DISABLE"):
                state = _apply_inline(state, comment.action, comment.names)
        per_line[offset + index + 1] = state
    for comment in scanner.scan(lines):
        if comment.action in ("DISABLE-LINE", "DISABLE-NEXT-LINE"):
            target = offset + comment.index + 1 + (comment.action == "DISABLE-NEXT-LINE")
            per_line[target] = _apply_inline(
                per_line.get(target, {}), comment.action, comment.names
            )
    return options, per_line, {}


def file_config(text: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` extended by the file's ``<!-- markdownlint-configure-file {...} -->``
    comments, in order, each merged over the object so far (markdownlint reads them from
    the whole text at once, so one comment may span lines)."""
    merged = dict(config)
    if "configure-file" not in text.lower():
        return merged
    lines, _ = markdownlint_lines(text)
    joined = "\n".join(lines)
    for action, parameter in _comments_in_line(joined):
        if action != "CONFIGURE-FILE":
            continue
        parsed = _parse_inline_config(parameter)
        if isinstance(parsed, dict):  # markdownlint ignores a comment it cannot parse
            merged = {**merged, **parsed}
    return merged
