"""Gate 16's claim ends that are no function: what a name a claim writes means in the code
when the call graph has no function or class of that name.

* a module (`eventSystem` for ``src/utils/eventSystem.ts``, one file of that name): the
  functions the file defines (a Vue component, ``Modal.vue``: its script's, never read
  whole as a caller, since its template may call what the script binds);
* a module-level instance (``const bus = new EventBus()``): the methods of its class, or a
  call written on it (``bus.emit(...)``);
* a value a call makes (a Zustand store, ``const useX = create((set) => ({...}))``) or an
  object literal (``export const api = { send: () => ... }``): the functions its
  initializer writes, or a call written on it (``useX.getState()``, ``useX()``).

As a caller such an end is its functions, read together: it calls Y when one of them does.
As a callee it is reached when the caller reaches one of its functions or a call written
on its name. An end that hands a function written in place to the product's code (a
listener: ``TaskEngine.on(evt, () => ...)``) may be called back by whatever holds it, so
a caller that calls a function value on the way (``cb(data)``) leaves the claim unjudged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.call_resolution import MODULE_CODE
from pytest_postgates.evidence.model_facts import ClassFacts, FunctionCalls
from pytest_postgates.helpers.wiring_names import Subject

_SOURCE_SUFFIX = re.compile(r"\.(?:pyi?|[cm]?[jt]sx?|vue)$")
_PACKAGE_FILE = re.compile(r"/(?:__init__|index)$")
_KINDS = {"new": "instance", "call": "value made by", "object": "object"}


@dataclass(frozen=True)
class End:
    """What a name that is no function means: ``what`` says so, ``functions`` are its
    functions, and ``hands`` where it hands a function to the product's code ("" none)."""

    what: str
    functions: tuple[FunctionCalls, ...]
    hands: str = ""
    # why its functions are not all known ("" when they are): it is never contradicted
    open: str = ""


def end_of(graph: CallGraph, classes: Mapping[str, list[ClassFacts]], who: Subject) -> End | None:
    """The end ``who`` names (see the module doc), None when it names a function or class
    of the product, several ends, or nothing the code shows."""
    if who.owner or who.members or graph.named(who.name) or who.name in classes:
        return None
    values = graph.values.get(who.name, [])
    if len(values) > 1:
        return None
    if values:
        value = values[0]
        where = f"{value.path}:{value.line}"
        if value.kind == "new":
            made = re.sub(r"[<\[(].*", "", value.made_by).rsplit(".", 1)[-1]
            if made not in classes:
                return None
            functions = _methods(graph, classes, made)
            what = f"`{who.name}`, the instance of `{made}` made at {where}"
        else:
            functions = [graph.by_qualname[q] for q in value.functions if q in graph.by_qualname]
            made = f" `{value.made_by}`" if value.kind == "call" else ""
            what = f"`{who.name}`, the {_KINDS[value.kind]}{made} at {where}"
        hidden = f"{what} spreads other values in, whose functions it does not show"
        return _end(what, functions, hidden if value.open else "")
    paths = [
        path
        for path in graph.by_path
        if who.name in path and module_path(path).rsplit("/", 1)[-1] == who.name
    ]
    if len(paths) != 1:
        return None
    path = paths[0]
    functions = [f for f in graph.by_path[path] if f.name != MODULE_CODE]
    what = f"`{who.name}`, the module {path}"
    # a Vue component's template calls what its script binds: not read
    template = (
        f"{what} is a Vue component whose template is not read" if path.endswith(".vue") else ""
    )
    return _end(what, functions, template)


def module_path(path: str) -> str:
    """The module a file's path is, as a path without its suffix or package file
    (`src/utils/eventSystem.ts`: `src/utils/eventSystem`; `pkg/__init__.py`: `pkg`)."""
    return _PACKAGE_FILE.sub("", _SOURCE_SUFFIX.sub("", path))


_CALLED = re.compile(r"\(\s*\)\s*$")


def is_component(graph: CallGraph, classes: Mapping[str, list[ClassFacts]], who: Subject) -> bool:
    """Whether ``who`` draws a product class as a component (`Settings`, `Settings
    (config.py)`), not a construction (`new Settings()`, `Settings()`) nor a method."""
    if who.owner or who.members or who.constructs or who.name not in classes:
        return False
    return not graph.named(who.name) and not _CALLED.search(who.text)


def _end(what: str, functions: list[FunctionCalls], open_: str = "") -> End | None:
    if not functions:
        return None
    hands = next((f"`{text}` at {f.path}:{line}" for f in functions for text, line in f.hands), "")
    return End(what, tuple(functions), hands, open_)


def _methods(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], name: str
) -> list[FunctionCalls]:
    """The methods of class ``name`` and of its product bases (an instance runs both)."""
    found: dict[str, FunctionCalls] = {}
    pending, seen = [name], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        found.update((f.qualname, f) for f in graph.methods_of(current))
        bases = [b for entry in classes.get(current, []) for b in entry.bases]
        pending += [re.sub(r"[<\[].*", "", b).rsplit(".", 1)[-1] for b in bases]
    return list(found.values())


def passed_members(graph: CallGraph, names: frozenset[str]) -> frozenset[str]:
    """Those of ``names`` the product's code passes as a member value (``bus.emit`` handed
    to a call): the functions of an end a callback parameter may be."""
    return frozenset(
        call.name
        for function in graph.by_qualname.values()
        for call in function.calls
        if call.kind == "passed" and "." in call.text and call.name in names
    )
