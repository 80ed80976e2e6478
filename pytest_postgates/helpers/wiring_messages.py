"""Gate 16's reading of message passing (:mod:`~pytest_postgates.evidence.messages`): calls
whose argument decides which function runs.

* A claim that names the send with its key ("`saveX` -> `postMessage(FORWARD_TO_BACKGROUND)`",
  "X calls `emit('saved')`") is verified when the caller, or a function it reaches through
  resolved calls within the depth, sends that key with a call of that name; contradicted only
  when every such send it reaches has a literal or constant-resolved key, none the claim's, the
  claim's key is one some other send of the product writes, and nothing on the way is unread
  (a body with syntax errors, a callee the code computes, dynamic dispatch to a sender of the
  key); a computed key leaves it unjudged.
* "X calls/triggers H" holds through a message edge: X sends K on a channel kind and H is
  registered for K on it (by name).
* A call claim the call graph would contradict stays unjudged when X sends on a kind H is
  registered on and a key is computed (or H's code is written in place); with every key
  literal and none matching, the contradiction carries the keys as evidence.

Each function returns (verdict, evidence, instead) or None: :mod:`.wiring_verdicts` wraps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_postgates.evidence.call_flow import exclusive
from pytest_postgates.evidence.call_graph import CallGraph, Hop
from pytest_postgates.evidence.messages import SIGNAL, Listen, SendSite
from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls, handler_calls, in_turn
from pytest_postgates.helpers.wiring_names import Subject

Verdict = tuple[str, str, str]
MAY_REACH = "a message may reach it"  # why a call claim is unjudged (message_doubt)
# The calls that send a message whose key a claim may write as their argument.
SEND_NAMES = frozenset(
    {"emit", "dispatchEvent", "postMessage", "sendMessage", "send", "invoke", "sendSync"}
    | {"dispatch"}
)
_ARGUMENT = re.compile(r"\((?P<first>[^,()]*)")
_OBJECT_KEY = re.compile(r"\{\s*['\"]?(?:action|type|cmd|command|kind|event)['\"]?\s*:\s*([^,}]+)")
_CONSTANT = re.compile(r"(?:[A-Za-z_$][\w$]*\.)*[A-Z][A-Z0-9_]*")
_LITERAL = re.compile(r"""(['"`])([\w:./ -]+)\1""")


def claimed_key(what: Subject) -> str | None:
    """The key a send claim writes as its argument: a quoted string, a CONSTANT_CASE name
    (``Types.SAVE``) or an object's kind property (``{type: "ADD"}``); None when it writes
    none (``emit(event)``: a variable, not a key)."""
    if what.name not in SEND_NAMES or not what.called:
        return None
    inner = what.text[what.text.find("(") :]
    held = _OBJECT_KEY.search(inner)
    found = _ARGUMENT.match(inner)
    first = (held.group(1) if held is not None else found.group("first") if found else "").strip()
    literal = _LITERAL.fullmatch(first)
    if literal is not None:
        return literal.group(2)
    return first if _CONSTANT.fullmatch(first) else None


def _same(site: SendSite, key: str) -> bool:
    last = key.rsplit(".", 1)[-1]
    return site[1] in (key, last) or (bool(site[2]) and site[2] == last)


def _where(function: FunctionCalls, site: SendSite) -> str:
    return f"{function.path}:{site[4]}"


def _via(hops: tuple[Hop, ...]) -> str:
    if not hops:
        return ""
    return " (through " + ", ".join(f"{h.call.text}() at {h.where()}" for h in hops) + ")"


def judge_sent(
    graph: CallGraph, found: Sequence[FunctionCalls], who: Subject, what: Subject, depth: int
) -> Verdict | None:
    """The verdict on "``who`` sends ``what``" when ``what`` is a send written with its key
    and ``who`` reaches sends of that name (see the module doc); None otherwise."""
    key = claimed_key(what)
    if key is None:
        return None
    named = [
        (hops, sender, site)
        for hops, sender, site in graph.sending(found, depth)
        if site[3] == what.name and site[0] != SIGNAL
    ]
    if not named:
        return _sends_none(graph, found, who, what, key, depth)
    for hops, sender, site in named:
        if _same(site, key):
            return (
                "verified",
                f"`{who.text}` sends `{key}` with {site[3]}() at "
                + _where(sender, site)
                + _via(hops),
                "",
            )
    for _hops, sender, site in named:
        if not site[1]:
            return (
                "unjudged",
                (
                    f"`{who.text}` sends {site[3]}() at {_where(sender, site)} with a key the code "
                    f"computes: whether it is `{key}` the model cannot say"
                ),
                "",
            )
    kinds = {site[0] for _hops, _sender, site in named}
    elsewhere = [
        (function, site)
        for function in graph.by_qualname.values()
        for site in function.sends
        if site[0] in kinds and _same(site, key)
    ]
    sent = sorted({f"`{site[1]}` ({_where(sender, site)})" for _h, sender, site in named})
    if not elsewhere:
        return (
            "unjudged",
            (
                f"`{who.text}` sends {', '.join(sent)}; `{key}` is no key the product's code "
                f"sends on that channel, so the model cannot place it"
            ),
            "",
        )
    doubt = _unread(graph, found, named, elsewhere, depth)
    if doubt:
        return "unjudged", doubt, ""
    other, site = elsewhere[0]
    return (
        "contradicted",
        (
            f"`{who.text}` sends {what.name}() only with {', '.join(sent)}, never `{key}`, within "
            f"{depth} calls; `{key}` is sent by `{other.name}` at {_where(other, site)}"
        ),
        f"{what.name}() with {', '.join(sent)}",
    )


def _senders(graph: CallGraph, name: str, key: str) -> list[tuple[FunctionCalls, SendSite]]:
    """The product's sends of ``key`` made by a call named ``name``."""
    return [
        (function, site)
        for function in graph.by_qualname.values()
        for site in function.sends
        if site[3] == name and site[0] != SIGNAL and _same(site, key)
    ]


def _reached(graph: CallGraph, found: Sequence[FunctionCalls], depth: int) -> list[FunctionCalls]:
    """``found`` and the functions they reach through at most ``depth - 1`` resolved calls."""
    seen = {f.qualname: f for f in found}
    frontier = list(found)
    for _level in range(depth - 1):
        following = [
            called
            for function in frontier
            for call in function.calls
            if call.kind == "resolved"
            for called in [graph.by_qualname.get(call.target)]
            if called is not None and called.qualname not in seen
        ]
        seen.update((f.qualname, f) for f in following)
        frontier = following
    return list(seen.values())


def _sends_none(
    graph: CallGraph, found: Sequence[FunctionCalls], who: Subject, what: Subject, key: str,
    depth: int,
) -> Verdict | None:  # fmt: skip
    """ "``who`` sends ``what``" when ``who`` reaches no call of that name: contradicted
    when the key is one another send of the product writes and nothing on the way is
    unread; None (the call graph's verdict) otherwise."""
    elsewhere = _senders(graph, what.name, key)
    if not elsewhere:
        return None
    for function in _reached(graph, found, depth):
        if any(call.name == what.name for call in function.calls):
            return None  # a call of that name the model does not read as a send
    doubt = _unread(graph, found, [], elsewhere, depth)
    if doubt:
        return "unjudged", doubt, ""
    other, site = elsewhere[0]
    return (
        "contradicted",
        (
            f"`{who.text}` makes no {what.name}() call within {depth} calls; `{key}` is sent by "
            f"`{other.name}` at {_where(other, site)}"
        ),
        "no " + what.name + "()",
    )


def sent_in_order(
    graph: CallGraph, first: frozenset[str], names: frozenset[str], what: Subject, depth: int,
    diagram: frozenset[str],
) -> tuple[str, bool]:  # fmt: skip
    """A step edge "A then ``what``" (a send written with its key): the function that calls
    A (``first``: its qualnames; ``names``: its names, matched on calls the model does not
    resolve when few functions bear it) and later sends the key itself or through a
    resolved call within ``depth``, as evidence, and whether ``diagram`` names it; a later
    send of that name with a computed key is evidence too, prefixed "?" (it may be the key).
    ("", False) when no function does."""
    key = claimed_key(what) or ""
    found, computed = "", ""
    distinctive = 0 < len(first) <= 3
    senders = frozenset(f.name for f, _site in _senders(graph, what.name, key))
    for function in graph.by_qualname.values():
        firsts = [
            index
            for index, call in enumerate(function.calls)
            if (call.kind in ("resolved", "constructor") and call.target in first)
            or (distinctive and call.kind in ("dynamic", "unresolved") and call.name in names)
        ]
        if not firsts:
            continue
        start = function.calls[firsts[0]].line
        # the calls after one of the first that may run after it (a stored function's
        # calls run in no order with the calls around it: model_facts.in_turn)
        after = [
            c
            for index, c in enumerate(function.calls)
            if any(i < index and in_turn(function.calls[i].scope, c.scope) for i in firsts)
        ]
        # those only in another arm of one conditional than every first: no run sends after
        apart = {
            (c.name, c.line)
            for index, c in enumerate(function.calls)
            if c in after
            and all(exclusive(function.calls[i].arms, c.arms) for i in firsts if i < index)
        }
        later = [c for c in after if c.kind == "resolved"]
        unseen = next((c for c in after if _may_send(c, senders)), None)
        if unseen is not None and not computed:  # a later call the graph cannot follow
            computed = (
                f"?`{function.name}` calls the first at {function.path}:{start}, then "
                f"`{unseen.text}` at {function.path}:{unseen.line}, which may send the key"
            )
        made = {(c.name, c.line) for c in after}
        sites = [
            (function, site, (site[3], site[4]) in apart)
            for site in function.sends
            if (site[3], site[4]) in made
        ]
        for call in later:
            called = graph.by_qualname.get(call.target)
            sends = graph.sending([called], depth - 1) if called is not None else iter(())
            sites += [(sender, site, (call.name, call.line) in apart) for _h, sender, site in sends]
        for sender, site, exclusive_arm in sites:
            if site[3] != what.name or site[0] == SIGNAL:
                continue
            where = f"`{function.name}` calls the first at {function.path}:{start} and sends "
            if _same(site, key) and exclusive_arm:
                computed = computed or (
                    "?" + where + f"`{key}` at {_where(sender, site)}, but in another arm of "
                    "one conditional than the first, which no run takes both of"
                )
            elif _same(site, key):
                evidence = where + f"`{key}` at {_where(sender, site)}"
                if function.name in diagram:
                    return evidence, True
                found = found or evidence
            elif not site[1]:
                computed = computed or "?" + where + f"a computed key at {_where(sender, site)}"
    return found or computed, False


def _may_send(call: CallSite, senders: frozenset[str]) -> bool:
    """Whether a call the graph does not resolve may be a function that sends the key."""
    return call.kind in ("opaque", "callback") or (
        call.kind in ("dynamic", "unresolved") and call.name in senders
    )


def judge_sent_order(
    graph: CallGraph, first: frozenset[str], names: frozenset[str], what: Subject, depth: int,
    diagram: frozenset[str],
) -> Verdict | None:  # fmt: skip
    """A step edge "A then ``what``" whose call reading is contradicted, when ``what`` is a
    send written with its key (:func:`sent_in_order`): verified when a function the diagram
    writes (or any, without a diagram) runs A and then sends the key; unjudged when only
    another function does, or one sends a computed key after A; None otherwise (the call
    reading's contradiction stands)."""
    if claimed_key(what) is None:
        return None
    sent, drawn = sent_in_order(graph, first, names, what, depth, diagram)
    if sent[:1] == "?" or (sent and diagram and not drawn):
        return "unjudged", f"no call path; in sequence only maybe: {sent.lstrip('?')}", ""
    return ("verified", f"in sequence: {sent}", "") if sent else None


def _unread(
    graph: CallGraph,
    found: Sequence[FunctionCalls],
    named: list[tuple[tuple[Hop, ...], FunctionCalls, SendSite]],
    elsewhere: list[tuple[FunctionCalls, SendSite]],
    depth: int,
) -> str:
    """Why what the caller runs is not all read for a send of the key ("" when it is)."""
    partial = [f for f in found if not f.complete]
    partial += [sender for _hops, sender, _site in named if not sender.complete]
    if partial:
        first = partial[0]
        return f"the body of `{first.name}` at {first.path}:{first.line} was not fully read"
    senders = frozenset(f.qualname for f, _site in elsewhere)
    names = frozenset(f.name for f, _site in elsewhere)
    loose = graph.reach(found, senders, frozenset(), depth, follow_dynamic=True)
    if loose.found:
        return (
            f"a sender of the key is reachable through dynamic dispatch ({loose.hops[-1].where()})"
        )
    computed = graph.opaque(found, depth, names)
    if computed is not None:
        return (
            f"on the way it runs `{computed.call.text}` at {computed.where()}, a call the model "
            "cannot follow, which may send it"
        )
    return ""


def _handles(
    graph: CallGraph, registrar: FunctionCalls, handler: str, targets: frozenset[str], depth: int
) -> bool:
    """Whether a registration's named handler is one of ``targets`` or reaches one through
    resolved calls within ``depth``."""
    for function in graph.handler_functions(registrar, handler):
        if function.qualname in targets:
            return True
        if depth > 0 and graph.reach([function], targets, frozenset(), depth).found:
            return True
    return False


def _handles_any(
    graph: CallGraph, registrar: FunctionCalls, listen: Listen,
    wanted: tuple[frozenset[str], frozenset[str]], depth: int,
) -> bool:  # fmt: skip
    """Whether a registration's handler is or reaches the callee (``wanted``: its
    qualnames and names): the one named (:func:`_handles`), or the calls of the one
    written in place (:func:`~.model_facts.handler_calls`; when the model cannot tell
    them apart, all the registering function's code)."""
    targets, names = wanted
    handler = listen[2] or registrar.name
    calls = [] if listen[2] else handler_calls(registrar.calls, listen[3])
    if not calls:
        return handler in names or _handles(graph, registrar, handler, targets, depth)
    for call in calls:
        if call.kind in ("resolved", "constructor") and call.target in targets:
            return True
        if call.kind not in ("resolved", "constructor", "external") and call.name in names:
            return True  # a call the graph does not resolve, named like the callee
        called = graph.by_qualname.get(call.target) if call.kind == "resolved" else None
        if called is not None and graph.reach([called], targets, frozenset(), depth - 1).found:
            return True
    return False


def message_path(
    graph: CallGraph, found: Sequence[FunctionCalls], targets: frozenset[str], who: Subject,
    what: Subject, depth: int,
) -> str:  # fmt: skip
    """The evidence of a message edge from ``found`` to ``targets`` (a send of key K reached
    within the depth, a handler registered for K by name that is or reaches a target); ""."""
    for hops, sender, site in graph.sending(found, depth):
        if not site[1]:
            continue
        left = depth - len(hops) - 1
        for registrar, listen in graph.registered.get(site[:2], []):
            if listen[2] in ("", "*") or not _handles(graph, registrar, listen[2], targets, left):
                continue
            return (
                f"`{who.text}` sends `{site[1]}` ({site[0]}) with {site[3]}() at "
                f"{_where(sender, site)}{_via(hops)}; `{listen[2]}` is registered for it at "
                f"{registrar.path}:{listen[3]}"
                + ("" if listen[2] == what.name else f", reaching `{what.text}`")
            )
    return ""


def message_doubt(
    graph: CallGraph,
    found: Sequence[FunctionCalls],
    targets: frozenset[str],
    names: frozenset[str],
    depth: int,
) -> tuple[str, str]:
    """(why a contradiction cannot stand, what it adds as evidence): the caller sends on a
    channel kind a handler is registered on that is the callee or reaches it (by name, or
    written in place in code that reaches it): a key computed on either side, or equal,
    leaves it unjudged; all literal and none equal, the keys are the evidence. ("", "")
    when no message is in play."""
    sends = list(graph.sending(found, depth))
    kinds = {site[0] for _hops, _sender, site in sends}
    registrations: list[tuple[FunctionCalls, Listen]] = []
    for (kind, _key), listed in graph.registered.items():
        for registrar, listen in listed if kind in kinds else []:
            # (a handler passed as a value the model cannot name, `bus.on(evt, handler)`
            # in a wrapper, is not one: the callee is passed to it, which the graph reads)
            if listen[2] == "*":
                continue
            if _handles_any(graph, registrar, listen, (targets, names), depth):
                registrations.append((registrar, listen))
    if not registrations:
        return "", ""
    sent: list[str] = []
    heard: list[str] = []
    for _hops, sender, site in sends:
        for registrar, listen in registrations:
            if listen[0] != site[0]:
                continue
            place = f"{registrar.path}:{listen[3]}"
            if not site[1] or not listen[1] or site[1] == listen[1]:
                what = "a handler written in place" if not listen[2] else f"`{listen[2]}`"
                return (
                    f"{MAY_REACH}: {site[3]}() at {_where(sender, site)} sends "
                    f"`{site[1] or '(a computed key)'}` ({site[0]}) and {what} is registered at "
                    f"{place} for `{listen[1] or '(a key its code decides)'}`"
                ), ""
            sent.append(f"`{site[1]}` at {_where(sender, site)}")
            heard.append(f"`{listen[1]}` at {place}")
    if not sent:
        return "", ""
    return "", (
        f"; the messages it sends ({', '.join(sorted(set(sent)))}) are not the ones its "
        f"handler is registered for ({', '.join(sorted(set(heard)))})"
    )
