"""Gate 15's reading of the class names a page's Python samples use without binding them
(issue 26): ``permission_classes = [IsAuthenticated]`` with no import, as docs write a
product's classes. A free name is judged only where the same sample also uses, free, a
class of the product by its exact name (the sample takes its names from the product without
importing them): a name in CapWords that no code of the product writes and that is a near
miss of a product class is then a finding. Such a near miss in a sample that uses no
product class free is listed unjudged (the reader's own class, maybe); any other free name
is not the product's business. A call of a free name (any case) that no code of the product
writes and that is a near miss of a name the page imports from the product
(``replace_weights_loft(model)`` beside ``from kit import replace_weights_loftq``) is a
finding: the import ties the call to the product.

The names bound anywhere in the page's samples (assigned, imported, defined, parameters,
loop and comprehension targets) are no free names, whichever fence binds them. A name a
Python sample of another page of the docs defines (``class ReadOnly(BasePermission)``:
:mod:`.python_docs_names`) is the docs' own: never a finding, listed unjudged with where.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_postgates.evidence.near_miss import near_name
from pytest_postgates.helpers.python_types import PythonTypes
from pytest_postgates.helpers.python_values import Miss, PyValue, Unjudged
from pytest_postgates.helpers.sample_checks import SampleReport

_BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class FreeNames:
    """The page's free class names per fence, judged once the page is read."""

    # One entry per fence read: its first line, its CapWords loads (name -> (line, text)).
    fences: list[tuple[int, dict[str, tuple[int, str]]]] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)  # every name the page's samples bind
    # Per fence read: the names it calls bare (name -> (line, text)).
    calls: list[dict[str, tuple[int, str]]] = field(default_factory=list)
    # The names the page imports ``from`` a module, with that module's top-level name.
    imported: dict[str, str] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)  # modules the page imports ``*`` from
    unread_lines: set[int] = field(default_factory=set)  # lines of fences the reader skips
    # Per fence read: every name it loads bare, not as a member's receiver.
    loads: list[dict[str, tuple[int, str]]] = field(default_factory=list)
    # The classes and functions the docs' other pages define: name -> page:line.
    docs_defined: Mapping[str, str] = field(default_factory=dict)

    def read(self, tree: ast.Module, where: tuple[list[str], list[int], int]) -> set[str]:
        """One fence's syntax tree, in one walk; ``where``: its lines, the map of the parsed
        code's rows to them and the fence's first file line. Returns the names the tree
        loads that it does not bind itself."""
        lines, rows, first = where

        def at(lineno: int) -> tuple[int, str]:
            row = lineno - 1
            index = rows[row] if 0 <= row < len(rows) else 0
            return first + index, lines[index] if index < len(lines) else ""

        used: dict[str, tuple[int, str]] = {}
        called: dict[str, tuple[int, str]] = {}
        loaded: dict[str, tuple[int, str]] = {}
        loads: set[str] = set()
        bound: set[str] = set()  # the names this tree binds
        # The values of the members met so far: ast.walk reaches a node after its parent,
        # so a name that is a member's receiver is known as one when it is reached.
        receivers: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                receivers.add(id(node.value))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called.setdefault(node.func.id, at(node.lineno))
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if alias.name == "*":
                        self.stars.append(node.module)
                    else:
                        self.imported[alias.name] = node.module.split(".")[0]
            elif isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Load):
                    bound.add(node.id)
                    continue
                loads.add(node.id)
                if id(node) not in receivers and node.id not in loaded:
                    loaded[node.id] = at(node.lineno)
                if node.id[:1].isupper() and node.id not in used:
                    used[node.id] = at(node.lineno)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.alias):
                bound.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
        self.bound |= bound
        self.fences.append((first, used))
        self.calls.append(called)
        self.loads.append(loaded)
        return loads - bound

    def judge(
        self,
        types: PythonTypes,
        report: SampleReport,
        docs_defined: Mapping[str, str] | None = None,
    ) -> None:
        """``docs_defined``: the classes and functions the docs' samples define
        (:func:`~pytest_postgates.helpers.python_docs_names.defined_names`)."""
        if docs_defined is not None:
            self.docs_defined = docs_defined
        model = types.model
        reported: set[tuple[int, str]] = set()
        for (_first, used), called, loaded in zip(self.fences, self.calls, self.loads, strict=True):
            self._bare(types, report, loaded, called, reported)
            for name, (line, _text) in sorted(called.items()):
                if name in self.bound or name in _BUILTIN_NAMES or types.written(name):
                    continue
                if self._docs_own(report, name, line, _text, reported):
                    continue
                real = near_name(model, name)
                if real is None or self.imported.get(real) not in types.tops:
                    continue
                reported.add((line, name))
                report.count("python_name", line, name)
                nearest = list(dict.fromkeys([real, *model.nearest(name, limit=3)]))[:3]
                where = types.entries(real)[0].path if types.entries(real) else ""
                report.violation(line, "python_name", name, where,
                                 f"the page never binds {name}, and no code of the product names "
                                 f"it; it is a near miss of {real}, which the page imports from "
                                 f"{self.imported[real]}; did you mean "
                                 + " or ".join(f"`{n}`" for n in nearest) + "?",
                                 nearest)  # fmt: skip
            free = {
                name: at
                for name, at in used.items()
                if name not in self.bound and name not in _BUILTIN_NAMES and name not in types.tops
            }
            products = sorted(n for n in free if types.entries(n) and not n.startswith("_"))
            for name, (line, text) in sorted(free.items()):
                if types.written(name) or (line, name) in reported:
                    continue
                if self._docs_own(report, name, line, text, reported):
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

    def _bare(
        self,
        types: PythonTypes,
        report: SampleReport,
        loaded: dict[str, tuple[int, str]],
        called: dict[str, tuple[int, str]],
        reported: set[tuple[int, str]],
    ) -> None:
        """Every name a fence loads bare that the page never binds: judged against the
        modules the page imports ``*`` from (a name none of them has, that no code of the
        product writes, is a finding), else found among the public names of the product's
        top-level package (checked), else listed unjudged with why. Only names called or
        in CapWords (a function's or class's); builtins and a member's receiver (listed by
        the reader) aside."""
        stars = [m for m in self.stars if m.split(".")[0] in types.tops and types.is_module(m)]
        for name, (line, text) in sorted(loaded.items()):
            if name in self.bound or name in _BUILTIN_NAMES or name in types.tops:
                continue
            if name not in called and not name[:1].isupper():
                continue  # a value of the reader's (`df`, `base`), not an API name
            found = [types.module_name(m, name, name) for m in stars]
            if any(isinstance(f, PyValue) for f in found) or (
                not stars and types.top_name(name) is not None
            ):
                report.count("python_name", line, name)
                continue
            misses = [f for f in found if isinstance(f, Miss)]
            if self._docs_own(report, name, line, text, reported):
                continue
            if stars and len(misses) == len(found) and not types.written(name):
                reported.add((line, name))
                report.count("python_name", line, name)
                nearest = list(dict.fromkeys(n for f in misses for n in f.nearest))[:3]
                hint = "; did you mean " + " or ".join(f"`{n}`" for n in nearest) + "?"
                shown = ", ".join(stars)
                report.violation(line, "python_name", name, misses[0].where,
                                 f"the page imports * from {shown}, which has no public name "
                                 f"{name}, and no code of the product names it"
                                 + (hint if nearest else ""), nearest)  # fmt: skip
                continue
            if name in called and near_name(types.model, name) is not None:
                continue  # judged as a near miss below, or listed there
            why = next((f.reason for f in found if isinstance(f, Unjudged)), "")
            if not why:
                if line in self.unread_lines:
                    continue  # a fence the reader skips (no use of the product): not listed
                kind = "calls" if name in called else "uses"
                why = (f"the page's samples never bind {name}, and the product's top-level "
                       f"package exports no {name}: what the sample {kind} is not "
                       "shown")  # fmt: skip
            report.skip(line, text, f"{name}: {why}")

    def _docs_own(
        self, report: SampleReport, name: str, line: int, text: str, reported: set[tuple[int, str]]
    ) -> bool:
        """Whether another page's Python sample defines ``name`` (the docs' own: listed
        unjudged with where, once)."""
        where = self.docs_defined.get(name)
        if where is None:
            return False
        if (line, name) not in reported:
            reported.add((line, name))
            report.skip(line, text, f"{name}: the page never binds it, and a sample of the docs "
                        f"defines it ({where}): the docs' own, not the product's")  # fmt: skip
        return True
