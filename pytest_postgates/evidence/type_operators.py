"""The type operators the type model (:mod:`.type_model`) expands beyond aliases, generics,
unions and intersections: a mapped type (``{ [P in keyof T]?: DeepPartial<T[P]> }``, the
way a config API declares "any part of the options"), a conditional type whose test asks
whether a type is an object (``T extends object ? A : B``), and an indexed access
(``T[P]``, ``Options["retry"]``). Each answers ``None`` (cannot tell) for any other form:
a remapped key (``as``), a test the model cannot decide, a key it cannot read. Each takes
the model and a :class:`~.type_shapes.TypeRef` whose expression is the operator."""

from __future__ import annotations

from typing import Protocol

from pytest_postgates.evidence.type_shapes import MAX_DEPTH, FieldRef, Shape, TypeRef
from pytest_postgates.evidence.type_tables import Declaration, Expr


class Resolver(Protocol):
    """What these operators ask of :class:`~.type_model.TypeModel` (named here by what it
    does, so this module does not import the one that imports it)."""

    def shapes(self, ref: TypeRef, depth: int = 0) -> list[Shape] | None: ...

    def literal_keys(self, ref: TypeRef, depth: int = 0) -> set[str] | None: ...

    def declarations(self, path: str, name: str) -> tuple[str, list[Declaration]] | None: ...


_STRING: Expr = ("prim", "string")
# The tests a conditional type makes that ask only "is it an object?": `object`, `{}`,
# `Record<string, any>` and `Record<string, unknown>`.
_ANY_OBJECT: tuple[Expr, ...] = (
    ("prim", "object"), ("ref", "object", ()), ("obj", {}, None),
    ("ref", "Record", (_STRING, ("prim", "any"))),
    ("ref", "Record", (_STRING, ("prim", "unknown"))),
)  # fmt: skip


def mapped_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """``{ [P in K]: V }``: for ``K = keyof T``, T's keys (and its index signature); for a
    union of string literals, those keys. Each key's type is V with P bound to the key."""
    _tag, param, keys, value = ref.expr
    if keys[0] == "other" and keys[1] == "index_type_query" and len(keys) == 3:
        shapes = model.shapes(TypeRef(keys[2], ref.path, ref.bound), depth + 1)
        if not shapes or len(shapes) != 1 or shapes[0].array_of is not None:
            return None
        source = shapes[0]
        fields = {name: _bound(ref, value, param, ("str", name), refs) for name, refs in
                  source.fields.items()}  # fmt: skip
        index = [_bound(ref, value, param, _STRING, [entry])[0] for entry in source.index]
        return [Shape(fields, index, source.owner, callable=source.callable)]
    literal = model.literal_keys(TypeRef(keys, ref.path, ref.bound), depth + 1)
    if literal is None:
        return None
    fields = {name: _bound(ref, value, param, ("str", name), []) for name in sorted(literal)}
    return [Shape(fields, [], "")]


def _bound(ref: TypeRef, value: Expr, param: str, key: Expr, at: list[FieldRef]) -> list[FieldRef]:
    """The mapped value type for one key: V with the parameter bound to the key (declared
    where the source field is, when there is one)."""
    typed = TypeRef(value, ref.path, ((param, TypeRef(key, ref.path)), *ref.bound))
    name = str(key[1]) if key[0] == "str" else "[key: string]"
    where = at[0].where if at else ref.path
    owner = at[0].owner if at else ""
    return [FieldRef(typed, owner, name, where, at[0].text if at else "")]


def conditional_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """``C extends object ? A : B``: A when C is object types only, B when it is no object
    type (a primitive, a literal), else unknown; any other test is not decided."""
    _tag, checked, test, then, otherwise = ref.expr
    if not any(test == form for form in _ANY_OBJECT):  # equality: an object type holds a dict
        return None
    shapes = model.shapes(TypeRef(checked, ref.path, ref.bound), depth + 1)
    if shapes is None or any(s.array_of is not None or s.callable for s in shapes):
        return None
    branch = then if shapes else otherwise
    return model.shapes(TypeRef(branch, ref.path, ref.bound), depth + 1)


def indexed_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """``T[K]``: the type of T's field K (its index signature's for ``string``)."""
    found = indexed_type(model, ref, depth)
    if found is None:
        return None
    shapes: list[Shape] = []
    for entry in found:
        more = model.shapes(entry.type, depth + 1)
        if more is None:
            return None
        shapes += more
    return shapes


def indexed_type(model: Resolver, ref: TypeRef, depth: int) -> list[FieldRef] | None:
    """The declared fields ``T[K]`` reads (one key; a union of keys is not read)."""
    _tag, whole, key = ref.expr
    key_ref = TypeRef(key, ref.path, ref.bound)
    while key_ref.expr[0] == "ref" and not key_ref.expr[2]:
        bound = key_ref.lookup(key_ref.expr[1])
        if bound is None:
            break
        key_ref = bound
    shapes = model.shapes(TypeRef(whole, ref.path, ref.bound), depth + 1)
    if not shapes or len(shapes) != 1 or shapes[0].array_of is not None:
        return None
    shape = shapes[0]
    if key_ref.expr == _STRING:
        return shape.index or None
    literal = model.literal_keys(key_ref, depth + 1)
    if literal is None or len(literal) != 1:
        return None
    (name,) = literal
    return shape.fields.get(name) or shape.index or None


def any_string(model: Resolver, ref: TypeRef, depth: int) -> bool:
    """Whether a key type takes any string: ``string``, or a union with ``string`` (or
    ``string & {}``, the spelling that keeps an editor's suggestions) among its members."""
    expr = ref.expr
    if expr == _STRING or expr == ("inter", (_STRING, ("obj", {}, None))):
        return True
    if expr[0] == "union":
        return any(any_string(model, TypeRef(item, ref.path, ref.bound), depth + 1)
                   for item in expr[1])  # fmt: skip
    if expr[0] != "ref" or expr[2] or depth > MAX_DEPTH:
        return False
    bound = ref.lookup(expr[1])
    if bound is not None:
        return any_string(model, bound, depth + 1)
    declared = model.declarations(ref.path, expr[1])
    if declared is None or len(declared[1]) != 1 or declared[1][0].kind != "alias":
        return False
    return any_string(model, TypeRef(declared[1][0].body, declared[0]), depth + 1)
