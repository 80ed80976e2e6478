"""Gate 16, wiring_claims (hard): judge the wiring claims gate 13 only flags.

Gate 13 counts sentences and diagrams that assert a call graph; a human then checks each
one. This gate checks the ones it can against the API model's call graph at the ref
(:mod:`~pytest_postgates.helpers.wiring_verdicts`): call claims (``X calls Y``, ``Y is
called by X``, ``X delegates to Y``, ``under the hood X invokes Y``) and the edges of
function-flow diagrams, and the Chinese call sentences of repository wikis
(:mod:`~pytest_postgates.helpers.wiring_chinese`); against the declarations the return
types and visibility claims name (:mod:`~pytest_postgates.helpers.wiring_shapes`), and
against the bodies what a function holds and the switches it makes
(:mod:`~pytest_postgates.helpers.wiring_bodies`).
Each claim is ``verified``, ``contradicted`` or ``unjudged`` with its evidence, listed as
``detail.claims``; the gate fails on any contradicted claim. Claims that are opinions of a
component's role ("thin", "the gate", "orchestrates") are listed as unjudged.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pytest_postgates.config import option
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.api_model import ApiModel, api_model
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers.claim_scan import scan_claims, scan_mermaid
from pytest_postgates.helpers.wiring_bodies import (
    BodyClaim,
    contains_claims,
    judge_contains,
    judge_switch,
    switch_claims,
)
from pytest_postgates.helpers.wiring_chinese import chinese_claims
from pytest_postgates.helpers.wiring_lines import extra_claims
from pytest_postgates.helpers.wiring_mermaid import mermaid_edges
from pytest_postgates.helpers.wiring_shapes import (
    ShapeClaim,
    judge_return,
    judge_visibility,
    return_claims,
    visibility_claims,
)
from pytest_postgates.helpers.wiring_subjects import (
    Subject,
    call_subjects,
    subject,
)
from pytest_postgates.helpers.wiring_verdicts import (
    Judged,
    files_named,
    inherited,
    judge_call,
    judge_edge,
)
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

GATE_VERSION = 10
CALL_CODES = ("CALLS", "CALL_DIRECTION")
OPINIONS = {
    "ORCHESTRATES": "says a component orchestrates others",
    "GATE_ROLE": "gives a component a role (the gate, the entry point, the engine)",
    "THIN_CLASS": "says a component is thin or small",
}
NOT_YET = "this shape is not judged yet (gate 13 flags it for a human)"
SHAPES = {"RETURN_TYPE": return_claims, "VISIBILITY": visibility_claims}
BODIES = {"FN_CONTAINS": contains_claims, "SWITCH": switch_claims}
FIX = (
    "check the call graph at the ref: name what the code calls, or describe what the "
    "component is for rather than how it is wired"
)


@dataclass(frozen=True)
class WiringClaimsSettings:
    """Gate 16's settings."""

    wiring_call_depth: int = option(
        3,
        "int",
        "the most calls a verified path may take (X -> A -> Y is 2); a call claim is "
        "contradicted only when no path this long exists",
        bounds=(1, True, 8),
    )
    wiring_edge_depth: int = option(
        6,
        "int",
        "the same for a mermaid edge: a diagram's arrow spans layers the prose leaves out, so "
        "an edge is contradicted only when no path this long exists",
        bounds=(1, True, 12),
    )


def _entry(
    line: int, code: str, text: str, judged: Judged, subject: str = "", frame: str = ""
) -> dict[str, Any]:
    entry = {
        "line": line,
        "code": code,
        "text": text,
        "verdict": judged.verdict,
        "evidence": judged.evidence,
    }
    if subject:
        entry["subject"] = subject
    if frame:
        # read by a gate-16 frame (helpers/wiring_lines.py), not by gate 13's pattern
        entry["frame"] = frame
    return entry


def _own_type(model: ApiModel, name: str) -> bool:
    """Whether ``name`` is a type of its own: a product class or enum, an interface with
    members, or an alias of literal values (another type alias, ``type A = B``, is read as
    an interface without any, and may name the same type as another name)."""
    entries = model.classes.get(name, [])
    literal = name in model.facts.literal_types
    return bool(entries) and all(e.kind != "interface" or e.members or literal for e in entries)


def _named_classes(post: Post, model: ApiModel) -> frozenset[str]:
    """The product classes the post's prose names in code spans (`TogetherAIProvider`,
    `Client.send`'s `Client`): whose method a bare method name of the post is."""
    named: set[str] = set()
    for span in post.prose_code_spans:
        written = subject(span.text)
        if written is None:
            continue
        for name in (written.name, written.owner):
            if any(entry.kind == "class" for entry in model.classes.get(name, [])):
                named.add(name)
    return frozenset(named)


def _pair(caller: Subject, callee: Subject) -> str:
    return f"{caller.text} -> {callee.text}"


def _judge_chinese(
    model: ApiModel,
    caller: Subject,
    target: Subject,
    depth: int,
    named: frozenset[str],
    files: frozenset[str],
) -> Judged:
    """A Chinese call claim's verdict (:mod:`~pytest_postgates.helpers.wiring_chinese`):
    the call graph's, but unjudged where a wiki's loose naming is read, not its wiring: an
    unqualified caller of the callee's own name (a hook's ``updateBlock`` calling
    ``BlockManager.updateBlock`` is read as the callee itself), a method of the caller
    class (a step of the class), and a class or component as the callee (its methods
    called, or a JSX render, which the call graph does not list as a call of it)."""
    graph, classes = model.call_graph, model.classes
    if not caller.owner and not caller.members and caller.name == target.name:
        return Judged(
            "unjudged",
            f"`{caller.text}` and `{target.text}` share the name `{target.name}`: which "
            "function the caller is, the sentence does not say",
        )
    judged = judge_call(graph, classes, caller, target, depth, named, files)
    if judged.verdict != "contradicted":
        return judged
    if caller.name in classes and inherited(graph, classes, caller.name, target.name):
        return Judged(
            "unjudged", f"`{target.text}` is a method of `{caller.text}`: a step of the class"
        )
    if target.name[:1].isupper() and not (target.owner or target.called or target.constructs):
        return Judged(
            "unjudged",
            f"`{target.text}` names a class or component: a call of its methods or a render "
            "of it is not read as a call of it",
        )
    return judged


def _model(post: Post, context: GateContext) -> ApiModel:
    try:
        index = context.evidence.index_for(post.path)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    return api_model(index, context.evidence.cache_dir)


# (line, code, text, caller, callee, diagram, frame): a call the call graph is asked about
# (diagram: for a flowchart edge, the functions its diagram names, else None; frame: the
# gate-16 frame that read the line, "" for gate 13's claims).
Asked = tuple[int, str, str, Subject, Subject, frozenset[str] | None, str]
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# (line, code, text, claim, frame): a RETURN_TYPE or VISIBILITY claim about a declaration.
Declared = tuple[int, str, str, ShapeClaim, str]
# (line, code, text, claim): a FN_CONTAINS or SWITCH claim about a body.
Held = tuple[int, str, str, BodyClaim]


def _read(post: Post) -> tuple[list[dict[str, Any]], list[Asked], list[Declared], list[Held]]:
    """Gate 13's claims of the post: the ones listed unjudged right away (with why), the
    calls and edges to ask the call graph about, the declaration and the body claims."""
    entries: list[dict[str, Any]] = []
    asked: list[Asked] = []
    declared: list[Declared] = []
    held: list[Held] = []
    seen_lines: dict[int, str] = {}

    def unjudged(line: int, code: str, text: str, reason: str, frame: str = "") -> None:
        entries.append(_entry(line, code, text, Judged("unjudged", reason), frame=frame))

    def ask_calls(line: int, code: str, text: str, frame: str = "") -> None:
        for subjects in call_subjects(post, line):
            caller = subjects.caller
            if caller is None:
                unjudged(line, code, text, subjects.reason, frame)
                continue
            asked.extend(
                (line, code, text, caller, target, None, frame) for target in subjects.callees
            )

    def ask_shapes(line: int, code: str, text: str, frame: str = "") -> None:
        for shape in SHAPES[code](post, line):
            if shape.who is None:
                unjudged(line, code, text, shape.reason, frame)
            else:
                strict = replace(shape, own_types_only=True) if frame else shape
                declared.append((line, code, text, strict, frame))

    scanned = scan_claims(post)
    for claim in scanned:
        line, code, text = claim.line, claim.code, claim.text
        if claim.in_code:
            unjudged(line, code, text, "a line of fenced code, not a claim of the prose")
        elif code in OPINIONS:
            unjudged(
                line, code, text, f"an opinion: it {OPINIONS[code]}, which no call graph shows"
            )
        elif code in BODIES:
            for body in BODIES[code](post, line):
                if body.who is None:
                    unjudged(line, code, text, body.reason)
                else:
                    held.append((line, code, text, body))
        elif code not in CALL_CODES and code not in SHAPES:
            unjudged(line, code, text, NOT_YET)
        elif line in seen_lines and code in CALL_CODES:
            unjudged(
                line, code, text, f"the same sentence as the {seen_lines[line]} claim of this line"
            )
        elif code in SHAPES:
            ask_shapes(line, code, text)
        else:
            seen_lines[line] = code
            ask_calls(line, code, text)
    english = {c.line for c in scanned if c.code in CALL_CODES}
    for extra in extra_claims(post, {(c.line, c.code) for c in scanned if not c.in_code}):
        if extra.code in SHAPES:
            ask_shapes(extra.line, extra.code, extra.text, extra.frame)
        else:
            english.add(extra.line)
            ask_calls(extra.line, extra.code, extra.text, extra.frame)
    for chinese in chinese_claims(post, english):
        frame = f"zh {chinese.frame}"
        if chinese.caller is None:
            unjudged(chinese.line, "CALLS", chinese.text, chinese.reason, frame)
        asked.extend(
            (chinese.line, "CALLS", chinese.text, chinese.caller, target, None, frame)
            for target in chinese.callees
            if chinese.caller is not None
        )
    fences = {fence.start_line: fence for fence in post.fences}
    for flow in scan_mermaid(post):
        fence = fences.get(flow.line)
        edges = mermaid_edges(fence.content, flow.line + 1) if fence is not None else []
        # Every name the diagram writes (its nodes, labels and titles: "saveImage flow").
        diagram = frozenset(_WORD.findall(fence.content)) if fence is not None else frozenset()
        for edge in edges:
            asked.append(
                (edge.line, "MERMAID_EDGE", edge.text, edge.source, edge.target, diagram, "")
            )
    return entries, asked, declared, held


def check(post: Post, context: GateContext) -> CheckResult:
    own = context.settings.for_gate(WiringClaimsSettings)
    depth, edge_depth = own.wiring_call_depth, own.wiring_edge_depth
    entries, asked, declared, held = _read(post)
    findings: list[Finding] = []
    if asked or declared or held:
        model = _model(post, context)
        graph = model.call_graph
        named = _named_classes(post, model)
        files = files_named(graph, (span.text for span in post.prose_code_spans))
        for line, code, text, shape, frame in declared:
            assert shape.who is not None
            if code == "RETURN_TYPE":
                judged = judge_return(graph, shape, lambda name: _own_type(model, name))
            else:
                judged = judge_visibility(graph, shape)
            who = shape.who.text
            entries.append(_entry(line, code, text, judged, f"{who}: {shape.says}", frame))
            if judged.verdict == "contradicted":
                returns = code == "RETURN_TYPE"
                said = f"does not return {shape.says}" if returns else f"is not {shape.says}"
                findings.append(Finding(line, code, f"{who} {said}; {who} {judged.instead}", FIX))
        for line, code, text, body in held:
            assert body.who is not None
            if body.held is not None:
                judged = judge_contains(graph, model.classes, body, depth)
                subject = _pair(body.who, body.held)
            else:
                judged = judge_switch(graph, model.classes, body, depth)
                subject = f"{body.who.text}: switch" + (f" over {body.value}" if body.value else "")
            entries.append(_entry(line, code, text, judged, subject))
            if judged.verdict == "contradicted":
                who = body.who.text
                message = (
                    f"{who} does not hold {body.held.text}; {who} calls {judged.instead}"
                    if body.held is not None
                    else f"{who} {judged.instead}"
                )
                findings.append(Finding(line, code, message, FIX))
        for line, code, text, caller, target, diagram, frame in asked:
            if diagram is not None:
                judged = judge_edge(graph, model.classes, caller, target, edge_depth, named,
                                    files, diagram)  # fmt: skip
            elif frame.startswith("zh "):
                judged = _judge_chinese(model, caller, target, depth, named, files)
            else:
                judged = judge_call(graph, model.classes, caller, target, depth, named, files)
            entries.append(_entry(line, code, text, judged, _pair(caller, target), frame))
            if judged.verdict == "contradicted":
                message = (
                    f"{caller.text} does not call {target.text}; "
                    f"{caller.text} calls {judged.instead}"
                )
                findings.append(Finding(line, code, message, FIX))
    entries.sort(key=lambda e: (e["line"], e["code"], e.get("subject", "")))
    detail = {
        "depth": depth,
        "edge_depth": edge_depth,
        "claims": entries,
        "counts": _counts(entries),
    }
    return CheckResult(findings, detail)


def _counts(entries: list[dict[str, Any]]) -> dict[str, int]:
    counted = Counter(entry["verdict"] for entry in entries)
    return {
        verdict: counted.get(verdict, 0) for verdict in ("verified", "contradicted", "unjudged")
    }


def decide(result: CheckResult, settings: WiringClaimsSettings) -> Decision:
    """FAIL while a contradicted claim is left (suppressed ones leave it)."""
    kept = {(f.line, f.code) for f in result.findings}
    detail = dict(result.detail)
    claims = [
        claim
        if claim["verdict"] != "contradicted" or (claim["line"], claim["code"]) in kept
        else {**claim, "verdict": "unjudged", "evidence": "suppressed: " + claim["evidence"]}
        for claim in detail["claims"]
    ]
    detail.update(claims=claims, counts=_counts(claims))
    counts = detail["counts"]
    summary = (
        f"{len(claims)} wiring claims: {counts['verified']} verified, "
        f"{counts['contradicted']} contradicted, {counts['unjudged']} unjudged"
    )
    verdict: Literal["PASS", "FAIL"] = "FAIL" if result.findings else "PASS"
    return Decision(verdict, summary, len(result.findings), detail)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    inputs = commit_inputs(post_path, context)
    if inputs is None:
        return None
    own = context.settings.for_gate(WiringClaimsSettings)
    return f"{inputs}|gate-{GATE_VERSION}|depth-{own.wiring_call_depth}-{own.wiring_edge_depth}"


GATE = Gate(
    id=16,
    name="wiring_claims",
    advisory=False,
    kind="hard",
    description="Call claims and function-flow diagrams agree with the product's call graph.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    settings=WiringClaimsSettings,
)
