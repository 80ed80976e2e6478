"""The declared type of a parameter of a callback a sample writes where the product takes a
function (gate 15's contextual typing, as TypeScript's): got's ``response`` of an
``afterResponse`` hook, Chart.js's ``args`` of an ``external(args: { chart: Chart })``
option. Read through the product's declared types (:class:`js_types.JsTypes`)."""

from __future__ import annotations

from pytest_postgates.evidence.type_shapes import TypeRef
from pytest_postgates.evidence.type_tables import CALL_SIGNATURE
from pytest_postgates.helpers.js_types import Cls, JsTypes, declaration_file, parameter_type


def callback_class(
    types: JsTypes,
    callee: tuple[Cls | str, str],
    position: int,
    path: tuple[str, ...],
    index: int,
    arity: int = 0,
) -> Cls | None:
    """The product class or interface parameter ``index`` of a callback has, the callback
    (written with ``arity`` required parameters) at ``path`` of argument ``position`` of a
    call of ``callee`` (a class and method, or a file and function): the parameter's
    declared type, through the argument's declared type (``hooks: { afterResponse:
    [response => ...] }``). Of several overloads, TypeScript takes the first the call fits:
    where they all declare the same parameters before ``position`` (no earlier argument
    tells them apart), the first taking a function there types it (fastify's
    ``register(plugin: FastifyPluginCallback)`` before its other overloads); otherwise
    every overload taking a function there must give the same type."""
    owner, method = callee
    if types.declared is None:
        return None
    if isinstance(owner, tuple):
        places = [(entry.path, entry.name) for entry in types.lineage(owner)]
    else:
        places = [(owner, "")] + [(d, "") for d in [declaration_file(owner)] if d]
    for file, container in places:
        found = types.declared.signatures(file, container, method)
        if found is None:
            continue
        where, signatures = found
        taking = [s for s in signatures if parameter_type(s, position) != ()]
        # Compared, not hashed: an object type written in place holds its fields as a dict.
        before = [tuple(p.type for p in s.params[:position]) for s in taking]
        alike = all(types_before == before[0] for types_before in before)
        named: set[Cls] = set()
        for signature in taking:
            typed = parameter_type(signature, position)
            if typed is None:
                return None
            assert isinstance(typed, tuple)
            cls = _overload_class(types, TypeRef(typed, where), (method, path, index, arity))
            if cls == "":
                continue  # an overload taking an options object there, not the callback
            if not isinstance(cls, tuple) or alike:
                return cls if isinstance(cls, tuple) else None
            named.add(cls)
        return named.pop() if len(named) == 1 else None
    held = types.field_type(owner, method) if isinstance(owner, tuple) else None
    if held is None or method == CALL_SIGNATURE:
        return None
    return callback_class(types, (held, CALL_SIGNATURE), position, path, index, arity)


def _overload_class(
    types: JsTypes, typed: TypeRef, at: tuple[str, tuple[str, ...], int, int]
) -> Cls | str | None:
    """The class one overload's argument type ``typed`` gives the callback's parameter;
    ``""`` where the overload takes no function there (an options object); None where it
    cannot be told."""
    method, path, index, arity = at
    assert types.declared is not None
    ref = types.declared.callback_parameter(typed, path, index, arity)
    if ref is None and not path and _no_function(types, typed):
        return ""
    if ref is None:
        return None
    while ref.expr[0] == "ref" and not ref.expr[2] and ref.lookup(ref.expr[1]):
        ref = ref.lookup(ref.expr[1]) or ref
    if ref.expr[0] == "obj":  # `external(args: { chart: Chart }): void`
        lines = [field[1] for field in ref.expr[1].values()]
        shown = f"{path[-1] if path else method}()'s parameter {index + 1}"
        cls = (f"the object type of {shown} (line {min(lines, default=0)})", ref.path)
        types.in_place.setdefault(cls, ref)
        return cls
    if ref.expr[0] != "ref":
        return None
    return types.resolve(ref.expr[1], ref.path)


def _no_function(types: JsTypes, ref: TypeRef) -> bool:
    """Whether a parameter's declared type takes no function: object types only, none
    of them callable (an overload's options object where another takes the callback)."""
    shapes = types.declared.shapes(ref) if types.declared is not None else None
    return bool(shapes) and all(s.array_of is None and not s.callable for s in shapes or ())
