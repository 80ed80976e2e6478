"""Gate 16's two declaration shapes: what a function returns and how visible it is.

``RETURN_TYPE`` ("`X` returns a `Promise<StreamResult>`") is judged against the return
type the function declares (TypeScript and Python annotations; an async function's
``Promise<T>`` may be called ``T``); ``VISIBILITY`` ("`X` is a private method", "the
private helper `X`") against TypeScript's modifiers and ``#private`` names, or Python's
leading underscore. A function without a declared return type, or a name that is no
function of the product, is unjudged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.model_facts import FunctionCalls
from pytest_postgates.helpers.wiring_subjects import (
    CALLER_GAP,
    Subject,
    spans_in,
    subject,
    without_aside,
)
from pytest_postgates.helpers.wiring_verdicts import Judged

if TYPE_CHECKING:
    from pytest_postgates.post import Post

_RETURNS = re.compile(r"\breturns?\s+(?:a\s+|an\s+)?", re.IGNORECASE)
_TYPE = re.compile(r"`?([A-Za-z_$][\w$.]*)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
# Markup written before a code span: a MyST/Sphinx role (``{py:class}`dict` ``), or the
# bracket of a link whose text it is (``[`Vitest`](/api/vitest)``).
_ROLE = re.compile(r"(?:\{[\w:.-]+\}|\[)(?=`)")
_VISIBILITY = re.compile(
    r"\b(?P<before>private|public|protected)\s+(?:static\s+)?(?:method|function|helper)\b"
    r"|\bis (?:a )?(?P<after>private|public|protected)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ShapeClaim:
    """A declaration claim: the function it is about and what it says (a type written as
    the post writes it, or a visibility word); or why it could not be read."""

    who: Subject | None = None
    says: str = ""
    reason: str = ""
    # Read by a gate-16 frame, not gate 13's pattern ("returns a `Selection`"): the type is
    # any code span, so it is contradicted only when it is the product's own type or a
    # primitive (a third party's or a platform's type may be what the declared one is).
    own_types_only: bool = False


def _balanced_type(text: str, start: int) -> str:
    """The type written at ``start`` (``Promise<Map<string, X>>``, ``StreamResult``)."""
    match = _TYPE.match(text, start)
    if match is None:
        return ""
    end, depth = match.end(), 0
    while end < len(text):
        char = text[end]
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
            if depth == 0:
                end += 1
                break
        elif depth == 0:
            break
        end += 1
    return text[match.start(1) : end].strip("`")


def return_claims(post: Post, line: int) -> list[ShapeClaim]:
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    spans = spans_in(post, line)
    found: list[ShapeClaim] = []
    for verb in _RETURNS.finditer(text):
        before = without_aside(text, [s for s in spans if s[1] <= verb.start()])
        if not before or not CALLER_GAP.fullmatch(text[before[-1][1] : verb.start()]):
            continue
        who = subject(before[-1][2])
        role = _ROLE.match(text, verb.end())  # "returns a {js:class}`Promise`"
        says = _balanced_type(text, role.end() if role else verb.end())
        if who is not None and says:
            found.append(ShapeClaim(who, says))
    return found or [ShapeClaim(reason="no code span names the function that returns it")]


def visibility_claims(post: Post, line: int) -> list[ShapeClaim]:
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    spans = spans_in(post, line)
    found: list[ShapeClaim] = []
    for match in _VISIBILITY.finditer(text):
        if match.group("before"):
            after = [s for s in spans if s[0] >= match.end() and s[0] - match.end() <= 2]
            named = after[0] if after else None
            word = match.group("before")
        else:
            before = [s for s in spans if s[1] <= match.start()]
            gap = text[before[-1][1] : match.start()] if before else "x"
            named = before[-1] if before and CALLER_GAP.fullmatch(gap) else None
            word = match.group("after")
        who = subject(named[2]) if named is not None else None
        if who is not None:
            found.append(ShapeClaim(who, word.lower()))
    return found or [ShapeClaim(reason="no code span names the function next to the word")]


def _functions(graph: CallGraph, who: Subject) -> list[FunctionCalls]:
    found = graph.named(who.name, who.owner) if who.owner else []
    return found or graph.named(who.name)


def _outer(type_text: str) -> str:
    names = _IDENT.findall(type_text)
    return names[0].rsplit(".", 1)[-1] if names else ""


def judge_return(
    graph: CallGraph, claim: ShapeClaim, is_own_type: Callable[[str], bool] = lambda _n: False
) -> Judged:
    """The claim against the declared return types; ``is_own_type``: whether a name is a
    type of its own (a product class, interface or enum; not an alias, which may name the
    same type as another name)."""
    assert claim.who is not None
    functions = _functions(graph, claim.who)
    if not functions:
        return Judged("unjudged", f"`{claim.who.text}` is no function or method of the product")
    if claim.says.strip() == "Promise":  # a bare Promise: any async function returns one
        for function in functions:
            if "async" in function.modifiers and not function.path.endswith((".py", ".pyi")):
                where = f"{function.path}:{function.line}"
                return Judged(
                    "verified", f"`{function.name}` is async at {where}: it returns a Promise"
                )
    declared = [f for f in functions if f.returns]
    if not declared:
        return Judged("unjudged", f"`{claim.who.text}` declares no return type")
    said = re.sub(r"\s+", "", claim.says)
    said_names = set(_IDENT.findall(said))
    for function in declared:
        written = re.sub(r"\s+", "", function.returns)
        unwrapped = re.sub(r"^Promise<(.*)>$", r"\1", written)
        where = f"{function.path}:{function.line}"
        if said in (written, unwrapped) or said_names <= set(_IDENT.findall(written)):
            return Judged("verified", f"`{function.name}` declares `{function.returns}` at {where}")
    first = declared[0]
    where = f"{first.path}:{first.line}"
    outer = _outer(claim.says)
    if claim.own_types_only and not (outer in _PRIMITIVES or is_own_type(outer)):
        return Judged(
            "unjudged",
            f"declared `{first.returns}` at {where}; the claim's `{claim.says}` is no type "
            "the product declares, so whether the declared type is one is not known",
        )
    if all(outer not in _IDENT.findall(f.returns) for f in declared) or all(
        _other_type(claim.says, f.returns, is_own_type) for f in declared
    ):
        return Judged(
            "contradicted",
            f"`{claim.who.text}` declares `{first.returns}` at {where}, not `{claim.says}`",
            f"returns `{first.returns}`",
        )
    return Judged(
        "unjudged", f"declared `{first.returns}` at {where}; the claim says `{claim.says}`"
    )


# Types no other name denotes (a product class could not be one of them).
_PRIMITIVES = frozenset(
    {"string", "number", "boolean", "void", "undefined", "null", "never", "bigint", "symbol"}
    | {"str", "int", "float", "bool", "bytes", "None"}
)


def _other_type(said: str, declared: str, is_own_type: Callable[[str], bool]) -> bool:
    """Whether ``said`` names other types than ``declared`` inside the same wrapper
    (``Promise<Receipt>`` for ``Promise<Reply>``): no name in common once ``Promise`` is
    set aside, and every name a type of its own or a primitive (an alias, a type
    parameter or ``any`` may stand for the other)."""
    names = [set(_IDENT.findall(text)) - {"Promise"} for text in (said, declared)]
    if not names[0] or not names[1] or names[0] & names[1]:
        return False
    return all(name in _PRIMITIVES or is_own_type(name) for name in names[0] | names[1])


def visibility_of(function: FunctionCalls) -> str:
    for word in ("private", "protected", "public"):
        if word in function.modifiers:
            return word
    if function.name.startswith("#"):
        return "private"
    if function.path.endswith((".py", ".pyi")):
        return (
            "private"
            if function.name.startswith("_") and not function.name.endswith("__")
            else "public"
        )
    return "public"  # TypeScript's default


def judge_visibility(graph: CallGraph, claim: ShapeClaim) -> Judged:
    assert claim.who is not None
    functions = _functions(graph, claim.who)
    if not functions:
        return Judged("unjudged", f"`{claim.who.text}` is no function or method of the product")
    for function in functions:
        if visibility_of(function) == claim.says:
            where = f"{function.path}:{function.line}"
            return Judged("verified", f"`{function.name}` is {claim.says} at {where}")
    first = functions[0]
    actual = visibility_of(first)
    return Judged(
        "contradicted",
        f"`{claim.who.text}` is {actual} at {first.path}:{first.line}, not {claim.says}",
        f"is {actual}",
    )
