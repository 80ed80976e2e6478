"""Gate 15's ``this`` in a class a JavaScript/TypeScript sample declares that extends a
product class (``class ExtendedRepository extends EntityRepository { ... this.em ... }``):
inside its body, ``this.x`` that the sample's class does not declare itself is the base's
field, typed as the base declares it (a protected one and a constructor's parameter
property included: a subclass reaches them). Takes the fence reader
(:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.helpers.js_tree import node_text, unwrap

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import Cls

# A class the fence declares over a product class: its bytes, the base, its own members.
Subclass = tuple[int, int, "Cls", frozenset[str]]


def subclass(sample: FenceReading, node: Any) -> Subclass | None:
    """The class ``node`` declares when it extends a class the sample imported from the
    product (``extends EntityRepository<T>``), with the members its body declares."""
    types = sample.types
    heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
    clause = next((c for c in heritage.named_children if c.type == "extends_clause"), None) if (
        heritage is not None) else None  # fmt: skip
    value = clause.child_by_field_name("value") if clause is not None else None
    if value is None:
        return None
    held = sample.values.get(node_text(sample.source, unwrap(value)))
    binding = held.binding if held is not None else None
    if held is None or held.kind != "export" or not isinstance(binding, Binding):
        return None
    known = types()
    cls = (binding.local, binding.path)
    if binding.kind != "class" or known is None or not known.entries(cls):
        return None
    body = node.child_by_field_name("body")
    own: set[str] = set()
    for member in body.named_children if body is not None else ():
        name = member.child_by_field_name("name")
        if name is not None:
            own.add(node_text(sample.source, name))
        if name is not None and node_text(sample.source, name) == "constructor":
            params = member.child_by_field_name("parameters")
            for param in params.named_children if params is not None else ():
                pattern = param.child_by_field_name("pattern")
                if pattern is not None:
                    own.add(node_text(sample.source, pattern))
    return node.start_byte, node.end_byte, cls, frozenset(own)


def base_field(
    sample: FenceReading, classes: list[Subclass], node: Any
) -> tuple[Cls, str, tuple[Cls | None, bool]] | None:
    """For ``this.name`` at ``node``: the base class of the innermost such class around it,
    the name, and what the base declares the field as (the class, or None, and whether
    its type is open); None for no ``this.name``, inside no such class, or for a member
    the sample's class declares itself."""
    inner, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
    if not classes or inner is None or prop is None or inner.type != "this":
        return None
    name, at = node_text(sample.source, prop), node.start_byte
    around = [c for c in classes if c[0] <= at < c[1]]
    types = sample.types()
    if not around or types is None:
        return None
    _start, _end, cls, own = max(around, key=lambda c: c[0])
    if name in own:
        return None
    return cls, name, types.field_held(cls, name, inside=True) or (None, False)
