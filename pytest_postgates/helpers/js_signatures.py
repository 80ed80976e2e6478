"""Gate 15's reading of documented signatures in JavaScript/TypeScript fences: a declaration
without a body (``declare function ifBreak(breakContents: Doc, ...): Doc;``, an overload
signature) or an API listing's signature line (``makeString(rawContent: string, ...):
string;``) documents the product function its name resolves to. Each parameter it writes
must then be that function's parameter at the same position, as the API model reads it: a
near miss (``unescapeUnnecessarEscapes``) or a name sharing nothing with the real one
(``noBreak`` for ``flatContents``) is a finding; an abbreviation (``opts`` for ``options``)
or a name sharing a word (``rawContent`` for ``rawText``) is the same parameter, written the
docs' way. A fence's own functions (with a body) are the reader's code, never a
documentation of the product's.

Which function a name documents (:func:`callee`): the one the doc's samples bind it to (a
named import, a member of an imported namespace, a name destructured from one), else the one
the package's entry points hand the reader under that name
(:mod:`pytest_postgates.evidence.public_functions`: through re-exports, namespaces and
CommonJS requires). A name that resolves to neither, while some file of the product
declares a function of that name, is unjudged with that reason: a same-named function
elsewhere (a server-side command of a browser API) is never the one checked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.model_facts import CallableFacts
from pytest_postgates.evidence.name_spelling import words
from pytest_postgates.evidence.public_functions import Reached
from pytest_postgates.evidence.type_model import TypeModel
from pytest_postgates.helpers.js_types import JsTypes
from pytest_postgates.helpers.sample_checks import SampleReport, SampleValue

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading

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
# A listing's line that declares a member of a class in the ``Class.member`` notation
# (``QueryBuilder.where(...): QueryBuilder;``): the name, its parentheses and a return type,
# nothing else on the line.
_LISTED_MEMBER = re.compile(
    r"^\s*([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\s*\((?:[^()]|\([^()]*\))*\)"
    r"\s*:\s*(?:[^;{}=]|=>)+?;?\s*$"
)
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
    where: str = ""  # the file of the function judged ("": the name resolved to none)
    via: str = ""  # how the reader reaches it


def listed_member(line: str) -> tuple[str, str] | None:
    """The class and member a listing's ``Class.member(...): R`` line declares (None when
    the line is none: a call, with no return type after it)."""
    match = _LISTED_MEMBER.match(line)
    return (match.group(1), match.group(2)) if match else None


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


@dataclass(frozen=True)
class Callee:
    """The product functions a documented name resolves to and how the reader reaches
    them (``via``), or why it resolves to none (``reason``)."""

    functions: tuple[CallableFacts, ...] = ()
    via: str = ""
    reason: str = ""


def callee(
    model: ApiModel,
    name: str,
    bound: SampleValue | None,
    reach: Callable[[str], Sequence[Reached]],
    package: str,
) -> Callee | None:
    """What ``name`` documents: the function the doc's samples bind it to (``bound``), else
    the functions the package's entry points reach under it (``reach``, asked only of a
    name the product declares somewhere); None when it is no product function anywhere (a
    hook the reader writes, another library's)."""
    if bound is not None:
        binding = bound.binding
        if bound.kind == "export" and isinstance(binding, Binding) and binding.kind == "function":
            found = _declared(model, binding.path, binding.local)
            shown = f"{bound.name} of {bound.module}"
            if found:
                return Callee(found, shown)
            return Callee(reason=f"the sample imports it ({shown}); the model reads no "
                          f"parameters of {binding.local} in {binding.path}")  # fmt: skip
        what = bound.origin or (binding.kind if isinstance(binding, Binding) else bound.kind)
        return Callee(reason=f"the sample binds it to a product value that is no function ({what})")
    if not model.declares(name):
        return None
    reached = reach(name)
    functions = tuple(f for r in reached for f in _declared(model, r.path, r.local))
    if functions:
        return Callee(functions, reached[0].via)
    elsewhere = sorted({f.path for f in _functions(model, name)})
    if not elsewhere:
        return None
    return Callee(reason=(
        f"the samples import no {name} and no entry point of {package} exports a function "
        f"{name}; the same-named function of {', '.join(elsewhere[:2])} is not the one "
        "documented"))  # fmt: skip


def report_parameters(
    items: Iterable[Documented],
    lines: Sequence[str],
    first_line: int,
    types: JsTypes,
    resolve: Callable[[str], Callee | None],
    report: SampleReport,
) -> None:
    """Judge each documented parameter and report it: counted, a ``parameter`` violation,
    or unjudged (once per signature line when its name resolves to no product function)."""
    for item in items:
        verdict = judge(types.model, types.declared, item, resolve(item.function))
        if verdict is None:
            continue
        line, text = first_line + item.row, lines[item.row] if item.row < len(lines) else ""
        if verdict.outcome == "unjudged":
            subject = f"{item.function}({item.name})" if verdict.where else item.function
            report.skip(line, text, f"{subject}: {verdict.reason}")
            continue
        report.count("parameter", line, item.name)
        if verdict.outcome == "ok":
            continue
        real = " or ".join(f"`{r}`" for r in verdict.real)
        reason = f"{item.function}'s parameter {item.position + 1} is {real} in {verdict.where}"
        if verdict.via:
            reason += f" ({verdict.via})"
        if verdict.near:
            reason += f"; did you mean {real}?"
        report.violation(line, "parameter", item.name, verdict.where,
                         f"{item.name}: {reason}", list(verdict.real))  # fmt: skip


def judge(
    model: ApiModel, declared: TypeModel | None, item: Documented, found: Callee | None
) -> Verdict | None:
    """The documented parameter against the functions its name resolves to (``found``;
    None: no product function: not a documentation of one)."""
    if found is None:
        return None
    if not found.functions:
        return Verdict("unjudged", reason=found.reason)
    functions, via = found.functions, found.via
    at = item.position
    real = tuple(dict.fromkeys(p for f in functions for p in _at(declared, f, at)))
    where = functions[0].path
    if not real:
        if any(f.var_keyword for f in functions):
            return Verdict("ok")
        reason = f"{item.function} takes no parameter {item.position + 1}"
        return Verdict("unjudged", reason=reason, where=where)
    if item.name in real:
        return Verdict("ok")
    if not all(_IDENTIFIER.fullmatch(r) for r in real):
        reason = f"{item.function}'s parameter {item.position + 1} is destructured"
        return Verdict("unjudged", reason=reason, where=where)
    if any(difflib.SequenceMatcher(None, item.name, r).ratio() >= _TYPO for r in real):
        return Verdict("wrong", real, True, where=where, via=via)  # a misspelling of the real name
    if any(_same(item.name, r) for r in real):
        return Verdict("ok")
    if len(item.name) < 3:
        return Verdict("unjudged", reason=f"{item.name}: a placeholder name", where=where)
    return Verdict("wrong", real, False, where=where, via=via)


def _at(declared: TypeModel | None, function: CallableFacts, position: int) -> list[str]:
    """The parameter names a function has at ``position``: per signature where the declared
    types list its overloads (the model merges their names), else as the model reads it."""
    found = declared.signatures(function.path, "", function.name) if declared else None
    if found is None:
        return [function.params[position]] if position < len(function.params) else []
    return [s.params[position].name for s in found[1] if position < len(s.params)]


def _declared(model: ApiModel, path: str, local: str) -> tuple[CallableFacts, ...]:
    """The model's reading of the top-level function ``local`` of ``path``."""
    return tuple(f for f in model.callables.get(f"{path}.{local}", ()) if f.path == path)


def _functions(model: ApiModel, name: str) -> list[CallableFacts]:
    """The product's top-level JavaScript/TypeScript functions named ``name`` that their
    file exports under that name, wherever they are (an internal helper, ``export default
    preprocess``, shares its name with a hook the docs ask the reader to write: no product
    function of that name)."""
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


def fence_parameters(sample: FenceReading, content: str, first_line: int, tsx: bool) -> None:
    """The parameters of product functions a fence documents, each against the function
    the post's samples bind its name to, else the one the package's entry points export
    under it (the fence reader's ``signatures``)."""
    gate = sample.gate
    items = list(documented(content, gate.parsers["tsx" if tsx else "typescript"]))
    types = sample.types() if items else None
    if types is None:
        return
    model = types.model

    def resolve(name: str) -> Callee | None:
        return callee(model, name, sample.values.get(name), gate.public_functions, gate.package)

    report_parameters(items, content.splitlines(), first_line, types, resolve, sample.report)
