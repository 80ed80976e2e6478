"""What gate 15's JavaScript/TypeScript fence reader makes of a member whose value no rule
types: the parameters of the callbacks a sample hands to the product
(``app.get("/", (request, reply) => ...)``, ``hooks: { afterResponse: [response => ...] }``,
``schema.error((errors) => ...)``), which the product calls with values the sample does not
show, and a name the page never binds that is the product's by its name (``fastify.get``
with no ``fastify`` bound: its module or an instance of it, not told). A member used on
either, not judged otherwise, is listed ``unjudged`` with the reason, never passed over.
Each function takes the fence reader
(:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.js_callbacks import callback_class
from pytest_postgates.helpers.js_option_keys import callee, skip_keys
from pytest_postgates.helpers.js_tree import node_string, node_text, unwrap
from pytest_postgates.helpers.js_unbound import misspelling, package_word
from pytest_postgates.helpers.sample_checks import SampleValue, did_you_mean

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import JsTypes

_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
# Where a callback sits in a call's arguments: itself, or inside an object or array literal
# (an option's value, a list of hooks), an object's pair or a spread.
_HOLDERS = frozenset({"object", "array", "pair"})
_KEYS = ("property_identifier",)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_PATTERNS = frozenset(
    {"identifier", "required_parameter", "optional_parameter", "object_pattern",
     "array_pattern", "assignment_pattern", "shorthand_property_identifier_pattern",
     "pair_pattern", "rest_pattern", "formal_parameters"}
)  # fmt: skip


def handed(sample: FenceReading, node: Any) -> None:
    """Record the parameters of the functions a call or ``new`` of the product's is passed
    (directly, or inside the object and array literals it is passed): (name, the bytes of
    the function, the call as shown)."""
    shown = _product_call(sample, node)
    arguments = node.child_by_field_name("arguments") if shown else None
    if arguments is None or shown is None:
        return
    _mocks(sample, node, arguments)
    target = callee(sample, node)
    types = sample.types()
    for function, position, path in _callback_paths(sample.source, arguments):
        parameters = function.child_by_field_name("parameters")
        if parameters is None:
            parameters = function.child_by_field_name("parameter")
        for name in _parameter_names(parameters):
            local = node_text(sample.source, name)
            sample.handed.append((local, function.start_byte, function.end_byte, shown))
        # The callee's (class or file, method or function), as its option keys are found.
        owner: tuple[Any, ...] = getattr(target[0], "args", ()) if isinstance(target, tuple) else ()
        if types is not None and path is not None and len(owner) == 2:
            callee_of = (owner[0], owner[1])
            _typed_parameters(sample, types, function, parameters, (callee_of, position, path))
        for made, how in _objects_out(function):
            skip_keys(sample, made, f"the keys of an object {how} by the callback handed to "
                      f"{shown} are not judged: what the product reads of it is not in the "
                      "model")  # fmt: skip


# The product's calls that replace a module by a mock (``jest.mock("axios")``): the sample's
# uses of that module are then uses of the product's mock functions.
_MOCKERS = frozenset({"mock", "doMock", "unstable_mockModule", "setMock"})


def _mocks(sample: FenceReading, node: Any, arguments: Any) -> None:
    function = node.child_by_field_name("function")
    prop = function.child_by_field_name("property") if function is not None else None
    if function is None or function.type != "member_expression" or prop is None:
        return
    first = arguments.named_children[0] if arguments.named_children else None
    if node_text(sample.source, prop) in _MOCKERS and first is not None:
        spec = node_string(sample.source, first)
        if spec:
            sample.mocked.add(spec)


def _objects_out(function: Any) -> list[tuple[Any, str]]:
    """The object literals a callback throws or returns (its own statements, not those of
    the functions inside it), each with how it hands them back."""
    found: list[tuple[Any, str]] = []
    body = function.child_by_field_name("body")
    if body is not None and unwrap(body).type == "object":  # `() => ({ ... })`
        found.append((unwrap(body), "returned"))
    stack = list(body.named_children) if body is not None else []
    while stack:
        part = stack.pop()
        if part.type in _FUNCTIONS or part.type in ("method_definition", "class_declaration"):
            continue
        if part.type in ("throw_statement", "return_statement") and part.named_children:
            value = unwrap(part.named_children[0])
            if value.type == "object":
                found.append((value, "thrown" if part.type == "throw_statement" else "returned"))
                continue
        stack.extend(part.named_children)
    return found


def foreign_member(sample: FenceReading, root: Any, local: str, used: str, line: int,
                   text: str) -> bool:  # fmt: skip
    """A chain on a name bound to another package's module: listed unjudged when that
    module is one the sample mocks with the product's ``mock()`` (its members are the
    product's mock functions) or a package named like the product's that none of its
    repository's packages is; True when the name is bound to another package's module."""
    spec = sample.foreign.get(local)
    at = root.start_byte
    if spec is None or any(n == local and s <= at < e for n, s, e in sample.scoped):
        return False
    if spec in sample.mocked:
        if _mock_member_typo(sample, local, used, line):
            return True
        why = ("a module the sample replaces with the product's mock: its members are the "
               "product's mock functions, whose type the model does not follow")  # fmt: skip
    elif sample.package_word and _named_like(spec, sample.package_word):
        why = ("a package named like the product's that is none of its repository's "
               "packages: its API is not in the model")  # fmt: skip
    else:
        return True
    sample.report.skip(line, text, f"{used}: {local} is bound to {spec!r}, {why}", used)
    return True


def _mock_member_typo(sample: FenceReading, local: str, used: str, line: int) -> bool:
    """A member of a member of a module the sample replaces with the product's mock
    (``axios.get.mockImpementation``: ``axios.get`` is the product's mock function, so the
    member is the product's API) judged as a member on a value the sample does not type
    (:func:`js_unbound.untyped_member`): a finding only when it is a typo of a product
    member the product's code never writes. True when it judged the member."""
    chain = used.split(".")
    if chain[0] != local or len(chain) < 3 or not all(_IDENTIFIER.fullmatch(p) for p in chain):
        return False  # the module's own member (another package's), or not a plain chain
    name = chain[-1]
    misspelt = misspelling(sample, name)
    if misspelt is None:
        return False
    real, how = misspelt
    owner = ".".join(chain[:-1])
    reason = f"{name} is nowhere in the product's code, {how} ({owner} is the product's mock"
    sample.report.count("member", line, name)
    sample.report.violation(line, "member", used, "", f"{reason}){did_you_mean([real])}", [real])
    return True


def _named_like(spec: str, word: str) -> bool:
    """Whether a package specifier names a package of the product's family
    (``jest-react-native``, ``@jest/x`` of ``jest``)."""
    parts = spec.split("/")
    if spec.startswith("@") and len(parts) > 1:
        return package_word(parts[0]) == word or package_word(parts[1]).startswith(word)
    return package_word(parts[0]).startswith(word)


def unjudged_member(sample: FenceReading, node: Any, obj: Any, name: str, line: int,
                    text: str) -> None:  # fmt: skip
    """List a member use no rule typed when its chain starts at a parameter of a callback
    handed to the product, or at a name never bound that is the product's by its name
    (once per chain, at its outermost member)."""
    if not _outermost(node):
        return
    root = _root(obj)
    if root is None or root.type != "identifier":
        return
    local = node_text(sample.source, root)
    used = " ".join(node_text(sample.source, node).split())[:80]
    at = root.start_byte
    around = [h for h in sample.handed if h[0] == local and h[1] <= at < h[2]]
    if around:
        # The innermost function around the use binds the name.
        call = max(around, key=lambda h: h[1])[3]
        sample.report.skip(line, text, f"{used}: {local} is a parameter of the callback "
                           f"handed to {call}, whose type the sample does not show")  # fmt: skip
        return
    if foreign_member(sample, root, local, used, line, text):
        return
    if sample.is_bound(root, local) or local in sample.values:
        return
    if sample.package_word and package_word(local) == sample.package_word:
        sample.report.skip(line, text, f"{used}: {local} is never bound in the page's samples "
                           "(the product's module or an instance of it: not told)")  # fmt: skip


def _product_call(sample: FenceReading, node: Any) -> str | None:
    """The call as shown (``app.get()``) when its callee is the product's (a value the
    reader holds as the product's, through chains, or a name never bound that is the
    product's by its name), else None."""
    if node.type == "new_expression":
        constructor = node.child_by_field_name("constructor")
        if constructor is None or sample.constructed(node) is None:
            return None
        return f"new {' '.join(node_text(sample.source, constructor).split())[:60]}()"
    function = node.child_by_field_name("function")
    if function is None:
        return None
    function = unwrap(function)
    shown = f"{' '.join(node_text(sample.source, function).split())[:60]}()"
    if function.type == "member_expression":
        inner = function.child_by_field_name("object")
        held = sample.value_of(inner) if inner is not None else None
    elif function.type == "identifier":
        held = sample.called(function)
    else:
        return None
    if held is not None:
        return shown
    root = _root(function)
    if root is None or root.type != "identifier":
        return None
    local = node_text(sample.source, root)
    if sample.is_bound(root, local) or not sample.package_word:
        return None
    return shown if package_word(local) == sample.package_word else None


def _typed_parameters(
    sample: FenceReading,
    types: JsTypes,
    function: Any,
    parameters: Any,
    where: tuple[tuple[Any, Any], int, tuple[str, ...]],
) -> None:
    """The parameters of a callback the product's declared types type (got's ``response``
    of an ``afterResponse`` hook): their members are judged as that type's."""
    callee, position, path = where
    arity = _arity(parameters)
    for index, name in _plain_parameters(parameters):
        cls = callback_class(types, callee, position, path, index, arity)
        if cls is not None:
            local = node_text(sample.source, name)
            held = SampleValue("typed", cls[1], cls[0])
            sample.typed_parameters.append((local, function.start_byte, function.end_byte, held))


def _callback_paths(source: bytes, arguments: Any) -> list[tuple[Any, int, tuple[str, ...] | None]]:
    """The functions passed in a call's arguments, each with its argument's position and
    its key path in that argument (``("hooks", "afterResponse", "[]")``; None when a
    spread or a computed key leaves the path untold)."""
    found: list[tuple[Any, int, tuple[str, ...] | None]] = []
    for position, argument in enumerate(arguments.named_children):
        stack: list[tuple[Any, tuple[str, ...] | None]] = [(argument, ())]
        while stack:
            part, path = stack.pop()
            part = unwrap(part)
            if part.type in _FUNCTIONS:
                found.append((part, position, path))
            elif part.type == "object":
                for pair in part.named_children:
                    if pair.type == "method_definition":  # `external(context) { ... }`
                        name = pair.child_by_field_name("name")
                        at: tuple[str, ...] | None = None
                        if path is not None and name is not None and name.type in _KEYS:
                            at = (*path, node_text(source, name))
                        found.append((pair, position, at))
                        continue
                    key = pair.child_by_field_name("key") if pair.type == "pair" else None
                    value = pair.child_by_field_name("value") if key is not None else None
                    written = key is not None and key.type in ("property_identifier", "string")
                    if written and value is not None and path is not None:
                        named = node_text(source, key).strip("'\"")
                        stack.append((value, (*path, named)))
                        continue
                    stack.extend((child, None) for child in pair.named_children)
            elif part.type == "array":
                stack.extend(
                    (item, (*path, "[]") if path is not None else None)
                    for item in part.named_children
                )
            elif part.type in _HOLDERS or part.type == "spread_element":
                stack.extend((child, None) for child in part.named_children)
    return found


def _plain_parameters(parameters: Any) -> list[tuple[int, Any]]:
    """The parameters written as a plain name (``response``, ``response: Response``), by
    position; a pattern or rest parameter is left out."""
    if parameters is None:
        return []
    if parameters.type == "identifier":
        return [(0, parameters)]
    found = []
    for index, part in enumerate(parameters.named_children):
        if part.type in ("required_parameter", "optional_parameter"):
            pattern = part.child_by_field_name("pattern")
            if part.child_by_field_name("type") is not None:
                continue  # annotated in the sample: that type, not the declared one
            part = pattern if pattern is not None else part
        if part.type == "identifier":
            found.append((index, part))
    return found


def _arity(parameters: Any) -> int:
    """How many parameters a function written requires (TypeScript's count for contextual
    typing: those before the first optional, defaulted or rest one)."""
    if parameters is None:
        return 0
    if parameters.type == "identifier":
        return 1
    count = 0
    for part in parameters.named_children:
        if part.type == "optional_parameter" or part.child_by_field_name("value") is not None:
            break
        pattern = part.child_by_field_name("pattern") if part.type == "required_parameter" else part
        if pattern is None or pattern.type in ("rest_pattern", "assignment_pattern"):
            break
        count += 1
    return count


def _parameter_names(parameters: Any) -> list[Any]:
    """The identifiers a parameter list binds (patterns taken apart, defaults and type
    annotations left out)."""
    if parameters is None:
        return []
    if parameters.type == "identifier":
        return [parameters]
    names: list[Any] = []
    stack = [parameters]
    while stack:
        part = stack.pop()
        if part.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(part)
            continue
        if part.type == "assignment_pattern":
            left = part.child_by_field_name("left")
            stack.extend([left] if left is not None else [])
            continue
        if part.type == "pair_pattern":
            value = part.child_by_field_name("value")
            stack.extend([value] if value is not None else [])
            continue
        if part.type in ("required_parameter", "optional_parameter"):
            pattern = part.child_by_field_name("pattern")
            stack.extend([pattern] if pattern is not None else [])
            continue
        if part.type in _PATTERNS:
            stack.extend(part.named_children)
    return names


def _root(node: Any) -> Any:
    """The start of a chain of members and calls (``a`` of ``a.b().c``)."""
    while node is not None:
        node = unwrap(node)
        if node.type == "member_expression":
            node = node.child_by_field_name("object")
        elif node.type == "call_expression":
            node = node.child_by_field_name("function")
        else:
            return node
    return None


def _same(one: Any, other: Any) -> bool:
    return other is not None and (one.start_byte, one.end_byte, one.type) == (
        other.start_byte, other.end_byte, other.type
    )  # fmt: skip


def _outermost(node: Any) -> bool:
    """Whether the member expression ``node`` is not itself the object of a longer chain
    (``a.b`` of ``a.b.c`` or of ``a.b().c``)."""
    current, parent = node, node.parent
    while parent is not None:
        called = (
            parent.child_by_field_name("function") if parent.type == "call_expression" else None
        )
        if called is not None and _same(current, called):
            current, parent = parent, parent.parent
            continue
        if parent.type in ("parenthesized_expression", "non_null_expression"):
            current, parent = parent, parent.parent
            continue
        return not (
            parent.type == "member_expression"
            and _same(current, parent.child_by_field_name("object"))
        )
    return True
