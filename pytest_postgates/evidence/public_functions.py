"""The functions a package's entry points hand the reader, under the name the reader calls
them by: what gate 15 judges a documented signature against when the doc's samples do not
import the name themselves (:mod:`pytest_postgates.helpers.js_signatures`).

The modules a reader reaches are the entry modules (the package's main entry and each
subpath its ``exports`` names without a pattern) and, in turn, every namespace one of them
exports (``export * as doc from``, ``import * as b`` re-exported, a CommonJS key whose value
is a required module: ``doc: require("./doc")``, ``util: sharedUtil``), through ``export *``
and through the module a ``module.exports = require(x)`` entry stands for. A name is then
looked up in each of them, as :meth:`~.api_lookup.ApiLookup.find_export` follows it, and a
CommonJS key that holds a member of a required module (``makeString: util.makeString``) is
followed too. A same-named function of a file no entry reaches (a server-side command, an
internal helper) is not reached: it is not the function a reader of the package calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pytest_postgates.evidence.api_lookup import MAX_DEPTH, ApiLookup, Binding

# A bound on the modules one package's namespaces hold (a package has a few dozen).
MAX_MODULES = 2000


@dataclass(frozen=True)
class Reached:
    """A function an entry point reaches: where it is declared, how the reader reaches it
    (``prettier.doc.builders.ifBreak``) and the modules walked from the entry to it."""

    path: str
    local: str
    via: str
    files: tuple[str, ...]


@dataclass
class PublicFunctions:
    """The namespaces a package's entry points reach, walked once; then, per name asked,
    the functions reached under it (each name looked up once). Shared by the posts of a
    run: each asks with its own view of the lookup, whose list of files read the walk
    leaves as it was (the caller marks the files of the functions a verdict uses)."""

    # (module, how the reader names it, the modules walked from the entry to it)
    modules: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    _asked: dict[str, list[Reached]] = field(default_factory=dict)

    @classmethod
    def of(cls, lookup: ApiLookup, entries: Sequence[tuple[str, str]]) -> PublicFunctions:
        """``entries``: (the specifier a reader imports, its source module)."""
        walk = cls()
        queue: list[tuple[str, str, tuple[str, ...]]] = [(m, s, (m,)) for s, m in entries]
        seen: set[str] = set()
        before = list(lookup.read)
        try:
            while queue and len(seen) < MAX_MODULES:
                module, shown, files = queue.pop(0)
                if module in seen or len(files) > MAX_DEPTH:
                    continue
                seen.add(module)
                walk.modules.append((module, shown, files))
                for name, target, through in _namespaces(lookup, module):
                    named = f"{shown}.{name}" if name else shown
                    queue.append((target, named, (*files, *through)))
        finally:
            lookup.read = before
        return walk

    def functions(self, name: str, lookup: ApiLookup) -> list[Reached]:
        """The functions reached under ``name``, the first way found first."""
        if name in self._asked:
            return self._asked[name]
        found: list[Reached] = []
        before = list(lookup.read)
        try:
            for module, shown, files in self.modules:
                resolved = _resolve(lookup, module, name, 0)
                if resolved is None or resolved[2] != "function":
                    continue
                path, local, _kind, through = resolved
                if all((r.path, r.local) != (path, local) for r in found):
                    walked = tuple(dict.fromkeys((*files, *through)))
                    found.append(Reached(path, local, f"{shown}.{name}", walked))
        finally:
            lookup.read = before
        self._asked[name] = found
        return found


def _namespaces(lookup: ApiLookup, module: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(exported name, module, modules passed) of each namespace ``module`` exports,
    through ``export *`` (the name "" for the module a CommonJS entry stands for)."""
    found: list[tuple[str, str, tuple[str, ...]]] = []
    todo: list[tuple[str, tuple[str, ...]]] = [(module, ())]
    closure: set[str] = set()
    while todo:
        path, passed = todo.pop()
        table = lookup.tables.files.get(path)
        if path in closure or table is None or len(closure) > MAX_MODULES:
            continue
        closure.add(path)
        held = {**table.required_exports,
                **{k: v for k, v in table.reexports.items() if v[1] == "*"}}  # fmt: skip
        for name, (spec, imported) in held.items():
            target = lookup.relative(path, spec)
            if target is not None and imported == "*":
                found.append(("" if name == "*" else name, target, (*passed, target)))
            elif target is not None:  # `helpers: require("./helpers").pub`: a namespace?
                inner = _resolve(lookup, target, imported, 1)
                if inner is not None and inner[2] == "namespace":
                    found.append((name, inner[0], (*passed, target, *inner[3])))
        for spec in table.stars:
            target = lookup.module_named(path, spec)
            if target is not None:
                todo.append((target, (*passed, target)))
    return found


def _resolve(
    lookup: ApiLookup, module: str, name: str, depth: int
) -> tuple[str, str, str, tuple[str, ...]] | None:
    """(path, local name, kind, the modules passed on the way) of what ``module`` exports
    as ``name``, following a CommonJS key that holds a required module's member; None for
    a name the tables cannot follow."""
    if depth > MAX_DEPTH:
        return None
    found = lookup.find_export(module, name)
    if isinstance(found, Binding) and found.kind in ("function", "namespace"):
        return found.path, found.local, found.kind, (found.path,)
    table = lookup.tables.files.get(module)
    required = table.required_exports.get(name) if table is not None else None
    target = lookup.relative(module, required[0]) if required else None
    if required is None or target is None:
        return None
    if required[1] == "*":
        return target, "*", "namespace", (target,)
    inner = _resolve(lookup, target, required[1], depth + 1)
    return (*inner[:3], (target, *inner[3])) if inner is not None else None
