"""The call graph's JavaScript/TypeScript reader: each function's and method's calls, from
the tree-sitter tree the model already parsed (one query, run in C).

Functions are function declarations, methods (class fields holding an arrow function
included), ``const f = () => ...`` and functions assigned to a member
(``Module.load = function () {}``, reached by that member's name); a function written
inside another belongs to it (its calls are that body's), and the calls outside any function
(module statements, the callbacks written there) belong to the file's module code
(:data:`~.call_resolution.MODULE_CODE`). ``this.x()`` and ``super.x()``
are calls on the enclosing class, ``name()``, ``ns.name()`` and ``new Name()`` go through
the file's names and imports (:class:`~.file_table.FileTable`'s, followed through
re-exports by :mod:`.call_resolution`); any other receiver is dynamic dispatch, and so is a
key the code writes (``obj["save"]()``, ``s[Symbol.asyncIterator]()``). A callee the code
computes (``handlers[kind]()``, ``r[name]?.()``, a call's result called) is opaque: it may
be any function; the function's own parameter called is a callback (whatever its callers
pass), and a name passed to a call as a value is recorded as passed. ``this.#x()`` is the
class's private method ``#x``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from pytest_postgates.evidence.call_flow import (
    JS_FLOW_PATTERNS,
    JsFlows,
    Scopes,
    arm_path,
    flow_bits,
)
from pytest_postgates.evidence.call_resolution import (
    CALLBACK,
    DYNAMIC,
    FIELD,
    LOCAL,
    MEMBER,
    MODULE_CODE,
    NAME,
    NEW,
    OPAQUE,
    PASSED,
    SUPER,
    THIS,
    ClassEntry,
    RawCall,
    RawFunction,
    UnitCalls,
    resolve_units,
)
from pytest_postgates.evidence.calls_nested import LocalFunctions
from pytest_postgates.evidence.file_table import FileTable
from pytest_postgates.evidence.messages import js_constants, js_message
from pytest_postgates.evidence.model_facts import FunctionCalls, ValueEnd

_FUNCTION_VALUE = "[(arrow_function) (function_expression)]"
_CLOSURE_KINDS = frozenset(
    {"arrow_function", "function_expression", "function", "function_declaration"}
    | {"generator_function", "generator_function_declaration", "method_definition"}
)
_PATTERNS = (
    "(function_declaration name: (_)) @fn",
    "(generator_function_declaration name: (_)) @fn",
    "(method_definition name: (_)) @fn",
    f"(variable_declarator name: (identifier) value: {_FUNCTION_VALUE}) @fn",
    f"(public_field_definition name: (_) value: {_FUNCTION_VALUE}) @fn",
    f"(field_definition property: (_) value: {_FUNCTION_VALUE}) @fn",
    # a function assigned to a member (`Module.loadAll = async function () {}`,
    # `Foo.prototype.run = function () {}`, `exports.read = () => {}`)
    f"(assignment_expression left: (member_expression) right: {_FUNCTION_VALUE}) @fn",
    # an object literal's member holding a function (`sendMessage: (sid) => request(...)`)
    f"(pair key: [(property_identifier) (string)] value: {_FUNCTION_VALUE}) @fn",
    # a constant of the file: an instance, a value a call makes (a store), an object
    "(variable_declarator name: (identifier) value: [(new_expression) (call_expression)"
    " (object)]) @value",
    # a function written in place as an argument: handed to whatever is called
    f"(arguments {_FUNCTION_VALUE} @inline)",
    # a value spread into another (`{ ...createSlice(set) }`): members the literal hides
    "(spread_element) @spread",
    "(call_expression function: (_) @call)",
    "(new_expression constructor: (_) @new)",
    "(switch_statement value: (_) @switch)",
    # the names a function is given: a callback called by its name is opaque
    "(formal_parameters) @params",
    "(arrow_function parameter: (identifier) @params)",
    # a local made by a constructor (`const store = new Store()`)
    "(variable_declarator name: (identifier) value: (new_expression)) @made",
    # the functions written in place: a call's scope (model_facts.CallSite.scope)
    *(f"({kind}) @closure" for kind in sorted(_CLOSURE_KINDS)),
    *JS_FLOW_PATTERNS,  # the loops, branches and arguments around a call
    # the names passed to a call as values: whatever receives one may call it
    "(arguments (identifier) @passed)",
    "(arguments (member_expression) @passed)",
    "(class_declaration name: (_)) @class",
    "(abstract_class_declaration name: (_)) @class",
    "(class name: (_)) @class",
    # What a field holds: its declared type, or what it is made by.
    "(public_field_definition) @field",
    "(field_definition) @field",
    "(required_parameter (accessibility_modifier)) @field",
    "(assignment_expression left: (member_expression object: (this)) right: (new_expression))"
    " @field",
)
_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$.]*")
_CLASS_BODIES = ("class_body",)
_QUERIES: dict[str, Any] = {}
_TEXT_LIMIT = 80


def _query(grammar: str, language: Any) -> Any:
    """The query for ``language``: the patterns its grammar has (a JavaScript grammar has
    no ``public_field_definition``, TypeScript's no ``field_definition``)."""
    # (A tree hands out a new Language object each time: keyed by the grammar's name.)
    key = grammar
    if key not in _QUERIES:
        import tree_sitter

        usable = []
        for pattern in _PATTERNS:
            try:
                tree_sitter.Query(language, pattern)
            except Exception:  # a node type this grammar does not have
                continue
            usable.append(pattern)
        _QUERIES[key] = tree_sitter.Query(language, "\n".join(usable))
    return _QUERIES[key]


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _dotted(source: bytes, node: Any) -> str | None:
    if node.type == "identifier":
        return _text(source, node)
    if node.type == "member_expression":
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        base = _dotted(source, obj) if obj is not None else None
        if base is not None and prop is not None:
            return f"{base}.{_text(source, prop)}"
    return None


def raw_call(source: bytes, callee: Any, constructs: bool) -> RawCall:
    """The call whose callee (a call's ``function``, a ``new``'s ``constructor``) is
    ``callee`` (see :class:`~.call_resolution.RawCall`)."""
    line = callee.start_point[0] + 1
    end = min(callee.end_byte, callee.start_byte + _TEXT_LIMIT)
    shown = " ".join(source[callee.start_byte : end].decode("utf-8", "replace").split())
    if callee.type == "super":  # super(...) in a constructor
        return RawCall(SUPER, "constructor", "", shown, line)
    if callee.type == "identifier":
        name = _text(source, callee)
        return RawCall(NEW if constructs else NAME, name, "", shown, line)
    if callee.type == "subscript_expression":
        index = callee.child_by_field_name("index")
        key = _text(source, index) if index is not None else ""
        if index is not None and (index.type == "string" or key.startswith("Symbol.")):
            # a key the code writes (`obj["save"]()`, `s[Symbol.asyncIterator]()`): a
            # member by its name on a value of unknown type
            name = key[1:-1] if index.type == "string" else f"[{key}]"
            return RawCall(DYNAMIC, name, "", shown, line)
    if callee.type in _COMPUTED:
        held = (
            callee.child_by_field_name("object") if callee.type == "subscript_expression" else None
        )
        base = _dotted(source, held) if held is not None else None
        return RawCall(OPAQUE, "", base or "", shown, line)
    if callee.type == "member_expression":
        obj, prop = callee.child_by_field_name("object"), callee.child_by_field_name("property")
        name = _text(source, prop) if prop is not None else ""
        if obj is not None and obj.type == "this":
            return RawCall(THIS, name, "", shown, line)
        if obj is not None and obj.type == "super":
            return RawCall(SUPER, name, "", shown, line)
        if obj is not None and obj.type == "member_expression":
            inner = obj.child_by_field_name("object")
            held = obj.child_by_field_name("property")
            if inner is not None and inner.type == "this" and held is not None:
                return RawCall(FIELD, name, _text(source, held), shown, line)
        base = _dotted(source, obj) if obj is not None else None
        if base is not None:
            return RawCall(MEMBER, name, base, shown, line)
        return RawCall(DYNAMIC, name, "", shown, line)
    return RawCall(DYNAMIC, "", "", shown, line)


# Callees the code computes: an item by a key, a call's result, an await's.
_COMPUTED = frozenset({"subscript_expression", "call_expression", "await_expression"})
# Parts of a parameter that name no parameter: its type, its default value.
_NOT_NAMES = frozenset({"type_annotation", "value", "right"})


def _settle_locals(functions: list[RawFunction]) -> None:
    """A local function (``function f() {}``, ``const f = () => ...`` written inside
    another) runs where the file calls it or hands it by its name ("handed"); one the
    file never names so (returned, stored in an object, a JSX attribute) is "stored"."""
    named = {
        c.name for f in functions for c in f.calls if c.form in (NAME, PASSED, CALLBACK, LOCAL)
    }

    def settle(token: str) -> str:
        start, _, held = token.partition(":")
        if not held.startswith("local:"):
            return token
        return f"{start}:{'handed' if held[6:] in named else 'stored'}"

    for function in functions:
        function.calls = [
            replace(c, scope="/".join(settle(t) for t in c.scope.split("/")))
            if ":local:" in c.scope
            else c
            for c in function.calls
        ]


def _parameter_names(source: bytes, node: Any) -> set[str]:
    """The names a parameter list (or an arrow's one parameter) binds, destructured ones
    included; types and default values left out."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        return {_text(source, node)}
    names: set[str] = set()
    for index, child in enumerate(node.children):
        field_name = node.field_name_for_child(index)
        if child.type == "type_annotation" or field_name in _NOT_NAMES:
            continue
        if node.type == "pair_pattern" and field_name == "key":
            continue
        names |= _parameter_names(source, child)
    return names


def _passed(source: bytes, node: Any, scope: str = "") -> RawCall:
    """A name passed to a call as a value (``register(handler)``, ``xs.map(this.step)``)."""
    held = node.child_by_field_name("property") if node.type == "member_expression" else node
    name = _text(source, held) if held is not None else ""
    shown = " ".join(_text(source, node).split())[:_TEXT_LIMIT]
    return RawCall(PASSED, name, "", shown, node.start_point[0] + 1, scope=scope)


def _literals(source: bytes, callee: Any) -> tuple[str | None, ...]:
    """The string literals a call passes, by argument position (None: not a literal)."""
    call = callee.parent
    arguments = call.child_by_field_name("arguments") if call is not None else None
    if arguments is None or arguments.type != "arguments":
        return ()
    return tuple(
        _text(source, a)[1:-1] if a.type == "string" else None for a in arguments.named_children
    )


def _positional(source: bytes, params: Any) -> list[str | None]:
    """A parameter list's names by position (None: destructured), or an arrow's one name."""
    if params.type == "identifier":
        return [_text(source, params)]
    names: list[str | None] = []
    for child in params.named_children:
        typed = child.type.endswith("_parameter")
        pattern = child.child_by_field_name("pattern") if typed else child
        if child.type != "comment":
            found = pattern is not None and pattern.type == "identifier"
            names.append(_text(source, pattern) if found else None)
    return names


def _name_of(source: bytes, node: Any) -> str:
    if node.type == "assignment_expression":
        node = node.child_by_field_name("left")
    if node.type == "pair":
        key = node.child_by_field_name("key")
        return _text(source, key).strip("'\"") if key is not None else ""
    name = node.child_by_field_name("name") or node.child_by_field_name("property")
    return _text(source, name) if name is not None else ""


_MODIFIERS = frozenset({"async", "static", "private", "protected", "public", "abstract"})


def _declared(source: bytes, node: Any) -> tuple[str, list[str]]:
    """A function's declared return type (its text, ``: `` dropped) and modifiers."""
    value = node.child_by_field_name("value")
    target = value if value is not None and node.type != "method_definition" else node
    modifiers = [
        _text(source, child).split()[0]
        for holder in (node, target)
        for child in holder.children
        if child.type in _MODIFIERS or child.type == "accessibility_modifier"
    ]
    annotation = target.child_by_field_name("return_type")
    returns = _text(source, annotation).lstrip(":").strip() if annotation is not None else ""
    return returns, sorted(set(modifiers))


def _class_of(source: bytes, node: Any) -> str:
    """The name of the class whose body holds ``node`` directly ("" when none)."""
    parent = node.parent
    if parent is None or parent.type not in _CLASS_BODIES or parent.parent is None:
        return ""
    name = parent.parent.child_by_field_name("name")
    return _text(source, name) if name is not None else ""


def read_unit(
    path: str, source: bytes, tree: Any, grammar: str, table: FileTable
) -> UnitCalls | None:
    """The functions, classes and imports of one parsed file (None without the query
    API of tree-sitter)."""
    try:
        import tree_sitter

        query = _query(grammar, tree.language)
        captures = tree_sitter.QueryCursor(query).captures(tree.root_node)
    except Exception:  # an older binding: the call graph of this file is not read
        return None
    unit = UnitCalls(path, path, "constructor")
    found = [(node, _name_of(source, node)) for node in captures.get("fn", [])]
    calls: list[tuple[Any, bool | None]] = [(node, False) for node in captures.get("call", [])]
    calls += [(node, True) for node in captures.get("new", [])]
    for node in captures.get("class", []):
        name = _name_of(source, node)
        heritage = [c for c in node.named_children if c.type == "class_heritage"]
        bases = _bases(source, heritage[0]) if heritage else []
        unit.classes.setdefault(name, ClassEntry(f"{path}:{name}", name, path, bases))
    for node in captures.get("field", []):
        _add_field(source, node, unit)
    found.sort(key=lambda item: item[0].start_byte)
    functions: list[tuple[int, int, RawFunction]] = []
    holders: dict[int, Any] = {}  # a function's start byte -> its node
    locals_ = LocalFunctions(source)
    for node, name in found:
        if functions and node.start_byte < functions[-1][1]:
            # inside the function before it: that body's, and a local function's own
            top, line = functions[-1][2], node.start_point[0] + 1
            returns, modifiers = _declared(source, node)
            nested = RawFunction("", name, "", line, not node.has_error, [], returns, modifiers)
            locals_.add(node, name, len(functions) - 1, top, nested)
            continue
        owner = _class_of(source, node)
        line = node.start_point[0] + 1
        if owner:
            qualname = f"{path}:{owner}.{name}"
            entry = unit.classes.get(owner)
            if entry is not None:
                entry.methods.setdefault(name, qualname)
        elif (node.parent is not None and node.parent.type == "object") or node.type == "pair":
            qualname = f"{path}.{name}@{line}"  # an object literal's method
        elif node.type == "assignment_expression":
            if name in ("exports", "default"):
                continue  # `module.exports = function`: the module's, no name of its own
            left = node.child_by_field_name("left")
            written = _dotted(source, left) if left is not None else None
            # reached by its member's name (dynamic dispatch), not as a name in scope
            qualname = f"{path}.{written or name}@{line}"
        else:
            qualname = f"{path}.{name}"
            unit.top.setdefault(name, qualname)
        value = node.child_by_field_name("right") if node.type == "assignment_expression" else None
        returns, modifiers = _declared(source, value if value is not None else node)
        function = RawFunction(
            qualname, name, owner, line, not node.has_error, [], returns, modifiers
        )
        functions.append((node.start_byte, node.end_byte, function))
        holders[node.start_byte] = node
    starts = [start for start, _end, _function in functions]
    # A chain's calls start at one byte: the inner one (ending first) comes first, whatever
    # order the query returned them in.
    calls += [(node, None) for node in captures.get("passed", [])]
    ordered = sorted(calls, key=lambda item: (item[0].start_byte, item[0].end_byte))
    keys: dict[int, set[str]] = {}  # function -> the names it indexes a callee by
    constants: dict[str, str] | None = None  # read when the file makes a call
    module = RawFunction(f"{path}.{MODULE_CODE}", MODULE_CODE, "", 1, not tree.root_node.has_error)
    scopes, flows = Scopes(source, captures.get("closure", [])), JsFlows(source, captures)
    for callee, constructs in ordered:
        at = bisect.bisect_right(starts, callee.start_byte) - 1
        inside = at >= 0 and callee.start_byte < functions[at][1]
        body = functions[at][2] if inside else module
        scope = scopes.at(callee, holders.get(functions[at][0]) if inside else None)
        marks = flows.at(callee)  # the loop, branch, arguments around it: model_facts.CallSite
        opened = functions[at][0] if inside else -1
        flow = flow_bits(marks, opened, callee.start_point[0] + 1)
        arms = arm_path(marks, opened)
        if constructs is None:
            body.calls.append(replace(_passed(source, callee, scope), flow=flow, arms=arms))
            if inside:
                locals_.take(at, callee.start_byte, body.calls[-1], marks)
            continue
        made = raw_call(source, callee, constructs)
        literals = _literals(source, callee)
        body.calls.append(replace(made, literals=literals, scope=scope, flow=flow, arms=arms))
        if inside:
            locals_.take(at, callee.start_byte, body.calls[-1], marks)
        if not constructs:
            if constants is None:
                constants = js_constants(source, tree.root_node)
            sent, listened = js_message(source, callee, constants)
            body.sends += [sent] if sent is not None else []
            body.listens += [listened] if listened is not None else []
            if inside:
                locals_.take_message(at, callee.start_byte, sent, listened)
        index = callee.child_by_field_name("index")
        if inside and callee.type == "subscript_expression" and index is not None:
            keys.setdefault(at, set()).add(_text(source, index))
    # the function's own parameters (not a closure's): a callback called by its name, or
    # the key of a string-keyed dispatch (`r[name]()`)
    own: dict[int, set[str]] = {}
    positions: dict[int, list[str | None]] = {}
    given: set[str] = set()  # the parameters of the callbacks written outside any function
    for params in captures.get("params", []):
        at = bisect.bisect_right(starts, params.start_byte) - 1
        if at < 0 or params.start_byte >= functions[at][1]:
            given |= _parameter_names(source, params)
            continue
        holder = params.parent
        if holder is not None and holder.type in ("arrow_function", "function_expression"):
            holder = holder.parent if holder.start_byte != starts[at] else holder
        if at >= 0 and holder is not None and holder.start_byte == starts[at]:
            own.setdefault(at, set()).update(_parameter_names(source, params))
            positions.setdefault(at, []).extend(_positional(source, params))
    for at, names in own.items():
        function = functions[at][2]
        function.calls = [
            replace(c, form=CALLBACK, base="", literals=())
            if c.form == NAME and c.name in names
            else c
            for c in function.calls
        ]
        keyed = [i for i, n in enumerate(positions.get(at, [])) if n in keys.get(at, set())]
        function.dispatch = keyed[0] if keyed else -1
    declared: dict[int, dict[str, list[str]]] = {}
    for maker in captures.get("made", []):
        at = bisect.bisect_right(starts, maker.start_byte) - 1
        bound, value = maker.child_by_field_name("name"), maker.child_by_field_name("value")
        held = value.child_by_field_name("constructor") if value is not None else None
        written = _dotted(source, held) if held is not None else None
        if at >= 0 and maker.start_byte < functions[at][1] and bound is not None and written:
            declared.setdefault(at, {}).setdefault(_text(source, bound), []).append(written)
    for at, locals_made in declared.items():
        functions[at][2].made_by = {n: w[0] for n, w in locals_made.items() if len(w) == 1}
    for value in sorted(captures.get("switch", []), key=lambda node: node.start_byte):
        at = bisect.bisect_right(starts, value.start_byte) - 1
        if at >= 0 and value.start_byte < functions[at][1]:
            inner = value.named_children if value.type == "parenthesized_expression" else []
            written = _text(source, inner[0] if len(inner) == 1 else value)
            switched = " ".join(written.split())[:_TEXT_LIMIT]
            functions[at][2].switches.append((switched, value.start_point[0] + 1))
            locals_.take_switch(at, value.start_byte, functions[at][2].switches[-1])
    unit.functions = [function for _start, _end, function in functions]
    spreads = sorted(node.start_byte for node in captures.get("spread", []) if _members(node))
    _add_values(source, captures.get("value", []), (functions, starts), unit, spreads)
    _add_hands(source, captures.get("inline", []), (functions, starts), module, unit, table)
    for at, (start, _end, top) in enumerate(functions):
        locals_.take_hands(at, top)
        named = partial(_parameter_names, source)
        unit.functions += locals_.finish(at, top, holders[start], captures.get("params", []), named)
    _settle_locals([*unit.functions, module])
    if module.calls:
        callback = [c.form == NAME and c.name in given for c in module.calls]
        module.calls = [
            replace(c, form=CALLBACK, base="", literals=()) if given_one else c
            for c, given_one in zip(module.calls, callback, strict=True)
        ]
        unit.functions.append(module)
    for local, (spec, name) in ((k, (v[0], v[1])) for k, v in table.imports.items()):
        unit.bindings[local] = (spec, name)
    for alias, (spec, name) in ((k, (v[0], v[1])) for k, v in table.reexports.items()):
        unit.reexports[alias] = (spec, name)
    for alias, local in table.exports.items():
        if alias != local and local in unit.top:
            unit.top.setdefault(alias, unit.top[local])
        if alias != local and local in unit.classes:
            unit.classes.setdefault(alias, unit.classes[local])
    return unit


_MADE = {"new_expression": "new", "call_expression": "call", "object": "object"}
_DECLARATIONS = ("lexical_declaration", "variable_declaration")


# The file's functions (start byte, end byte, function) sorted by start, and their starts.
_Functions = tuple[list[tuple[int, int, RawFunction]], list[int]]


def _add_values(
    source: bytes,
    nodes: list[Any],
    read: _Functions,
    unit: UnitCalls,
    spreads: list[int],
) -> None:
    """The file's module-level constants that are no function (:class:`ValueEnd`), with
    the functions their initializers write."""
    functions = read[0]
    for node in nodes:
        declaration = node.parent
        holder = declaration.parent if declaration is not None else None
        if holder is not None and holder.type == "export_statement":
            holder = holder.parent
        if declaration is None or declaration.type not in _DECLARATIONS:
            continue
        if holder is None or holder.type != "program":
            continue
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            continue
        held = value.child_by_field_name(
            "constructor" if value.type == "new_expression" else "function"
        )
        made_by = " ".join(_text(source, held).split())[:_TEXT_LIMIT] if held is not None else ""
        inside = [
            function.qualname
            for start, end, function in functions
            if value.start_byte <= start and end <= value.end_byte
        ]
        line = node.start_point[0] + 1
        low = bisect.bisect_left(spreads, value.start_byte)
        high = bisect.bisect_left(spreads, value.end_byte)
        # a spread in the initializer itself, not in a function it writes (`set({...s})`)
        spread = any(not _within(read, at) for at in spreads[low:high])
        kind = _MADE[value.type]
        unit.values.append(
            ValueEnd(_text(source, name), unit.path, line, kind, made_by, inside, spread)
        )


def _members(spread: Any) -> bool:
    """Whether a spread adds members to an object literal that is no field's value
    (`{ ...slice(set), clear() {} }`, not `params: { ...defaults }`)."""
    holder = spread.parent
    outer = holder.parent if holder is not None else None
    return (
        holder is not None and holder.type == "object" and (outer is None or outer.type != "pair")
    )


def _within(read: _Functions, byte: int) -> bool:
    """Whether ``byte`` lies in the last of the file's functions starting before it."""
    functions, starts = read
    at = bisect.bisect_right(starts, byte) - 1
    return at >= 0 and byte < functions[at][1]


def _add_hands(
    source: bytes,
    nodes: list[Any],
    read: _Functions,
    module: RawFunction,
    unit: UnitCalls,
    table: FileTable,
) -> None:
    """Record, on the function writing it, each call of the product's code (its callee's
    first name is the file's own or imported from a file of the product) that is handed a
    function written in place: a listener registered, which whatever holds it may call."""
    functions, starts = read
    own = set(unit.top) | set(unit.classes) | {v.name for v in unit.values}
    for inline in nodes:
        call = inline.parent.parent if inline.parent is not None else None
        callee = call.child_by_field_name("function") if call is not None else None
        if call is None or callee is None:
            continue
        root = callee
        while root.type == "member_expression" and root.child_by_field_name("object") is not None:
            root = root.child_by_field_name("object")
        first = _text(source, root) if root.type == "identifier" else ""
        spec = table.imports.get(first, ("", ""))[0] if first in table.imports else None
        product = first in own or (spec is not None and spec.startswith((".", "@/", "~/", "#")))
        if not product:
            continue
        at = bisect.bisect_right(starts, call.start_byte) - 1
        body = functions[at][2] if at >= 0 and call.start_byte < functions[at][1] else module
        shown = " ".join(_text(source, callee).split())[:_TEXT_LIMIT]
        body.hands.append((shown, callee.start_point[0] + 1))


def _add_field(source: bytes, node: Any, unit: UnitCalls) -> None:
    """Record the class a field holds (``private store: Store``, ``store = new Store()``,
    ``constructor(private store: Store)``, ``this.store = new Store()``)."""
    if node.type == "assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = left.child_by_field_name("property") if left is not None else None
        held = right.child_by_field_name("constructor") if right is not None else None
    elif node.type == "required_parameter":
        name, held = node.child_by_field_name("pattern"), node.child_by_field_name("type")
    else:
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        held = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        if held is None and value is not None and value.type == "new_expression":
            held = value.child_by_field_name("constructor")
    if name is None or held is None:
        return
    written = _TYPE_NAME.search(_text(source, held))
    owner = node
    while owner is not None and owner.type != "class_body":
        owner = owner.parent
    klass = owner.parent if owner is not None else None
    class_name = klass.child_by_field_name("name") if klass is not None else None
    entry = unit.classes.get(_text(source, class_name)) if class_name is not None else None
    if entry is not None and written is not None:
        entry.fields.setdefault(_text(source, name), written.group(0))


def _bases(source: bytes, heritage: Any) -> list[str]:
    """``extends`` names of a class (``implements`` names no code)."""
    bases: list[str] = []
    for clause in heritage.named_children:
        if clause.type == "implements_clause":
            continue
        targets = [clause] if clause.type != "extends_clause" else clause.named_children
        for target in targets:
            dotted = _dotted(source, target)
            if dotted:
                bases.append(dotted)
    return bases


def resolve_js(
    units: Mapping[str, UnitCalls],
    resolve: Callable[[str, str], str | None],
    aliased: Callable[[str, str], str | None] | None = None,
) -> list[FunctionCalls]:
    """The functions of ``units`` (path -> unit) with their calls resolved; ``resolve``
    names the file a relative specifier written in a file means, ``aliased`` the file a
    bare one names through an alias (:mod:`.specifier_aliases`: "" another party's, None
    the product's but unknown)."""

    known: dict[tuple[str, str], str | None] = {}

    def locate(importer: str, spec: str) -> str | None:
        if (importer, spec) not in known:
            if spec.startswith("."):
                known[importer, spec] = resolve(importer, spec)
            elif aliased is not None:
                known[importer, spec] = aliased(importer, spec)
            else:  # a path alias names the product, but which file is unread
                known[importer, spec] = None if spec.startswith(("@/", "~/", "#")) else ""
        return known[importer, spec]

    return resolve_units(dict(units), locate)
