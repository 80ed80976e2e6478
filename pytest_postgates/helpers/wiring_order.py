"""Gate 16's sequence reading of a step edge "A then B" (:func:`~.wiring_verdicts.judge_edge`):
a function that calls A and later B, the two in turn (:func:`~pytest_postgates.evidence.
model_facts.in_turn`: a call in a function written in place and stored, or a message
handler, runs in no order with the calls around it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.call_resolution import MODULE_CODE
from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls, in_turn, may_follow


class Callee(Protocol):
    """What a claim's end may be in the code (:class:`~.wiring_verdicts.Callee`)."""

    @property
    def targets(self) -> frozenset[str]: ...  # function or class qualnames

    @property
    def names(self) -> frozenset[str]: ...  # the names a dynamic call may reach it by


# The most functions of one name a sequence may match a dynamic call against.
_DISTINCTIVE = 3


def in_order(
    graph: CallGraph, first: Callee, then: Callee, diagram: frozenset[str] = frozenset()
) -> tuple[str, bool]:
    """A function that calls ``first`` and later ``then`` (by line), as evidence, and
    whether ``diagram`` names it; ("", False) when none does. One the diagram names is
    preferred. A call on a value of unknown type matches by its name alone only when the
    name is distinctive; :func:`in_order_by_name` reads the others."""
    return _ordered(graph, first, then, diagram, _names)


def in_order_through(
    graph: CallGraph, first: Callee, then: Callee, diagram: frozenset[str], depth: int
) -> str:
    """A function the diagram writes that reaches ``first`` and later ``then`` through the
    calls it makes (each within ``depth`` calls: a step flowchart's steps may sit in the
    helpers its function calls), as evidence; ""."""
    for function in graph.by_qualname.values():
        if function.name not in diagram:
            continue
        first_line = then_line = 0
        firsts: list[CallSite] = []  # (a stored function's call runs in no order: in_turn)
        for call in function.calls:
            ran = [f for f in firsts if in_turn(f.scope, call.scope)]
            if ran and _reaches(graph, call, then, depth):
                first_line, then_line = ran[0].line, call.line
                break
            firsts += [call] if _reaches(graph, call, first, depth) else []
        if first_line and then_line:
            return (
                f"`{function.name}` reaches the first through its call at "
                f"{function.path}:{first_line} and the second through its call at "
                f"{function.path}:{then_line}"
            )
    return ""


def _reaches(graph: CallGraph, call: CallSite, wanted: Callee, depth: int) -> bool:
    """Whether a call is ``wanted``, or a resolved call of a function that reaches it."""
    if _names(call.kind, call.target, call.name, wanted):
        return True
    called = graph.by_qualname.get(call.target) if call.kind == "resolved" else None
    if called is None or depth < 2:
        return False
    names = wanted.names if 0 < len(wanted.targets) <= _DISTINCTIVE else frozenset()
    return graph.reach([called], wanted.targets, names, depth - 1).found


def in_order_by_name(graph: CallGraph, first: Callee, then: Callee) -> str:
    """As :func:`in_order`, any call on a value of unknown type matching by its name (an
    `engine.execute(...)` among a command pattern's many `execute` methods): a sequence
    the graph cannot refute."""
    return _ordered(graph, first, then, frozenset(), _names_any)[0]


def in_order_maybe(graph: CallGraph, first: Callee, then: Callee) -> str:
    """As :func:`in_order`, the second call in a function written in place that is stored
    or a handler, the first in the flow around it, or the other way round
    (:func:`~pytest_postgates.evidence.model_facts.may_follow`): a sequence that runs if
    whatever holds that function calls it after the first, which the graph cannot refute."""
    return _ordered(graph, first, then, frozenset(), _names, may_follow)[0]


def _ordered(
    graph: CallGraph,
    first: Callee,
    then: Callee,
    diagram: frozenset[str],
    matches: Callable[[str, str, str, Callee], bool],
    turn: Callable[[str, str], bool] = in_turn,
) -> tuple[str, bool]:
    found = ""
    for function in graph.by_qualname.values():
        first_line = then_line = 0
        firsts: list[CallSite] = []
        for call in function.calls:
            ran = [f for f in firsts if turn(f.scope, call.scope)]
            if ran and matches(call.kind, call.target, call.name, then):
                first_line, then_line = ran[0].line, call.line
                break
            firsts += [call] if matches(call.kind, call.target, call.name, first) else []
        if first_line and then_line:
            evidence = (
                f"{_runner(function)} calls the first at {function.path}:{first_line} and the "
                f"second at {function.path}:{then_line}"
            )
            if function.name in diagram:
                return evidence, True
            found = found or evidence
    return found, False


def _runner(function: FunctionCalls) -> str:
    if function.name == MODULE_CODE:
        return f"the code of {function.path} outside any function"
    return f"`{function.name}`"


def _names_any(kind: str, target: str, name: str, wanted: Callee) -> bool:
    return _names(kind, target, name, wanted) or (
        kind in ("dynamic", "unresolved") and name in wanted.names
    )


def _names(kind: str, target: str, name: str, wanted: Callee) -> bool:
    if kind in ("resolved", "constructor"):
        return target in wanted.targets
    # By name only when the name is distinctive: a `generate()` on some value may be any
    # of the product's many generate methods.
    distinctive = 0 < len(wanted.targets) <= _DISTINCTIVE
    return kind in ("dynamic", "unresolved") and name in wanted.names and distinctive
