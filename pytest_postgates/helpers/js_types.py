"""Gate 15's JavaScript/TypeScript types: which product class a value in a sample holds,
asked of the API model (:mod:`pytest_postgates.evidence.api_model`: classes, their members
with inherited ones, every function's and method's declared return type) and of the
declared types (:mod:`pytest_postgates.evidence.type_model`: a field's type, a parameter's
type and the keys its object type declares, nested ones included). Nothing is guessed: a
type the declarations do not name, or name outside the product, is no answer (None), and
the caller lists the use as unjudged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from pytest_postgates.evidence import name_spelling
from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.model_facts import CallableFacts, ClassFacts
from pytest_postgates.evidence.name_spelling import one_letter_changed, one_letter_slipped, words
from pytest_postgates.evidence.type_follow import constraints
from pytest_postgates.evidence.type_model import TypeModel
from pytest_postgates.evidence.type_shapes import Shape, TypeRef
from pytest_postgates.evidence.type_tables import CALL_SIGNATURE, Expr, Signature, static_side
from pytest_postgates.helpers.type_text import split_top_level

# Wrappers a declared return type is unwrapped of: what ``await`` (or the value) gives.
_WRAPPERS = frozenset({"Promise", "PromiseLike", "Awaited", "Readonly", "NonNullable"})
# The prefixes JavaScript code marks a member private or internal with.
PRIVATE_PREFIXES = ("$_", "_", "$")
_NOTHING = frozenset({"undefined", "null", "void"})


@dataclass(frozen=True)
class Keys:
    """The keys an object literal may have at a place: ``fields`` (the declared ones) and
    ``owner`` (the declared type, as a finding names it); ``reason`` when not closed."""

    fields: frozenset[str] = frozenset()
    owner: str = ""
    reason: str = ""
    # The declaration file (``.d.ts``) that declares them by hand for a JavaScript
    # implementation, which may lag it; "" when the code's own types declare them.
    hand_written: str = ""
    # The function whose code reads the keys (``build() in index.js``), when they are
    # the keys its code reads (with the declared ones, if any); "" when declared only.
    read_by: str = ""
    # Any key is taken here (an index signature), though an object written under a key
    # may still have a declared type (`Record<string, ConnectionConfig>`).
    any_key: bool = False


# A product class or interface: its name and the file that declares it ("" when the name
# alone is meant: every declaration of it).
Cls = tuple[str, str]


class JsTypes:
    """The model's JavaScript/TypeScript side for one commit."""

    def __init__(self, model: ApiModel, declared: TypeModel | None) -> None:
        self.model = model
        self.declared = declared
        self._members: dict[Cls, tuple[set[str], str | None]] = {}
        self._keys: dict[tuple[object, ...], Keys | None] = {}
        self._conventions: dict[str, dict[str, Cls | None]] = {}
        self._misspelled: dict[str, str | None] = {}
        self._beyond: dict[tuple[Cls, str], str | None] = {}
        # Callback parameters of an object type written in place, by the name given them.
        self.in_place: dict[Cls, TypeRef] = {}
        # The newest earlier release whose declarations gave a type (by name) a key they
        # no longer give it (set by the gate: the past releases' models), or None.
        self.dropped_key: Callable[[str, str], str | None] | None = None

    # -------------------------------------------------------------- classes
    def entries(self, cls: Cls) -> list[ClassFacts]:
        name, path = cls
        found = self.model.classes.get(name, [])
        return [e for e in found if not e.path.endswith((".py", ".pyi")) and path in ("", e.path)]

    def resolve(self, name: str, path: str) -> Cls | None:
        """The product class a type name written in ``path`` means: as that file declares
        or imports it (``import { ClientStreamResult as StreamResult }``), else the one class
        of that name the product has; None when it has none, or several and no import
        says which."""
        if self.declared is not None and path:
            found = self.declared.declarations(path, name)
            if found is not None:
                where, declarations = found
                real = (declarations[0].name, where)
                return real if self.entries(real) else None
        paths = {e.path for e in self.entries((name, ""))}
        if len(paths) == 1:
            return name, paths.pop()
        return (name, path) if path in paths else None

    def lineage(self, cls: Cls) -> Iterator[ClassFacts]:
        """The class and its product bases (as its file names them), nearest first."""
        seen: set[Cls] = set()
        todo = [cls]
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.add(current)
            for entry in self.entries(current):
                yield entry
                for base in entry.bases:
                    found = self.resolve(_simple(base), entry.path)
                    if found is not None:
                        todo.append(found)
                twin = self.declared_twin(entry)
                if twin is not None:
                    todo.append(twin)

    def declared_twin(self, entry: ClassFacts) -> Cls | None:
        """The declaration of a JavaScript class in the package's declaration files (a
        CommonJS package typed by hand, ``types/*.d.ts``): the one class of that name a
        ``.d.ts`` file declares, which TypeScript reads for the JavaScript."""
        if not entry.path.endswith((".js", ".cjs", ".mjs")):
            return None
        paths = {e.path for e in self.entries((entry.name, "")) if _declaration_only(e.path)}
        return (entry.name, paths.pop()) if len(paths) == 1 else None

    def members(self, cls: Cls) -> tuple[set[str], str | None]:
        """Every member of the class (inherited ones included) and why the list may be
        incomplete. An interface or type alias is expanded as TypeScript does (``A & {
        x }``, ``extends``, ``Omit<...>``): a part it cannot follow (another package's
        type) leaves the list incomplete, never short."""
        if cls not in self._members:
            entries = self.entries(cls)
            found = self.model.members(cls[0])
            # A field's or a callback parameter's in-place object type.
            in_place = not entries and ("." in cls[0] or cls in self.in_place)
            if in_place or (entries and all(e.kind == "interface" for e in entries)):
                found = self._declared_members(cls, entries)
            self._members[cls] = found
        return self._members[cls]

    def _declared_members(self, cls: Cls, entries: list[ClassFacts]) -> tuple[set[str], str | None]:
        names: set[str] = set()
        shapes = self._class_shapes(cls)
        if shapes is None:
            where = ", ".join(sorted({e.path for e in entries} or {cls[1]}))
            return names, f"the declared type {cls[0]} ({where}) cannot be followed to its end"
        if not shapes:
            return names, f"{cls[0]} is not an object type (a function or primitive type)"
        for shape in shapes:
            if shape.array_of is not None or shape.index:
                return names, f"{cls[0]} takes any member (an index signature)"
            names.update(shape.fields)
        return names, None

    def _shapes(self, name: str, entries: list[ClassFacts]) -> list[Shape] | None:
        if self.declared is None:
            return None
        shapes: list[Shape] = []
        for entry in entries:
            found = self.declared.shapes(TypeRef(("ref", name, ()), entry.path))
            if found is None:
                return None
            shapes += found
        return shapes

    def conventional(self, name: str, package: str) -> Cls | None:
        """The product class or interface a variable the sample never binds holds by the
        docs' convention: its name is the type's without the package's own name in front
        (``reply`` -> ``FastifyReply`` in the package ``fastify``), or the type's whole
        name when that has two words or more (``httpClient`` -> ``HttpClient``; a one-word
        ``result`` says nothing of a class ``Result``). None when no type, or more than
        one, is named so."""
        if package not in self._conventions:
            self._conventions[package] = self._conventional_names(package)
        if not name[:1].islower():
            return None
        return self._conventions[package].get(name.lower())

    def _conventional_names(self, package: str) -> dict[str, Cls | None]:
        prefix = words(package.rsplit("/", 1)[-1])
        found: dict[str, Cls | None] = {}
        for class_name in self.model.classes:
            if not self.entries((class_name, "")):
                continue  # Python's classes, or none of this language
            spelled = words(class_name)
            keys = {"".join(spelled)} if len(spelled) >= 2 else set()
            if prefix and spelled[: len(prefix)] == prefix and len(spelled) > len(prefix):
                keys.add("".join(spelled[len(prefix) :]))
            for key in keys:
                # Two types answering to one name: the sample does not say which (None).
                found[key] = (class_name, "") if key not in found else None
        return found

    def written(self, name: str) -> bool:
        """Whether the product's code declares or writes ``name`` anywhere."""
        return name in self.model.facts.identifiers or bool(self.model.declares(name))

    def misspelled_member(self, name: str) -> str | None:
        """The product member ``name`` is a typo of (one letter changed, typed in or left
        out, five letters or more), when the product's code never writes ``name`` itself;
        else None. A member on a value the sample does not type is judged only so: a
        misspelling of the product's API is the product's, whatever holds it."""
        if name not in self._misspelled:
            self._misspelled[name] = self._typo_of(name)
        return self._misspelled[name]

    def _typo_of(self, name: str) -> str | None:
        model = self.model
        if len(name) < 5 or self.written(name):
            return None
        # The same name behind a private prefix (`getRule` where the code has only
        # `$_getRule`, `_addRule`): the product's member, not the page's own name.
        for prefix in PRIVATE_PREFIXES:
            if prefix + name in model.member_names:
                return prefix + name
        for real in name_spelling.near_in_length(model.member_names, len(name)):
            if len(real) < 5:
                continue
            if one_letter_changed(name, real) or one_letter_slipped(name, real):
                return real
            if hump_changed(name, real):
                return real
        return None

    def named_by_code(self, cls: Cls, name: str) -> str | None:
        """Why a member a hand-written declaration file (``.d.ts``) leaves out may still
        exist: such declarations type a JavaScript implementation and may lag it, so a
        name the product's code writes somewhere is not judged missing (None: the
        class is no such declaration, or the code never writes the name)."""
        entries = self.entries(cls)
        if not entries or not self.written(name):
            return None
        if all(_declaration_only(e.path) for e in entries):
            return (f"{cls[0]} ({entries[0].path}) does not declare {name}, but the product's "
                    "code names it (hand-written declarations may lag the JavaScript)")  # fmt: skip
        if all(e.path.endswith((".js", ".cjs", ".mjs", ".jsx")) for e in entries):
            # A JavaScript class gets members at run time too (`Object.assign(X.prototype,
            # api)`), which its class body does not show.
            return (f"{cls[0]} ({entries[0].path}) does not declare {name}, but the product's "
                    "code names it (a JavaScript class may get members at run time)")  # fmt: skip
        return None

    def nearest(self, name: str, pool: set[str]) -> list[str]:
        return self.model.nearest(name, pool)

    # -------------------------------------------------------------- what a use gives
    def type_named(self, text: str, path: str, receiver: Cls | None = None) -> Cls | None:
        """The product class a declared type written in ``path`` names (``Promise<Client>``,
        ``Client | undefined``, ``this``), or None."""
        text = text.strip()
        alternatives = [a for a in _split_top(text, "|") if a not in _NOTHING]
        if len(alternatives) != 1:
            return None
        text = alternatives[0]
        parts = _split_top(text, "&")
        if len(parts) != 1:
            return self._intersection(parts, path, receiver)
        if text == "this":
            return receiver
        head, _, rest = text.partition("<")
        head = head.strip()
        if rest and not rest.endswith(">"):
            return None  # `ChangeSet<T>[]`, `Map<K, V>["x"]`: an array or a part of it
        if head in _WRAPPERS and rest.endswith(">"):
            return self.type_named(rest[:-1], path, receiver)
        if re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+", head):
            # `Dispatcher.ResponseData`: a type declared in a namespace, read as the one
            # product type of its last name (resolve says None when there are several).
            return self.resolve(head.rsplit(".", 1)[1], path)
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", head):
            return None  # `A & B`, a function or object type: not followed
        return self.resolve(head, path)

    def _intersection(self, parts: list[str], path: str, receiver: Cls | None) -> Cls | None:
        """The class an intersection is an instance of when it is one class made thenable
        (``Instance & PromiseLike<Instance>``, ``Instance & SafePromiseLike<Instance>``:
        every other part is a generic over that class, and what such a wrapper adds is
        ``then``); ``A & B`` or ``A & { extra }`` names no one class (None)."""
        found: list[tuple[Cls | None, set[Cls | None]]] = []
        for part in parts:
            rest = part.partition("<")[2]
            arguments = _split_top(rest[:-1], ",") if rest.endswith(">") else []
            wraps = {self.type_named(a, path, receiver) for a in arguments}
            found.append((self.type_named(part, path, receiver), wraps))
        named = {cls for cls, _ in found}
        wrappers = {cls for cls, wraps in found if len(wraps) == 1 and wraps <= named - {cls}}
        kept = named - wrappers
        if None in kept or len(kept) != 1:
            return None
        return kept.pop()

    def function_returns(self, path: str, name: str) -> Cls | None:
        """The product class a top-level function (``name`` in ``path``) declares it
        returns; for a JavaScript file, as its sibling declaration file declares it
        (``fastify.js`` -> ``fastify.d.ts``: how TypeScript types a .js module)."""
        own = self.model.callables.get(f"{path}.{name}", [])
        found = self._returns(own, None, made=False)
        declarations = declaration_file(path)
        twin = self.model.callables.get(f"{declarations}.{name}", []) if declarations else []
        if found is None and twin:
            # TypeScript reads the declaration file, not the body, for a .js module.
            return self._returns(twin, None)
        return found if found is not None else self._returns(own, None)

    def constant_class(self, lookup: ApiLookup, binding: Binding) -> Cls | str | None:
        """The product class or interface a constant's declaration says it holds: its
        annotation (``const vi: VitestUtils``), the declared return type of the function
        it is made with (``const vi = createVitest()``, the function local or imported) or
        the class it is a ``new`` of; the reason when the declaration says one the model
        cannot resolve; None when it says none (``const x = 1``)."""
        table = lookup.table(binding.path)
        said = table.value_types.get(binding.local, "") if table is not None else ""
        how, _, written = said.partition(":")
        if how == "type":
            found = self.type_named(written, binding.path)
            return (
                found
                or f"{binding.local} is declared {written}, no product class or "
                "interface the model resolves"
            )
        if how == "new":
            return (
                self.resolve(written, binding.path)
                or f"{binding.local} is a new {written}, no product class the model resolves"
            )
        if how != "call":
            return None
        made = lookup.local_binding(binding.path, written)
        found = None
        if isinstance(made, Binding) and made.kind == "function":
            found = self.function_returns(made.path, made.local)
        return found or (
            f"{binding.local} is made by {written}(), whose declared return type names no "
            "product class or interface the model resolves"
        )

    def static_returns(self, cls: Cls, method: str) -> Cls | None:
        """The product class a static method of ``cls`` (its bases' included: a class
        inherits its base's static side) declares it returns (``MikroORM.init()``)."""
        if self.declared is None:
            return None
        for entry in self.lineage(cls):
            found = self.declared.signatures(entry.path, static_side(entry.name), method)
            if found is None:
                continue
            where, signatures = found
            returns = {s.returns for s in signatures if s.returns and s.returns not in _NOTHING}
            named = {self.type_named(text, where, cls) for text in returns}
            return named.pop() if len(named) == 1 else None
        return None

    def method_returns(self, cls: Cls, method: str) -> Cls | None:
        """The product class a method (inherited ones included) declares it returns."""
        for entry in self.lineage(cls):
            found = self.model.callables.get(f"{entry.qualname}.{method}", [])
            if found:
                # A class a declaration file types is typed by it, not by its bodies.
                made = self.declared_twin(entry) is None
                return self._returns(found, cls, made) or self._overload_returns(entry, method, cls)
            # A method of an alias's object type (`type Got = { extend(): Got } & ...`),
            # which the model's facts do not list: its declared signatures say.
            declared = self._overload_returns(entry, method, cls)
            if declared is not None:
                return declared
        return None

    def _overload_returns(self, entry: ClassFacts, method: str, receiver: Cls) -> Cls | None:
        """What a method's overloads declare they return, those returning nothing left out
        (``request(opts): Promise<ResponseData>`` beside ``request(opts, callback): void``:
        a value a sample uses is the one an overload returns)."""
        found = self.declared.signatures(entry.path, entry.name, method) if self.declared else None
        if found is None:
            return None
        where, signatures = found
        returns = {s.returns for s in signatures if s.returns and s.returns not in _NOTHING}
        named = {self.type_named(text, where, receiver) for text in returns}
        return named.pop() if len(named) == 1 else None

    def _returns(
        self, found: list[CallableFacts], receiver: Cls | None, made: bool = True
    ) -> Cls | None:
        """The one product class the callables declare they return, or (``made``), where
        none declares a return type, the one class each body makes (``return new X()``)."""
        named = {self.type_named(f.returns, f.path, receiver) for f in found if f.returns}
        if not named and made:
            named = {self.resolve(f.made, f.path) for f in found if f.made}
        return named.pop() if len(named) == 1 else None

    def field_type(self, cls: Cls, name: str) -> Cls | None:
        """The product class a field (inherited ones included) is declared to hold; for a
        field declared with an object type written in place (got's ``request: { options:
        NormalizedOptions }``), that type, named ``Owner.field`` (:meth:`members` reads it)."""
        found = self.field_held(cls, name)
        return found[0] if found is not None else None

    def field_held(self, cls: Cls, name: str, inside: bool = False) -> tuple[Cls, bool] | None:
        """:meth:`field_type` with whether the type is open (:meth:`held_type`): a field
        (or getter) typed through a type parameter of its class (``get schema():
        ReturnType<ReturnType<Driver['getPlatform']>['getSchemaGenerator']>``). A
        constructor's parameter property counts too, and, ``inside`` a subclass's body
        (``this.em``), a protected one."""
        named: set[tuple[Cls, bool] | None] = set()
        for shape in self._class_shapes(cls) or []:
            for field in shape.fields.get(name, []):
                if field.type.expr[0] == "obj":
                    named.add(((f"{cls[0]}.{name}", cls[1]), False))
                    continue
                plain = self.type_named(field.text, field.type.path, cls)
                named.add((plain, False) if plain else self.held_type(field.type, cls))
        if not named and self.declared is not None:
            named = self._hidden_field(cls, name, inside)
        return named.pop() if len(named) == 1 else None

    def _hidden_field(self, cls: Cls, name: str, inside: bool) -> set[tuple[Cls, bool] | None]:
        """What the nearest class of ``cls``'s lineage declares ``name`` as among the fields
        ``keyof`` leaves out (:attr:`Declaration.hidden`)."""
        found: set[tuple[Cls, bool] | None] = set()
        for entry in self.lineage(cls):
            table = self.declared.table(entry.path) if self.declared is not None else None
            for declaration in table.types.get(entry.name, []) if table is not None else []:
                held = declaration.hidden.get(name)
                if held is None or not (held[3] or inside):
                    continue
                plain = self.type_named(held[2], entry.path, cls)
                typed = TypeRef(held[0], entry.path)
                found.add((plain, False) if plain else self.held_type(typed, cls))
            if found:
                break
        return found

    def held_type(
        self, ref: TypeRef, receiver: Cls | None, depth: int = 0
    ) -> tuple[Cls, bool] | None:
        """The product class a declared type holds where :meth:`type_named` reads no name:
        a type parameter of the class read as its default, ``ReturnType<T['method']>`` (the
        method's declared return type), ``T['field']``. True beside it when the type is
        open: reached through a type parameter, whose argument (which the sample does not
        show) may be any type extending it, so the value may have more members."""
        expr = ref.expr
        if depth > 16:
            return None
        if expr[0] == "union":
            kept = [e for e in expr[1] if not (e[0] == "prim" and e[1] in _NOTHING)]
            if len(kept) != 1:
                return None
            return self.held_type(TypeRef(kept[0], ref.path, ref.bound), receiver, depth + 1)
        if expr[0] == "inter":
            return self._held_intersection(ref, receiver, depth)
        if expr[0] == "index" and expr[2][0] == "str":
            owner = self.held_type(TypeRef(expr[1], ref.path, ref.bound), receiver, depth + 1)
            found = self.field_held(owner[0], expr[2][1]) if owner is not None else None
            return (found[0], found[1] or owner[1]) if found and owner else None
        if expr[0] != "ref":
            return None
        name, args = expr[1], expr[2]
        bound = ref.lookup(name) if not args else None
        if bound is not None:
            found = self.held_type(bound, receiver, depth + 1)
            return (found[0], True) if found is not None else None
        declared = self.declared is not None and self.declared.declarations(ref.path, name)
        if name == "ReturnType" and len(args) == 1 and not declared:
            target = args[0]
            if target[0] != "index" or target[2][0] != "str":
                return None
            owner = self.held_type(TypeRef(target[1], ref.path, ref.bound), receiver, depth + 1)
            made = self.method_returns(owner[0], target[2][1]) if owner is not None else None
            return (made, owner[1]) if made and owner else None
        if name in _WRAPPERS and len(args) == 1 and not declared:
            return self.held_type(TypeRef(args[0], ref.path, ref.bound), receiver, depth + 1)
        plain = self.type_named(name, ref.path, receiver)
        return (plain, False) if plain is not None else None

    def _held_intersection(
        self, ref: TypeRef, receiver: Cls | None, depth: int
    ) -> tuple[Cls, bool] | None:
        """``D[typeof EntityManagerType] & EntityManager``: one part a product class, every
        other one through a type parameter: that class, open (the others may add members)."""
        found: set[tuple[Cls, bool]] = set()
        for part in ref.expr[1]:
            base = part[1] if part[0] == "index" else part
            if base[0] == "ref" and not base[2] and ref.lookup(base[1]) is not None:
                continue  # through a type parameter: open
            held = self.held_type(TypeRef(part, ref.path, ref.bound), receiver, depth + 1)
            if held is None:
                return None
            found.add(held)
        return (found.pop()[0], True) if len(found) == 1 else None

    def declared_beyond(self, cls: Cls, name: str) -> str | None:
        """A product type that declares ``name`` and may be what a value of the open type
        ``cls`` holds (:meth:`held_type`): a class (which may implement or extend it), or
        an interface that extends it; None when there is none, so a member none of them
        declares is missing whatever the type parameter's argument is."""
        key = (cls, name)
        if key not in self._beyond:
            self._beyond[key] = self._declared_beyond(cls, name)
        return self._beyond[key]

    def _declared_beyond(self, cls: Cls, name: str) -> str | None:
        for class_name in sorted(self.model.classes):
            for entry in self.entries((class_name, "")):
                if name not in entry.members:
                    continue
                if entry.kind == "class":
                    return f"{entry.name} ({entry.path})"
                lineage = self.lineage((entry.name, entry.path))
                if any(e.name == cls[0] and cls[1] in ("", e.path) for e in lineage):
                    return f"{entry.name} ({entry.path})"
        return None

    def declared_below(self, cls: Cls, name: str) -> str | None:
        """A product type below ``cls`` declaring ``name`` (``SqlEntityManager.getKnex``
        under ``EntityManager``), which a value of ``cls`` may be; None when none is."""
        key = (cls, "below " + name)
        for entry in (e for c in sorted(self.model.classes) for e in self.entries((c, ""))):
            same = entry.name == cls[0] and cls[1] in ("", entry.path)
            if key in self._beyond or name not in entry.members or same:
                continue
            lineage = list(self.lineage((entry.name, entry.path)))[1:]
            if any(e.name == cls[0] and cls[1] in ("", e.path) for e in lineage):
                self._beyond[key] = f"{entry.name} ({entry.path})"
        return self._beyond.setdefault(key, None)

    def _class_shapes(self, cls: Cls) -> list[Shape] | None:
        """The shapes of a class or declared type, or of the in-place object type of a field
        (``Response.request``) through its owner's."""
        if cls in self.in_place and self.declared is not None:
            return self.declared.shapes(self.in_place[cls])
        entries = self.entries(cls)
        if entries or "." not in cls[0] or self.declared is None:
            found = self._shapes(cls[0], entries)
            # A JavaScript class is typed by its declaration file's (TypeScript reads it).
            twins = {self.declared_twin(e) for e in entries} if found is None else set()
            if len(twins) == 1 and None not in twins:
                return self._class_shapes(twins.pop() or cls)
            return found
        owner, _, field = cls[0].rpartition(".")
        found = self._class_shapes((owner, cls[1]))
        if found is None:
            return None
        shapes: list[Shape] = []
        for shape in found:
            for entry in shape.fields.get(field, []):
                more = self.declared.shapes(entry.type)
                if more is None:
                    return None
                shapes += more
        return shapes

    # -------------------------------------------------------------- option objects
    def method_keys(
        self, cls: Cls, method: str, position: int, path: tuple[str, ...]
    ) -> Keys | None:
        """The keys an object literal may have as argument ``position`` of ``cls``'s
        ``method`` (``constructor`` for ``new``), below the key ``path`` of it. None when
        the declared types have no such method."""
        places = [(entry.path, entry.name) for entry in self.lineage(cls)]
        found = self._keys_at(places, method, position, path)
        if found is not None or method == CALL_SIGNATURE:
            return found
        # A field of a callable type called (got's `post: GotFunctions`, from
        # `Record<HTTPAlias, GotFunctions>`): that type's call signatures.
        held = self.field_type(cls, method)
        return self.method_keys(held, CALL_SIGNATURE, position, path) if held else None

    def static_keys(
        self, cls: Cls, method: str, position: int, path: tuple[str, ...]
    ) -> Keys | None:
        """:meth:`method_keys` for a static method of ``cls`` (``MikroORM.init({...})``),
        its bases' static methods included (a class inherits its base's static side)."""
        places = [(entry.path, static_side(entry.name)) for entry in self.lineage(cls)]
        return self._keys_at(places, method, position, path)

    def function_keys(
        self, file: str, name: str, position: int, path: tuple[str, ...]
    ) -> Keys | None:
        """The same for the function ``name`` of ``file`` (or of its declaration file). For
        a JavaScript function, the keys its code reads from the parameter
        (:meth:`TypeModel.read_keys`) count too: alone when nothing declares the parameter,
        beside a hand-written declaration (which may lag the code) when both are closed; a
        read that is open widens the declaration by the keys it is seen to read."""
        places = [(file, "")] + [(d, "") for d in [declaration_file(file)] if d]
        declared = self._keys_at(places, name, position, path)
        if not declaration_file(file) or self.declared is None or "[]" in path:
            return declared  # the code's reads are followed through keys, not array elements
        read = self.declared.read_keys(file, name, position, path)
        if read is None:
            return declared
        by = f"{name}() in {file}"
        if read.reason:
            if declared is None:
                where = f" below {'.'.join(path)}" if path else ""
                why = f"the keys {by} reads{where} cannot all be told: {read.reason}"
                return Keys(reason=why)
            if declared.reason or read.fields <= declared.fields:
                return declared
            # The keys seen read, though not all can be told, are taken: a key the code
            # reads is no defect of a declaration that lags it (fastify's routerKeys).
            return replace(declared, fields=declared.fields | read.fields)
        if declared is None:
            return Keys(read.fields, read_by=by)
        if declared.reason:
            return declared
        return replace(declared, fields=declared.fields | read.fields, read_by=by)

    def type_keys(self, declared: Cls, position: int, path: tuple[str, ...]) -> Keys | None:
        """The keys an object of the declared type ``declared`` (an interface or a type
        alias, by name and the file declaring it) may have, below the key ``path``: as
        :meth:`function_keys` answers for a parameter of that type (``position`` 0; None
        for any other, and when the type cannot be followed there)."""
        key = ("type", declared, position, path)
        if key not in self._keys:
            found = None
            if position == 0 and self.declared is not None:
                start = TypeRef(("ref", declared[0], ()), declared[1])
                held = self.declared.container(start, path)
                if held is not None:
                    through = " | ".join(sorted({f"{f.owner}.{f.name}" for f in held[1]
                                                 if f.owner}))  # fmt: skip
                    found = _keys(held[0], declared[0], through)
                    if _declaration_only(declared[1]):
                        found = replace(found, hand_written=declared[1])
            self._keys[key] = found
        return self._keys[key]

    def _keys_at(
        self, places: list[tuple[str, str]], method: str, position: int, path: tuple[str, ...]
    ) -> Keys | None:
        # Posts pass options to the same few calls again and again: expanded once.
        key = (tuple(places), method, position, path)
        if key not in self._keys:
            self._keys[key] = self._expand_keys(places, method, position, path)
        return self._keys[key]

    def _expand_keys(
        self, places: list[tuple[str, str]], method: str, position: int, path: tuple[str, ...]
    ) -> Keys | None:
        if self.declared is None:
            return None
        shown = "the call signature" if method == CALL_SIGNATURE else f"{method}()"
        for file, container in places:
            found = self.declared.signatures(file, container, method)
            if found is None:
                continue
            where, signatures = found
            typed = [(parameter_type(s, position), s) for s in signatures]
            typed = [(t, s) for t, s in typed if t != ()]
            if not typed or any(t is None for t, _ in typed):
                return Keys(reason=f"{shown}'s parameter {position + 1} has no declared type")
            shapes: list[Shape] = []
            through: set[str] = set()
            defaults = self._class_defaults(where, container)
            for expr, signature in typed:
                assert expr is not None and expr != ()
                # `<S extends StoreApi>(api: S)`: a type parameter is read as its constraint.
                start = TypeRef(expr, where, constraints(signature, where) + defaults)
                if path and len(typed) > 1 and self.declared.shapes(start) == []:
                    continue  # an overload that takes no object there (`options?: undefined`)
                held = self.declared.container(start, path)
                if held is None:
                    return Keys(reason=f"the type of {shown}'s options cannot be followed")
                shapes += held[0]
                through |= {f"{f.owner}.{f.name}" for f in held[1] if f.owner}
            found_keys = _keys(shapes, shown, " | ".join(sorted(through)))
            if _declaration_only(where):
                found_keys = replace(found_keys, hand_written=where)
            return found_keys
        return None

    def _class_defaults(self, where: str, container: str) -> tuple[tuple[str, TypeRef], ...]:
        """The generic parameters of the class or interface whose own signature is read,
        each bound to its default (``class Chart<TType extends ChartType = ChartType>``:
        ``new Chart(ctx, config)`` infers TType from the config, and its default is the
        widest it can be, every chart type)."""
        if not container or self.declared is None:
            return ()
        declared = self.declared.declarations(where, container)
        if declared is None or declared[0] != where:
            return ()
        params = declared[1][0].params
        return tuple((name, TypeRef(default, where)) for name, default in params if default)


def parameter_type(signature: Signature, position: int) -> Expr | tuple[()] | None:
    """The declared type of the argument at ``position``: its parameter's, or the element
    type of a rest parameter before it (``...items: Array<Got | ExtendOptions>``); None when
    not declared (or a rest type not an array); ``()`` when the signature takes no argument
    there."""
    for at, parameter in enumerate(signature.params):
        if parameter.rest and at <= position:
            typed = parameter.type
            if typed is not None and typed[0] == "ref" and not typed[2]:
                # `...items: T` with `T extends Array<...>`: the constraint's elements.
                typed = dict(signature.bounds).get(typed[1], typed)
            if typed is None:
                return None
            if typed[0] == "array":
                return typed[1]  # type: ignore[no-any-return]
            if typed[0] == "ref" and typed[1] in ("Array", "ReadonlyArray") and len(typed[2]) == 1:
                return typed[2][0]  # type: ignore[no-any-return]
            return None
        if at == position:
            return parameter.type
    return ()


def _keys(shapes: list[Shape], shown: str, through: str) -> Keys:
    """``through``: the declared field an inline object type is written at (``Config.info``).
    A function type in a union (``Got | ExtendOptions``) is no object literal's type."""
    shapes = [s for s in shapes if not s.callable] or shapes
    if not shapes:
        return Keys(reason=f"{shown} takes no object there")
    if any(s.array_of is not None or s.index for s in shapes):
        reason = f"{shown}'s options take any key (an index signature)"
        return Keys(reason=reason, any_key=not any(s.array_of is not None for s in shapes))
    owners = sorted({s.owner for s in shapes if s.owner})
    fields = frozenset(name for s in shapes for name in s.fields)
    return Keys(fields, " | ".join(owners) or through or f"{shown}'s options")


def hump_changed(name: str, other: str) -> bool:
    """One letter after the first in the other case (``toBeinstanceOf``, ``toBeInstanceOf``):
    JavaScript's names are case-sensitive, so that is another name, and a typo of this one."""
    if len(name) != len(other) or name == other or name[0] != other[0]:
        return False
    changed = [(a, b) for a, b in zip(name, other, strict=True) if a != b]
    return len(changed) == 1 and changed[0][0].lower() == changed[0][1].lower()


def _declaration_only(path: str) -> bool:
    """Whether ``path`` is a declaration file (``.d.ts``, ``.d.mts``, ``.d.cts``)."""
    return path.endswith((".d.ts", ".d.mts", ".d.cts"))


def declaration_file(path: str) -> str:
    """The declaration file TypeScript reads for a JavaScript file (``x.js`` -> ``x.d.ts``,
    ``x.mjs`` -> ``x.d.mts``), or "" for a file that is not JavaScript."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or suffix not in ("js", "mjs", "cjs"):
        return ""
    return f"{stem}.d.{'ts' if suffix == 'js' else suffix[0] + 'ts'}"


def _simple(base: str) -> str:
    return re.sub(r"[\[<].*", "", base, flags=re.S).strip().rsplit(".", 1)[-1]


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside TypeScript's brackets, empty parts dropped."""
    return [part for part in split_top_level(text, separator, "<>()[]{}") if part]
