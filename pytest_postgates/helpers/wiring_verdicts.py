"""Gate 16's judgement of one wiring claim against the API model's call graph.

A call claim ``X calls Y`` is

* ``verified`` when X's body calls Y (the call resolved to Y, or a call on a value of
  unknown type named like Y), or reaches Y through resolved calls within the depth;
* ``contradicted`` when both ends are the product's, X's body was read in full and no
  path of at most ``depth`` calls leads from X to Y, not even through dynamic dispatch
  followed to the functions of its name (a name only a few functions have);
* ``unjudged`` otherwise, with the reason (a name the model does not know, a body read
  with syntax errors, a path that exists only through dynamic dispatch, a call within the
  depth whose callee the code computes: ``handlers[kind]()``, ``getattr(o, name)()``, a
  callback parameter, a wrapping decorator).

A bare method name several classes define is read as the method of the classes the post
names, when those name one body (a post about `TogetherAIProvider` means its inherited
`executeStream`), else as the one function of that name in the files the post names (a
page about the `attribute` module means its `set_attribute`); otherwise a name whose
classes disagree is unjudged.

A flowchart edge ``A --> B`` is a call edge: verified like a call claim, or as a sequence
(a function calls A, then B, on one run: not in exclusive arms of one conditional; unjudged
when only such arms write them in order); contradicted when neither holds (and no function may run
them in order otherwise: in a loop, a recursion, :func:`~.wiring_order.in_order_again`),
or when only a function the diagram does not draw runs the two in order and the functions
it draws that run both run them the other way on every path
(:func:`~.wiring_order.out_of_order`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_postgates.evidence.call_graph import CallGraph, Hop, Reach
from pytest_postgates.evidence.call_resolution import CLASS_BODY
from pytest_postgates.evidence.model_facts import ClassFacts, FunctionCalls
from pytest_postgates.helpers import wiring_messages as messages
from pytest_postgates.helpers.wiring_ends import end_of, is_component, module_path, passed_members
from pytest_postgates.helpers.wiring_order import (
    in_order,
    in_order_again,
    in_order_by_name,
    in_order_exclusive,
    in_order_maybe,
    in_order_through,
    out_of_order,
)
from pytest_postgates.helpers.wiring_subjects import Subject

_CONSTRUCTORS = ("constructor", "__init__")
_LISTED = 4  # callees named in a contradiction's "X calls A, B and C"


@dataclass(frozen=True)
class Judged:
    verdict: str  # verified | contradicted | unjudged
    evidence: str
    instead: str = ""  # what the caller calls instead (a contradicted claim)


@dataclass(frozen=True)
class Callee:
    """What a claim's callee may be in the code: function or class qualnames, and the
    names a call on a value of unknown type may reach it by."""

    targets: frozenset[str]
    names: frozenset[str]
    # A class's own methods: "X delegates to C" holds when X calls into an instance of C
    # (`DEFAULT_CONFIG.evaluate(...)`), which the graph may not resolve to C.
    methods: frozenset[str] = frozenset()
    # An end that is no function (:mod:`.wiring_ends`) handing a function to the
    # product's code: where ("" none).
    hands: str = ""
    # An end that is no function: its functions the code passes as a member value
    # (`bus.emit` handed over), the only ones a callback parameter may be.
    end: bool = False
    passed: frozenset[str] = frozenset()
    open: str = ""  # why its functions are not all known: never contradicted


def _place(function: FunctionCalls) -> str:
    return f"{function.path}:{function.line}"


# Declaration files: their functions have no bodies (`def f(x): ...`), so they say
# nothing of what the function calls (pyright vendors typeshed's stubs of the stdlib).
_STUB_SUFFIXES = (".pyi", ".d.ts", ".d.mts", ".d.cts")


def callers(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], who: Subject
) -> list[FunctionCalls] | str:
    """The product functions ``who`` names (a class: its methods) that have bodies, or
    why none."""
    found = _named_callers(graph, classes, who)
    if isinstance(found, str):
        return found
    bodies = [f for f in found if not f.path.endswith(_STUB_SUFFIXES)]
    if not bodies:
        return (
            f"`{who.text}` is declared only in stub files ({_place(found[0])}), which hold "
            "no body to say what it calls"
        )
    return bodies


def _named_callers(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], who: Subject
) -> list[FunctionCalls] | str:
    if who.owner and graph.methods_of(who.owner):
        found = graph.named(who.name, who.owner)
        return found or f"`{who.owner}` has no method `{who.name}` in the product's code"
    if who.constructs or (who.name in classes and not who.called):
        methods = _class_methods(graph, classes, who.name)
        return methods or f"the product's class `{who.name}` has no method bodies to read"
    found = graph.named(who.name)
    if found:
        return found
    if who.name in classes:
        return _class_methods(graph, classes, who.name) or (
            f"`{who.name}` has no method bodies to read"
        )
    end = end_of(graph, classes, who)
    if end is not None:
        return end.open or list(end.functions)
    return f"`{who.text}` is no function or method of the product's code"


def _class_methods(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], name: str
) -> list[FunctionCalls] | str:
    """The methods of class ``name``; a class with none but its body's code
    (:data:`CLASS_BODY`) that has a product base runs the base's: not read here."""
    methods = graph.methods_of(name)
    if methods and all(m.name == CLASS_BODY for m in methods):
        bases = [
            re.sub(r"[<\[].*", "", b).rsplit(".", 1)[-1] for c in classes[name] for b in c.bases
        ]
        inherits = [b for b in bases if b in classes and b != name]
        if inherits:
            return f"`{name}` has no method of its own; it runs those of its base `{inherits[0]}`"
    return methods


def callee(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], what: Subject
) -> Callee | None:
    """What ``what`` names among the product's functions and classes (None: nothing)."""
    if what.name in classes and not what.owner and (what.constructs or not graph.named(what.name)):
        constructors = [f for name in _CONSTRUCTORS for f in graph.named(name, what.name)]
        targets = {c.qualname for c in classes[what.name]} | {f.qualname for f in constructors}
        methods = {m for c in classes[what.name] for m in c.members}
        return Callee(frozenset(targets), frozenset({what.name}), frozenset(methods))
    found = (graph.named(what.name, what.owner) if what.owner else []) or graph.named(what.name)
    if not found:
        end = end_of(graph, classes, what)
        if end is None:
            return None
        own = frozenset(f.name for f in end.functions)
        qualnames = frozenset(f.qualname for f in end.functions)
        passed = passed_members(graph, own)
        names = frozenset({what.name})
        return Callee(qualnames, names, own, end.hands, True, passed, end.open)
    return Callee(frozenset(f.qualname for f in found), frozenset({what.name}))


def _hop_text(hop: Hop) -> str:
    by_name = " (matched by name: the call is not resolved to one function)" if hop.by_name else ""
    return f"{hop.call.text}() at {hop.where()}{by_name}"


def _path_text(reach: Reach) -> str:
    first = reach.hops[0].caller.name
    return " -> ".join([first, *(_hop_text(h) for h in reach.hops)])


def calls_of(functions: Sequence[FunctionCalls]) -> str:
    """What ``functions`` call, for a contradiction: "A, B and C" (first ones only)."""
    names: list[str] = []
    for function in functions:
        for call in function.calls:
            if call.kind == "passed":
                continue
            shown = call.target.rsplit(".", 1)[-1].rsplit(":", 1)[-1] if call.target else ""
            shown = shown or call.text
            if shown and shown not in names:
                names.append(shown)
    if not names:
        return "nothing"
    more = len(names) - _LISTED
    listed = [f"`{n}`" for n in names[:_LISTED]]
    if more > 0:
        return ", ".join(listed) + f" and {more} more"
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def judge_call(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    who: Subject,
    what: Subject,
    depth: int,
    named: frozenset[str] = frozenset(),
    files: frozenset[str] = frozenset(),
) -> Judged:
    """The verdict on "``who`` calls ``what``" (see the module doc). ``named``: the
    product classes the post names, and ``files`` the product files it names
    (:func:`files_named`), which say whose method a bare method name is."""
    if who.members:
        return _judge_together(graph, classes, who, what, depth, named, files)
    found = callers(graph, classes, who)
    if isinstance(found, str):
        return Judged("unjudged", found)
    # The callee's own class says nothing of whose method the caller is ("`evaluate()`
    # delegates to `OnlineEvalConfig`" is about a function outside that class).
    others = named - {what.name}
    found, note = _by_named_class(graph, classes, _by_receiver(found, who), who, others)
    if not note:
        found, note = _by_named_file(found, who, files)
    judged = _judge_found(graph, classes, found, who, what, depth)
    return replace(judged, evidence=note + judged.evidence) if note else judged


def _judge_together(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    who: Subject,
    what: Subject,
    depth: int,
    named: frozenset[str],
    files: frozenset[str],
) -> Judged:
    """A claim about a list of callers together: verified when one of them reaches the
    callee, contradicted only when every one is contradicted, else unjudged."""
    each = [judge_call(graph, classes, member, what, depth, named, files) for member in who.members]
    for judged in each:
        if judged.verdict == "verified":
            return judged
    if all(judged.verdict == "contradicted" for judged in each):
        return Judged(
            "contradicted",
            "; ".join(judged.evidence for judged in each),
            "; ".join(f"{m.text}: {j.instead}" for m, j in zip(who.members, each, strict=True)),
        )
    unjudged = next(judged for judged in each if judged.verdict == "unjudged")
    return Judged("unjudged", f"one of the listed callers: {unjudged.evidence}")


def _judge_found(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    found: list[FunctionCalls],
    who: Subject,
    what: Subject,
    depth: int,
) -> Judged:
    keyed = messages.judge_sent(graph, found, who, what, depth)  # a send written with its key
    if keyed is not None:
        return Judged(*keyed)
    target = callee(graph, classes, what)
    if target is None:
        for function in found:
            for call in function.calls:
                own = Hop(function, call, by_name=True)
                if (
                    call.name == what.name
                    and call.kind != "passed"
                    and not _other_receiver(own, what)
                ):
                    where = f"{function.path}:{call.line}"
                    return Judged("verified", f"`{who.text}` calls {call.text}() at {where}")
        return Judged(
            "unjudged",
            f"`{what.text}` is no function or class of the product's code: the call graph "
            "cannot say that nothing calls it",
        )
    strict = graph.reach(found, target.targets, target.names, depth)
    if strict.found:
        split = _owners_disagree(graph, found, target, who, what, depth)
        if split is not None:
            return split
        if len(strict.hops) == 1:
            hop = strict.hops[0]
            other = _other_receiver(hop, what)
            if other:
                return Judged(
                    "unjudged",
                    f"`{who.text}` calls {_hop_text(hop)}, a member of its own object; the "
                    f"claim names `{other}`'s, which the call graph cannot tell apart",
                )
            return Judged("verified", f"`{who.text}` calls {_hop_text(hop)}")
        return Judged("verified", f"through {len(strict.hops)} calls: {_path_text(strict)}")
    through = messages.message_path(graph, found, target.targets, who, what, depth)
    if through:
        return Judged("verified", f"through a message: {through}")
    return _unless_possible(graph, found, target, who, what, depth)


_OWN = frozenset({"this", "self"})


def _other_receiver(hop: Hop, what: Subject) -> str:
    """The receiver the claim writes its callee on (`page.elementLocator`), when the call
    it matched by name is on the caller's own object (`this.elementLocator()`) and the
    receiver is not named after the caller's class (`locator` for `Locator`): another
    object's member, so the match shows nothing ("" when it may be the same)."""
    head = what.text.split("(", 1)[0].split(".")
    receiver = head[-2] if len(head) > 1 else ""
    own = hop.call.text.split(".", 1)[0]
    if not hop.by_name or own not in _OWN or not receiver or receiver in _OWN:
        return ""
    if not receiver.isidentifier() or not receiver[:1].islower():
        return ""  # a class (`Page.locate`) is judged by its own methods
    return "" if receiver.lower() in hop.caller.owner.lower() else receiver


def _owners_disagree(
    graph: CallGraph,
    found: Sequence[FunctionCalls],
    target: Callee,
    who: Subject,
    what: Subject,
    depth: int,
) -> Judged | None:
    """A caller written without its class (`executeStream`) that names methods of several
    classes, some reaching the callee and some not: the claim does not say which class it
    means, so one class's call proves nothing about the others (None: they agree)."""
    if who.owner or len({f.owner for f in found}) < 2:
        return None
    reaching: list[FunctionCalls] = []
    others: list[FunctionCalls] = []
    for owner in sorted({f.owner for f in found}):
        group = [f for f in found if f.owner == owner]
        reached = graph.reach(group, target.targets, target.names, depth).found
        (reaching if reached else others).extend(group)
    if not others:
        return None
    return Judged(
        "unjudged",
        f"`{who.text}` names {len(found)} functions of {len({f.owner for f in found})} "
        f"classes or modules: {_owned(reaching)} reach `{what.text}` and {_owned(others)} "
        "do not, and the claim does not say which it means",
    )


def _by_receiver(found: list[FunctionCalls], who: Subject) -> list[FunctionCalls]:
    """The methods of the class an instance is named after (`neurolink.generate` for
    `NeuroLink.generate`), when the caller is written on such a variable."""
    head = who.text.split("(", 1)[0]
    if who.owner or "." not in head:
        return found
    receiver = head.rsplit(".", 2)[-2].lower()
    mine = [f for f in found if f.owner.lower() == receiver]
    return mine or found


def _by_named_class(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    found: list[FunctionCalls],
    who: Subject,
    named: frozenset[str],
) -> tuple[list[FunctionCalls], str]:
    """A bare method name several classes define (`executeStream`), in a post that names
    classes having that method (their own or inherited) whose bodies are one: that body,
    with a note saying so. A post about `TogetherAIProvider` means its `executeStream`, not
    the twelve other providers'. Unchanged (and no note) when the post names none or
    several bodies, or the way to the body passes a class name several classes bear."""
    if who.owner or len({f.owner for f in found}) < 2:
        return found, ""
    means: dict[str, list[str]] = {}
    bodies: dict[str, FunctionCalls] = {}
    for owner in sorted(named):
        for function in inherited(graph, classes, owner, who.name, unique=True):
            means.setdefault(function.qualname, []).append(owner)
            bodies[function.qualname] = function
    if len(bodies) != 1:
        return found, ""
    function, owners = next(iter(bodies.values())), next(iter(means.values()))
    if function not in found:
        return found, ""
    names = " and ".join(f"`{o}`" for o in owners)
    inherits = "" if owners == [function.owner] else f", inherited from `{function.owner}`"
    note = f"`{who.text}` read as the method of {names}, which the post names{inherits}: "
    return [function], note


def _by_named_file(
    found: list[FunctionCalls], who: Subject, files: frozenset[str]
) -> tuple[list[FunctionCalls], str]:
    """A bare name functions of several files bear, in a post that names files holding
    exactly one of them: that one, with a note saying so. Unchanged (and no note) when the
    post names none of their files, or files holding several."""
    if who.owner or len({f.path for f in found}) < 2:
        return found, ""
    mine = [f for f in found if f.path in files]
    if len(mine) != 1:
        return found, ""
    function = mine[0]
    written = f"{function.owner}.{function.name}" if function.owner else function.name
    return [
        function
    ], f"`{who.text}` read as `{written}` of `{function.path}`, the file the post names: "


# A source file's suffix, dropped from a path to give the module it holds.
_SOURCE_SUFFIX = re.compile(r"\.(?:pyi?|[cm]?[jt]sx?)$")
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def files_named(graph: CallGraph, written: Iterable[str]) -> frozenset[str]:
    """The product files a post's code spans name: a path or file name
    (`pkg/attribute.py`, `attribute.py`), a dotted module (`pkg.attribute`), a module's
    bare name (`attribute`) or a dotted name's head (`attribute.get_attribute`). A span
    counts only when it names one file of the product (`util`, which two folders hold,
    names none)."""
    by_tail: dict[str, list[tuple[str, str]]] = {}
    for path in {f.path for f in graph.by_qualname.values()}:
        module = module_path(path)  # a .vue file's too (its script blocks)
        by_tail.setdefault(module.rsplit("/", 1)[-1], []).append((module, path))
    found: set[str] = set()
    for text in written:
        for key in _module_keys(text):
            tail = key.rsplit("/", 1)[-1]
            hits = {p for m, p in by_tail.get(tail, []) if m == key or m.endswith("/" + key)}
            if hits:
                found |= hits if len(hits) == 1 else set()
                break
    return frozenset(found)


def _module_keys(text: str) -> list[str]:
    """The modules a span may name, the longest first: a path without its suffix, or
    each head of a dotted name as a path (`a.b.c`: `a/b/c`, `a/b`, `a`)."""
    bare = text.strip().removeprefix("./").removesuffix("()")
    if "/" in bare or _SOURCE_SUFFIX.search(bare):
        return [_SOURCE_SUFFIX.sub("", bare).strip("/")]
    if not _DOTTED.fullmatch(bare):
        return []
    parts = bare.split(".")
    return ["/".join(parts[:end]) for end in range(len(parts), 0, -1)]


def _owned(functions: Sequence[FunctionCalls]) -> str:
    """ "`A.x` (path:line), `B.x` (...)" for the first few functions."""
    shown = [f"`{f.owner + '.' if f.owner else ''}{f.name}` ({_place(f)})" for f in functions[:2]]
    more = len(functions) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _unless_possible(
    graph: CallGraph,
    found: Sequence[FunctionCalls],
    target: Callee,
    who: Subject,
    what: Subject,
    depth: int,
) -> Judged:
    """No path shown: contradicted, unless one may exist or the body was not all read."""
    loose = graph.reach(found, target.targets, target.names, depth, follow_dynamic=True)
    if loose.found:
        return Judged("unjudged", f"reachable only through dynamic dispatch: {_path_text(loose)}")
    if target.open:
        return Judged("unjudged", target.open)
    partial = [f for f in found if not f.complete]
    if partial:
        return Judged(
            "unjudged", f"the body of `{who.text}` at {_place(partial[0])} was not fully read"
        )
    computed = graph.opaque(found, depth, target.names | target.passed)
    if computed is not None:
        return Judged("unjudged", _opaque_text(who, what, computed, found))
    value_call = graph.value_call(found, depth) if target.hands else None
    if value_call is not None:
        return Judged(
            "unjudged",
            f"`{what.text}` hands a function to {target.hands}, which may call it back; "
            f"on the way `{who.text}` calls a function value, `{value_call.call.text}` at "
            f"{value_call.where()}",
        )
    for function in found:
        for call in function.calls:
            if call.kind == "passed":
                continue
            held = set(call.text.split("(", 1)[0].split(".")[1:-1]) & target.names
            if held:
                # `API.pyodide_code.eval_code_async.callKwargs(...)`: a member called on a
                # value named like the callee, which may be the callee called another way
                return Judged(
                    "unjudged",
                    f"`{who.text}` calls `{call.text}` on a value named `{held.pop()}` at "
                    f"{function.path}:{call.line}, which may call `{what.text}` itself",
                )
            # a callback parameter is an end's function only where one is passed
            given = target.end and call.kind == "callback" and call.name not in target.passed
            if call.name in target.methods and not call.target and not given:
                return Judged(
                    "unjudged",
                    f"`{who.text}` calls a `{call.name}` on a value the model does not type "
                    f"(`{call.text}`), which may be `{what.text}`'s, at "
                    f"{function.path}:{call.line}",
                )
            if call.name in target.names:  # an external call of the same name
                return Judged(
                    "unjudged",
                    f"`{who.text}` calls a `{call.name}` the model does not resolve to the "
                    f"product's, at {function.path}:{call.line}",
                )
    doubt, keys = messages.message_doubt(graph, found, target.targets, target.names, depth)
    if doubt:
        return Judged("unjudged", doubt)
    instead = calls_of(found)
    places = ", ".join(_place(f) for f in found[:3])
    return Judged(
        "contradicted",
        f"`{who.text}` ({places}) does not call `{what.text}` within {depth} calls; "
        f"it calls {instead}{keys}",
        instead,
    )


_OPAQUE_WHY = {
    "opaque": "a callee the code computes (a computed key or a wrapping decorator)",
    "callback": "a callback it is given, and the product passes functions of that name as values",
    "passed": "passed as a value: whatever receives it may call it",
}


def _opaque_text(who: Subject, what: Subject, hop: Hop, found: Sequence[FunctionCalls]) -> str:
    """Why a call the graph cannot follow leaves a claim unjudged."""
    inside = "" if hop.caller in found else f" (in `{hop.caller.name}`, which it calls)"
    return (
        f"the body of `{who.text}` is not fully read: it runs `{hop.call.text}` at "
        f"{hop.where()}{inside}, {_OPAQUE_WHY.get(hop.call.kind, '')}, which may be "
        f"`{what.text}`"
    )


def judge_edge(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    source: Subject,
    target_subject: Subject,
    depth: int,
    named: frozenset[str] = frozenset(),
    files: frozenset[str] = frozenset(),
    diagram: frozenset[str] = frozenset(),
) -> Judged:
    """A flowchart edge as a call edge, or as a sequence a function the same diagram
    draws runs in order (a step flowchart of what it does); a sequence only a function
    the diagram does not draw runs leaves the edge unjudged."""
    if source.constructs and _has_method(graph, classes, source.name, target_subject.name):
        return Judged(
            "unjudged",
            f"a flow on one object: `{target_subject.text}` is a method of the class "
            f"`{source.text}` constructs, called on what it made",
        )
    judged = judge_call(graph, classes, source, target_subject, depth, named, files)
    # a message may reach it: the call reading is open, a sequence may still show the step
    doubted = judged.verdict == "unjudged" and judged.evidence.startswith(messages.MAY_REACH)
    if judged.verdict != "contradicted" and not doubted:
        return judged
    sequenced = _as_sequence(graph, classes, (source, target_subject), judged, depth, diagram)
    return judged if doubted and sequenced.verdict != "verified" else sequenced


def _as_sequence(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    ends: tuple[Subject, Subject],
    judged: Judged,
    depth: int,
    diagram: frozenset[str],
) -> Judged:
    """:func:`judge_edge` when the call reading does not hold: the edge as a sequence."""
    source, target_subject = ends
    if any(end_of(graph, classes, end) for end in ends) or all(
        is_component(graph, classes, end) for end in ends
    ):
        # a module, an instance or a store drawn, or two classes as components: an edge
        # of what uses what, never a step a function runs in order
        return judged
    if _member_drawn(graph, classes, source, target_subject):
        # `Agent --> run_turn()` in a diagram of components and what they have: the edge
        # draws a method under its class, which says nothing of what calls it.
        return Judged(
            "unjudged",
            f"`{target_subject.text}` is a method of `{source.text}`: an edge from a class to "
            "its own method may draw what it has, not a call",
        )
    first, then = callee(graph, classes, source), callee(graph, classes, target_subject)
    if first is not None and then is None:  # "A then postMessage(K)": a send with its key
        ordered = messages.judge_sent_order(graph, first.targets, first.names, target_subject,
                                            depth, diagram)  # fmt: skip
        if ordered is not None:
            return Judged(*ordered)
    if first is not None and then is not None:
        sequence, drawn = in_order(graph, first, then, diagram)
        if sequence and (drawn or not diagram):
            return Judged("verified", f"in sequence: {sequence}")
        through = in_order_through(graph, first, then, diagram, depth)
        if through:
            return Judged("verified", f"in sequence: {through}")
        apart = "" if sequence else in_order_exclusive(graph, first, then)
        if apart:  # written in order, but no run takes both arms: never shown, never refuted
            return Judged("unjudged", f"no call path; no run calls both in order: {apart}")
        if sequence:
            # Only a function the diagram does not draw runs the two in order: whether
            # that is the flow it draws is not told (an architecture diagram's arrow
            # between two hooks a component happens to call in turn is no step of it),
            # unless the functions it draws that run both run them the other way on
            # every path (wiring_order.out_of_order).
            drawn_ends = frozenset({source.name, target_subject.name})
            wrong, why = out_of_order(graph, first, then, diagram, drawn_ends, depth)
            if wrong and not (first.open or then.open):
                return Judged(
                    "contradicted",
                    f"{judged.evidence}; the flow drawn runs them the other way: {wrong} "
                    f"(only a function the diagram does not draw runs them in order: "
                    f"{sequence})",
                    judged.instead,
                )
            return Judged(
                "unjudged",
                f"no call path; in sequence only where the diagram does not look: {sequence}"
                + (
                    f"; the flow drawn is not shown to run them the other way: {why}" if why else ""
                ),
            )
        by_name = in_order_by_name(graph, first, then)
        if by_name:
            return Judged(
                "unjudged",
                f"no call path; in sequence if a call the model matches by its name alone "
                f"is the one drawn: {by_name}",
            )
        maybe = in_order_maybe(graph, first, then)
        if maybe:
            return Judged(
                "unjudged",
                "no call path; in sequence if the function written in place that holds "
                f"one of the calls runs after the other: {maybe}",
            )
        again = in_order_again(graph, first, then)
        if again:
            return Judged("unjudged", f"no call path; in sequence not by line, but: {again}")
    return Judged(
        "contradicted",
        judged.evidence + f", and no function calls `{source.text}` and then "
        f"`{target_subject.text}`",
        judged.instead,
    )


def _member_drawn(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], source: Subject, target: Subject
) -> bool:
    """Whether ``source`` names a product class (not one of its methods) and ``target`` a
    method that class has, its own or inherited."""
    if source.name not in classes or source.owner or graph.named(source.name):
        return False
    if target.owner and target.owner != source.name:
        return False
    return _has_method(graph, classes, source.name, target.name)


def _has_method(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], owner: str, name: str
) -> bool:
    """Whether the product class ``owner`` or one of its product bases has method ``name``."""
    return bool(inherited(graph, classes, owner, name))


def inherited(
    graph: CallGraph,
    classes: Mapping[str, list[ClassFacts]],
    owner: str,
    name: str,
    unique: bool = False,
) -> list[FunctionCalls]:
    """The method ``name`` of the product class ``owner``: its own, else the nearest of
    its product bases' (bases in the order written, depth first); [] when none has one.
    ``unique``: a class whose name several classes bear is not followed (its methods and
    bases may be any of theirs)."""
    seen: set[str] = set()
    pending = [owner]
    while pending:
        current = pending.pop(0)
        if current in seen or (unique and len(classes.get(current, [])) > 1):
            continue
        seen.add(current)
        own = graph.named(name, current)
        if own:
            return own
        bases = [b for entry in classes.get(current, []) for b in entry.bases]
        pending = [re.sub(r"[<\[].*", "", b).rsplit(".", 1)[-1] for b in bases] + pending
    return []
