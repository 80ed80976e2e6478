"""Gate 15's reading of the object literals a JavaScript/TypeScript sample passes to the
product: each key (nested ones included) against the fields of the parameter's declared
type (:meth:`~pytest_postgates.helpers.js_types.JsTypes.method_keys`,
:meth:`~pytest_postgates.helpers.js_types.JsTypes.function_keys`, which for a JavaScript
function adds the keys its code reads from the parameter,
:mod:`pytest_postgates.evidence.read_keys`). An object passed to a
product value whose parameter types the model cannot read is listed unjudged with the
reason, never passed over."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.name_spelling import one_letter_changed, one_letter_slipped
from pytest_postgates.evidence.type_tables import CALL_SIGNATURE
from pytest_postgates.helpers import js_unbound
from pytest_postgates.helpers.js_declared_twins import declared_class, declared_twin, twin_keys
from pytest_postgates.helpers.js_tree import node_text, unwrap
from pytest_postgates.helpers.js_types import Cls, JsTypes, Keys, declaration_file, hump_changed
from pytest_postgates.helpers.sample_checks import (
    ASSUMED_FROM_NAME,
    CODE_NAMED,
    SampleValue,
    did_you_mean,
)

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading

# Where the keys of a callee's argument are declared: (position, key path) -> keys.
KeysAt = Callable[[int, tuple[str, ...]], Keys | None]


def options(sample: FenceReading, node: Any) -> None:
    """The keys of the object literals a call or ``new`` passes to a product callable,
    written in place or held by a variable the fence binds to one (``const options = {
    ... }; got(url, options)``)."""
    arguments = node.child_by_field_name("arguments")
    if arguments is None:
        return
    passed = [_literal(sample, a) for a in arguments.named_children]
    if not any(passed):
        return
    target = callee(sample, node)
    if target is None:
        return  # not a call of the product's
    for position, found in enumerate(passed):
        argument, through = found if found is not None else (None, "")
        if argument is None or not argument.named_children:
            continue
        if through and argument.id in sample.judged_literals:
            continue  # passed again: judged at its first call
        if through:
            sample.judged_literals.add(argument.id)
        elsewhere = _used_elsewhere(sample, node, through) if through else ""
        if isinstance(target, str) or elsewhere:
            why = elsewhere or target
            skip_keys(sample, argument, f"the keys passed to {why}")
            continue
        keys_at, shown = target
        object_keys(sample, keys_at, argument, position, (), shown)


def _literal(sample: FenceReading, argument: Any) -> tuple[Any, str] | None:
    """The object literal an argument is: written in place (``""``), or the one a variable
    of the fence is bound to (its name)."""
    if argument.type == "object":
        return argument, ""
    if argument.type == "identifier":
        name = node_text(sample.source, argument)
        bound = sample.literals.get(name)
        if bound is not None and bound[1] <= argument.start_byte:
            return bound[0], name
    return None


def _used_elsewhere(sample: FenceReading, call: Any, name: str) -> str:
    """Why the keys of the object ``name`` holds are not judged as this call's options: it
    is used otherwise than passed to the product's calls or read by member (spread, passed
    to another function, reassigned); "" when it is not."""
    for node in _fence_nodes(call):
        if node.type != "identifier" or node_text(sample.source, node) != name:
            continue
        parent = node.parent
        if parent is None or parent.type == "variable_declarator":
            continue
        if parent.type == "member_expression" and parent.child_by_field_name("object") == node:
            continue
        caller = parent.parent if parent.type == "arguments" else None
        if caller is not None and callee(sample, caller) is not None:
            continue
        return (f"{' '.join(node_text(sample.source, call).split())[:40]}() through {name} "
                f"are not judged: the sample uses {name} otherwise too")  # fmt: skip
    return ""


def callee(sample: FenceReading, node: Any) -> tuple[KeysAt, str] | str | None:
    """Where the option keys of a call or ``new`` are declared, and the callee as shown: a
    method of an instance (or a constructor) of a product class, or a function of the
    product. A product callee whose parameters the model cannot type gives the reason
    (a string); None when the callee is not the product's."""
    types = sample.types()
    source = sample.source
    if node.type == "new_expression":
        held = sample.constructed(node)
        if held is None:
            return None
        made = sample.class_of(held)
        if made is None and held.kind == "instance":  # a class its declarations declare
            made = declared_class(sample.gate.lookup, held.module, held.name)
        shown = " ".join(node_text(source, node.child_by_field_name("constructor")).split())
        if made is None or types is None:
            why = held.origin if held.kind == "unknown" else "a class the model does not read"
            return f"new {shown[:60]}() ({why}) are not judged"
        return partial(types.method_keys, made, "constructor"), f"new {made[0]}()"
    function = node.child_by_field_name("function")
    if function is None:
        return None
    function = unwrap(function)
    shown = " ".join(node_text(source, function).split())[:60]
    if function.type == "member_expression":
        inner = function.child_by_field_name("object")
        prop = function.child_by_field_name("property")
        held = sample.value_of(inner) if inner is not None else None
        if held is None or prop is None:
            return None
        method = node_text(source, prop)
        if held.kind == "declared":  # a function of a declared namespace: as one called
            return _function_callee(sample, sample.value_of(function), shown)
        if held.kind == "namespace":
            found = sample.gate.lookup.find_export(held.module, method)
            if types is not None and isinstance(found, Binding) and found.kind == "function":
                keys_at = partial(types.function_keys, found.path, found.local)
                return keys_at, f"{method}()"
            return f"{shown}() are not judged: it is no function of the module the model reads"
        cls = sample.class_of(held)
        static = _static_owner(sample, held) if cls is None and held.kind == "export" else None
        if static is not None and types is not None:
            return partial(types.static_keys, static, method), f"{static[0]}.{method}()"
        if cls is None and held.kind == "export":
            # An exported constant: typed by its declaration (`const vi: VitestUtils`,
            # `export default createInstance()` and the function's declared return type).
            constant = sample.required_class(held) or sample.constant_class(held)
            if isinstance(constant, str):
                return f"{shown}() are not judged: {constant}"
            cls = constant
        if held.origin == ASSUMED_FROM_NAME:
            return f"{shown}() are not judged: its object's type is assumed from its name"
        if held.origin.startswith(CODE_NAMED):
            return (f"{shown}() are not judged: its object's type is how the product's code "
                    f"declares the name, not shown")  # fmt: skip
        if cls is None or types is None:
            why = held.origin if held.kind == "unknown" else f"{held.name or held.kind}"
            return f"{shown}() are not judged: the type of its object ({why}) is not known"
        return partial(types.method_keys, cls, method), f"{cls[0]}.{method}()"
    several = js_unbound.readings_callee(sample, function, shown)
    if several is not None:  # `defineConfig({...})` unbound: each driver package's own
        return several
    held = sample.called(function)
    maker = _made_with_own_functions(sample, function) if held is not None else ""
    if maker:
        # got's `instance = got.extend({hooks: {init: [...]}}); instance(url, {secret})`:
        # the sample's own hooks may take keys the product declares nowhere.
        return (
            f"{shown}() are not judged: it holds what {maker} returned, handed the sample's "
            "own functions, which may take keys the product does not declare"
        )
    return _function_callee(sample, held, shown)


def _static_owner(sample: FenceReading, held: SampleValue) -> Cls | None:
    """The product class an exported class value is (``MikroORM`` in
    ``MikroORM.init({...})``: a static method's options are declared on the class), or None
    when the export is no class the model reads."""
    binding, types = held.binding, sample.types()
    if types is None or not isinstance(binding, Binding) or binding.kind != "class":
        return None
    cls = (binding.local or held.name, binding.path)
    return cls if types.entries(cls) else None


def _made_with_own_functions(sample: FenceReading, function: Any) -> str:
    """The call that made the value a called name holds (declared in the same fence), when
    a function the sample writes is among its arguments (inside an object or array literal
    too); "" otherwise."""
    if function.type != "identifier":
        return ""
    name = node_text(sample.source, function)
    for node in _fence_nodes(function):
        if node.type != "variable_declarator":
            continue
        bound, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if bound is None or value is None or node_text(sample.source, bound) != name:
            continue
        value = unwrap(value)
        arguments = (
            value.child_by_field_name("arguments") if value.type == "call_expression" else None
        )
        if arguments is not None and _holds_function(arguments):
            callee = value.child_by_field_name("function")
            return " ".join(node_text(sample.source, callee).split())[:60] + "()" if callee else ""
    return ""


def _fence_nodes(node: Any) -> Iterator[Any]:
    """Every named node of the fence ``node`` is in (its tree from the root, depth first)."""
    root = node
    while root.parent is not None:
        root = root.parent
    todo = [root]
    while todo:
        here = todo.pop()
        todo.extend(here.named_children)
        yield here


def _holds_function(node: Any) -> bool:
    """Whether a function literal is written in a call's arguments, directly or inside the
    object and array literals passed."""
    for child in node.named_children:
        child = unwrap(child)
        if child.type in ("arrow_function", "function_expression", "function"):
            return True
        if child.type == "pair":
            value = child.child_by_field_name("value")
            if value is not None and _holds_function_value(unwrap(value)):
                return True
        elif child.type in ("object", "array") and _holds_function(child):
            return True
    return False


def _holds_function_value(value: Any) -> bool:
    if value.type in ("arrow_function", "function_expression", "function"):
        return True
    return value.type in ("object", "array") and _holds_function(value)


def _function_callee(
    sample: FenceReading, held: SampleValue | None, shown: str
) -> tuple[KeysAt, str] | str | None:
    types = sample.types()
    if held is None:
        return None
    binding = held.binding
    if types is not None and held.kind == "typed" and held.name:
        # A value of a product type called (`const instance = got.extend(); instance(url,
        # {...})`: a Got, returned by a method declared to return one): its call signatures.
        cls = (held.name, held.module)
        return _call_signature_keys(types, cls, f"{shown}() are not judged: a {held.name}")
    if types is None or held.kind != "export" or not isinstance(binding, Binding):
        why = held.origin if held.kind == "unknown" else "a value the model does not type"
        return f"{shown}() are not judged: {why}"
    if binding.kind == "const":
        # A constant called (`export default createInstance()`): what its declaration says
        # it holds, whose call signatures are not read.
        constant = sample.required_class(held) or sample.constant_class(held)
        if isinstance(constant, str):
            return f"{shown}() are not judged: {constant}"
        if constant is not None:
            # A value of a callable type (`declare const ky: { (url, options?): R }`, an
            # interface with a call signature): its call signatures' parameters.
            holder = binding.local or held.name
            return _call_signature_keys(
                types, constant, f"{shown}() are not judged: {holder} holds a {constant[0]}"
            )
    twin = declared_twin(sample.gate.lookup, held.module, held.name)
    if binding.kind != "function":
        if twin is not None:  # a constant of the code, a function of its declarations
            return twin_keys(types, twin), f"{twin.local}()"
        return f"{shown}() are not judged: {binding.local or held.name} is a {binding.kind}"
    keys_at: KeysAt = partial(types.function_keys, binding.path, binding.local)
    if twin is not None and twin.path != declaration_file(binding.path):
        keys_at = twin_keys(types, twin, keys_at)
    return keys_at, f"{binding.local}()"


def _call_signature_keys(types: JsTypes, cls: Cls, not_judged: str) -> tuple[KeysAt, str] | str:
    """The keys a value of a callable type takes by its call signatures, or why not
    (``not_judged``, completed: its declaration has none)."""
    keys_at = partial(types.method_keys, cls, CALL_SIGNATURE)
    if keys_at(0, ()) is not None:
        return keys_at, f"{cls[0]}()"
    return f"{not_judged}, whose declaration has no call signature"


def object_keys(
    sample: FenceReading,
    keys_at: KeysAt,
    node: Any,
    position: int,
    path: tuple[str, ...],
    shown: str,
) -> None:
    keys = keys_at(position, path)
    if keys is None:
        where = f" at {dotted_path(path)}" if path else ""
        skip_keys(sample, node, f"the keys passed to {shown}{where} are not judged: "
                  "its declared parameters are not in the model", path)  # fmt: skip
        return
    if keys.any_key:
        _any_key(sample, keys_at, node, position, path, shown, keys.reason)
        return
    if keys.reason:
        skip_keys(sample, node, f"keys of {shown}'s options: {keys.reason}", path)
        return
    types = sample.types()
    for pair in node.named_children:
        if pair.type == "pair":
            key_node = pair.child_by_field_name("key")
            value = pair.child_by_field_name("value")
        elif pair.type == "shorthand_property_identifier":
            key_node, value = pair, None
        elif pair.type == "method_definition":
            key_node, value = pair.child_by_field_name("name"), None
        else:
            continue  # a spread: its keys are not written here
        if key_node is None or key_node.type not in ("property_identifier", "string"):
            continue
        key = node_text(sample.source, key_node).strip("'\"")
        line, text = sample.line(pair), sample.linenode_text(pair)
        lagged = key not in keys.fields and bool(keys.hand_written)
        lagged = lagged and types is not None and types.written(key)
        dropped = _dropped(types, keys.owner, key) if lagged and types is not None else None
        if lagged and dropped is None:
            # As for members (JsTypes.named_by_code): the JavaScript may read a key its
            # hand-written declarations leave out.
            sample.report.skip(line, text, f"{shown}'s option {key}: {keys.hand_written} does "
                               "not declare it, but the product's code names it (hand-written "
                               "declarations may lag the JavaScript)")  # fmt: skip
            continue
        if key not in keys.fields and (named := _named_in_string(sample, key_node, key)):
            # A registry keyed by names the sample gives (Chart.js's `options.plugins.<id>`
            # of its own `{ id: 'quadrants' }` plugin): the key may be the sample's own.
            dotted = dotted_path((*path, key))
            sample.report.skip(line, text, f"{shown}'s option {dotted}: the sample itself "
                               f"writes '{key}' as a string (line {named}), a name it may "
                               "give what it registers", dotted)  # fmt: skip
            continue
        sample.report.count("option_key", line, key)
        if key not in keys.fields:
            close = types.nearest(key, set(keys.fields)) if types is not None else []
            dotted = dotted_path((*path, key))
            why = _why(keys, key) + (f"; it declared {key} until {dropped}" if dropped else "")
            sample.report.violation(line, "option_key", key, keys.owner or keys.read_by,
                                    f"{shown} takes no option {dotted} ({why})"
                                    f"{did_you_mean(close)}", close)  # fmt: skip
        elif value is not None and unwrap(value).type == "object":
            object_keys(sample, keys_at, unwrap(value), position, (*path, key), shown)
        elif value is not None and unwrap(value).type == "array":
            # Each object an array holds is an element of the key's declared array type.
            for item in _objects_in(unwrap(value)):
                object_keys(sample, keys_at, item, position, (*path, key, "[]"), shown)


def dotted_path(path: tuple[str, ...]) -> str:
    """A key path as written in JavaScript: ``handlers[].route`` for an array's element."""
    return ".".join(path).replace(".[]", "[]")


def _named_in_string(sample: FenceReading, key_node: Any, key: str) -> int:
    """The line of a string literal of the fence, other than an object's key, that spells
    ``key`` (a name the sample gives: ``id: 'quadrants'``), or 0 when none does."""
    for node in _fence_nodes(key_node):
        if node.type != "string" or node.id == key_node.id:
            continue
        parent = node.parent
        if (
            parent is not None
            and parent.type == "pair"
            and parent.child_by_field_name("key") == node
        ):
            continue
        if node_text(sample.source, node)[1:-1] == key:
            return sample.line(node)
    return 0


def _any_key(
    sample: FenceReading,
    keys_at: KeysAt,
    node: Any,
    position: int,
    path: tuple[str, ...],
    shown: str,
    reason: str,
) -> None:
    """An object whose type takes any key: each key listed unjudged, and an object written
    under one judged by the index signature's value type when that is closed."""
    why = f"keys of {shown}'s options: {reason}"
    sample.report.skip(sample.line(node), sample.linenode_text(node), why)
    for pair in node.named_children:
        key_node = pair.child_by_field_name("key") if pair.type == "pair" else pair
        if key_node is None or key_node.type not in _KEY_NODES:
            continue
        where = (*path, node_text(sample.source, key_node).strip("'\""))
        sample.report.skip(sample.line(pair), sample.linenode_text(pair), why, dotted_path(where))
        value = pair.child_by_field_name("value") if pair.type == "pair" else None
        inner = unwrap(value) if value is not None else None
        if inner is None or inner.type != "object":
            for each in _objects_in(inner) if inner is not None else ():
                _skip_each_key(sample, each, why, where)
            continue
        nested = keys_at(position, where)
        if nested is None or (nested.reason and not nested.any_key):
            _skip_each_key(sample, inner, why, where)
        else:
            object_keys(sample, keys_at, inner, position, where, shown)


def skip_keys(
    sample: FenceReading,
    node: Any,
    reason: str,
    path: tuple[str, ...] = (),
    typos: JsTypes | None = None,
) -> None:
    """An object literal whose keys are not judged: the object listed with ``reason``, and
    each key it writes (nested ones, and those of objects in arrays, included) listed at
    its own line by its dotted path, so that no key is passed over unnamed. With
    ``typos``, a key that is a misspelling of a name the product's code writes is a
    finding instead (:func:`misspelled_key`)."""
    sample.report.skip(sample.line(node), sample.linenode_text(node), reason)
    _skip_each_key(sample, node, reason, path, typos)


def _skip_each_key(
    sample: FenceReading,
    node: Any,
    reason: str,
    path: tuple[str, ...],
    typos: JsTypes | None = None,
) -> None:
    for pair in node.named_children:
        key_node = pair.child_by_field_name("key") if pair.type == "pair" else pair
        if pair.type == "method_definition":
            key_node = pair.child_by_field_name("name")
        if key_node is None or key_node.type not in _KEY_NODES:
            continue  # a spread or a computed key: no key is written here
        key = node_text(sample.source, key_node).strip("'\"")
        where, line = (*path, key), sample.line(pair)
        mapped = map_key(typos, path) if typos is not None else None
        real = misspelled_key(typos, key) if typos is not None and mapped is None else None
        if real is not None:
            sample.report.count("option_key", line, key)
            why = f"{key} is nowhere in the product's code, one letter off the key {real} it writes"
            sample.report.violation(line, "option_key", key, "", why + did_you_mean([real]), [real])
        else:
            shown_as = dotted_path(where)
            sample.report.skip(line, sample.linenode_text(pair), mapped or reason, shown_as)
        value = pair.child_by_field_name("value") if pair.type == "pair" else None
        for inner in _objects_in(unwrap(value)) if value is not None else ():
            _skip_each_key(sample, inner, reason, where, typos)


def map_key(types: JsTypes, path: tuple[str, ...]) -> str | None:
    """Why a key written at ``path`` is the page's own name: the property above it is one
    the product's code holds as a map keyed by the names its user gives
    (:mod:`~pytest_postgates.evidence.map_keys`); None when it is no such property."""
    where = types.model.facts.maps.get(path[-1]) if path else None
    if where is None:
        return None
    return (f"a key of {path[-1]}, which the product's code holds as a map keyed by the names "
            f"its user gives ({where}): the page's own name, not judged")  # fmt: skip


def misspelled_key(types: JsTypes, key: str) -> str | None:
    """The key or member the product's code writes that ``key`` is a typo of (one letter
    changed, typed in or left out, or one letter's case, five letters or more), when the
    code never writes ``key`` itself: a misspelling of the product's names is the
    product's, whatever object holds it (as :meth:`JsTypes.misspelled_member`)."""
    if len(key) < 5 or not _NAME.fullmatch(key) or types.written(key):
        return None  # a key that is no name (`"gemini-2.0-flash"`) is another value, not a typo
    by_length = _written_keys(types.model)
    near = [n for size in (len(key) - 1, len(key), len(key) + 1) for n in by_length.get(size, ())]
    for real in sorted(near):
        if one_letter_changed(key, real) or one_letter_slipped(key, real):
            return real
        if hump_changed(key, real):
            return real
    return None


@lru_cache(maxsize=8)
def _written_keys(model: ApiModel) -> dict[int, tuple[str, ...]]:
    """The members and keys the product's code writes, five letters or more, by length."""
    found: dict[int, list[str]] = {}
    for name in model.member_names | model.facts.surface:
        if len(name) >= 5:
            found.setdefault(len(name), []).append(name)
    return {size: tuple(names) for size, names in found.items()}


_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_KEY_NODES = ("property_identifier", "string", "shorthand_property_identifier")


def _objects_in(value: Any) -> list[Any]:
    """The object literals a key's value writes: itself, or the items of an array."""
    if value.type == "object":
        return [value]
    if value.type == "array":
        return [unwrap(item) for item in value.named_children if unwrap(item).type == "object"]
    return []


def _dropped(types: JsTypes, owner: str, key: str) -> str | None:
    """The earlier release whose hand-written declarations gave one of the types ``owner``
    names (``GridLineOptions``, ``A | B``) the key ``key`` they leave out now: the
    declarations dropped it, so the code naming it elsewhere is no sign they lag."""
    if types.dropped_key is None:
        return None
    for name in owner.split(" | "):
        release = types.dropped_key(name.strip(), key) if name.strip() else None
        if release is not None:
            return release
    return None


def _why(keys: Keys, key: str) -> str:
    """Where the key is missing: the declared type, the keys the function's code reads,
    or both."""
    if not keys.owner:
        return f"{keys.read_by} reads no {key}"
    if keys.read_by:
        return f"{keys.owner} declares no {key}, and {keys.read_by} reads none"
    return f"{keys.owner} declares no {key}"


# A fence that is only an object literal (a README's "Options" block) is judged as the
# options of the entry's function (or object type) that takes the most of its keys, when it
# takes at least this many of them and this share of them (fewer: the literal says nothing
# of whose it is).
BARE_SHARED = 3
BARE_SHARE = 2 / 3
MAX_CANDIDATES = 200
MAX_TYPES = 400  # the exported object types tried, at most
# The keys of the candidates' options whose objects are tried as well, at most.
MAX_NESTED = 400


def bare(sample: FenceReading, node: Any, typos: bool = True) -> None:
    """The keys of an object literal a fence shows alone, against the options of the
    product function it is (:data:`BARE_SHARED`, :data:`BARE_SHARE`): a function its
    entry points export, at the position of a parameter whose keys the model closes, or
    an object type they export (``export interface Config``: a config file's type), scored
    alike; a tie between two is no answer. ``typos``: whether a key no function takes is
    judged as a misspelling of the product's (:func:`misspelled_key`)."""
    written = _keys_written(sample, node)
    types = sample.types()
    typo_types = types if typos else None
    line = sample.line(node)
    # A listing names the keys it leaves (its first line is often a bare `{`).
    keys_shown = "{ " + ", ".join(sorted(written)) + " }"
    if written and len(written) < BARE_SHARED:
        why = (f"an object literal shown alone: its {len(written)} key(s) are too few to tell "
               "which function or type of the product takes it")  # fmt: skip
        sample.report.skip(line, keys_shown, why)
        _skip_each_key(sample, node, why, (), typo_types)
    if len(written) < BARE_SHARED or types is None:
        return
    scored: dict[frozenset[str], tuple[int, KeysAt, str]] = {}
    for fields, at, shown in _candidates(sample, types):
        shared = len(written & fields)
        if shared and fields not in scored:
            scored[fields] = (shared, at, shown)
    if not scored:
        why = ("an object literal shown alone: no function or type of the product whose keys "
               "the model closes takes any of its keys")  # fmt: skip
        sample.report.skip(line, keys_shown, why)
        _skip_each_key(sample, node, why, (), typo_types)
        return
    best = max(shared for shared, _, _ in scored.values())
    top = [(keys_at, shown) for shared, keys_at, shown in scored.values() if shared == best]
    if best < BARE_SHARED or best < BARE_SHARE * len(written):
        why = (f"an object literal shown alone: no function or type of the product takes most "
               f"of its keys ({best} of {len(written)} at most)")  # fmt: skip
        skip_keys(sample, node, why, (), typo_types)
        return
    if len(top) > 1:
        names = ", ".join(sorted(shown for _, shown in top))[:120]
        skip_keys(sample, node, f"an object literal shown alone: {len(top)} functions or types "
                  f"take {best} of its {len(written)} keys ({names})", (), typo_types)  # fmt: skip
        return
    keys_at, shown = top[0]
    position = next(p for p in (0, 1) if (k := keys_at(p, ())) is not None and not k.reason
                    and len(written & k.fields) == best)  # fmt: skip
    object_keys(sample, keys_at, node, position, (), shown)


def _candidates(sample: FenceReading, types: Any) -> list[tuple[frozenset[str], KeysAt, str]]:
    """The closed keys :func:`bare` scores a literal's keys against, in the order it tries
    them (each entry function's options at positions 0 and 1, its declared object types,
    then one level down under their keys): none depends on the literal, so they are
    expanded once per run (the files read marked for each asker)."""
    entries = _entry_functions(sample, types)
    gate = sample.gate
    sites = tuple((site.name, site.folder) for site in gate.sites.values())
    key = ("bare candidates", gate.package, sites, id(types))
    kept = gate.lookup.shared_answer(key, lambda: (types, _candidates_of(entries)))
    return list(kept[1])


def _candidates_of(
    entries: list[tuple[KeysAt, str, str]],
) -> list[tuple[frozenset[str], KeysAt, str]]:
    found: list[tuple[frozenset[str], KeysAt, str]] = []
    below: list[tuple[KeysAt, int, str, str]] = []
    taken: set[str] = set()  # the declared types the functions' options are
    for at, shown, declared in entries:
        if declared in taken:
            continue  # a function takes it whole (with the keys its code reads): named by it
        for position in (0, 1):
            keys = at(position, ())
            if keys is None or keys.reason or not keys.fields:
                continue
            taken.update(keys.owner.split(" | ") if not declared else ())
            found.append((keys.fields, at, shown))
            below += [(at, position, field, shown) for field in sorted(keys.fields)]
    # An object the options hold under a key (a config's `prerender: {...}` shown alone),
    # one level down; a type some callable takes whole is named by that callable.
    for at, position, field, shown in below[:MAX_NESTED]:
        inner = at(position, (field,))
        if inner is None or inner.reason or not inner.fields:
            continue
        found.append((inner.fields, partial(_under, at, field), f"{shown}'s {field}"))
    return found


def unpassed(sample: FenceReading, root: Any) -> None:
    """The object literals a fence binds to a variable it never passes to a call nor
    reads, only exports or leaves (a docs editor's ``const config = {...};
    module.exports = {config}``, handed to the product by the page's harness): each
    judged as one shown alone (:func:`bare`). One the fence leaves, never using the
    variable at all (``const myObj = { apple: 1 }`` in code a lint rule reads), reaches
    no code of the product: a key of it no product function takes is the sample's own,
    never a misspelling of the product's."""
    for name, (literal, _end) in list(sample.literals.items()):
        if literal.id in sample.judged_literals or not literal.named_children:
            continue
        uses = list(_uses(sample, root, name))
        if all(_exported_only(sample, node) for node in uses):
            bare(sample, literal, typos=bool(uses))


def _uses(sample: FenceReading, root: Any, name: str) -> Iterator[Any]:
    """The identifiers and shorthand keys naming ``name`` outside its declarator."""
    for node in _fence_nodes(root):
        if node.type not in ("identifier", "shorthand_property_identifier"):
            continue
        if node_text(sample.source, node) != name:
            continue
        parent = node.parent
        declared = parent is not None and parent.type == "variable_declarator"
        if declared and parent.child_by_field_name("name") == node:
            continue
        yield node


def _exported_only(sample: FenceReading, node: Any) -> bool:
    """Whether a use of a name only exports it: ``module.exports = {config}``,
    ``module.exports = config``, ``export default config``, ``export {config}``."""
    here = node.parent
    while here is not None and here.type in ("pair", "object", "export_specifier",
                                              "export_clause"):  # fmt: skip
        here = here.parent
    if here is None:
        return False
    if here.type == "export_statement":
        return True
    if here.type != "assignment_expression":
        return False
    left = here.child_by_field_name("left")
    shown = node_text(sample.source, left) if left is not None else ""
    return shown == "module.exports" or shown.startswith(("module.exports.", "exports."))


def _under(at: KeysAt, field: str, position: int, path: tuple[str, ...]) -> Keys | None:
    """The keys at ``path`` below the options' key ``field``."""
    return at(position, (field, *path))


def _keys_written(sample: FenceReading, node: Any) -> set[str]:
    found: set[str] = set()
    for pair in node.named_children:
        key = pair.child_by_field_name("key") if pair.type == "pair" else pair
        if key is not None and key.type in ("property_identifier", "string",
                                             "shorthand_property_identifier"):  # fmt: skip
            found.add(node_text(sample.source, key).strip("'\""))
    return found


def _entry_functions(sample: FenceReading, types: Any) -> list[tuple[KeysAt, str, str]]:
    """The functions the package's entry points export (by any name; a CommonJS module
    that is a function, ``module.exports = build``, is that function), each once, then the
    object types they export (interfaces and type aliases, by the keys they declare),
    each with the type's name ("" for a function); asked once per run (the files read
    marked for each asker)."""
    gate = sample.gate
    sites = tuple((site.name, site.folder) for site in gate.sites.values())
    key = ("entry functions", gate.package, sites, id(types))
    kept = gate.lookup.shared_answer(key, lambda: (types, _entry_functions_of(sample, types)))
    return list(kept[1])


def _entry_functions_of(sample: FenceReading, types: Any) -> list[tuple[KeysAt, str, str]]:
    lookup = sample.gate.lookup
    found: dict[tuple[str, str], tuple[KeysAt, str, str]] = {}
    typed: dict[tuple[str, str], tuple[KeysAt, str, str]] = {}
    # The declarations TypeScript reads for the entries (an `index.d.ts` beside a CommonJS
    # `index.js`) for their types only: their functions are the entries' own, once.
    modules = {m: False for _, m in sample.gate.entries()}
    typed_entries = [m for _, m in sample.gate.entries(type_only=True)]
    typed_entries += [declaration_file(m) for m in list(modules) + typed_entries]
    modules.update({m: True for m in typed_entries if m and m not in modules
                    and lookup.table(m) is not None})  # fmt: skip
    for module, types_only in modules.items():
        table = lookup.table(module)
        names = lookup.export_names(module)
        if not isinstance(names, set):  # `module.exports = build`, with members of its own
            names = set(table.exports) if table is not None else set()
        bindings = [lookup.find_export(module, name) for name in sorted(names)]
        if table is not None and table.export_equals:
            local = table.export_equals
            bindings.append(Binding(module, local, table.locals.get(local, "value")))
        for binding in bindings:
            if not isinstance(binding, Binding) or not binding.local:
                continue
            place = (binding.path, binding.local)
            if binding.kind in ("interface", "type") and len(typed) < MAX_TYPES:
                # A declared object type a config is written to (`export interface Config`).
                at = partial(types.type_keys, (binding.local, binding.path))
                typed.setdefault(place, (at, binding.local, binding.local))
            if types_only or binding.kind not in ("function", "class"):
                continue
            if place in found or len(found) >= MAX_CANDIDATES:
                continue
            if binding.kind == "class":  # its constructor's (`new Chart(ctx, config)`)
                cls = (binding.local, binding.path)
                at = partial(types.method_keys, cls, "constructor")
                found[place] = (at, f"new {binding.local}()", "")
            else:
                at = partial(types.function_keys, binding.path, binding.local)
                found[place] = (at, f"{binding.local}()", "")
    return list(found.values()) + [v for k, v in typed.items() if k not in found]
