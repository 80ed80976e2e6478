"""Gate 15's Python types: what a name in a Python sample holds, asked of the API model
(:mod:`pytest_postgates.evidence.api_model`), never of a search of text.

A sample value is a product module, a product class, an instance of one, a product callable
(a function, or a method bound to the class it was reached through), a container of
instances (what a ``for`` or a ``with`` unwraps), or a value that comes from the product but
whose type the model does not know (listed as unjudged when the sample uses its members).
The product's packages are the Python packages found in the repository's code, however it
is packaged (PEP 621, setup.py, poetry, none).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.dependency_models import DependencyModels
from pytest_postgates.evidence.known_bases import PY_BASES
from pytest_postgates.evidence.model_facts import CallableFacts, ClassFacts, Decl
from pytest_postgates.helpers.python_bases import outside_base
from pytest_postgates.helpers.python_values import EITHER, Constructor, Miss, PyValue, Unjudged
from pytest_postgates.helpers.sample_checks import CODE_NAMED, CODE_NAMED_SHARE, code_declared
from pytest_postgates.helpers.type_text import split_top_level

# Names every module has without declaring them.
MODULE_DUNDERS = frozenset(
    {"__name__", "__file__", "__doc__", "__path__", "__spec__", "__loader__", "__package__",
     "__dict__"}
)  # fmt: skip
# Bases that give a class no constructor parameters of their own.
_PLAIN_BASES = frozenset({"object", "Generic", "Protocol", "ABC"})
# How many ``**kwargs`` passed on a call's keywords are followed through.
_MAX_FORWARDS = 4
# Bases whose subclasses take their annotated fields as keyword arguments.
_FIELD_BASES = frozenset({"NamedTuple", "TypedDict"})
_DATACLASS_MARK = "__dataclass_fields__"
# Generic types whose (first) argument is what iterating over or entering them gives.
_CONTAINERS = frozenset(
    {"Iterator", "AsyncIterator", "Generator", "AsyncGenerator", "Iterable", "AsyncIterable",
     "ContextManager", "AbstractContextManager", "AsyncContextManager",
     "AbstractAsyncContextManager", "list", "List", "Sequence", "set", "Set", "frozenset",
     "FrozenSet", "Collection"}
)  # fmt: skip
_AWAITABLES = frozenset({"Awaitable", "Coroutine"})
_OPTIONALS = frozenset({"Optional", "Union"})
# The reason of a product value a sample names without binding it (:meth:`top_name`).
NEVER_BOUND = "never bound in the samples"


@dataclass
class PythonTypes:
    """The model's Python side, indexed once per model for the questions samples ask."""

    model: ApiModel
    paths: dict[str, str] = field(default_factory=dict)  # dotted module -> its file
    tops: frozenset[str] = frozenset()
    # The product's declared dependencies, read where they are installed: a member a
    # product class inherits from a dependency's class is judged there.
    dependencies: DependencyModels | None = None
    _by_owner: dict[str, list[Decl]] = field(default_factory=dict)
    _hooks: dict[str, frozenset[str]] = field(default_factory=dict)  # prefix -> hook names
    _members: dict[str, tuple[set[str], str | None]] = field(default_factory=dict)
    # Every segment of a product module's dotted name (``starlette``, ``responses``).
    module_words: frozenset[str] = frozenset()
    _modules: dict[str, str] = field(default_factory=dict)  # file -> its dotted module
    _top_names: dict[str, PyValue | None] = field(default_factory=dict)

    @classmethod
    def of(cls, model: ApiModel) -> PythonTypes:
        types = cls(model)
        for decl in model.facts.decls:
            types._by_owner.setdefault(decl.owner, []).append(decl)
            if decl.kind == "module" and decl.path.endswith((".py", ".pyi")):
                types.paths.setdefault(decl.owner, decl.path)
        for module in list(types.paths):
            parts = module.split(".")
            for depth in range(1, len(parts)):
                types.paths.setdefault(".".join(parts[:depth]), "")
        types._modules = {path: module for module, path in types.paths.items() if path}
        types.tops = frozenset(_packages(types.paths))
        types.module_words = frozenset(w for m in model.modules for w in m.split("."))
        return types

    def written(self, name: str) -> bool:
        """Whether the product's code declares or writes ``name`` anywhere."""
        return name in self.model.facts.identifiers or bool(self.model.declares(name))

    # -------------------------------------------------------------- modules
    def is_module(self, dotted: str) -> bool:
        return dotted in self.paths

    def submodules(self, module: str) -> set[str]:
        prefix = module + "."
        return {m[len(prefix) :].split(".")[0] for m in self.paths if m.startswith(prefix)}

    def module_miss(self, dotted: str) -> Miss:
        """The first part of ``dotted`` that is no module, and the nearest modules there."""
        parts = dotted.split(".")
        depth = 1
        while depth < len(parts) and self.is_module(".".join(parts[: depth + 1])):
            depth += 1
        parent = ".".join(parts[:depth])
        missing = parts[depth] if depth < len(parts) else parts[-1]
        pool = self.submodules(parent) | (set(self.model.modules.get(parent, ())) - {"*"})
        return Miss(missing, parent, tuple(self.model.nearest(missing, pool)), self.paths[parent])

    def module_name(self, module: str, name: str, shown: str) -> PyValue | Miss | Unjudged:
        """What ``module.name`` is: a submodule, a public or declared name (typed where the
        model says), or a miss with the nearest public names."""
        if self.is_module(f"{module}.{name}"):
            return PyValue("module", f"{module}.{name}", shown)
        public = self.model.modules.get(module, frozenset())
        here = [d for d in self._by_owner.get(module, []) if d.name == name]
        if name in public or here or name in MODULE_DUNDERS:
            return self._named(module, name, shown)
        if "*" in public:
            return Unjudged(f"{module} star-imports names the model does not follow")
        own = {d.name for d in self._by_owner.get(module, [])}
        if "__getattr__" in own:
            return Unjudged(f"{module} defines __getattr__ (names made at run time)")
        top = module.split(".")[0]
        if "__all__" in own and any(
            d.owner.split(".")[0] == top for d in self.model.declares(name)
        ):
            # A name of the package left out of `__all__` may still be imported there: the
            # model lists a module's public names, not everything it imports.
            return Unjudged(f"{name} is not in {module}.__all__ (the model does not list "
                            f"what {module} imports)")  # fmt: skip
        pool = (set(public) | self.submodules(module)) - {"*"}
        pool = {n for n in pool if not n.startswith("_")}
        return Miss(name, module, tuple(self.model.nearest(name, pool)), self.paths[module])

    def top_name(self, name: str) -> PyValue | None:
        """The public class or function ``name`` of the product's one top-level package that
        exports it (a page's ``get_model(...)`` without the import a reader adds)."""
        if name not in self._top_names:
            tops = [t for t in sorted(self.tops) if name in self.model.modules.get(t, ())]
            found = self.module_name(tops[0], name, name) if len(tops) == 1 else None
            kinds = ("class", "callable", "union")
            kept = found if isinstance(found, PyValue) and found.kind in kinds else None
            # Named, not bound: the product's function, or a value named like it.
            if kept is not None and kept.kind == "callable":
                kept = replace(kept, reason=NEVER_BOUND)
            self._top_names[name] = kept
        return self._top_names[name]

    def unbound(self, name: str) -> PyValue | None:
        """What a name no sample binds holds: :meth:`top_name`, else :meth:`code_named`."""
        return self.top_name(name) or self.code_named(name)

    def code_named(self, name: str) -> PyValue | None:
        """An instance of the one product class the product's code declares ``name`` as
        (:attr:`~pytest_postgates.evidence.model_facts.ModelFacts.declared_as`: annotated
        parameters and attributes; ``client: Client``), for a name no sample binds: more
        than CODE_NAMED_SHARE of its declarations that class (sample_checks.code_declared)."""
        declared = code_declared(self.model.facts.declared_as.get(name))
        total, named = declared or (0, {})
        most = [(c, t) for t, c in named.items() if c > CODE_NAMED_SHARE * total]
        if not most or not name[:1].islower() or not self.entries(most[0][1]):
            return None
        ((count, cls),) = most
        why = f"{CODE_NAMED} ({name}: {cls} {count} of its {total} typed declarations)"
        return PyValue("instance", cls, name, reason=why)

    def code_named_member(
        self, held: PyValue, name: str, found: PyValue | Miss | Unjudged
    ) -> PyValue | Miss | Unjudged:
        """A member ``held`` (typed by :meth:`code_named`) lacks, which the product's code
        writes somewhere: the value may be another type's, so it is not judged."""
        if isinstance(found, Miss) and held.reason.startswith(CODE_NAMED) and self.written(name):
            return Unjudged(f"{held.name} is how the product's code declares the name, and "
                            f"the code names {name}")  # fmt: skip
        return found

    def _named(self, module: str, name: str, shown: str) -> PyValue:
        """The value of a name ``module`` declares or re-exports. A name the module binds
        with ``from X import Y`` is the Y that import names, followed import by import
        (:meth:`_imported`), never a same-named one elsewhere. Otherwise it is looked for in
        the module's own package first, then in its top-level package; where several
        declarations remain (two functions named ``type``), their facts are merged:
        parameters are any of theirs, and a return type only one they agree on."""
        imported = self._imported(module, name, shown)
        if imported is not None:
            return imported
        top = module.split(".")[0]
        owners = [module] if module in self._union_owners(name) else []
        owners = owners or [o for o in self._union_owners(name) if o.split(".")[0] == top]
        if len(owners) == 1:  # several aliases of the name: the sample does not say which
            union = self.union(f"{owners[0]}.{name}", shown)
            if union is not None:
                return union
        declared = [d for d in self.model.declares(name) if d.kind in ("class", "function")]
        for group in (
            [d for d in declared if d.owner == module],
            [d for d in declared if d.owner.startswith(module + ".")],
            [d for d in declared if d.owner.split(".")[0] == top],
        ):
            if any(d.kind == "class" for d in group) and name in self.model.classes:
                return PyValue("class", name, shown)
            found = [f for d in group for f in self.model.callables.get(f"{d.owner}.{name}", [])]
            if found:
                return PyValue("callable", name, shown, tuple(found))
        return PyValue("unknown", name, shown)

    def _imported(self, module: str, name: str, shown: str) -> PyValue | None:
        """What ``module``'s ``from X import Y`` binding of ``name`` names: Y's class or
        function in X, after X's own imports of it; unknown, with the reason, when the
        import leads outside the product or to no class or function the model reads there
        (a same-named function elsewhere is not the one imported). None when ``module``
        declares ``name`` itself or binds it by no ``from`` import."""
        imports = self.model.facts.module_imports
        if name not in imports.get(module, {}) or self._declared_in(module, name):
            return None
        seen: set[tuple[str, str]] = set()
        while name in imports.get(module, {}) and (module, name) not in seen:
            seen.add((module, name))
            module, _, name = imports[module][name].partition(":")
            if self.is_module(f"{module}.{name}"):
                return PyValue("module", f"{module}.{name}", shown)
            if not self.is_module(module):
                reason = f"{shown} is imported from {module}, outside the product's code"
                return PyValue("unknown", name, shown, reason=reason)
            if self._declared_in(module, name):
                break
        union = self.union(f"{module}.{name}", shown)
        if union is not None:
            return union
        declared = self._declared_in(module, name)
        if declared and declared[0].kind == "class" and name in self.model.classes:
            return PyValue("class", name, shown)
        found = [f for d in declared for f in self.model.callables.get(f"{d.owner}.{name}", [])]
        if found:
            return PyValue("callable", name, shown, tuple(found))
        reason = f"{shown} is {module}.{name}, which the model reads as no function or class"
        return PyValue("unknown", name, shown, reason=reason)

    def union(self, qualified: str, shown: str) -> PyValue | None:
        """The type alias ``qualified`` (``module.Name``) as a union of product classes;
        None when it is no such alias (one of its names is no product class: flags or'd
        together, another library's types)."""
        written = self.model.facts.union_aliases.get(qualified)
        if not written:
            return None
        names = tuple(dict.fromkeys(_simple(w) for w in written))
        if not all(self.entries(n) for n in names):
            return None
        return PyValue("union", qualified.rsplit(".", 1)[-1], shown, alternatives=names)

    def _union_owners(self, name: str) -> set[str]:
        """The modules that declare a union type alias named ``name``."""
        suffix = "." + name
        return {q[: -len(suffix)] for q in self.model.facts.union_aliases if q.endswith(suffix)}

    def union_named(self, name: str, shown: str) -> PyValue | None:
        """The one union type alias of product classes named ``name`` anywhere in the
        product (None when none is, or several are)."""
        found = [u for m in self._union_owners(name) if (u := self.union(f"{m}.{name}", shown))]
        return found[0] if len(found) == 1 else None

    def _declared_in(self, module: str, name: str) -> list[Decl]:
        """The classes and functions named ``name`` that ``module`` itself declares."""
        return [
            d
            for d in self._by_owner.get(module, [])
            if d.name == name and d.kind in ("class", "function")
        ]

    # -------------------------------------------------------------- classes
    def entries(self, class_name: str) -> list[ClassFacts]:
        return self.model.classes.get(class_name, [])

    def _generations(
        self, first: list[ClassFacts], seen: set[str] | None = None
    ) -> Iterator[list[ClassFacts] | str]:
        """``first``, then its bases, depth first (about the method resolution order): the
        product classes of each base name (the model knows classes by name), or a base
        outside the product as it is written (one its file imports from another package,
        whatever product class shares its name)."""
        seen = seen if seen is not None else {entry.name for entry in first}
        yield first
        stack = [(base, entry.path) for entry in first for base in entry.bases]
        while stack:
            written, path = stack.pop(0)
            current = _simple(written)
            if not current or current in seen:
                continue
            seen.add(current)
            entries = self._base_entries(written, current, path)
            if not entries:
                yield written
                continue
            yield entries
            stack[0:0] = [(base, entry.path) for entry in entries for base in entry.bases]

    def _base_entries(self, written: str, name: str, path: str) -> list[ClassFacts]:
        """The product classes a base written in the file ``path`` is: none when the file
        imports it from another package; where several product classes share its name, the
        one the file imports or declares (else all of them)."""
        if self.model.base_outside(written, path):
            return []
        module = self._modules.get(path, "")
        imported = self.model.facts.module_imports.get(module, {}).get(written.split(".")[0])
        if imported and "." not in written:  # `from x.y import Base [as Alias]`
            source, _, bound = imported.partition(":")
            chosen = [e for e in self.entries(bound) if e.qualname == f"{source}.{bound}"]
            if chosen:
                return chosen
        entries = self.entries(name)
        if len(entries) < 2:
            return entries
        return [e for e in entries if e.path == path] or entries

    def lineage(self, class_name: str) -> Iterator[ClassFacts | str]:
        for generation in self._generations(self.entries(class_name)):
            if isinstance(generation, str):
                yield generation
            else:
                yield from generation

    def member(
        self, class_name: str, name: str, shown: str, static: bool = False
    ) -> PyValue | Miss | Unjudged:
        """``name`` on an instance (or, ``static``, the class) ``class_name``: a method, a
        nested class, an enum's member, an attribute of unknown type, or a miss with the
        nearest members."""
        members, problem = self.model.members(class_name)
        if name not in members:
            if problem:
                inherited = self._inherited(class_name, name, shown, members)
                return inherited if inherited is not None else Unjudged(problem)
            where = self.entries(class_name)[0].path if self.entries(class_name) else ""
            return Miss(name, class_name, tuple(self.model.nearest(name, members)), where)
        found = self.method(class_name, name)
        if found:
            return PyValue("callable", name, shown, found, class_name)
        nested = {c.qualname for c in self.entries(name)}
        for entry in self.lineage(class_name):
            if isinstance(entry, ClassFacts) and f"{entry.qualname}.{name}" in nested:
                return PyValue("class", name, shown)
        own = any(name in e.members for e in self.entries(class_name))
        if static and own and any(e.kind == "enum" for e in self.entries(class_name)):
            return PyValue("instance", class_name, shown)  # `Color.RED` is a Color
        typed = None if static else self.field_type(class_name, name, shown)
        return typed or PyValue("unknown", name, shown)

    def field_type(self, class_name: str, name: str, shown: str) -> PyValue | None:
        """An instance of the one product class that the nearest class of ``class_name``'s
        lineage declaring the attribute ``name`` annotates it as (``beta: resources.Beta``,
        a dataclass field); None when that class declares none, several (``A | B``), or a
        type outside the product."""
        for entry in self.lineage(class_name):
            if not isinstance(entry, ClassFacts):
                continue
            written = self.model.facts.field_types.get(f"{entry.qualname}.{name}", [])
            if written := [text for text in written if text != "None"]:
                typed = {self.annotation(text, shown) for text in written}
                one = typed.pop() if len(typed) == 1 else None
                return one if one is not None and one.kind == "instance" else None
        return None

    def either_member(self, value: PyValue, name: str, shown: str) -> PyValue | Miss | Unjudged:
        """``name`` on an instance of one of ``value.alternatives``: a member of any of them,
        a miss when each was read whole and none has it, else why it is not judged."""
        found = [self.member(c, name, shown) for c in value.alternatives]
        for one in found:
            if isinstance(one, PyValue):
                return one
        reasons = [one.reason for one in found if isinstance(one, Unjudged)]
        if reasons:
            return Unjudged("; ".join(dict.fromkeys(reasons)))
        nearest = [n for one in found if isinstance(one, Miss) for n in one.nearest]
        where = next((one.where for one in found if isinstance(one, Miss) and one.where), "")
        owner = " | ".join(value.alternatives)
        return Miss(name, owner, tuple(dict.fromkeys(nearest))[:3], where)

    def _inherited(
        self, class_name: str, name: str, shown: str, members: set[str]
    ) -> PyValue | Miss | Unjudged | None:
        """``name`` looked up in the classes outside the product that ``class_name``
        extends, each read in the model of the installed dependency it is imported from
        (``requests.Session``): the member found there (a value of the dependency's, its
        type not the product's to say), a miss when every such base was read whole and none
        has it, or why not (None: no base outside the product was found to read)."""
        reasons: list[str] = []
        pool = set(members)
        for entry in self.lineage(class_name):
            if isinstance(entry, ClassFacts):
                continue
            if _simple(entry) in PY_BASES or not _simple(entry):
                continue  # a built-in base: the model lists its members already
            read = outside_base(self.model, self.dependencies, entry, class_name)
            if isinstance(read, str):
                reasons.append(read)
                continue
            label, base, found, problem = read
            if name in found:
                reason = f"{shown} is {base}.{name} of {label}, whose types are not the product's"
                return PyValue("unknown", name, shown, reason=reason)
            pool |= found
            if problem:
                reasons.append(f"{base} in {label}: {problem}")
        if reasons:
            return Unjudged("; ".join(dict.fromkeys(reasons)))
        if pool == members:
            return None
        where = self.entries(class_name)[0].path if self.entries(class_name) else ""
        return Miss(name, class_name, tuple(self.model.nearest(name, pool)), where)

    def family(self, used: set[str]) -> str | None:
        """The one product class whose instances, its subclasses' included, have every
        member in ``used`` (the other product classes that have them all extend it), when
        its members are all known (no base outside the product the model cannot read, no
        ``__getattr__``); else None."""
        having: list[str] = []
        for class_name, entries in self.model.classes.items():
            if not any(e.path.endswith((".py", ".pyi")) for e in entries):
                continue
            if class_name not in self._members:
                self._members[class_name] = self.model.members(class_name)
            if used <= self._members[class_name][0]:
                having.append(class_name)
        roots = [
            name
            for name in having
            if not any(
                isinstance(e, ClassFacts) and e.name != name and e.name in having
                for e in self.lineage(name)
            )
        ]
        if len(roots) != 1:
            return None
        members, problem = self._members[roots[0]]
        return None if problem or "__getattr__" in members else roots[0]

    def dispatch_prefixes(self, class_name: str) -> list[str]:
        """The prefixes of the methods ``class_name`` (or a product class it extends) calls
        on itself by a name made at run time (:attr:`ModelFacts.name_dispatch`)."""
        dispatch = self.model.facts.name_dispatch
        found: list[str] = []
        for entry in self.lineage(class_name):
            if isinstance(entry, ClassFacts):
                found += [p for p in dispatch.get(entry.qualname, []) if p not in found]
        return found

    def hook_names(self, prefix: str) -> frozenset[str]:
        """The methods with ``prefix`` that product classes calling ``prefix`` methods by a
        made name (themselves or through a base) define: the family's names the product
        itself spells."""
        if prefix not in self._hooks:
            names: set[str] = set()
            for entry in self.model.facts.classes:
                own = [m for m in entry.members if m.startswith(prefix)]
                if own and prefix in self.dispatch_prefixes(entry.name):
                    names.update(own)
            self._hooks[prefix] = frozenset(names)
        return self._hooks[prefix]

    def method(self, class_name: str, name: str) -> tuple[CallableFacts, ...]:
        """The facts of the method ``name`` of each product class named ``class_name``:
        from the first class of its own lineage that declares it."""
        found: list[CallableFacts] = []
        for entry in self.entries(class_name):
            for generation in self._generations([entry]):
                if isinstance(generation, list):
                    own = [
                        f
                        for e in generation
                        for f in self.model.callables.get(f"{e.qualname}.{name}", [])
                    ]
                    if own:
                        found += own
                        break
        return tuple(found)

    def taken(self, callables: tuple[CallableFacts, ...]) -> tuple[set[str], bool]:
        """The keywords calling any of ``callables`` takes, and whether that is open: a
        ``**kwargs`` whose use the body shows whole (:meth:`forwarded`) adds its keywords;
        any other makes the call take any keyword."""
        names = {p for f in callables for p in f.params if not p.startswith("*")}
        open_ = False
        for function in callables:
            if function.var_keyword:
                more = self.forwarded(function)
                open_ = open_ or more is None
                names |= more or set()
        return names, open_

    def forwarded(self, function: CallableFacts, depth: int = 0) -> set[str] | None:
        """The keywords ``function``'s ``**kwargs`` takes, as its body uses them: the keys it
        reads by name and what each callee it passes them all to accepts (``super().__init__
        (**kwargs)``, ``self.run(**kwargs)``, a function or class of its module), through
        those callees' own ``**kwargs``; None when that is not all known (another use, a
        callee the model cannot follow, none at all)."""
        if function.kwargs_open or function.keywords_of or depth > _MAX_FORWARDS:
            return None
        if not function.kwargs_read and not function.kwargs_to:
            return None  # taken and never used: nothing says which
        taken = set(function.kwargs_read)
        for callee in function.kwargs_to:
            targets = self._forward_target(function, callee)
            if targets is None:
                return None
            for target in targets:
                taken.update(p for p in target.params if not p.startswith("*"))
                more = self.forwarded(target, depth + 1) if target.var_keyword else set()
                if more is None:
                    return None
                taken |= more
        return taken

    def _forward_target(
        self, function: CallableFacts, callee: str
    ) -> tuple[CallableFacts, ...] | None:
        """The product callables ``callee`` (as ``function`` writes it) runs, None when the
        model cannot tell; ``()`` for ``object.__init__``, which takes no keyword."""
        owner = function.qualname.rsplit(".", 1)[0]
        cls = next((e for e in self.entries(owner.rsplit(".", 1)[-1]) if e.qualname == owner), None)
        head, _, name = callee.partition(".")
        if head in ("super()", "self", "cls") and (cls is None or not name or "." in name):
            return None
        if head == "super()":
            assert cls is not None
            for generation in list(self._generations([cls]))[1:]:
                if isinstance(generation, str):
                    if name == "__init__" and _simple(generation) in _PLAIN_BASES:
                        continue
                    return None
                own = [f for e in generation
                       for f in self.model.callables.get(f"{e.qualname}.{name}", [])]  # fmt: skip
                if own:
                    return tuple(own)
            return () if name == "__init__" else None
        if head in ("self", "cls"):
            assert cls is not None
            return self.method(cls.name, name) or None
        if not callee.isidentifier():
            return None
        module = cls.qualname.rsplit(".", 1)[0] if cls is not None else owner
        functions = self.model.callables.get(f"{module}.{callee}", [])
        if functions:
            return tuple(functions)
        made = [
            self._constructor(e) for e in self.entries(callee) if e.qualname == f"{module}.{callee}"
        ]
        if len(made) == 1 and not made[0].problem and made[0].fields is None:
            return made[0].callables
        return None

    def constructor(self, class_name: str) -> Constructor:
        """What calling the class accepts (see :class:`Constructor`); where several
        product classes share the name, what any of them accepts."""
        made = [self._constructor(entry) for entry in self.entries(class_name)]
        problems = [m.problem for m in made if m.problem]
        fields = [m.fields for m in made if m.fields is not None]
        if problems or not made:  # the fields known (of a dataclass whose base is not read)
            known = frozenset().union(*fields) if fields and problems else None
            return Constructor(
                fields=known, problem=problems[0] if problems else "not a product class"
            )
        return Constructor(
            tuple(f for m in made for f in m.callables),
            frozenset().union(*fields) if fields else None,
        )

    def _constructor(self, entry: ClassFacts) -> Constructor:
        generations = list(self._generations([entry]))
        classes = [e for g in generations if isinstance(g, list) for e in g]
        if any(isinstance(g, str) and _simple(g) in _FIELD_BASES for g in generations):
            return Constructor(fields=self._fields(classes))  # a NamedTuple or TypedDict
        for generation in generations:
            if isinstance(generation, str):
                if _simple(generation) not in _PLAIN_BASES:
                    problem = f"{entry.name} extends {generation}, outside the product's code"
                    return Constructor(problem=problem)
                continue
            found = [
                f
                for e in generation
                for f in self.model.callables.get(f"{e.qualname}.__init__", [])
            ]
            if found:
                return Constructor(tuple(found))
            if any(_DATACLASS_MARK in e.members for e in generation):
                marked = [c for c in classes if _DATACLASS_MARK in c.members]
                return self._dataclass(entry, generations, self._fields(marked))
        return Constructor(problem=f"{entry.name} declares no __init__ the model reads (a "
                           "decorator or metaclass may make it)")  # fmt: skip

    def _dataclass(
        self, entry: ClassFacts, generations: list[list[ClassFacts] | str], fields: frozenset[str]
    ) -> Constructor:
        """A dataclass's constructor: its fields and its bases', a base outside the product
        read in its dependency's model (its members taken), else why it is not known."""
        for base in (g for g in generations if isinstance(g, str)):
            simple = _simple(base)
            if simple in _PLAIN_BASES or simple in PY_BASES or not simple:
                continue
            read = outside_base(self.model, self.dependencies, base, entry.name)
            if isinstance(read, str):
                return Constructor(fields=fields, problem=read)
            if read[3]:  # the members read are there; another keyword may be too
                return Constructor(
                    fields=fields | read[2], problem=f"{read[1]} in {read[0]}: {read[3]}"
                )
            fields |= read[2]
        return Constructor(fields=fields)

    def _fields(self, classes: list[ClassFacts]) -> frozenset[str]:
        """The attributes the classes declare (a dataclass's or TypedDict's fields)."""
        return frozenset(
            d.name
            for entry in classes
            for d in self._by_owner.get(entry.qualname, [])
            if d.kind == "attribute" and not d.name.startswith("__")
        )

    # -------------------------------------------------------------- annotations
    def returned(self, value: PyValue) -> PyValue | None:
        """What calling a callable value gives, by its declared return type (None: not a
        product type the model knows)."""
        shown = f"{value.shown}()"
        # Overloads that return different types type nothing (`stream(delta=True)`).
        typed = {self.annotation(f.returns, shown, value.receiver) for f in value.callables}
        one = typed.pop() if len(typed) == 1 else None
        attached = tuple(dict.fromkeys(n for f in value.callables for n in f.attaches))
        return replace(one, attached=attached) if one and one.kind == "instance" else one

    def outside(self, value: PyValue) -> bool:
        """Whether a callable's declared return types are all outside the product (``->
        Path``, ``-> dict``, ``-> None``): its result is then no product value at all."""
        for function in value.callables:
            text = function.returns.strip().strip("\"'")
            names = set(re.findall(r"[A-Za-z_]\w*", text))
            if not text or _typevar(text) or names & {"Any", "object", "Self"}:
                return False
            simple = {part.rsplit(".", 1)[-1] for part in re.findall(r"[A-Za-z_][\w.]*", text)
                      if not self.foreign(part)}  # fmt: skip
            if simple & set(self.model.classes):
                return False
        return bool(value.callables)

    def annotation(self, text: str, shown: str, receiver: str = "") -> PyValue | None:
        """The sample value an annotation names: an instance of a product class, or a
        container of them; ``Self`` is the receiver's class."""
        text = text.strip().strip("\"'").strip()
        if not text:
            return None
        alternatives = [a for a in split_top_level(text, "|") if a.strip() != "None"]
        if len(alternatives) == 1 and alternatives[0].strip() != text:
            return self.annotation(alternatives[0], shown, receiver)
        if len(alternatives) > 1:  # `-> Model | MixedModel`: an instance of one of them
            typed = [self.annotation(a, shown, receiver) for a in alternatives]
            names = tuple(dict.fromkeys(t.name for t in typed if t and t.kind == "instance"))
            if len(names) < len(alternatives):
                return None
            return PyValue(EITHER, names[0], shown, alternatives=names)
        head, arguments = _generic(text)
        name = head.rsplit(".", 1)[-1]
        if name in _OPTIONALS and arguments:
            kept = [a for a in arguments if a.strip() != "None"]
            return self.annotation(kept[0], shown, receiver) if len(kept) == 1 else None
        if name in _AWAITABLES and arguments:
            return self.annotation(arguments[-1], shown, receiver)
        if name in _CONTAINERS and arguments:
            inner = self.annotation(arguments[0], shown, receiver)
            if inner is not None and inner.kind == "instance":
                return PyValue("container", inner.name, shown)
            return None
        if name in ("Tuple", "tuple") and arguments and "..." not in (a.strip() for a in arguments):
            # `-> Tuple[bytes, int, AsyncByteStream]`: unpacked by position.
            items = tuple(self.annotation(a, f"{shown}[{i}]", receiver)
                          for i, a in enumerate(arguments))  # fmt: skip
            return PyValue("tuple", "", shown, elements=items)
        if name == "Self" and receiver:
            return PyValue("instance", receiver, shown)
        if name == "type" and arguments:
            inner = self.annotation(arguments[0], shown, receiver)
            made = inner is not None and inner.kind == "instance"
            return PyValue("class", inner.name, shown) if inner is not None and made else None
        if name in self.model.classes and not self.foreign(head):
            return PyValue("instance", name, shown)
        return None

    def foreign(self, qualified: str) -> bool:
        """Whether a dotted type name is another party's (``httpx.Response``): its module
        part is neither a product module nor a short name of one, so a product class of
        the same simple name (starlette's ``Response``) is not the type."""
        if "." not in qualified:
            return False
        return qualified.split(".", 1)[0] not in self.module_words

    def entered(self, value: PyValue) -> PyValue | None:
        """What ``with value as x`` binds: the item of a context-manager generator, or what
        the instance's ``__enter__``/``__aenter__`` returns (itself unless it says)."""
        if value.kind == "container":
            return PyValue("instance", value.name, value.shown)
        if value.kind != "instance":
            return PyValue("unknown", value.name, value.shown) if value.kind == "unknown" else None
        for method in ("__enter__", "__aenter__"):
            found = self.method(value.name, method)
            for function in found:
                typed = self.annotation(function.returns, value.shown, value.name)
                if typed is not None and typed.kind == "instance":
                    return typed
                if function.returns and not _typevar(function.returns):
                    return PyValue("unknown", value.name, value.shown)
        return value


def _packages(paths: dict[str, str]) -> set[str]:
    """Top-level names that are packages of the code (a folder with ``__init__``) or a
    module at the repository's root or under ``src/``: a loose file deep in a tool folder
    is not an importable product module a sample would name."""
    tops: set[str] = set()
    for module, path in paths.items():
        if not path:
            continue
        top = module.split(".")[0]
        folder = posixpath.dirname(path)
        package = "." in module or posixpath.basename(path).startswith("__init__.")
        if package or folder in ("", "src"):
            tops.add(top)
    return tops


def _simple(base: str) -> str:
    return re.sub(r"[\[(].*", "", base, flags=re.S).strip().rsplit(".", 1)[-1]


def _typevar(text: str) -> bool:
    """A bare type variable (``T``, ``_T``, ``U``, ``SelfClient``) as ``__enter__`` returns."""
    name = text.strip().strip("\"'")
    return bool(re.fullmatch(r"_?[A-Z][A-Za-z0-9]{0,2}|_?[A-Z]\w*T|Self\w*", name))


def _generic(text: str) -> tuple[str, list[str]]:
    """``typing.Iterator[Response]`` -> (``typing.Iterator``, [``Response``])."""
    if not text.endswith("]") or "[" not in text:
        return text, []
    head, _, rest = text.partition("[")
    return head.strip(), [a for a in split_top_level(rest[:-1], ",") if a]
