"""Gate 15's reading of the Sphinx autodoc directives a Markdown page runs through MyST
(``:::{eval-rst}`` or a backtick ``{eval-rst}`` fence): ``.. autoclass:: httpcore.Transport``
with ``:members: arequest, aclose`` says the product has that class and that each member
listed is one of its own (Sphinx documents them from the code). The path is judged as a
sample's module attribute is, each member listed as a member of what the path names; a
special member (``__aiter__``) is listed unjudged."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from pytest_postgates.post import Post

if TYPE_CHECKING:
    from pytest_postgates.helpers.python_samples import PythonSample

_OPEN = re.compile(r"^\s*(:{3,}|`{3,})\s*\{eval-rst\}\s*$")
_DIRECTIVE = re.compile(
    r"^\s*\.\.\s+auto(?:class|exception|module|function)::\s*([A-Za-z_][\w.]*)\s*$"
)
_OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")


def rst_blocks(post: Post) -> list[tuple[int, list[str]]]:
    """Each ``{eval-rst}`` block of the page: its first content line and its lines."""
    blocks: list[tuple[int, list[str]]] = []
    lines = post.lines
    index = post.body_start_line - 1
    while index < len(lines):
        opened = _OPEN.match(lines[index])
        index += 1
        if opened is None:
            continue
        marker = opened.group(1)
        end = index
        while end < len(lines) and not lines[end].strip().startswith(marker):
            end += 1
        blocks.append((index + 1, lines[index:end]))
        index = end + 1
    return blocks


def judge_autodoc(sample: PythonSample, first: int, lines: list[str]) -> None:
    """The autodoc directives of one block (``first``: its first file line) that name a
    module of the product: the path, then each member its ``:members:`` option lists."""
    for row, line in enumerate(lines):
        found = _DIRECTIVE.match(line)
        if found is None or found.group(1).split(".")[0] not in sample.types.tops:
            continue
        sample._lines, sample._map, sample._first = lines, list(range(len(lines))), first
        node = ast.parse(found.group(1), mode="eval").body
        ast.increment_lineno(node, row)
        held = sample.value(node)
        below = row + 1
        while below < len(lines) and (option := _OPTION.match(lines[below])):
            if option.group(1) == "members" and held is not None:
                for name in (n.strip() for n in option.group(2).split(",")):
                    if not name.isidentifier():
                        continue
                    if name.startswith("__") and name.endswith("__"):
                        sample.report.skip(first + below, lines[below].strip(),
                                           f"{found.group(1)}.{name}: a special member, "
                                           "not judged")  # fmt: skip
                        continue
                    member = ast.Attribute(value=node, attr=name, ctx=ast.Load())
                    member.lineno = below + 1
                    sample.attribute(held, member)
            below += 1
