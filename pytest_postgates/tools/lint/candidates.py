"""Cheap text tests that decide where the native rules need evaluating at all.

Every file with a finding of a rule passes its test (the tests over-approximate headings,
lists and code blocks: container prefixes, code and HTML are not told apart); only files
that pass one are parsed, and parsing is the costly part. A rule without a test here is
evaluated in every file where it is on. Also rumdl's gap that needs a text test (MD033
component tags) and the list starts rumdl cannot detect (MD029).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import ANY_ORDERED, BULLET, CONTAINER
from pytest_postgates.tools.lint.rules import (
    md001,
    md003,
    md011,
    md022,
    md023,
    md033,
    md034,
    md039,
    md044,
    md045,
    md047,
    md049,
    md050,
    md051,
    md052,
    md053,
    md054,
    md056,
)
from pytest_postgates.tools.lint.rules.md035 import break_text, maybe_break
from pytest_postgates.tools.lint.rules.md036 import ALL_PUNCTUATION
from pytest_postgates.tools.lint.rules.md037 import SPACED_MARKER

# Linear on any line: the text is taken greedily and trimmed in code (a lazy group before
# ``[ \t]*$`` retries the trailing run at every position), and closing hashes start only
# at the beginning of a run of blanks.
# The link, image and HTML rules keep their text test beside their algorithm.
LINK_CANDIDATES: dict[str, Callable[[Sequence[str], Mapping[str, Any]], bool]] = {
    "MD011": md011.may_violate,
    "MD033": md033.may_violate,
    "MD034": md034.may_violate,
    "MD039": md039.may_violate,
    "MD045": md045.may_violate,
    "MD051": md051.may_violate,
    "MD052": md052.may_violate,
    "MD053": md053.may_violate,
    "MD054": md054.may_violate,
}
_ATX_TEXT = re.compile(CONTAINER + r"#{1,6}(?:[ \t]+(.*))?$")
_CLOSING_HASHES = re.compile(r"(?:^|(?<![ \t])[ \t]+)#+$")
_SETEXT_UNDERLINE = re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$")

_NOT_ONE = re.compile(CONTAINER + r"0*(?:[02-9]|[1-9]\d+)[.)](?:[ \t]|$)")
_FENCE = re.compile(CONTAINER + r"(`{3,}|~{3,})")
_EMPHASIS_LINE = re.compile(r"^ {0,3}(\*\*?|__?)(\S.*)\1[ \t]*$", re.MULTILINE)

# A list marker not at its container's first column (or one after a parent's marker): the
# only places MD005 can find anything.
_INDENTED_MARKER = re.compile(
    r"^(?:[ \t]*>[ \t]?)*(?:[ \t]+|(?:[*+-]|\d{1,9}[.)])[ \t]+)(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)"
)
_INDENTED = re.compile(r"^[ \t>]*?(?: {4}|\t| {0,3}\t)[ \t]*\S")


# The end of a line whose last non-blank character is a thematic break marker: only such
# lines have a break_text that can be a break.
_BREAK_END = re.compile(r"[-*_][^\S\n]*$", re.MULTILINE)


def _break_texts(lines: Sequence[str]) -> set[str]:
    """``{break_text(line)}`` of the lines that may be thematic breaks: the lines found
    from their end by one search of the text (issue 15: most lines end otherwise, and
    break_text over every line was MD035's whole cost)."""
    text = "\n".join(lines)
    found: set[str] = set()
    for match in _BREAK_END.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        candidate = break_text(text[start : end if end >= 0 else len(text)])
        if maybe_break(candidate):
            found.add(candidate)
    return found


# The ported rules whose module has its own text test (``may_violate``).
_OWN_TESTS = {
    module.__name__.rsplit(".", 1)[-1].upper(): module.may_violate
    for module in (md001, md003, md022, md023, md044, md047, md049, md050, md056)
}


def may_violate(rule: str, lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    if rule in _OWN_TESTS:
        return bool(_OWN_TESTS[rule](lines, options))
    if rule in LINK_CANDIDATES:
        return LINK_CANDIDATES[rule](lines, options)
    if rule in ("MD009", "MD010", "MD013"):
        return True  # each one's own first step is a cheap line test
    if rule == "MD005":
        return any(_INDENTED_MARKER.match(line) for line in lines)
    if rule == "MD035":
        breaks = _break_texts(lines)
        style = str(options.get("style") or "consistent").strip()
        return len(breaks) > 1 if style == "consistent" else bool(breaks - {style})
    if rule == "MD055":
        return any("|" in line for line in lines)
    if rule in ("MD018", "MD019", "MD020", "MD021"):
        return any("#" in line for line in lines)
    if rule == "MD014":
        return any("$" in line for line in lines)
    if rule == "MD007":
        return any(BULLET.match(line) for line in lines)
    if rule in ("MD025", "MD041"):
        return True
    if rule == "MD043":
        return isinstance(options.get("headings"), list)
    if rule == "MD027":
        return any(">" in line for line in lines)
    if rule == "MD038":
        return any("`" in line for line in lines)
    if rule in ("MD031", "MD040"):
        return any(_FENCE.match(line) for line in lines)
    if rule == "MD037":
        return any(SPACED_MARKER.search(line) for line in lines)
    if rule == "MD024":
        texts: set[str] = set()
        previous = ""
        for line in lines:
            if previous.strip() and _SETEXT_UNDERLINE.match(line):
                return True  # a setext heading: its text needs the parser
            previous = line
            match = _ATX_TEXT.match(line)
            if match:
                text = _CLOSING_HASHES.sub("", (match.group(1) or "").rstrip(" \t"))
                if text in texts:
                    return True
                texts.add(text)
        return False
    if rule == "MD029":
        if options.get("style") == "zero":
            return any(ANY_ORDERED.match(line) for line in lines)
        return any(_NOT_ONE.match(line) for line in lines)
    if rule == "MD036":
        punctuation = options.get("punctuation")
        punctuation = ALL_PUNCTUATION if punctuation is None else str(punctuation)
        return any(
            match.group(2)[-1] not in punctuation
            for match in _EMPHASIS_LINE.finditer("\n".join(lines))
        )
    if rule == "MD004":
        markers = {match.group(1) for line in lines if (match := BULLET.match(line))}
        style = str(options.get("style") or "consistent")
        if style == "consistent":
            return len(markers) > 1
        marker = {"dash": "-", "plus": "+", "asterisk": "*"}.get(style)
        return bool(markers - {marker}) if marker else bool(markers)
    style = str(options.get("style") or "consistent")
    if rule == "MD048":
        chars = {match.group(1)[0] for line in lines if (match := _FENCE.match(line))}
        wrong = {"backtick": "~", "tilde": "`"}.get(style)
        return len(chars) > 1 if style == "consistent" else (wrong in chars if wrong else True)
    if rule == "MD046":
        fenced = style != "fenced" and any(_FENCE.match(line) for line in lines)
        indented = style != "indented" and any(_INDENTED.match(line) for line in lines)
        return fenced and indented if style == "consistent" else fenced or indented
    return True  # no text test for this rule: evaluate it wherever it is on


_ORDERED_ITEM = re.compile(r"^((?:[ \t]*>)*)([ \t]*)(\d{1,9})([.)])(?:[ \t]|$)")
# Items numbered other than 1, found in the whole text at once (few lines are).
_ODD_ITEM = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:\d{2,9}|[02-9])[.)](?:[ \t]|$)", re.MULTILINE)


def _indent(whitespace: str) -> int:
    return len(whitespace.expandtabs(4))


def odd_list_start(lines: Sequence[str]) -> bool:
    """Whether an ordered list may start at a number other than 1 (0, 2, 3, ...): rumdl
    accepts any start, markdownlint 0.36.1 does not. An item continues a list when the
    nearest earlier line that is not blank and not indented deeper is an item with the
    same indentation, quote depth and delimiter; anything else may start a list."""
    text = "\n".join(lines)
    index, position = 0, 0
    for candidate in _ODD_ITEM.finditer(text):
        index += text.count("\n", position, candidate.start())
        position = candidate.start()
        match = _ORDERED_ITEM.match(lines[index])
        if match is None or int(match.group(3)) == 1:  # "01." is 1
            continue
        depth, indent = match.group(1).count(">"), _indent(match.group(2))
        previous = None
        for back in range(index - 1, -1, -1):
            earlier = lines[back]
            if not earlier.strip():
                continue
            quote = re.match(r"(?:[ \t]*>)*", earlier)
            assert quote is not None
            rest = earlier[quote.end() :]
            lead = rest[: len(rest) - len(rest.lstrip())]
            if quote.group(0).count(">") == depth and _indent(lead) > indent:
                continue  # content of an item of this list
            previous = earlier
            break
        same = _ORDERED_ITEM.match(previous) if previous is not None else None
        if not (
            same
            and same.group(1).count(">") == depth
            and _indent(same.group(2)) == indent
            and same.group(4) == match.group(4)
        ):
            return True
    return False
