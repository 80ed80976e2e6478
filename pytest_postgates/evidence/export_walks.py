"""The walk :meth:`~pytest_postgates.evidence.api_lookup.ApiLookup.find_export` makes
through a module's ``export *`` chains, made once per run for every name asked of it.

``find_export(path, name)`` visits the module, then each ``export *`` target depth first,
until one has the name (exports, re-exports, members its exports are handed, an ``export
=`` value's) or cannot be read; every module it visits marks its file read (and the
modules its exports are handed to). Which modules it visits, in which order, and what
each marks, do not depend on the name (but for ``default``, which ``export *`` never
re-exports): the walk is made once per module asked (:func:`walk`, kept in the lookup's
shared answers), and a name's answer (:func:`find`) is the files the walk marks before
the first module that stops it, marked in that order, then that module's own look
(``ApiLookup._find`` at it, the modules visited before it seen), as the walk itself gives
them. A name no module has stops nowhere: not exported, every file of the walk marked
(:func:`absent`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol


class Lookup(Protocol):
    """What the walk asks of :class:`~pytest_postgates.evidence.api_lookup.ApiLookup`
    (which imports this module): its files read, shared answers and tables."""

    read: list[str]
    shared: dict[Any, Any]

    def table(self, path: str) -> Any: ...

    def module_named(self, path: str, spec: str) -> str | None: ...

    def _handed_members(self, path: str, table: Any) -> Any: ...

    def _equals_members(self, path: str, table: Any) -> Any: ...

    def _find(self, path: str, name: str, seen: set[tuple[str, str]], depth: int,
              declared: bool = False) -> Any: ...  # fmt: skip

    def _mark(self, paths: tuple[str, ...]) -> None: ...


@dataclass(frozen=True)
class Walk:
    """The walk from one module: ``steps`` in visiting order, each (module, depth, the
    number of files marked before it, the reason it stops every name or "" when it
    stops only the names it has); ``first``: each name -> the step that has it first;
    ``marked``: every file the walk marks, in order."""

    steps: tuple[tuple[str, int, int, str], ...]
    first: dict[str, int]
    marked: tuple[str, ...]


_ENTER, _PENDING = "", "pending:"


def walk(lookup: Lookup, path: str, declared: bool, max_depth: int) -> Walk:
    """The walk of ``ApiLookup._find`` from ``path`` for a name no module has (its
    ``depth`` 0), recorded; kept for the run in the lookup's shared answers."""
    key = ("export walk", path, declared)
    kept: Walk | None = lookup.shared.get(key)
    if kept is None:
        before, lookup.read = lookup.read, []
        try:
            kept = lookup.shared[key] = _walked(lookup, path, declared, max_depth)
        finally:
            lookup.read = before
    return kept


def _walked(lookup: Lookup, root: str, declared: bool, max_depth: int) -> Walk:
    steps: list[tuple[str, int, int, str]] = []
    first: dict[str, int] = {}
    seen: set[str] = set()

    def has(names: Iterable[str]) -> None:
        for name in names:
            first.setdefault(name, len(steps) - 1)

    def visit(path: str, depth: int) -> bool:  # True: the walk stops here for every name
        if path in seen or depth > max_depth:
            return False
        seen.add(path)
        steps.append((path, depth, len(lookup.read), _ENTER))
        table = lookup.table(path)
        if table is None:
            return _stop(steps, "unread")
        has(table.exports)
        has(table.reexports)
        if table.handed_exports:
            handed = lookup._handed_members(path, table)
            if not isinstance(handed, set):  # Unknown
                return _stop(steps, "handed")
            has(handed)
        if table.export_equals is not None and not (declared and table.commonjs_shim):
            members = lookup._equals_members(path, table)
            if not isinstance(members, set):  # Unknown
                return _stop(steps, "equals")
            has(members)
        pending: list[str] = []
        for spec in table.stars:
            target = lookup.module_named(path, spec)
            if target is None:
                pending.append(spec)
            elif visit(target, depth + 1):
                return True
        if pending:
            steps.append((path, depth, len(lookup.read), _PENDING + pending[0]))
            return True
        return False

    visit(root, 0)
    return Walk(tuple(steps), first, tuple(lookup.read))


def _stop(steps: list[tuple[str, int, int, str]], why: str) -> bool:
    path, depth, before, _ = steps[-1]
    steps[-1] = (path, depth, before, why)
    return True


def find(lookup: Lookup, path: str, name: str, declared: bool, max_depth: int) -> Any:
    """``lookup._find(path, name, set(), 0, declared)``, the same answer and the same
    files marked in the same order, from the module's :func:`walk` (``max_depth``: the
    walk's, ``api_lookup.MAX_DEPTH``)."""
    if name == "default":
        return lookup._find(path, name, set(), 0, declared)
    done = walk(lookup, path, declared, max_depth)
    at = done.first.get(name, len(done.steps))
    stop = next((i for i, step in enumerate(done.steps[:at]) if step[3]), None)
    at = at if stop is None else stop
    if at == len(done.steps):
        lookup._mark(done.marked)
        return None
    module, depth, before, why = done.steps[at]
    if why.startswith(_PENDING):  # its targets walked, none has it: it names one outside
        return lookup._find(path, name, set(), 0, declared)  # (rare) the walk says why
    lookup._mark(done.marked[:before])
    seen = {(step[0], name) for step in done.steps[:at]}
    found = lookup._find(module, name, seen, depth, declared)
    if found is None:
        # A re-export of the name whose module lacks it: the walk goes on past it, with
        # what that look saw (the marks so far are the walk's own, in its order).
        return lookup._find(path, name, set(), 0, declared)
    return found
