"""Gate 15's reading of the class names a page's Python samples use without binding them
(issue 26): ``permission_classes = [IsAuthenticated]`` with no import, as docs write a
product's classes. A free name is judged only where the same sample also uses, free, a
class of the product by its exact name (the sample takes its names from the product without
importing them): a name in CapWords that no code of the product writes and that is a near
miss of a product class is then a finding. Such a near miss in a sample that uses no
product class free is listed unjudged (the reader's own class, maybe); any other free name
is not the product's business.

The names bound anywhere in the page's samples (assigned, imported, defined, parameters,
loop and comprehension targets) are no free names, whichever fence binds them.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Collection
from dataclasses import dataclass, field

from pytest_postgates.evidence.near_miss import near_name
from pytest_postgates.helpers.python_types import PythonTypes
from pytest_postgates.helpers.sample_checks import SampleReport

_BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class FreeNames:
    """The page's free class names per fence, judged once the page is read."""

    # One entry per fence read: its first line, its CapWords loads (name -> (line, text)).
    fences: list[tuple[int, dict[str, tuple[int, str]]]] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)  # every name the page's samples bind

    def read(self, tree: ast.Module, where: tuple[list[str], list[int], int]) -> None:
        """One fence's syntax tree; ``where``: its lines, the map of the parsed code's rows
        to them and the fence's first file line."""
        lines, rows, first = where
        used: dict[str, tuple[int, str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Load):
                    self.bound.add(node.id)
                elif node.id[:1].isupper() and node.id not in used:
                    row = node.lineno - 1
                    index = rows[row] if 0 <= row < len(rows) else 0
                    text = lines[index] if index < len(lines) else ""
                    used[node.id] = (first + index, text)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.bound.add(node.name)
            elif isinstance(node, ast.alias):
                self.bound.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.arg):
                self.bound.add(node.arg)
        self.fences.append((first, used))

    def judge(self, types: PythonTypes, report: SampleReport, old_way: Collection[int]) -> None:
        """``old_way``: the first lines of the fences the page shows as the old way."""
        model = types.model
        for first, used in self.fences:
            if first in old_way:
                continue
            free = {
                name: at
                for name, at in used.items()
                if name not in self.bound and name not in _BUILTIN_NAMES and name not in types.tops
            }
            products = sorted(n for n in free if types.entries(n) and not n.startswith("_"))
            for name, (line, text) in sorted(free.items()):
                if types.written(name):
                    continue
                real = near_name(model, name)
                if real is None or not types.entries(real):
                    continue
                if not products:
                    report.skip(line, text, f"{name}: the page never binds it, and the sample "
                                "uses no class of the product without an import; it may be "
                                f"the reader's own (a near miss of {real})")  # fmt: skip
                    continue
                report.count("python_name", line, name)
                shown = ", ".join(products[:3])
                nearest = list(dict.fromkeys([real, *model.nearest(name, limit=3)]))[:3]
                report.violation(line, "python_name", name, types.entries(real)[0].path,
                                 f"the sample uses the product's classes without importing "
                                 f"them ({shown}); no code of the product names {name}, a near "
                                 f"miss of its class {real}; did you mean "
                                 + " or ".join(f"`{n}`" for n in nearest) + "?",
                                 nearest)  # fmt: skip
