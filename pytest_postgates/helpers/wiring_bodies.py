"""Gate 16's two body shapes: what a function holds and the switch it makes.

``FN_CONTAINS`` ("the `X` function wraps `Y`", "the `X` method contains a call to `Y`")
names what X's body holds: a function or class named in a code span is judged as a call
claim (X's body calls or constructs it, or reaches it within the depth); what is named in
words ("wraps your vector store") is unjudged, and so is ``implements`` (the model does
not read implemented interfaces).

``SWITCH`` ("`X` routes it through a switch over `kind`", "`X`'s switch/case") says X's
body, or a function it runs within the call depth ("routes it through a switch"), holds
a switch statement (Python: a ``match``): verified by the switch (over the value named,
when one is), contradicted when those bodies were read in full and hold none, not even
through dynamic calls followed to the few functions of their name (never for a Python
function: Python code mostly writes a switch as an if/elif chain, which the model does not
record); a switch over another
value than the one named is unjudged (the code may name that value otherwise). X is the
code-shaped span nearest before the word in its sentence, or, when the sentence names
none ("The switch statement inside"), before it on the line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.evidence.call_graph import DYNAMIC_FANOUT, CallGraph
from pytest_postgates.evidence.model_facts import ClassFacts, FunctionCalls
from pytest_postgates.helpers.wiring_subjects import Subject, spans_in, subject
from pytest_postgates.helpers.wiring_verdicts import Judged, callers, calls_of, judge_call
from pytest_postgates.prose import sentence_spans

if TYPE_CHECKING:
    from pytest_postgates.post import Post

_HOLDS = re.compile(
    r"\b(?P<noun>function|method|class)\s+"
    r"(?P<verb>contains|holds|wraps|implements|consists of)\b",
    re.IGNORECASE,
)
# Between the verb and what is held: "a call to", "the", "an instance of".
_HELD_GAP = re.compile(
    r"\s*(?:(?:the|a|an|its|one|single)\s+)?"
    r"(?:(?:call|calls|instance|reference)\s+(?:to|of)\s+(?:the\s+|a\s+|an\s+)?)?",
    re.IGNORECASE,
)
_SWITCH = re.compile(r"\bswitch(?:es|/case)?\b", re.IGNORECASE)
# A value named right after the word: "a switch over `kind`", "switches on `event.type`".
_OVER = re.compile(r"(?:\s+statement)?\s+(?:over|on)\s+(?:the\s+)?", re.IGNORECASE)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


@dataclass(frozen=True)
class BodyClaim:
    """A body claim: the function it is about and what it says it holds (a code name, or
    the switched value; "" when none is named), or why it could not be read."""

    who: Subject | None = None
    held: Subject | None = None
    value: str = ""
    reason: str = ""


def contains_claims(post: Post, line: int) -> list[BodyClaim]:
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    spans = spans_in(post, line)
    found: list[BodyClaim] = []
    for match in _HOLDS.finditer(text):
        before = [s for s in spans if s[1] <= match.start() and match.start() - s[1] <= 2]
        who = subject(before[-1][2], named=True) if before else None
        if who is None:
            continue
        if match.group("verb").lower() == "implements":
            reason = "an `implements` claim: the model does not read implemented interfaces"
            found.append(BodyClaim(reason=reason))
            continue
        after = [s for s in spans if s[0] >= match.end()]
        held = None
        if after and _HELD_GAP.fullmatch(text[match.end() : after[0][0]]):
            held = subject(after[0][2], named=True)
        if held is None:
            reason = f"says what `{who.text}` holds in words, not by a function or class name"
            found.append(BodyClaim(reason=reason))
            continue
        found.append(BodyClaim(who, held))
    return found or [BodyClaim(reason="no code span names the function next to the word")]


def switch_claims(post: Post, line: int) -> list[BodyClaim]:
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    spans = spans_in(post, line)
    match = _SWITCH.search(text)
    if match is None:
        return [BodyClaim(reason="no switch named on the line")]
    blanked = list(text)  # a code span's dots end no sentence
    for start, end, _text in spans:
        blanked[start:end] = "x" * (end - start)
    sentences = sentence_spans("".join(blanked))
    sentence = next(((a, b) for a, b in sentences if a <= match.start() < b), (0, 0))
    before = [s for s in spans if s[1] <= match.start()]
    in_sentence = [s for s in before if s[0] >= sentence[0]]
    named = [subject(s[2]) for s in reversed(in_sentence or before)]
    who = next((s for s in named if s is not None), None)
    if who is None:
        return [BodyClaim(reason="no code span names the function that holds the switch")]
    after = [s for s in spans if s[0] >= match.end()]
    value = ""
    if after and _OVER.fullmatch(text[match.end() : after[0][0]]):
        value = after[0][2]
    return [BodyClaim(who, value=value)]


def judge_contains(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], claim: BodyClaim, depth: int
) -> Judged:
    """What X holds, judged as a call of X's body (see the module doc)."""
    assert claim.who is not None and claim.held is not None
    return judge_call(graph, classes, claim.who, claim.held, depth)


def _reached(
    graph: CallGraph, found: list[FunctionCalls], depth: int, follow_dynamic: bool
) -> list[tuple[FunctionCalls, tuple[str, ...]]]:
    """The functions ``found`` run within ``depth`` calls (their own bodies first), each
    with the names of the path to it; resolved calls only, or also dynamic calls followed
    to the few functions of their name."""
    seen = {f.qualname for f in found}
    level: list[tuple[FunctionCalls, tuple[str, ...]]] = [(f, (f.name,)) for f in found]
    reached = list(level)
    for _step in range(depth):
        following: list[tuple[FunctionCalls, tuple[str, ...]]] = []
        for function, path in level:
            for call in function.calls:
                if call.kind == "resolved":
                    targets = [call.target]
                elif follow_dynamic and call.kind in ("dynamic", "unresolved") and call.name:
                    named = graph.by_name.get(call.name, [])
                    targets = [f.qualname for f in named] if len(named) <= DYNAMIC_FANOUT else []
                else:
                    targets = []
                for target in targets:
                    callee = graph.by_qualname.get(target)
                    if callee is not None and target not in seen:
                        seen.add(target)
                        following.append((callee, (*path, callee.name)))
        reached += following
        level = following
    return reached


def judge_switch(
    graph: CallGraph, classes: Mapping[str, list[ClassFacts]], claim: BodyClaim, depth: int
) -> Judged:
    """The switch X's body holds, or a function X runs within ``depth`` calls ("routes
    it through a switch"); see the module doc."""
    assert claim.who is not None
    found = callers(graph, classes, claim.who)
    if isinstance(found, str):
        return Judged("unjudged", found)
    who = claim.who.text
    switches = [
        (f, path, written, at)
        for f, path in _reached(graph, found, depth, follow_dynamic=False)
        for written, at in f.switches
    ]
    if not switches:
        return _no_switch(graph, found, who, depth)
    value_names = set(_IDENT.findall(claim.value))
    for function, path, written, at in switches:
        if not value_names or value_names & set(_IDENT.findall(written)):
            through = f" (through {' -> '.join(path)})" if len(path) > 1 else ""
            return Judged(
                "verified",
                f"`{function.name}` switches over `{written}` at {function.path}:{at}{through}",
            )
    function, _path, written, at = switches[0]
    return Judged(
        "unjudged",
        f"`{function.name}` switches over `{written}` at {function.path}:{at}; the claim names "
        f"`{claim.value}`, which the code may hold under another name",
    )


def _no_switch(graph: CallGraph, found: list[FunctionCalls], who: str, depth: int) -> Judged:
    loose = _reached(graph, found, depth, follow_dynamic=True)
    maybe = [path for f, path in loose if f.switches]
    if maybe:
        return Judged(
            "unjudged", f"a switch only through dynamic dispatch: {' -> '.join(maybe[0])}"
        )
    partial = [f for f, _path in loose if not f.complete]
    if partial:
        where = f"{partial[0].path}:{partial[0].line}"
        return Judged("unjudged", f"the body of `{partial[0].name}` at {where} was not fully read")
    computed = graph.opaque(found, depth, frozenset())
    if computed is not None:
        return Judged(
            "unjudged",
            f"`{computed.caller.name}` runs `{computed.call.text}` at {computed.where()}, a "
            "callee the code computes, which may hold a switch",
        )
    python = [f for f in found if f.path.endswith(".py")]
    if python:
        return Judged(
            "unjudged",
            f"`{who}` is Python ({python[0].path}:{python[0].line}), whose switches are mostly "
            "if/elif chains, which the model does not record (it records `match` statements)",
        )
    places = ", ".join(f"{f.path}:{f.line}" for f in found[:3])
    instead = calls_of(found)
    return Judged(
        "contradicted",
        f"`{who}` ({places}) holds no switch statement, nor do the functions it calls within "
        f"{depth} calls; it calls {instead}",
        f"holds no switch statement; {who} calls {instead}",
    )
