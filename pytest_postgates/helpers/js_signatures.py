"""Gate 15's reading of documented signatures in JavaScript/TypeScript fences: a declaration
without a body (``declare function ifBreak(breakContents: Doc, ...): Doc;``, an overload
signature) or an API listing's signature line (``makeString(rawContent: string, ...):
string;``) documents a product function when the product declares a top-level function of
that name. Each parameter it writes must then be that function's parameter at the same
position, as the API model reads it: a near miss (``unescapeUnnecessarEscapes``) or a name
sharing nothing with the real one (``noBreak`` for ``flatContents``) is a finding; an
abbreviation (``opts`` for ``options``) or a name sharing a word (``rawContent`` for
``rawText``) is the same parameter, written the docs' way. A fence's own functions (with a
body) are the reader's code, never a documentation of the product's.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.model_facts import CallableFacts
from pytest_postgates.evidence.name_spelling import words
from pytest_postgates.evidence.type_model import TypeModel

# Where a fence may document a signature: a bodiless function declaration, or a line that is
# a call with typed parameters and a return type (a listing of an API's functions).
HINT = re.compile(
    r"^\s*(?:export\s+)?(?:declare\s+)?function\s+[A-Za-z_$]|"
    r"^[A-Za-z_$][\w$]*\s*\([^()]*\)\s*:\s*[^;{()]+;?\s*$",
    re.M,
)
# (Not indented: an interface's or class's method signature is no function of a listing.)
_SIGNATURE_LINE = re.compile(r"^([A-Za-z_$][\w$]*)\s*\(([^()]*)\)\s*:\s*([^;{()]+?);?\s*$")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
# A documented name this close to the real one is a misspelling of it.
_TYPO = 0.85


@dataclass(frozen=True)
class Documented:
    """A documented parameter: the function, its position, the name written and the row."""

    function: str
    position: int
    name: str
    row: int


@dataclass(frozen=True)
class Verdict:
    """``ok`` (the same parameter), ``wrong`` (a finding: ``real`` is the product's name at
    that place, ``near`` says it is a misspelling) or ``unjudged`` (``reason``)."""

    outcome: str
    real: tuple[str, ...] = ()
    near: bool = False
    reason: str = ""
    where: str = ""


def documented(content: str, parser: Any) -> Iterator[Documented]:
    """Every parameter the fence's bodiless declarations and signature lines document."""
    lines = content.splitlines()
    for row, line in enumerate(lines):
        match = _SIGNATURE_LINE.match(line)
        if match and not line.lstrip().startswith(("function", "if", "for", "while", "return")):
            yield from _parameters(f"declare function {line.strip()}", parser, row)
    tree = parser.parse(content.encode("utf-8"))
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "function_signature":
            yield from _from_signature(node, content.encode("utf-8"), node.start_point[0])
        stack.extend(node.named_children)


def _parameters(text: str, parser: Any, row: int) -> Iterator[Documented]:
    source = text.encode("utf-8")
    root = parser.parse(source).root_node
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_signature":
            yield from _from_signature(node, source, row)
            return
        stack.extend(node.named_children)


def _from_signature(node: Any, source: bytes, row: int) -> Iterator[Documented]:
    name = node.child_by_field_name("name")
    params = node.child_by_field_name("parameters")
    if name is None or params is None:
        return
    function = source[name.start_byte : name.end_byte].decode("utf-8", "replace")
    position = 0
    for param in params.named_children:
        if param.type not in ("required_parameter", "optional_parameter"):
            continue
        pattern = param.child_by_field_name("pattern")
        text = source[pattern.start_byte : pattern.end_byte].decode() if pattern else ""
        if pattern is not None and pattern.type == "identifier" and text != "this":
            yield Documented(function, position, text, row)
        if text != "this":
            position += 1


def judge(model: ApiModel, declared: TypeModel | None, item: Documented) -> Verdict | None:
    """The documented parameter against the product's functions of that name (None: the
    product declares no top-level function of that name: not a documentation of it)."""
    found = _functions(model, item.function)
    if not found:
        return None
    at = item.position
    real = tuple(dict.fromkeys(p for f in found for p in _at(declared, f, at)))
    where = found[0].path
    if not real:
        if any(f.var_keyword for f in found):
            return Verdict("ok")
        return Verdict("unjudged", reason=f"{item.function} takes no parameter {item.position + 1}")
    if item.name in real:
        return Verdict("ok")
    if not all(_IDENTIFIER.fullmatch(r) for r in real):
        reason = f"{item.function}'s parameter {item.position + 1} is destructured"
        return Verdict("unjudged", reason=reason)
    if any(difflib.SequenceMatcher(None, item.name, r).ratio() >= _TYPO for r in real):
        return Verdict("wrong", real, True, where=where)  # a misspelling of the real name
    if any(_same(item.name, r) for r in real):
        return Verdict("ok")
    if len(item.name) < 3:
        return Verdict("unjudged", reason=f"{item.name}: a placeholder name")
    return Verdict("wrong", real, False, where=where)


def _at(declared: TypeModel | None, function: CallableFacts, position: int) -> list[str]:
    """The parameter names a function has at ``position``: per signature where the declared
    types list its overloads (the model merges their names), else as the model reads it."""
    found = declared.signatures(function.path, "", function.name) if declared else None
    if found is None:
        return [function.params[position]] if position < len(function.params) else []
    return [s.params[position].name for s in found[1] if position < len(s.params)]


def _functions(model: ApiModel, name: str) -> list[CallableFacts]:
    """The product's top-level JavaScript/TypeScript functions named ``name`` that their
    file exports under that name: an internal helper (``export default preprocess``) that
    shares its name with a hook the docs ask the reader to write is no documented API."""
    return [
        f
        for qualname, functions in model.callables.items()
        if qualname.endswith("." + name)
        for f in functions
        if f.qualname == f"{f.path}.{name}"
        and not f.path.endswith((".py", ".pyi"))
        and name in model.facts.modules.get(f.path, ())
    ]


def _same(written: str, real: str) -> bool:
    """The same parameter written the docs' way: an abbreviation (``opts``, ``cb``) or a
    name sharing a word with the real one (``rawContent``, ``rawText``)."""
    lower, other = written.lower(), real.lower()
    if lower[:1] == other[:1] and (_subsequence(lower, other) or _subsequence(other, lower)):
        return True
    return bool(set(words(written)) & set(words(real)))


def _subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(char in letters for char in short)
