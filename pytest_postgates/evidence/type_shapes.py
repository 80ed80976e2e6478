"""The values the type model (:mod:`.type_model`) answers with: a type expression in the
file whose names it uses (``TypeRef``), one declared field a key path passes through
(``FieldRef``) and an object type after expansion (``Shape``)."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_postgates.evidence.type_tables import Expr

MAX_DEPTH = 64  # nested type expressions followed (got: a chain of ~30 aliases deep)
MAX_MEMBERS = 64  # the members a union expands to (an intersection of unions multiplies them)


@dataclass(frozen=True)
class TypeRef:
    """A type expression and the file whose names it uses (with generic arguments bound)."""

    expr: Expr
    path: str
    bound: tuple[tuple[str, TypeRef], ...] = ()

    def lookup(self, name: str) -> TypeRef | None:
        return next((ref for key, ref in self.bound if key == name), None)


@dataclass(frozen=True)
class FieldRef:
    """One declared field (or an index signature) a key path passes through."""

    type: TypeRef
    owner: str  # the declared type the field belongs to ("" for an anonymous object)
    name: str  # the field name, "[key: string]" for an index signature
    where: str  # path:line
    text: str  # the declared type as written


@dataclass
class Shape:
    """An object type after expansion: its fields (each may come from several declarations
    of an intersection) and its string index signatures."""

    fields: dict[str, list[FieldRef]]
    index: list[FieldRef]
    owner: str
    array_of: TypeRef | None = None  # set for an array type instead
    callable: bool = False  # a function type (with call signatures): no object literal is one
