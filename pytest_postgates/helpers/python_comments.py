"""Gate 15 on the comments of a Python sample (issue 26: never silent), as
:mod:`~pytest_postgates.helpers.js_comments` reads a JavaScript sample's: a whole-line
``#`` comment whose text alone parses as one statement that calls or reaches a member
(``# client.close()``, an alternative the page offers) is read as code, at the comment's
indentation, where the sample still parses with it; a name a comment quotes in backticks is
returned for the reader to list unjudged (prose, which the gate does not judge)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Sequence

from pytest_postgates.helpers.fence_parsers import parse_python
from pytest_postgates.helpers.js_comments import uncomment_where_it_parses

# A name a comment quotes: an identifier, a dotted chain, a call of one.
_QUOTED = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(\))?`")
_STATEMENTS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)
# A comment that may be code: after its `#`, a word (a keyword before it), then a member,
# a call or an assignment.
_CODE_LINE = re.compile(r"^[ \t]*#[ \t]*(?:[A-Za-z_]\w*[ \t]+)?[A-Za-z_]\w*[ \t]*[.(=]", re.M)


def read_comments(code: str) -> tuple[str, list[tuple[int, str]]]:
    """``code`` with its commented-out lines of code uncommented (lines kept), and the names
    its comments quote in backticks, each with its row (0-based)."""
    if "#" not in code or ("`" not in code and not _CODE_LINE.search(code)):
        return code, []
    try:
        comments = [
            (token.start, token.string)
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return code, []
    lines = code.split("\n")
    rows: list[tuple[int, int, str]] = []  # row, column, the code the comment holds
    quoted: list[tuple[int, str]] = []
    for (line_number, column), text in comments:
        row = line_number - 1
        written = text[1:].strip()
        if not lines[row][:column].strip() and _is_code(written):
            rows.append((row, column, written))
            continue
        quoted += [(row, match.group(1)) for match in _QUOTED.finditer(text)]
    if not rows:
        return code, quoted
    # The sample is repaired line by line when it does not parse as written.
    return uncomment_where_it_parses(
        code, rows, lambda some: _uncomment(lines, some), _parses, _parses(code)
    ), quoted


def _is_code(text: str) -> bool:
    if not text or text.startswith(("#", "!", ">>>")):
        return False
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError):
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], _STATEMENTS):
        return False
    return any(isinstance(node, (ast.Call, ast.Attribute)) for node in ast.walk(tree.body[0]))


def _parses(code: str) -> bool:
    try:
        parse_python(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _uncomment(lines: list[str], rows: Sequence[tuple[int, int, str]]) -> str:
    """The lines with each of ``rows`` replaced by the code its comment holds, at the
    comment's column."""
    out = list(lines)
    for row, column, written in rows:
        out[row] = out[row][:column] + written
    return "\n".join(out)
