"""The type operators the type model (:mod:`.type_model`) expands beyond aliases, generics,
unions and intersections: a mapped type (``{ [P in keyof T]?: DeepPartial<T[P]> }``, the
way a config API declares "any part of the options"), a conditional type whose test asks
whether a type is an object (``T extends object ? A : B``), and an indexed access
(``T[P]``, ``Options["retry"]``). Each answers ``None`` (cannot tell) for any other form:
a remapped key (``as``), a test the model cannot decide, a key it cannot read. Each takes
the model and a :class:`~.type_shapes.TypeRef` whose expression is the operator."""

from __future__ import annotations

from typing import Any, Protocol

from pytest_postgates.evidence.type_shapes import MAX_DEPTH, FieldRef, Shape, TypeRef
from pytest_postgates.evidence.type_tables import CALL_SIGNATURE, Declaration, Expr, Signature


class Resolver(Protocol):
    """What these operators ask of :class:`~.type_model.TypeModel` (named here by what it
    does, so this module does not import the one that imports it)."""

    def shapes(self, ref: TypeRef, depth: int = 0) -> list[Shape] | None: ...

    def literal_keys(self, ref: TypeRef, depth: int = 0) -> set[str] | None: ...

    def declarations(self, path: str, name: str) -> tuple[str, list[Declaration]] | None: ...

    def signatures(
        self, path: str, container: str, method: str, depth: int = 0
    ) -> tuple[str, list[Signature]] | None: ...


BUILTIN_WRAPPERS = frozenset({"Partial", "Required", "Readonly", "NonNullable"})
_STRING: Expr = ("prim", "string")
# The tests a conditional type makes that ask only "is it an object?": `object`, `{}`,
# `Record<string, any>` and `Record<string, unknown>`.
_ANY_OBJECT: tuple[Expr, ...] = (
    ("prim", "object"), ("ref", "object", ()), ("obj", {}, None),
    ("ref", "Record", (_STRING, ("prim", "any"))),
    ("ref", "Record", (_STRING, ("prim", "unknown"))),
)  # fmt: skip
_RECORD_OF_UNKNOWN: Expr = ("ref", "Record", (_STRING, ("prim", "unknown")))


def mapped_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """``{ [P in K]: V }``: for ``K = keyof T``, T's keys (and its index signature); for a
    union of string literals, those keys. Each key's type is V with P bound to the key."""
    _tag, param, keys, value = ref.expr
    if keys[0] == "other" and keys[1] == "index_type_query" and len(keys) == 3:
        shapes = model.shapes(TypeRef(keys[2], ref.path, ref.bound), depth + 1)
        if not shapes:
            return None
        # Over a union, one mapped object per member (TypeScript distributes a homomorphic
        # mapped type over a union: `DeepPartial<A | B>`).
        mapped = []
        read = ("index", keys[2], ("ref", param, ()))
        for source in shapes:
            if source.array_of is not None:
                # Over an array, an array of its element mapped (`DeepPartial<Handler[]>`
                # holds `DeepPartial<Handler> | Handler`): P is a number, T[P] the element.
                mapped.append(Shape({}, [], "", array_of=_element_mapped(ref, source.array_of)))
                continue
            fields = {name: _bound(ref, value, param, ("str", name), refs, read) for name, refs
                      in source.fields.items()}  # fmt: skip
            index = [_bound(ref, value, param, _STRING, [entry])[0] for entry in source.index]
            mapped.append(Shape(fields, index, source.owner, callable=source.callable))
        return mapped
    literal = model.literal_keys(TypeRef(keys, ref.path, ref.bound), depth + 1)
    if literal is None:
        return None
    fields = {name: _bound(ref, value, param, ("str", name), []) for name in sorted(literal)}
    return [Shape(fields, [], "")]


def _bound(
    ref: TypeRef, value: Expr, param: str, key: Expr, at: list[FieldRef], read: Expr = ()
) -> list[FieldRef]:
    """The mapped value type for one key: V with the parameter bound to the key (declared
    where the source field is, when there is one). ``T[P]`` in V (``read``) is the source
    field's own type when one declaration holds it: not T's every member read again."""
    bound = ((param, TypeRef(key, ref.path)), *ref.bound)
    if read and len(at) == 1:
        value, found = _replaced(value, read, ("ref", _FIELD, ()))
        if found:
            bound = ((_FIELD, at[0].type), *bound)
    typed = TypeRef(value, ref.path, bound)
    name = str(key[1]) if key[0] == "str" else "[key: string]"
    where = at[0].where if at else ref.path
    owner = at[0].owner if at else ""
    return [FieldRef(typed, owner, name, where, at[0].text if at else "")]


def _element_mapped(ref: TypeRef, element: TypeRef) -> TypeRef:
    """A homomorphic mapped type's value type for an array's elements: V with P bound to
    ``number`` and ``T[P]`` to the element type."""
    _tag, param, keys, value = ref.expr
    bound = ((param, TypeRef(("prim", "number"), ref.path)), *ref.bound)
    value, found = _replaced(value, ("index", keys[2], ("ref", param, ())), ("ref", _FIELD, ()))
    if found:
        bound = ((_FIELD, element), *bound)
    return TypeRef(value, ref.path, bound)


# The name a mapped type's `T[P]` is bound under (no type can be named so).
_FIELD = "T[P]"


def _replaced(expr: object, old: Expr, new: Expr) -> tuple[Any, bool]:
    """``expr`` with each ``old`` sub-expression replaced by ``new``, and whether any was."""
    if expr == old:
        return new, True
    if isinstance(expr, tuple):
        items = [_replaced(item, old, new) for item in expr]
        return tuple(item for item, _ in items), any(found for _, found in items)
    if isinstance(expr, dict):
        pairs = {k: _replaced(v, old, new) for k, v in expr.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(f for _, f in pairs.values())
    return expr, False


def conditional_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """``C extends object ? A : B``: A when C is object types only, B when it is no object
    type (a primitive, a literal), else unknown. ``C extends Function ? ...`` and ``C
    extends Array<...> ? ...`` (utility-types' ``DeepPartial``): B when C is object types
    none of them callable (an array), or no object type at all (for ``Function``, only when
    A is C itself: a function type has no keys either way). A type parameter bound to a
    union is tested member by member (TypeScript distributes over it). Any other test is
    not decided."""
    _tag, checked, test, then, otherwise = ref.expr
    members = _union_bound(ref, checked)
    if members is not None:
        found: list[Shape] = []
        for name, member in members:
            each = TypeRef(ref.expr, ref.path, ((name, member), *ref.bound))
            more = conditional_shapes(model, each, depth + 1)
            if more is None:
                return None
            found += more
        return found
    kind = _test_kind(test)
    if kind is None:
        return None
    shapes = model.shapes(TypeRef(checked, ref.path, ref.bound), depth + 1)
    if shapes is None:
        return None
    if kind == "object":
        arrays = [s.array_of is not None for s in shapes]
        if any(s.callable for s in shapes):
            return None
        if not any(arrays):
            branch = then if shapes else otherwise
        elif test != _RECORD_OF_UNKNOWN:
            branch = then  # an array is an object, and takes `Record<string, any>`'s any key
        elif all(arrays):
            branch = otherwise  # an array has no index signature `unknown` could be read from
        else:
            return None
    elif kind == "array" and shapes and all(s.array_of is not None for s in shapes):
        branch = then  # its `infer U` is not bound: what it holds is not followed
    elif any(s.callable for s in shapes) or (kind == "array" and any(s.array_of for s in shapes)):
        return None
    elif not shapes and kind == "function" and then != checked:
        return None  # a function type would take A, which is not C's own (keyless) type
    else:
        branch = otherwise
    return model.shapes(TypeRef(branch, ref.path, ref.bound), depth + 1)


def _test_kind(test: Expr) -> str | None:
    """What a conditional type's test asks: "object", "function" or "array"; None for a
    test the model does not decide."""
    if any(test == form for form in _ANY_OBJECT):  # equality: an object type holds a dict
        return "object"
    if test == ("ref", "Function", ()):
        return "function"
    if test[0] == "ref" and test[1] in ("Array", "ReadonlyArray") and len(test[2]) == 1:
        return "array"
    return None


def _union_bound(ref: TypeRef, checked: Expr) -> list[tuple[str, TypeRef]] | None:
    """The members of the union a checked type parameter is bound to (through parameters
    bound to parameters), each as the binding of that parameter; None when it is not."""
    if checked[0] != "ref" or checked[2]:
        return None
    name, bound = checked[1], ref.lookup(checked[1])
    for _ in range(MAX_DEPTH):
        if bound is None:
            return None
        if bound.expr[0] == "union":
            return [(name, TypeRef(item, bound.path, bound.bound)) for item in bound.expr[1]]
        if bound.expr[0] != "ref" or bound.expr[2]:
            return None
        bound = bound.lookup(bound.expr[1])
    return None


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
    if not shapes or any(shape.array_of is not None for shape in shapes):
        return None
    if key_ref.expr == _STRING:
        return [entry for shape in shapes for entry in shape.index] or None
    literal = model.literal_keys(key_ref, depth + 1)
    if not literal:
        return None
    # A union of keys (`Registry[TType]` with TType every key) reads each; over a union
    # of objects, each member that declares the key (a key one lacks is not written).
    found: list[FieldRef] = []
    for name in sorted(literal):
        read = [entry for shape in shapes for entry in shape.fields.get(name) or shape.index]
        if not read:
            return None
        found += read
    return found


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


_UNKNOWN: Expr = ("prim", "unknown")


def part_shapes(model: Resolver, ref: TypeRef, depth: int) -> list[Shape] | None:
    """The members of one part of an intersection, where ``unknown`` adds nothing
    (``A & unknown`` is ``A``: a registry's ``chartOptions: unknown`` read by
    ``Registry[K]['chartOptions']``)."""
    if ref.expr == _UNKNOWN:
        return [Shape({}, [], "")]
    if ref.expr[0] != "index":
        return model.shapes(ref, depth)
    read = indexed_type(model, ref, depth)
    if read is None:
        return None
    found: list[Shape] = []
    for entry in read:
        more = part_shapes(model, entry.type, depth + 1) if depth < MAX_DEPTH else None
        if more is None:
            return None
        found += more
    return found


def excluded_shapes(
    model: Resolver, whole: TypeRef, left_out: TypeRef, depth: int
) -> list[Shape] | None:
    """``Exclude<T, U>`` where U is arrays only (``DeepPartial<unknown[]>``) or no object
    type: T's members less its arrays (none, for the latter); any other U is not read."""
    shapes = model.shapes(whole, depth + 1)
    removed = model.shapes(left_out, depth + 1)
    if shapes is None or removed is None:
        return None
    if not removed:
        return shapes
    if all(shape.array_of is not None for shape in removed):
        return [shape for shape in shapes if shape.array_of is None]
    return None


def function_parameter(
    model: Resolver, ref: TypeRef, index: int, depth: int, arity: int = 0
) -> TypeRef | None:
    """The declared type of parameter ``index`` of the function type ``ref`` holds, for a
    function written with ``arity`` required parameters (:func:`function_parameters`)."""
    params = function_parameters(model, ref, depth, arity)
    return params[index] if params is not None and index < len(params) else None


def function_parameters(
    model: Resolver, ref: TypeRef, depth: int, arity: int = 0
) -> tuple[TypeRef, ...] | None:
    """The declared types of the parameters of the function type ``ref`` holds (through
    aliases, their type arguments bound, defaults filling those left out, and unions as
    TypeScript's contextual typing reads them, for a function written with ``arity``
    required parameters); None when they cannot be told."""
    expr = ref.expr
    if depth > MAX_DEPTH:
        return None
    if expr[0] == "other" and expr[1] == "function_type" and len(expr) == 3:
        if len(expr[2]) < arity:  # a function requiring more is not assignable to it
            return None
        return tuple(TypeRef(param, ref.path, ref.bound) for param in expr[2])
    if expr[0] == "union":  # `Hook | undefined`, `Callback | Async | Promise<...>`
        return _union_parameters(model, ref, depth, arity)
    if expr[0] == "array" or expr[0] != "ref":
        return None
    bound = ref.lookup(expr[1])
    if bound is not None and not expr[2]:
        return function_parameters(model, bound, depth + 1, arity)
    if expr[1] in BUILTIN_WRAPPERS and len(expr[2]) == 1:
        inner = TypeRef(expr[2][0], ref.path, ref.bound)
        return function_parameters(model, inner, depth + 1, arity)
    declared = model.declarations(ref.path, expr[1])  # `Dispatcher.StreamFactory` too
    if declared is None or len(declared[1]) != 1 or declared[1][0].kind == "class":
        return None
    path, (named,) = declared
    args = _type_arguments(ref, named, path)
    if args is None:
        return None
    if named.kind == "alias":
        return function_parameters(model, TypeRef(named.body, path, args), depth + 1, arity)
    # An interface with one call signature (h3's `EventHandler`: `(event: H3Event): R`)
    # types a function written where it is expected, as a function type does.
    found = model.signatures(path, named.name, CALL_SIGNATURE)
    if found is None or len(found[1]) != 1 or len(found[1][0].params) < arity:
        return None
    where, (signature,) = found
    return tuple(TypeRef(p.type or ("prim", "any"), where, args) for p in signature.params)


def _type_arguments(
    ref: TypeRef, named: Declaration, path: str
) -> tuple[tuple[str, TypeRef], ...] | None:
    """``named``'s type parameters bound to ``ref``'s type arguments; one left out takes its
    default, which may name the parameters before it (`FastifyPluginAsync` written bare);
    None when one has neither, or there are more arguments than parameters."""
    given = ref.expr[2]
    if len(given) > len(named.params):
        return None
    args: list[tuple[str, TypeRef]] = []
    for number, (name, default) in enumerate(named.params):
        if number < len(given):
            args.append((name, TypeRef(given[number], ref.path, ref.bound)))
        elif default is None:
            return None
        else:
            args.append((name, TypeRef(default, path, tuple(args))))
    return tuple(args)


def _union_parameters(
    model: Resolver, ref: TypeRef, depth: int, arity: int
) -> tuple[TypeRef, ...] | None:
    """The parameters of a union's function types, as TypeScript's contextual typing reads
    them (``getContextualSignature``): members that are no function (null, undefined, a
    promise, an array, a primitive, an object type written in place) are passed over, and
    so are function types with fewer parameters than the function written requires (its
    arity); those left must declare identical parameters (fastify's
    ``FastifyPluginCallback | FastifyPluginAsync`` do not: a callback of one parameter
    handed there is typed by neither). None otherwise, or where a member may or may not be
    a function."""
    found: tuple[TypeRef, ...] | None = None
    for member in ref.expr[1]:
        if _no_function(member):
            continue
        typed = TypeRef(member, ref.path, ref.bound)
        params = function_parameters(model, typed, depth + 1)
        if params is None and _object_only(model, typed, depth):
            continue  # h3's `EventHandlerObject`, beside the function type `EventHandler`
        if params is None:
            return None
        if len(params) < arity:  # TypeScript's isAritySmaller: passed over
            continue
        if found is not None and params != found:
            return None
        found = params
    return found


def _object_only(model: Resolver, ref: TypeRef, depth: int) -> bool:
    """Whether a named type is object types only, none callable (an alias of an object
    type, an interface with no call signature): no function type either."""
    shapes = model.shapes(ref, depth + 1)
    return bool(shapes) and all(s.array_of is None and not s.callable for s in shapes or ())


def _no_function(expr: Expr) -> bool:
    """Whether a member of a union is surely no function type (TypeScript's contextual
    typing passes it over): a primitive, an array, an object type written in place, a
    promise."""
    if expr[0] == "prim":
        return expr[1] not in ("any", "unknown", "object", "Function")
    if expr[0] == "obj":
        return CALL_SIGNATURE not in expr[1]
    if expr[0] == "array":
        return True
    return expr[0] == "ref" and expr[1] in ("Promise", "PromiseLike")
