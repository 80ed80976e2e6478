"""Gate 15's object literals a JavaScript/TypeScript fence types itself, or exports with no
call: a config file's ``const config: Config = {...}``, ``{...} satisfies Config``,
``<Config>{...}`` and ``{...} as Config``, and a JSDoc ``/** @type
{import('pkg').Config} */`` over a declaration, ``module.exports =`` or ``export default``.
Each is judged against the product type it names, directly
(:meth:`~pytest_postgates.helpers.js_types.JsTypes.type_keys`): a key that type does not
declare is a finding with the nearest declared key. A literal typed by another package's
type is that package's and is left alone; one typed by a product name the model does not
read as an object type is listed unjudged with why. An untyped literal the fence only
exports or binds (``export default {...}``, ``module.exports = {...}``, ``const config =
{...}; module.exports = config``) is judged as one shown alone
(:func:`~pytest_postgates.helpers.js_option_keys.bare`). Takes the fence reader
(:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.helpers import js_option_keys
from pytest_postgates.helpers.js_tree import node_string, node_text, pattern_names, unwrap

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading

# The expressions that give an object literal a type: `{...} satisfies T`, `{...} as T`,
# `<T>{...}` (the literal first, the type second; the assertion the other way round).
_TYPING = frozenset({"satisfies_expression", "as_expression", "type_assertion"})
# A JSDoc tag typing what follows: `@type {import('pkg').Config}`, `@satisfies {Config}`.
_JSDOC = re.compile(
    r"@(?:type|satisfies)\s*\{\s*(?:import\(\s*(['\"])([^'\"]+)\1\s*\)\.)?"
    r"([A-Za-z_$][\w$]*)(?:<[^{}]*>)?\s*\}"
)
# A fence that hands what it binds to a harness by exporting it.
_EXPORTS = re.compile(r"\bmodule\.exports\s*=|\bexport\s+default\b")


def exported_alone(sample: FenceReading, content: str, first_line: int, tsx: bool) -> bool:
    """A fence that names nothing of the product but exports what it binds (a docs
    editor's sample: ``const config = {...}; module.exports = {config}``, a config file's
    ``export default {...}``): the object literals its top-level declarations bind and
    those it exports, judged by :func:`unpassed`. False: the fence is not read as the
    product's otherwise."""
    if not _EXPORTS.search(content):
        return False
    sample.source = content.encode("utf-8")
    sample.first, sample.lines = first_line, sample.shown
    sample.literals, sample.judged_literals = {}, set()
    root = sample.gate.parsers["tsx" if tsx else "typescript"].parse(sample.source).root_node
    for statement in root.named_children:
        if statement.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in statement.named_children:
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name is None or value is None or name.type != "identifier":
                continue
            if unwrap(value).type == "object":
                sample.literals[node_text(sample.source, name)] = (unwrap(value), 0)
    unpassed(sample, root)
    return False


def unpassed(sample: FenceReading, root: Any) -> None:
    """The object literals of a fence no call of the product's took: those it types
    itself, judged against their type; then those it exports directly and those it binds
    and only exports, judged as shown alone
    (:func:`~pytest_postgates.helpers.js_option_keys.unpassed`)."""
    exported: list[Any] = []
    nodes = _nodes(root)
    # The names the fence itself imports from another package (`import { Options } from
    # 'argon2'`): not the product's, whatever an earlier fence bound them to.
    foreign = {
        node_text(sample.source, local)
        for node in nodes
        if node.type == "import_statement"
        and sample.gate.site_of(node_string(sample.source, node.child_by_field_name("source")))
        is None
        for clause in node.named_children
        if clause.type == "import_clause"
        for local in pattern_names(clause)
    }
    for node in nodes:
        literal, typed = _typed(sample, node)
        if typed is not None and typed[0] in foreign and not typed[1]:
            sample.judged_literals.add(literal.id)  # another package's type
            continue
        if literal is not None and typed is not None and literal.id not in sample.judged_literals:
            if _judge(sample, literal, typed, node):
                sample.judged_literals.add(literal.id)
        elif node.type in ("export_statement", "assignment_expression"):
            exported += [_exported(sample, node)]
    for literal in exported:
        if literal is not None and literal.id not in sample.judged_literals:
            sample.judged_literals.add(literal.id)
            if literal.named_children and not _export_list(sample, literal):
                js_option_keys.bare(sample, literal)
    js_option_keys.unpassed(sample, root)


def _nodes(root: Any) -> list[Any]:
    """Every named node of the tree, in source order."""
    found: list[Any] = []
    todo = [root]
    while todo:
        here = todo.pop()
        found.append(here)
        todo.extend(reversed(here.named_children))
    return found


def _typed(sample: FenceReading, node: Any) -> tuple[Any, tuple[str, str] | None]:
    """The object literal ``node`` gives a type, and that type (its name, and the
    specifier of a JSDoc ``import()``, "" otherwise); the type is None when it is written
    otherwise (a union, an object type): the literal is then read as an untyped one."""
    if node.type in _TYPING and len(node.named_children) == 2:
        first, second = node.named_children
        literal, written = (second, first) if node.type == "type_assertion" else (first, second)
        if unwrap(literal).type == "object":
            return unwrap(literal), _type_name(sample, written)
    if node.type == "variable_declarator":
        value, annotation = node.child_by_field_name("value"), node.child_by_field_name("type")
        if value is not None and annotation is not None and value.type == "object":
            written = annotation.named_children[0] if annotation.named_children else None
            return value, _type_name(sample, written) if written is not None else None
    if node.type == "comment":
        match = _JSDOC.search(node_text(sample.source, node))
        following = node.next_named_sibling
        literal = _statement_literal(sample, following) if match and following else None
        if literal is not None:
            return literal, (match.group(3), match.group(2) or "")  # type: ignore[union-attr]
    return None, None


def _type_name(sample: FenceReading, written: Any) -> tuple[str, str] | None:
    """The name a type written in TypeScript is (``Config``, ``Config<'x'>``), or None for
    any other type (a union, an object type, a qualified name)."""
    if written.type == "type_arguments" and len(written.named_children) == 1:
        written = written.named_children[0]  # `<Config>{...}`
    if written.type == "generic_type":
        written = written.child_by_field_name("name") or written
    if written.type != "type_identifier":
        return None
    return node_text(sample.source, written), ""


def _statement_literal(sample: FenceReading, statement: Any) -> Any:
    """The object literal a statement declares, assigns to ``module.exports`` or exports
    as default (what a JSDoc comment over it types), or None."""
    if statement.type in ("lexical_declaration", "variable_declaration"):
        declarators = [c for c in statement.named_children if c.type == "variable_declarator"]
        value = declarators[0].child_by_field_name("value") if len(declarators) == 1 else None
        return value if value is not None and value.type == "object" else None
    if statement.type == "expression_statement" and statement.named_children:
        return _exported(sample, statement.named_children[0])
    if statement.type == "export_statement":
        return _exported(sample, statement)
    return None


def _exported(sample: FenceReading, node: Any) -> Any:
    """The object literal ``export default {...}`` or ``module.exports = {...}`` exports,
    or None."""
    value = None
    if node.type == "export_statement" and any(c.type == "default" for c in node.children):
        value = node.child_by_field_name("value")
    elif node.type == "assignment_expression":
        left = node.child_by_field_name("left")
        if left is not None and node_text(sample.source, left) == "module.exports":
            value = node.child_by_field_name("right")
    if value is None or value.type not in ("object", "parenthesized_expression"):
        return None
    return unwrap(value) if unwrap(value).type == "object" else None


def _export_list(sample: FenceReading, literal: Any) -> bool:
    """Whether an exported object hands on objects the fence binds (a docs editor's
    ``module.exports = { actions: [], config: config }``): a module's list of exports,
    whose keys are the fence's own names, not an object of the product's."""
    for pair in literal.named_children:
        value = pair.child_by_field_name("value") if pair.type == "pair" else pair
        named = value is not None and value.type in ("identifier", "shorthand_property_identifier")
        if named and node_text(sample.source, value) in sample.literals:
            return True
    return False


def _judge(sample: FenceReading, literal: Any, typed: tuple[str, str], node: Any) -> bool:
    """The keys of ``literal`` against the product type ``typed`` names, as the fence's
    imports (or the JSDoc's ``import()``) bind it. True when the type decides whose keys
    they are: the product's (judged, or listed unjudged with why), or another package's or
    the page's own (left alone); False for a name nothing binds (``const config: Options``
    with no import), whose literal is read as an untyped one."""
    name, spec = typed
    binding = _binding(sample, name, spec, node)
    types = sample.types()
    if binding is None:
        # Another package's type, or the sample's own: not the product's keys.
        return bool(spec) or name in sample.bound or name in sample.page_interfaces
    if types is None or binding.kind not in ("interface", "type"):
        why = f"{binding.kind} {name}" if types is not None else f"{name}, a type not read"
        js_option_keys.skip_keys(sample, literal, f"an object literal typed {name}: "
                                 f"the model reads no object type in {why}")  # fmt: skip
        return True
    keys_at = partial(types.type_keys, (binding.local, binding.path))
    keys = keys_at(0, ())
    if keys is None:
        js_option_keys.skip_keys(sample, literal, f"an object literal typed {name}: the "
                                 "model cannot follow that type's keys")  # fmt: skip
        return True
    js_option_keys.object_keys(sample, keys_at, literal, 0, (), binding.local)
    return True


def _binding(sample: FenceReading, name: str, spec: str, node: Any) -> Binding | None:
    """Where the product declares the type ``name``: a name the fence (or the page before
    it) imported from the product, or one a JSDoc ``import('pkg')`` reads from the
    product's module; None when it is no product name."""
    if spec:
        if sample.gate.site_of(spec) is None:
            return None
        line, text = sample.line(node), sample.linenode_text(node)
        module = sample.gate.module_for(spec, True, line, text)
        if module is None:
            return None
        found = sample.gate.check_export(module, name, line, text, True)
        return found if isinstance(found, Binding) else None
    held = sample.values.get(name)
    if held is None or held.kind != "export" or not isinstance(held.binding, Binding):
        return None
    return held.binding
