"""Gate 15: JavaScript/TypeScript samples that call the product's functions unqualified.

A doc about a module of helpers (document builders, a DSL, test utilities) often writes
``group(concat([line, "]"]))`` with no import: the reader has the module's functions in
scope. Such a fence is tied to the product by what it calls: when at least two of its free
calls (names the post never binds, no JavaScript global) are functions one product file
declares, that file is what the fence calls, and every other free call must be something
the product's code names. A free call the code never writes anywhere is an invented
function; one the code writes elsewhere (another module's, an import of its own) is left
alone. A fence with fewer than two such calls says nothing of where its free names come
from, and none is judged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.name_spelling import words

# A call written as a bare name (not a member call `x.f(`): what a free call looks like.
_BARE_CALL = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(")
# Functions and constructors JavaScript, Node, browsers and test runners provide.
JS_GLOBALS = frozenset(
    {"Object", "Array", "String", "Number", "Boolean", "Symbol", "BigInt", "Math", "JSON",
     "Date", "RegExp", "Error", "TypeError", "RangeError", "SyntaxError", "Promise", "Map",
     "Set", "WeakMap", "WeakSet", "Proxy", "Reflect", "Function", "parseInt", "parseFloat",
     "isNaN", "isFinite", "encodeURIComponent", "decodeURIComponent", "encodeURI",
     "decodeURI", "eval", "setTimeout", "setInterval", "clearTimeout", "clearInterval",
     "setImmediate", "queueMicrotask", "structuredClone", "fetch", "require", "atob", "btoa",
     "alert", "URL", "URLSearchParams", "TextEncoder", "TextDecoder", "AbortController",
     "Response", "Request", "Headers", "Blob", "FormData", "ArrayBuffer", "Uint8Array",
     "describe", "it", "test", "expect", "beforeEach", "afterEach", "beforeAll", "afterAll",
     "if", "for", "while", "switch", "catch", "function", "return", "typeof", "await"}
)  # fmt: skip
# How many of a fence's free calls must be one product file's functions to tie it there.
_ANCHORS = 2


@dataclass(frozen=True)
class Anchor:
    """The product file a fence calls unqualified, and which of its functions it calls."""

    path: str
    functions: frozenset[str]


def bare_calls(content: str) -> set[str]:
    """Names a fence's text calls bare (a cheap test before parsing it)."""
    return {m.group(1) for m in _BARE_CALL.finditer(content)} - JS_GLOBALS


def anchor(model: ApiModel, names: Iterable[str]) -> Anchor | None:
    """The product file declaring, as its own top-level functions, the most of ``names``
    (at least two), or None."""
    by_file: dict[str, set[str]] = {}
    for name in names:
        for decl in model.declares(name):
            own = decl.kind == "function" and decl.owner == decl.path
            if own and not decl.path.endswith((".py", ".pyi")):
                by_file.setdefault(decl.path, set()).add(name)
    if not by_file:
        return None
    path, found = max(by_file.items(), key=lambda item: (len(item[1]), item[0]))
    return Anchor(path, frozenset(found)) if len(found) >= _ANCHORS else None


def free_callees(root: Any, source: bytes) -> list[tuple[str, Any]]:
    """Each call of a bare name in the tree, in source order: (name, call node)."""
    found: list[tuple[str, Any]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if function is not None and function.type == "identifier":
                text = source[function.start_byte : function.end_byte].decode("utf-8", "replace")
                if text not in JS_GLOBALS:
                    found.append((text, node))
        stack.extend(reversed(node.named_children))
    return found


def unknown_function(model: ApiModel, name: str) -> bool:
    """Whether the product's code never names ``name`` (declares or writes it)."""
    return not model.declares(name) and name not in model.facts.identifiers


def finding(model: ApiModel, name: str, anchor: Anchor) -> tuple[str, list[str]]:
    """A free call the code never names: the finding's reason and the nearest functions."""
    close = nearest_functions(model, name, anchor.path)
    called = ", ".join(sorted(anchor.functions))
    hint = "; did you mean " + " or ".join(f"`{c}`" for c in close) + "?" if close else ""
    return (f"{name}() is no function of the product: the fence calls {anchor.path}'s "
            f"{called} unqualified, and the code never names {name}{hint}"), close  # fmt: skip


def nearest_functions(model: ApiModel, name: str, path: str) -> list[str]:
    """The functions of the file ``path`` nearest ``name``: its spellings, then the
    functions whose words are some of its words (``group`` for ``multilineGroup``)."""
    candidates = {d.name for d in model.facts.decls if d.owner == path and d.kind == "function"}
    mine = set(words(name))
    part_of = sorted(c for c in candidates if set(words(c)) < mine)
    return list(dict.fromkeys([*model.nearest(name, candidates), *part_of]))[:3]


def check_free_calls(
    model: ApiModel,
    calls: list[tuple[str, Any]],
    is_bound: Callable[[Any, str], bool],
    report: Callable[[str, Any, Anchor], None],
) -> None:
    """Hand to ``report``, with the file the fence is tied to, each free call that is one
    of that file's functions (checked) or a name the code never writes (a finding); a
    name the code writes elsewhere (another module's function) is not judged here."""
    free = [(name, node) for name, node in calls if not is_bound(node, name)]
    found = anchor(model, {name for name, _ in free})
    if found is None:
        return
    for name, node in free:
        if name in found.functions or unknown_function(model, name):
            report(name, node, found)
