"""The call graph's functions written inside a JavaScript/TypeScript function: a named local
function (``function save() {}``, ``const save = () => ...`` written in a component's
``setup()``, a hook, a factory that returns ``{ save, load }``) is a node of its own,
qualified by the top-level function it is written in (``<file>.setup@12.<locals>.save``),
with the calls its body makes (those of the functions written in it included, as a
top-level function holds all of its own). The enclosing function keeps every call too.

A name a local function calls is resolved by its closure first: another local function of
the same top-level function (the only one of that name there) is that function; a name one
of the functions around the call takes as a parameter, or a local the top-level function
declares, is a callback (:data:`~.call_resolution.CALLBACK`: whatever it holds, never a
module function of the same name); a local function's name written twice in one top-level
function is opaque (either may be meant). Only other names go on to the file's scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pytest_postgates.evidence.call_flow import Marks, arm_path, flow_bits
from pytest_postgates.evidence.call_resolution import (
    RawCall,
    RawFunction,
    settled,
)

# The declarations that make a local function (the reader's own ``_LOCALS``).
_DECLARED = frozenset(
    {"variable_declarator", "function_declaration", "generator_function_declaration"}
)
_FUNCTION_KINDS = frozenset(
    {"arrow_function", "function_expression", "function", "function_declaration"}
    | {"generator_function", "generator_function_declaration", "method_definition"}
)


class _Local:
    """One local function: its byte range, the start of the closure that is its body, and
    what the call graph records of it."""

    def __init__(self, node: Any, body: Any, function: RawFunction) -> None:
        self.start, self.end = node.start_byte, node.end_byte
        self.body = body.start_byte
        self.node = node
        self.function = function

    def holds(self, byte: int) -> bool:
        return bool(self.start <= byte < self.end)


class LocalFunctions:
    """The local functions of one file's top-level functions, filled as the reader goes."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.by_top: dict[int, list[_Local]] = {}  # top-level function's index -> locals

    def add(self, node: Any, name: str, at: int, top: RawFunction, made: RawFunction) -> bool:
        """Record ``node`` (a local function named ``name`` inside the top-level function
        ``at``) as ``made``; False when it is no declaration of a local function."""
        if node.type not in _DECLARED or not name:
            return False
        value = node.child_by_field_name("value")
        body = value if node.type == "variable_declarator" and value is not None else node
        qualname = f"{top.qualname}.<locals>.{name}"
        self.by_top.setdefault(at, []).append(_Local(node, body, replace(made, qualname=qualname)))
        return True

    def around(self, at: int, byte: int) -> list[_Local]:
        """The local functions of top-level function ``at`` whose range holds ``byte``."""
        return [local for local in self.by_top.get(at, ()) if local.holds(byte)]

    def take(self, at: int, byte: int, call: RawCall, marks: Marks) -> None:
        """Give a call made at ``byte`` inside top-level function ``at`` to the local
        functions holding it, its scope cut to the closures inside each and its flow to
        the loops, branches and arguments inside each (``marks``: :mod:`.call_flow`)."""
        for local in self.around(at, byte):
            kept = [t for t in call.scope.split("/") if t and int(t.split(":", 1)[0]) > local.body]
            flow, arms = flow_bits(marks, local.body, call.line), arm_path(marks, local.body)
            local.function.calls.append(replace(call, scope="/".join(kept), flow=flow, arms=arms))

    def take_message(self, at: int, byte: int, sent: Any, listened: Any) -> None:
        for local in self.around(at, byte):
            local.function.sends += [sent] if sent is not None else []
            local.function.listens += [listened] if listened is not None else []

    def take_switch(self, at: int, byte: int, switch: tuple[str, int]) -> None:
        for local in self.around(at, byte):
            local.function.switches.append(switch)

    def take_hands(self, at: int, top: RawFunction) -> None:
        """The product calls handed a function written in place, by line."""
        for local in self.by_top.get(at, ()):
            first, last = local.node.start_point[0] + 1, local.node.end_point[0] + 1
            local.function.hands += [h for h in top.hands if first <= h[1] <= last]

    def finish(
        self,
        at: int,
        top: RawFunction,
        top_node: Any,
        params: list[Any],
        names: Callable[[Any], set[str]],
    ) -> list[RawFunction]:
        """The local functions of top-level function ``at`` with their names settled (see
        the module doc); the top-level function's own calls of them resolved too."""
        locals_ = self.by_top.get(at, [])
        if not locals_:
            return []
        counts: dict[str, int] = {}
        for local in locals_:
            counts[local.function.name] = counts.get(local.function.name, 0) + 1
        named = {
            local.function.name: local.function.qualname
            for local in locals_
            if counts[local.function.name] == 1
        }
        twice = {name for name, count in counts.items() if count > 1}
        text = self.source[top_node.start_byte : top_node.end_byte].decode("utf-8", "replace")
        top.calls = [settled(c, named, twice, _nothing) for c in top.calls]
        for local in locals_:
            given = _given(local, params, names)
            local.function.calls = [
                settled(c, named, twice, _closure(given, text)) for c in local.function.calls
            ]
        return [local.function for local in locals_]


def _given(local: _Local, params: list[Any], names: Callable[[Any], set[str]]) -> frozenset[str]:
    """The parameter names of the functions around ``local``, of its own and of the
    functions written in it (a call in one of those is ``local``'s too)."""
    found: set[str] = set()
    for node in params:
        holder = node.parent  # the function a parameter list (or an arrow's one) belongs to
        if holder is None or holder.type not in _FUNCTION_KINDS:
            continue
        around = holder.start_byte <= local.start and local.end <= holder.end_byte
        inside = local.start <= holder.start_byte and holder.end_byte <= local.end
        if around or inside:
            found |= names(node)
    return frozenset(found)


def _nothing(name: str) -> bool:
    return False  # the top-level function: its own parameters the reader settles


def _closure(given: frozenset[str], text: str) -> Callable[[str], bool]:
    """Whether a local function takes a name from its closure (a callback there)."""
    return lambda name: name in given or _declares(text, name)


def _declares(text: str, name: str) -> bool:
    """Whether a function's text declares ``name`` (``const name``, ``let { name }``,
    ``function name``): a local of its closure, which may hold any function."""
    word = re.escape(name)
    return bool(
        re.search(rf"\b(?:const|let|var|function\*?|class)\s+{word}\b", text)
        or re.search(rf"\b(?:const|let|var)\s*[\[{{][^=;]*?\b{word}\b", text)
    )
