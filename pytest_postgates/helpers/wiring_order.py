"""Gate 16's sequence reading of a step edge "A then B" (:func:`~.wiring_verdicts.judge_edge`):
a function one run of which may call A and then B: A's call written before B's, the two in
turn (:func:`~pytest_postgates.evidence.model_facts.in_turn`: a call in a function written
in place and stored, or a message handler, runs in no order with the calls around it) and
not in different arms of one conditional (:func:`~pytest_postgates.evidence.call_flow.
exclusive`: ``if (x) a(); else b();`` never runs both), nor A in an arm that may leave before B
(:func:`~pytest_postgates.evidence.call_flow.leaves_first`: ``if (x) { a(); return; } b();``),
or the two in one loop, whose
later passes run A before B whatever their lines (:func:`~pytest_postgates.evidence.
call_flow.share_loop`). A sequence only exclusive arms write is left unjudged
(:func:`in_order_exclusive`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pytest_postgates.evidence.call_flow import (
    ARGUMENT,
    BRANCH,
    CLOSURE,
    LOOP,
    exclusive,
    held_from,
    leaves_first,
    share_loop,
)
from pytest_postgates.evidence.call_graph import DYNAMIC_FANOUT, CallGraph
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
    name is distinctive; :func:`in_order_by_name` reads the others. Two calls in
    different arms of one conditional are no sequence; two in one loop are, in either
    order."""
    return _ordered(graph, first, then, diagram, _names, strict=True)


def in_order_exclusive(graph: CallGraph, first: Callee, then: Callee) -> str:
    """A function that calls ``first`` and later ``then`` by line, but only in different
    arms of one conditional (:func:`~.call_flow.exclusive`), as evidence; "". No run of
    it calls both: a sequence the graph neither shows nor refutes."""
    for function in graph.by_qualname.values():
        firsts: list[CallSite] = []
        for call in function.calls:
            if _names(call.kind, call.target, call.name, then):
                ran = [f for f in firsts if _apart(f, call)]
                if ran:
                    return (
                        f"{_runner(function)} calls the first at {function.path}:"
                        f"{ran[0].line} and the second at {function.path}:{call.line}, "
                        "but in different arms of one conditional (if/else, switch cases, "
                        "a ternary's arms, try and catch), which no run takes both of, or "
                        "the first in an arm that may return, throw or break before the second"
                    )
            if _names(call.kind, call.target, call.name, first):
                firsts.append(call)
    return ""


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
            ran = [f for f in firsts if in_turn(f.scope, call.scope) and not _apart(f, call)]
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


def out_of_order(
    graph: CallGraph,
    first: Callee,
    then: Callee,
    diagram: frozenset[str],
    ends: frozenset[str],
    depth: int,
) -> tuple[str, str]:
    """Whether the flow the diagram draws runs ``then`` before ``first`` on every path:
    (the evidence, "") when it does, ("", why it is not shown) otherwise (why "" when no
    function it draws runs both). Shown when the diagram draws functions (no end, no
    module code) that may reach both within ``depth`` calls (its runners), and each
    runner, read in full, reaches them only through calls of its own straight-line body
    (:func:`straight_reversed`)."""
    shown: list[str] = []
    ends_ = (first, then)
    reaching = (_Reaching(graph, first, depth), _Reaching(graph, then, depth))
    for function in graph.by_qualname.values():
        if function.name not in diagram or function.name in ends or function.name == MODULE_CODE:
            continue
        if not all(graph.reach([function], e.targets, e.names, depth, True).found for e in ends_):
            continue  # reaches neither end (a cheap test before each call's)
        firsts = [c for c in function.calls if reaching[0].may(c)]
        thens = [c for c in function.calls if reaching[1].may(c)] if firsts else []
        if not firsts or not thens:
            continue  # no runner of the flow
        why = straight_reversed(graph, function, (firsts, thens), (first, then), depth)
        if why:
            return "", f"`{function.name}` ({function.path}:{function.line}) runs both, but {why}"
        shown.append(
            f"`{function.name}` ({function.path}:{function.line}), which the diagram draws, "
            f"calls the second at {function.path}:{thens[-1].line} and the first only after "
            f"it, at {function.path}:{firsts[0].line}, each once on its one straight path "
            "(no loop, branch or function written in place around either)"
        )
    return "; ".join(shown), ""


def straight_reversed(
    graph: CallGraph,
    function: FunctionCalls,
    calls: tuple[list[CallSite], list[CallSite]],
    ends: tuple[Callee, Callee],
    depth: int,
) -> str:
    """Why ``function`` may run the first end before the second, "" when it cannot: its
    calls that may reach the first (``calls[0]``) all come, by line, after those that may
    reach the second (``calls[1]``), each in the function's own straight-line code (no
    loop, branch or call's arguments around it, no function written in place), no call
    may reach both, the body was read in full, it does not call itself, nothing it runs
    within ``depth`` calls may call either unseen (:meth:`~.CallGraph.opaque`) or sends a
    message (whose handlers the graph does not put in its calls), and it reaches no
    function that may run the two in order."""
    firsts, thens = calls
    names = ends[0].names | ends[1].names
    if not function.complete:
        return "its body was read with syntax errors"
    both = [c for c in firsts if c in thens]
    if both:
        return f"its call `{both[0].text}` at {function.path}:{both[0].line} may reach both"
    last = max(c.line for c in thens)
    for call in (*thens, *firsts):
        # a first in the arguments of a call written no later than a second: maybe its
        held = call in firsts and held_from(call.line, call.flow) <= last
        why = _off_path(call, held)
        if why:
            return f"`{call.text}` at {function.path}:{call.line} {why}"
    if min(c.line for c in firsts) <= max(c.line for c in thens):
        first_line, then_line = min(c.line for c in firsts), max(c.line for c in thens)
        return (
            f"it may reach the first at {function.path}:{first_line} and the second at "
            f"{function.path}:{then_line}"
        )
    looped = graph.reach([function], frozenset({function.qualname}), frozenset(), depth, True)
    if looped.found:
        return f"it may call itself ({looped.hops[-1].where()}): its calls may repeat"
    hop = graph.opaque([function], depth, names)
    if hop is not None:
        return f"it runs `{hop.call.text}` at {hop.where()}, which may call either unseen"
    for _hops, sender, site in graph.sending([function], depth):
        # a message's handlers run where it is sent (an emitter calls its listeners in place)
        return f"it sends `{site[3]}` at {sender.path}:{site[4]}, whose handlers may run either"
    ordering = frozenset(
        f.qualname for f in graph.by_qualname.values() if _may_run_in_order(f, *ends)
    )
    hops = graph.reach([function], ordering, frozenset(), _FAR, True).hops
    if hops:
        return (
            f"it reaches `{hops[-1].call.text}` ({hops[-1].where()}), which may run them in order"
        )
    return ""


def _off_path(call: CallSite, held: bool) -> str:
    """Why a call may run other than once, in the order written: "" when it sits in its
    function's own straight-line code (in another call's arguments too, unless ``held``:
    that call may be one that must run after it)."""
    if call.scope:
        return "runs in a function written in place (it may run later, or again)"
    if call.flow & LOOP:
        return "is in a loop (from its second pass a call written before it runs after it)"
    if call.flow & BRANCH:
        return "is in a branch that may not run"
    if call.flow & ARGUMENT and held:
        return "is in another call's arguments (which run before that call)"
    if call.flow & CLOSURE:
        return "runs in a function written in place (it may run later, or again)"
    return ""


class _Reaching:
    """Whether a call may be ``wanted`` (by its name alone where the model does not
    resolve it), or lead to it within ``depth`` calls, dynamic ones followed to the
    functions of their name when few bear it; each callee asked once."""

    def __init__(self, graph: CallGraph, wanted: Callee, depth: int) -> None:
        self.graph, self.wanted, self.depth = graph, wanted, depth
        self.known: dict[tuple[str, str, str], bool] = {}

    def may(self, call: CallSite) -> bool:
        key = (call.kind, call.target, call.name)
        if key not in self.known:
            self.known[key] = self._may(call)
        return self.known[key]

    def _may(self, call: CallSite) -> bool:
        graph, wanted = self.graph, self.wanted
        if call.kind == "passed":
            return False
        if _names_any(call.kind, call.target, call.name, wanted) or (
            call.kind in ("opaque", "callback") and call.name in wanted.names
        ):
            return True
        if self.depth < 2:
            return False
        if call.kind == "resolved":
            called = [graph.by_qualname[call.target]] if call.target in graph.by_qualname else []
        elif call.kind in ("dynamic", "unresolved") and call.name:
            named = graph.named(call.name)
            called = named if len(named) <= DYNAMIC_FANOUT else []
        else:
            called = []
        names, depth = wanted.names, self.depth - 1
        return bool(called) and graph.reach(called, wanted.targets, names, depth, True).found


# How far a drawn runner is followed for a function that may run the two in order.
_FAR = 12


def _may_run_in_order(function: FunctionCalls, first: Callee, then: Callee) -> bool:
    """Whether ``function``'s body may call ``first`` and then ``then`` (by a call's name
    alone where the model does not resolve it), whatever their scopes: on a later line,
    or again after it (:func:`_repeats`)."""
    firsts = [c for c in function.calls if _names_any(c.kind, c.target, c.name, first)]
    thens = [c for c in function.calls if _names_any(c.kind, c.target, c.name, then)]
    return any(b.line > a.line or _repeats(function, a, b) for a in firsts for b in thens if a != b)


def in_order_again(graph: CallGraph, first: Callee, then: Callee) -> str:
    """A function that calls ``then`` no later than ``first`` by line, where the two may
    still run in that order (:func:`_repeats`), as evidence; "". The line order misses
    it: a sequence the graph cannot refute."""
    for function in graph.by_qualname.values():
        firsts = [c for c in function.calls if _names_any(c.kind, c.target, c.name, first)]
        if not firsts:
            continue
        for b in (c for c in function.calls if _names_any(c.kind, c.target, c.name, then)):
            for a in firsts:
                why = _repeats(function, a, b) if b.line <= a.line and a != b else ""
                if why:
                    return (
                        f"{_runner(function)} calls the second at {function.path}:{b.line} "
                        f"and the first at {function.path}:{a.line}, {why}"
                    )
    return ""


def _repeats(function: FunctionCalls, a: CallSite, b: CallSite) -> str:
    """Why call ``a`` may run before call ``b`` of one function although ``b`` is written
    first: both in a loop, both in a function written in place that may run again, ``a``
    in the arguments of a call (``b``'s, maybe), or the function calling itself; "" (and
    "" when the two are in no turn at all: :func:`~.model_facts.in_turn`)."""
    if not in_turn(b.scope, a.scope):
        return ""
    if a.flow & b.flow & LOOP:
        return "both in a loop, which runs the first before the second from its second pass"
    if a.flow & ARGUMENT and b.line >= held_from(a.line, a.flow):
        return "the first in a call's arguments, which run before that call"
    if (a.flow & b.flow & CLOSURE) or _shared_closure(a.scope, b.scope):
        return "both in a function written in place, which may run more than once"
    if any(c.kind == "resolved" and c.target == function.qualname for c in function.calls):
        return "in a function that calls itself"
    return ""


def _shared_closure(first: str, then: str) -> bool:
    """Whether two calls' scopes share the function written in place they run in."""
    ours, theirs = first.split("/") if first else [], then.split("/") if then else []
    return bool(ours and theirs and ours[0] == theirs[0])


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
    strict: bool = False,
) -> tuple[str, bool]:
    """A function that calls ``first`` and later ``then`` (``strict``: not in different
    arms of one conditional, or in either order in one loop), as evidence, and whether
    ``diagram`` names it."""
    found = ""
    for function in graph.by_qualname.values():
        first_line = then_line = 0
        firsts: list[CallSite] = []
        for call in function.calls:
            ran = [
                f
                for f in firsts
                if turn(f.scope, call.scope) and not (strict and _never_then(f.arms, call.arms))
            ]
            if ran and matches(call.kind, call.target, call.name, then):
                first_line, then_line = ran[0].line, call.line
                break
            firsts += [call] if matches(call.kind, call.target, call.name, first) else []
        looped = _looped(function, first, then, matches) if strict and not then_line else None
        if looped is not None:
            evidence = (
                f"{_runner(function)} calls the second at {function.path}:{looped[1].line} "
                f"and the first at {function.path}:{looped[0].line}, both in a loop, whose "
                "later passes run the first before the second"
            )
        elif first_line and then_line:
            evidence = (
                f"{_runner(function)} calls the first at {function.path}:{first_line} and the "
                f"second at {function.path}:{then_line}"
            )
        else:
            continue
        if function.name in diagram:
            return evidence, True
        found = found or evidence
    return found, False


def _looped(
    function: FunctionCalls,
    first: Callee,
    then: Callee,
    matches: Callable[[str, str, str, Callee], bool],
) -> tuple[CallSite, CallSite] | None:
    """A call of ``first`` and one of ``then`` written no later than it, the two in turn
    and in one loop of ``function``'s (:func:`~.call_flow.share_loop`); None."""
    calls = function.calls
    for at, b in enumerate(calls):
        if not b.arms or not matches(b.kind, b.target, b.name, then):
            continue
        for a in calls[at + 1 :]:
            if (
                a.arms
                and matches(a.kind, a.target, a.name, first)
                and in_turn(b.scope, a.scope)
                and share_loop(b.arms, a.arms)
                and not leaves_first(a.arms, b.arms)
            ):
                return a, b
    return None


def _apart(first: CallSite, then: CallSite) -> bool:
    """Whether two calls in turn sit in different arms of one conditional."""
    return in_turn(first.scope, then.scope) and _never_then(first.arms, then.arms)


def _never_then(first: str, then: str) -> bool:
    """Whether no run of a function reaches its call with ``arms`` ``then`` after the one
    with ``first`` written before it: the two in different arms of one conditional, or
    the first in an arm that may leave (return, throw, break) before the second."""
    return exclusive(first, then) or leaves_first(first, then)


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
