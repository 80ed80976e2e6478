"""Gate 15 on the comments of a JavaScript/TypeScript sample (issue 26: never silent).

A comment is no use of the API, but a page writes two kinds of names in one that a reader
takes for the product's:

- a line of code commented out (``// axios.get.mockImplementation(() => ...)``, an
  alternative the page offers): a reader uncomments it and runs it, so it is read as code.
  Such a line is a whole-line ``//`` comment whose text alone parses, with no error, as one
  statement that declares or is an expression and calls or reaches a member; the ``//`` is
  blanked (lines and columns kept) when the fence still parses as well as before;
- a name a comment quotes in backticks (``// `responseType` must be 'json'``): prose in
  the sample, which this gate does not judge; each is named ``unjudged`` at its line with
  that reason, never passed over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pytest_postgates.helpers.fence_parsers import CachedParser

# A name a comment quotes: an identifier, a dotted chain, a call of one.
_QUOTED = re.compile(r"`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`")
# What a commented-out line of code is, alone: one such statement ...
_STATEMENTS = frozenset({"expression_statement", "lexical_declaration", "variable_declaration"})
# ... that reaches the API (a bare word or a literal is prose or a value, not a use).
_USES = frozenset({"call_expression", "member_expression", "new_expression"})
# A whole-line comment that may be code: after its `//`, a word (a keyword before it, say
# `const` or `await`), then a member, a call or an assignment.
_CODE_LINE = re.compile(r"^[ \t]*//[ \t]*(?:[\w$]+[ \t]+)?[\w$]+[ \t]*[.(=]", re.MULTILINE)
Row = TypeVar("Row")
# A comment that is a file's path or dashed name (`src/lib/cache.ts`, `prompt-cache.ts`).
_PATH = re.compile(r"[\w$@.~]*[/-][\w$@.~/-]*\.[A-Za-z]{1,5}")
# A comment that is a file's dotted name with a source or configuration file's suffix
# (`jest.config.js`, `sum.test.ts`, `.prettierrc.json`): the file the fence shows.
_FILE = re.compile(r"\.?[\w$@~]+(?:\.[\w$@~]+)*\.(?:[cm]?[jt]sx?|json[c5]?|ya?ml|toml)")

QUOTED_REASON = "named in a comment of the sample: prose, which gate 15 does not judge"


def read_comments(
    content: str, first_line: int, parser: Any, quoted: list[tuple[int, str, str]]
) -> str:
    """``content`` with its commented-out lines of code uncommented; each name a comment
    quotes in backticks added to ``quoted`` (page line, line text, name), which the reader
    lists unjudged in a fence of the product's (``first_line``: the page line of the
    fence's first line). A fence's text is read once per run by a parser that keeps what
    it derives (:meth:`~pytest_postgates.helpers.fence_parsers.CachedParser.derived`)."""
    if ("//" not in content and "/*" not in content) or (
        "`" not in content and not _CODE_LINE.search(content)
    ):
        return content  # no comment, or none that quotes a name or reads as a use
    if not isinstance(parser, CachedParser):
        return _read_comments(content, first_line, parser, quoted)

    def read() -> tuple[str, tuple[tuple[int, str, str], ...]]:
        rows: list[tuple[int, str, str]] = []
        return _read_comments(content, 0, parser, rows), tuple(rows)

    text, rows = parser.derived("comments", content, read)
    quoted.extend((first_line + row, shown, name) for row, shown, name in rows)
    return text


def _read_comments(
    content: str, first_line: int, parser: Any, quoted: list[tuple[int, str, str]]
) -> str:
    source = content.encode("utf-8")
    tree = parser.parse(source)
    lines = content.split("\n")
    code_rows: list[int] = []
    for comment in _comments(tree.root_node):
        text = source[comment.start_byte : comment.end_byte].decode("utf-8", "replace")
        row = comment.start_point[0]
        before = source[comment.start_byte - comment.start_point[1] : comment.start_byte]
        whole_line = not before.strip() and comment.end_point[0] == row
        if whole_line and text.startswith("//") and _is_code(text[2:], parser):
            code_rows.append(row)
            continue
        for offset, part in enumerate(text.split("\n")):
            for match in _QUOTED.finditer(part):
                line = row + offset
                shown = lines[line] if line < len(lines) else part
                quoted.append((first_line + line, shown, match.group(1)))
    if not code_rows:
        return content
    return uncomment_where_it_parses(
        content,
        code_rows,
        lambda rows: _uncomment(lines, rows),
        lambda text: not _breaks(text, parser),
        parses_as_written=not tree.root_node.has_error,
    )


def uncomment_where_it_parses(
    code: str,
    rows: Sequence[Row],
    uncomment: Callable[[Sequence[Row]], str],
    parses: Callable[[str], bool],
    parses_as_written: bool,
) -> str:
    """``code`` with the commented-out lines of ``rows`` uncommented (by ``uncomment``):
    all of them in a sample that does not parse as written (each line alone is code);
    else all where the sample still parses, else each that keeps it parsing alone (a line
    that is code alone may not be where it stands: an object's key, a branch cut), so long
    as together they do too; else none. Shared by the JavaScript and Python readers."""
    whole = uncomment(rows)
    if not parses_as_written or parses(whole):
        return whole
    kept = [row for row in rows if parses(uncomment([row]))]
    whole = uncomment(kept)
    return whole if parses(whole) else code


def _breaks(text: str, parser: Any) -> bool:
    return bool(parser.parse(text.encode("utf-8")).root_node.has_error)


def _comments(root: Any) -> list[Any]:
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            found.append(node)
        else:
            stack.extend(reversed(node.children))
    return found


def _is_code(text: str, parser: Any) -> bool:
    """Whether a comment's text alone is one statement of code that uses a name."""
    if not text.strip() or text.lstrip().startswith("/"):
        return False  # `///` and `////` are not commented-out code
    if _PATH.fullmatch(text.strip()) or _FILE.fullmatch(text.strip()):
        return False  # `// scripts/prompt-cache.ts`: a file's name, not a subtraction
    root = parser.parse(text.encode("utf-8")).root_node
    statements = [n for n in root.named_children if n.type != "comment"]
    if root.has_error or len(statements) != 1 or statements[0].type not in _STATEMENTS:
        return False
    stack = [statements[0]]
    while stack:
        node = stack.pop()
        if node.type in _USES:
            return True
        stack.extend(node.named_children)
    return False


def _uncomment(lines: list[str], rows: Sequence[int]) -> str:
    """The lines with the ``//`` that opens each of ``rows`` blanked."""
    out = list(lines)
    for row in rows:
        at = out[row].find("//")
        out[row] = out[row][:at] + "  " + out[row][at + 2 :]
    return "\n".join(out)
