"""Gate 15's types a page declares itself in its TypeScript fences: an interface whose
fields are annotated with classes or interfaces the page imported from the product
(``interface Services { orm: MikroORM; em: EntityManager }``) and a function whose declared
return type is such an interface (``function initORM(): Promise<Services>``). A value that
function returns is typed by those fields (``const { orm } = initORM()``, ``const db =
initORM(); db.em``), the function named by the page (declared there, or imported by a
relative path from the page's own files). Takes the fence reader
(:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.helpers.js_tree import node_text, pattern_names, unwrap
from pytest_postgates.helpers.sample_checks import SampleValue

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading

_WRAPPERS = frozenset({"Promise", "Readonly", "Awaited"})


def declared_type(sample: FenceReading, annotation: Any, origin: str = "") -> SampleValue | None:
    """The instance a type annotation names when it is a class or interface the page
    imported from the product (``EntityRepository<Article>``: its class)."""
    written = annotation.named_children[0] if annotation.named_children else None
    if written is not None and written.type == "generic_type":
        written = written.child_by_field_name("name") or written
    held = sample.values.get(node_text(sample.source, written)) if written is not None else None
    binding = held.binding if held is not None else None
    if held is None or held.kind != "export" or not isinstance(binding, Binding):
        return None
    if binding.kind not in ("class", "interface"):
        return None
    return SampleValue("instance", held.module, held.name, binding, origin=origin)


def interface(sample: FenceReading, node: Any) -> None:
    """Record an interface the page declares: its fields' product types (None for a field
    of another type: the page's own, a primitive)."""
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if name is None or body is None:
        return
    fields: dict[str, SampleValue | None] = {}
    for member in body.named_children:
        key, annotation = member.child_by_field_name("name"), member.child_by_field_name("type")
        if member.type != "property_signature" or key is None:
            continue
        typed = declared_type(sample, annotation) if annotation is not None else None
        fields[node_text(sample.source, key)] = typed
    sample.page_interfaces[node_text(sample.source, name)] = fields


def function(sample: FenceReading, node: Any) -> None:
    """Record the interface a function the page declares returns (its declared return
    type, ``Promise<...>`` unwrapped); a function without one is forgotten."""
    name, returns = node.child_by_field_name("name"), node.child_by_field_name("return_type")
    if name is None:
        return
    local = node_text(sample.source, name)
    written = returns.named_children[0] if returns is not None and returns.named_children else None
    while written is not None and written.type == "generic_type":
        head = node_text(sample.source, written.child_by_field_name("name"))
        arguments = written.child_by_field_name("type_arguments")
        if head not in _WRAPPERS or arguments is None or len(arguments.named_children) != 1:
            break
        written = arguments.named_children[0]
    if written is not None and written.type == "type_identifier":
        sample.page_functions[local] = node_text(sample.source, written)
    else:
        sample.page_functions.pop(local, None)


def returned(sample: FenceReading, value: Any) -> dict[str, SampleValue | None] | None:
    """The fields of the page's interface a call of the page's function returns
    (``initORM({...})``, awaited or not), or None."""
    call = unwrap(value)
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    if function is None or function.type != "identifier":
        return None
    name = node_text(sample.source, function)
    spec = sample.foreign.get(name)
    if spec is not None and not spec.startswith("."):
        return None  # another package's function of that name
    declared = sample.page_functions.get(name)
    return sample.page_interfaces.get(declared) if declared else None


def bind(sample: FenceReading, pattern: Any, fields: dict[str, SampleValue | None]) -> None:
    """``const db = f()``: ``db.orm`` holds the field's type; ``const { orm, em: e } =
    f()``: ``orm`` and ``e`` do."""
    if pattern.type == "identifier":
        local = node_text(sample.source, pattern)
        sample.values.pop(local, None)
        for key, held in fields.items():
            if held is not None:
                sample.values[f"{local}.{key}"] = held
            else:
                sample.values.pop(f"{local}.{key}", None)
        return
    for item in pattern.named_children:
        if item.type == "shorthand_property_identifier_pattern":
            key = local = node_text(sample.source, item)
        elif item.type == "pair_pattern" and item.child_by_field_name("value") is not None:
            key = node_text(sample.source, item.child_by_field_name("key"))
            local = node_text(sample.source, item.child_by_field_name("value"))
        else:
            for bound in pattern_names(item):
                sample.values.pop(node_text(sample.source, bound), None)
            continue
        held = fields.get(key)
        if held is not None:
            sample.values[local] = held
        else:
            sample.values.pop(local, None)
