"""Gate 15's reading of a Python fence that shows a callable's signature as a call with
annotated parameters (``WeaviateRM(collection_name: str, k: int = 5)``, how docs show a
constructor): no Python, but a claim of which parameters the callable takes. Its name is
resolved once the page is read (the page may import it in a later fence); each parameter it
shows is then judged as a keyword of that callable. A name the product declares that the
page does not tie to it is listed unjudged; any other is not the product's business."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from pytest_postgates.helpers.python_types import PythonTypes
from pytest_postgates.helpers.python_values import Miss, PyValue
from pytest_postgates.helpers.sample_checks import SampleReport
from pytest_postgates.helpers.type_text import split_top_level

# How the sample reports a miss at a node of the fence (PythonSample._miss).
MissReporter = Callable[[ast.AST, str, str, str, Miss], None]

_HEAD = re.compile(r"^\s*([A-Za-z_][\w.]*)\(")
_PARAM = re.compile(r"^([A-Za-z_]\w*)\s*(:|=|$)")


def read_signature(content: str) -> tuple[str, list[tuple[str, int]]] | None:
    """(the callable's name, each parameter shown with its row) when the fence is a
    signature: ``Name(`` ... ``)`` with one parameter or more annotated, and not Python."""
    lines = content.strip("\n").splitlines()
    head = _HEAD.match(lines[0]) if lines else None
    if head is None or not lines[-1].rstrip().endswith(")"):
        return None
    try:
        ast.parse(content)
        return None  # Python: read as a sample
    except (SyntaxError, ValueError):
        pass
    params: list[tuple[str, int]] = []
    annotated = False
    for row, line in enumerate(lines):
        text = line[head.end() :] if row == 0 else line
        if row == len(lines) - 1:
            text = text.rstrip()[:-1]
        for piece in split_top_level(text, ",", "[]()"):
            match = _PARAM.match(piece)
            if piece.startswith(("*", "/")) or piece in ("", "self", "cls"):
                continue
            if match is None:
                return None
            annotated = annotated or match.group(2) == ":"
            params.append((match.group(1), row))
    return (head.group(1), params) if params and annotated else None


def judge_signature(
    held: PyValue | None,
    name: str,
    params: list[tuple[str, int]],
    where: tuple[list[str], int],
    reading: tuple[PythonTypes, SampleReport, MissReporter],
) -> None:
    """The parameters a signature fence shows for ``name`` (``held``: what the page's
    samples make of it; ``where``: the fence's lines and first file line), judged against
    what the product's callable of that name takes."""
    lines, first = where
    types, report, report_miss = reading
    if held is None or held.kind not in ("class", "callable"):
        if types.model.declares(name.rsplit(".", 1)[-1]):
            report.skip(first, lines[0], f"{name}: the fence shows its signature, but "
                               "the page does not tie it to the product")  # fmt: skip
        return
    if held.kind == "class":
        made = types.constructor(held.name)
        if made.problem:
            report.skip(first, lines[0], f"{name}(...): {made.problem}")
            return
        accepted, open_ = types.taken(made.callables)
        accepted |= made.fields or frozenset()
    else:
        accepted, open_ = types.taken(held.callables)
    for param, row in params:
        line = first + row
        if param in accepted:
            report.count("keyword", line, param)
        elif open_:
            report.skip(line, lines[row], f"{name}({param}=): {name} accepts **kwargs")
        else:
            report.count("keyword", line, param)
            miss = Miss(param, name, tuple(types.model.nearest(param, accepted)))
            at = ast.Name(id=param, lineno=row + 1, col_offset=0)
            report_miss(at, "keyword_argument", f"{name}({param}=)",
                         f"the signature the page shows names a parameter {param} that "
                         f"{name}() does not take", miss)  # fmt: skip
