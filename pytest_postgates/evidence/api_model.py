"""The API model of a repository at a commit: what the product's code declares, read from
syntax trees (never from text search), built once per commit and cached on disk.

It answers the questions the name-judging gates ask:

* :meth:`ApiModel.resolve`: does a name or a member chain (``pkg.mod.Client.send``,
  ``Client.open_stream``, ``client.open_stream``) resolve, name for name and member by
  member (inherited members included)? A miss names the part that does not resolve, where
  it was looked up, and the nearest real names; a lookup the model cannot finish (a base
  class outside the product, a star import it cannot follow) is ``unjudged`` with why.
* :meth:`ApiModel.resembles`: is a name a near miss of a product name (a rename, a typo)?
* :attr:`ApiModel.cli`, :attr:`ApiModel.commands`: the product's CLI (:mod:`.cli_model`).

Only the product's own code counts (:func:`~.model_facts.is_product_code`), never Markdown.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates import signing
from pytest_postgates.evidence import (
    call_resolution,
    calls_js,
    calls_python,
    cli_factories,
    cli_js,
    cli_model,
    cli_python,
    code_surface,
    model_check,
    model_facts,
    model_js,
    model_packages,
    model_python,
    model_sources,
    reexports,
    repomap,
    source_repairs,
    tables_js,
    type_tables,
)
from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.cli_model import CliModel, executables
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.known_bases import JS_BASES, PY_BASES, SUBSCRIPTED_BASE_MEMBERS
from pytest_postgates.evidence.model_facts import (
    CallableFacts,
    ClassFacts,
    Decl,
    ImportSite,
    ModelFacts,
    names_shown_real,
)
from pytest_postgates.evidence.model_sources import elsewhere_sources, product_sources
from pytest_postgates.evidence.name_spelling import squash, words
from pytest_postgates.fileio import locked, write_atomic

# Bumped whenever what the extractors read changes (a cached model of another version is
# rebuilt); what each version added is in git: `git log -S "MODEL_VERSION =" -p` here.
MODEL_VERSION = 46  # 44: attaches; 45: **kwargs handed on whole; 46: declared_as
# The suffixes of the script files whose modules the model keys by path.
_SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
_EXTRACTORS = (
    model_facts,
    model_python,
    model_js,
    model_packages,
    tables_js,
    type_tables,
    call_resolution,
    calls_js,
    cli_factories,
    cli_js,
    cli_model,
    cli_python,
    calls_python,
    code_surface,
    source_repairs,
    *model_js.READERS,  # the aliases and Vue components it reads
    model_sources,
)
# (model_check reads a cached model; it changes no model, so it is no part of the key.)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_DEFINITION = re.compile(
    r"\b(?:def|class|function|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)"
)


@dataclass(frozen=True)
class Resolution:
    """What became of a name or chain: ``found`` (``where`` it is declared), ``missing``
    (``missing`` is the first part that does not resolve, looked up in ``owner``;
    ``nearest`` are the closest real names there) or ``unjudged`` (``reason``)."""

    outcome: str
    where: str = ""
    owner: str = ""
    missing: str = ""
    nearest: tuple[str, ...] = ()
    reason: str = ""


class ApiModel:
    """The merged facts of every language, indexed for the questions gates ask."""

    def __init__(self, commit: str, facts: ModelFacts, available: bool = True, reason: str = ""):
        self.commit = commit
        self.facts = facts
        self.available = available
        self.reason = reason
        # Built, yet no product source to read (a blog's own repository): no API at all,
        # unlike a model that could not be built, where gates fall back to the seeds' way.
        self.without_code = available and not facts.identifiers and not facts.unread
        self.by_name: dict[str, list[Decl]] = {}
        for decl in facts.decls:
            self.by_name.setdefault(decl.name, []).append(decl)
        self.classes: dict[str, list[ClassFacts]] = {}
        for entry in facts.classes:
            self.classes.setdefault(entry.name, []).append(entry)
        self.callables: dict[str, list[CallableFacts]] = {}
        for function in facts.callables:
            self.callables.setdefault(function.qualname, []).append(function)
        python_owners = {d.owner for d in facts.decls if d.path.endswith((".py", ".pyi"))}
        self.modules: dict[str, frozenset[str]] = {
            module: frozenset(names)
            for module, names in facts.modules.items()
            # A script's module is keyed by its path (`prettier.config.js` at the top is
            # a file, not a module `prettier` with a submodule `config`).
            # A scoped package (`@scope/name`) is a module; any other slash is a path.
            if ("/" not in module or module.startswith("@"))
            and (not module.endswith(_SCRIPT_SUFFIXES) or module in python_owners)
        }
        for module in list(self.modules):
            parts = module.split(".")
            for depth in range(1, len(parts)):
                self.modules.setdefault(".".join(parts[:depth]), frozenset())
        self.commands = dict(facts.commands)
        self.cli = CliModel(facts)
        # A variable named for a class holds one (``vectorStore``, ``http_client``) only when
        # the name is distinctive: ``result`` says nothing of a class named ``Result``.
        distinctive = [n for n in self.classes if len(words(n)) >= 2]
        self._instances = {n.lower(): n for n in distinctive}
        self._instances.update({"_".join(words(n)): n for n in distinctive})
        self._member_names = frozenset(
            d.name for d in facts.decls if d.kind in ("method", "attribute", "member", "key")
        )
        self._by_word: dict[str, set[str]] | None = None
        self._by_length: dict[int, list[str]] = {}
        # nearest() over every name, by (name, limit): the same token recurs across posts.
        self._nearest: dict[tuple[str, int, bool], list[str]] = {}
        self._patterns = [d for d in facts.decls if d.kind == "pattern"]
        self._lock = threading.Lock()
        self._calls: CallGraph | None = None
        # (file, local name) of each name a file imports from outside the product.
        self._outside_bindings = {(s.path, s.local) for s in facts.import_sites if s.external}

    @property
    def call_graph(self) -> CallGraph:
        """The product's functions with the calls their bodies make (indexed on first use)."""
        with self._lock:
            if self._calls is None:
                self._calls = CallGraph(self.facts.functions, self.facts.values)
            return self._calls

    # -------------------------------------------------------------- names
    @property
    def member_names(self) -> frozenset[str]:
        """Every member any product class or object declares."""
        return self._member_names

    def declares(self, name: str) -> list[Decl]:
        return self.by_name.get(name, [])

    def imported(self, name: str) -> list[ImportSite]:
        """Where the product's code imports ``name`` from outside the product."""
        return self.facts.imports.get(name, [])

    def base_outside(self, base: str, path: str) -> bool:
        """Whether a base class as written in the file ``path`` is another party's: its
        first name is imported there from outside the product (``from pydantic import
        BaseModel``, ``ESTree.Program``), whatever product class shares the name."""
        head = re.split(r"[.\[<]", base.strip(), maxsplit=1)[0]
        return (path, head) in self._outside_bindings

    def instance_class(self, name: str) -> str | None:
        """The product class a variable named ``name`` conventionally holds (``client`` ->
        ``Client``, ``http_client`` -> ``HttpClient``), or None."""
        if name in self.classes:
            return None
        return self._instances.get(name) or self._instances.get(name.lower())

    def made_by_pattern(self, name: str) -> str | None:
        """Where the code makes ``name`` from a fixed prefix and a word of its own
        (``f"FRONT_MATTER_{name}"`` and the word ``YAML`` -> ``FRONT_MATTER_YAML``)."""
        for decl in self._patterns:
            prefix = decl.name[:-1]
            rest = name[len(prefix) :]
            if name.startswith(prefix) and rest and rest in self.facts.identifiers:
                return decl.where()
        return None

    def keyword_parameters(self, parts: Sequence[str]) -> tuple[frozenset[str], bool] | None:
        """The keyword parameters of the Python callable a resolved chain ends at (a class:
        its ``__init__``), and whether it takes any keyword (``**kwargs``); None when not
        known (no such callable, no own ``__init__``, a script's function: options object)."""
        if not parts:
            return None
        name = parts[-1]
        suffix = "." + ".".join(parts[-2:]) if len(parts) > 1 else "." + name
        if name in self.classes:
            found = [
                f
                for entry in self.classes[name]
                for f in self.callables.get(f"{entry.qualname}.__init__", [])
            ]
        else:
            found = [
                f
                for qualname, functions in self.callables.items()
                if qualname.endswith(suffix)
                # A name alone calls a module's function; a method named alone (`read(...)`
                # in a list of some stream's methods) is of a class the token does not
                # name, and any other party's class may have a method of that name.
                and (len(parts) > 1 or qualname[: -len(suffix)] in self.facts.modules)
                for f in functions
            ]
        if len(parts) == 1 and len({f.path for f in found}) > 1:
            # A name alone is what a top-level package exports (not `pydantic.v1`'s copy).
            tops = [root for root, public in self.modules.items() if "." not in root]
            exported = {self._in_module(r, [name]).where for r in tops if name in self.modules[r]}
            found = [f for f in found if f.path in exported] or found
        if not found or not all(f.path.endswith((".py", ".pyi")) for f in found):
            return None
        names = {p for f in found for p in f.params if not p.startswith("*")}
        # `**extra: Unpack[T]` takes the keys of the TypedDict T and no other keyword.
        typed = [self._typed_dict_keys(f.keywords_of) for f in found if f.var_keyword]
        names.update(*(keys for keys in typed if keys is not None))
        return frozenset(names), any(keys is None for keys in typed)

    def method_owners(self, name: str) -> list[str]:
        """The product classes with a Python method ``name`` no product module's function has."""
        owners = [
            qualname[: -len(name) - 1]
            for qualname, functions in self.callables.items()
            if qualname.endswith("." + name) and functions[0].path.endswith((".py", ".pyi"))
        ]
        if name in self.classes or any(owner in self.facts.modules for owner in owners):
            return []
        return sorted(owner.rsplit(".", 1)[-1] for owner in owners)

    def _typed_dict_keys(self, name: str, seen: frozenset[str] = frozenset()) -> set[str] | None:
        """The keys of the product's TypedDict ``name`` (its own and its product bases'
        fields), or None when ``name`` is no TypedDict the model can read whole."""
        keys: set[str] = set()
        for entry in self.classes.get(name, []) if name else []:
            for base in entry.bases or ["object"]:  # a plain class is no TypedDict
                simple = re.sub(r"\[.*", "", base, flags=re.S).strip().rsplit(".", 1)[-1]
                inherited: set[str] | None = set() if simple == "TypedDict" else None
                if inherited is None and simple not in seen | {name}:
                    inherited = self._typed_dict_keys(simple, seen | {name})
                if inherited is None:
                    return None
                keys |= inherited
            keys |= set(entry.members)
        return keys if name in self.classes else None

    # -------------------------------------------------------------- near names
    def _word_index(self) -> dict[str, set[str]]:
        with self._lock:
            if self._by_word is None:
                index: dict[str, set[str]] = {}
                by_length: dict[int, list[str]] = {}
                # Names the code declares or writes: a near miss of either is anchored.
                for name in set(self.by_name) | self.facts.identifiers | self.facts.elsewhere:
                    by_length.setdefault(len(name), []).append(name)
                    for word in set(words(name)):
                        if len(word) >= 3:
                            index.setdefault(word, set()).add(name)
                self._by_word = index
                self._by_length = by_length
            return self._by_word

    def word_neighbours(self, mine: list[str]) -> list[str]:
        """Names sharing all of ``mine``'s words but one (at least one), in name order."""
        index = self._word_index()
        distinct = [w for w in dict.fromkeys(mine) if len(w) >= 3]
        if len(distinct) < 2:
            return []
        counts: dict[str, int] = {}
        for word in distinct:
            for candidate in index.get(word, ()):
                counts[candidate] = counts.get(candidate, 0) + 1
        need = max(1, len(distinct) - 1)
        return sorted(c for c, n in counts.items() if n >= need)

    def _spelled_near(self, name: str) -> list[str]:
        """Names of about the same length sharing the first or the last two letters: where
        a typo of ``name`` can be (difflib over all names would be a scan per token)."""
        self._word_index()
        found: list[str] = []
        for size in range(len(name) - 2, len(name) + 3):
            found += [
                n for n in self._by_length.get(size, []) if n[:2] == name[:2] or n[-2:] == name[-2:]
            ]
        return found

    def nearest(
        self,
        name: str,
        pool: Iterable[str] | None = None,
        limit: int = 3,
        api_only: bool = False,
    ) -> list[str]:
        """The real names closest to ``name``: in ``pool`` (an owner's members), else among
        every name sharing a word with it (``api_only``: a name the product declares or
        writes as a member, key or value, not a local variable, an import or a test's
        name); spelled alike but for case or separators first, then by similarity."""
        if pool is None:
            key = (name, limit, api_only)
            known = self._nearest.get(key)
            if known is None:
                known = self._nearest.setdefault(key, self._nearest_name(name, limit, api_only))
            return list(known)
        candidates = set(pool)
        return self._closest(name, candidates, limit)

    def _nearest_name(self, name: str, limit: int, api_only: bool) -> list[str]:
        index = self._word_index()
        candidates: set[str] = set()
        for word in set(words(name)):
            candidates |= index.get(word, set())
        if len(candidates) < 50:
            candidates |= set(difflib.get_close_matches(name, self._spelled_near(name), 5, 0.8))
        if api_only:
            candidates = {c for c in candidates if self.on_surface(c)}
        return self._closest(name, candidates, limit)

    @staticmethod
    def _closest(name: str, candidates: set[str], limit: int) -> list[str]:
        candidates.discard(name)
        squashed = squash(name)
        alike = sorted(c for c in candidates if squash(c) == squashed)
        close = difflib.get_close_matches(name, sorted(candidates), limit, 0.6)
        ordered = list(dict.fromkeys([*alike, *close]))
        return ordered[:limit]

    def on_surface(self, name: str) -> bool:
        return name in self.by_name or name in self.facts.surface

    def python_only(self, name: str) -> bool:
        found = self.declares(name)  # declared, and in Python code only
        return bool(found) and all(d.path.endswith((".py", ".pyi")) for d in found)

    def only_a_type(self, name: str) -> bool:
        types = ("class", "interface", "type", "enum", "module")
        return name not in self.facts.surface and all(d.kind in types for d in self.declares(name))

    # -------------------------------------------------------------- members
    def members(self, class_name: str) -> tuple[set[str], str | None]:
        """Every member of the product classes named ``class_name``, inherited ones
        included, and why the list may be incomplete (a base outside the product)."""
        names: set[str] = set()
        problems: list[str] = []
        if class_name not in self.classes:
            return names, f"{class_name} is not a class of the product's code"
        self._collect_members(class_name, names, problems, set())
        return names, ("; ".join(dict.fromkeys(problems)) or None)

    def _collect_members(
        self, class_name: str, names: set[str], problems: list[str], seen: set[str]
    ) -> None:
        if class_name in seen:
            return
        seen.add(class_name)
        for entry in self.classes.get(class_name, []):
            names.update(entry.members)
            python = entry.path.endswith((".py", ".pyi"))
            if python and "__getattr__" in entry.members:
                # Any attribute a lookup does not find is made at run time.
                problems.append(f"{class_name} defines __getattr__ (attributes made at run time)")
            if python and not entry.bases:
                names.update(PY_BASES["object"])  # every class is an object
            for base in entry.bases:
                augmented = reexports.AUGMENTED.fullmatch(base)
                if augmented is not None:  # `declare module "dep" { interface X { } }`
                    if reexports.outside(augmented.group(1), self.modules):
                        problems.append(f"{class_name} adds to {base}, outside the product's code")
                    continue
                if python and "[" in base:
                    names.update(SUBSCRIPTED_BASE_MEMBERS)
                bare = re.sub(r"[\[<].*", "", base, flags=re.S).strip()
                simple = bare.rsplit(".", 1)[-1]
                # `extends ESTree.Program`, `(BaseModel)` imported from pydantic: the other
                # package's, not the product's class of that name.
                outside = self.base_outside(bare, entry.path)
                if outside and not (simple in PY_BASES and python) and simple not in JS_BASES:
                    problems.append(f"{class_name} extends {base}, outside the product's code")
                elif simple in self.classes and not outside:
                    self._collect_members(simple, names, problems, seen)
                elif simple in PY_BASES and python:
                    names.update(PY_BASES[simple])
                elif simple in JS_BASES:
                    names.update(JS_BASES[simple])
                elif simple:
                    problems.append(f"{class_name} extends {base}, outside the product's code")

    # -------------------------------------------------------------- resolution
    def resolve(self, parts: Sequence[str], head_called: bool = True) -> Resolution:
        """Resolve a dotted name or member chain, name for name (see the module doc).
        ``head_called`` False: the chain does not call its first name (``request.session``),
        so a product function of that name does not make the rest the product's."""
        if not parts:
            return Resolution("unjudged", reason="nothing to resolve")
        for depth in range(len(parts), 0, -1):
            module = ".".join(parts[:depth])
            if module in self.modules:
                if depth == len(parts):
                    return Resolution("found", where=f"module {module}")
                return self._in_module(module, list(parts[depth:]))
        head, rest = parts[0], list(parts[1:])
        if not rest and head not in self.by_name:
            made = self.made_by_pattern(head)
            if made is not None:
                return Resolution("found", where=made)
        if head in self.classes:
            return self._chain(head, rest, head)
        resolution = self._from_value(head, rest, head_called)
        if resolution.outcome != "missing" or not rest:
            return resolution
        # A name the code declares with a type holds a value of that type (`jestHooks:
        # JestHookEmitter`): a chain found there is found, whatever the name's guess was;
        # a name declared only as types the product does not have (`watch: WatchOptions`
        # from chokidar) holds another party's value, whose members are not judged.
        typed = self.facts.typed_names.get(head, [])
        product = self.typed_classes(head)
        tried = [self._chain(name, rest, head) for name in product]
        for outcome in ("found", "unjudged"):
            for chained in tried:
                if chained.outcome == outcome:
                    return chained
        if typed and not product:
            return Resolution("unjudged", reason=_outside(head, typed))
        return resolution

    def typed_classes(self, name: str) -> list[str]:
        """The product classes and interfaces the code declares ``name`` as (a typed field
        or parameter of that name: :attr:`ModelFacts.typed_names`)."""
        named = (t.rsplit(".", 1)[-1] for t in self.facts.typed_names.get(name, ()))
        return [t for t in dict.fromkeys(named) if t in self.classes]

    def _field_types(self, class_name: str, member: str) -> list[str]:
        """The named types the class ``class_name`` declares its field ``member`` as."""
        return [
            typed
            for entry in self.classes.get(class_name, [])
            for typed in self.facts.field_types.get(f"{entry.qualname}.{member}", [])
        ]

    def _from_value(self, head: str, rest: list[str], head_called: bool) -> Resolution:
        """A chain rooted at a name that is no module or class: an instance named for a
        class, a declared function or value, or nothing the product declares."""
        instance = self.instance_class(head)
        if instance is not None:
            return self._chain(instance, rest, head)
        declared = self.declares(head)
        if declared:
            if not rest:
                return Resolution("found", where=declared[0].where())
            # After a product function's result the members must be the product's; after
            # a value of unknown type (a constant, a key) the chain is not the product's.
            callable_head = head_called and any(d.kind in ("function", "method") for d in declared)
            return self._loose(rest, f"{head}()" if callable_head else "", rooted=callable_head)
        return Resolution("missing", owner="the product", missing=head, nearest=self._near(head))

    def script_value(self, name: str) -> Decl | None:
        """A JS/TS value the product's code declares under ``name`` (the ``jest`` object,
        the ``expect`` function), or None."""
        return next(
            (
                d
                for d in self.declares(name)
                if d.kind in ("constant", "function", "class") and d.path.endswith(_SCRIPT_SUFFIXES)
            ),
            None,
        )

    def declared_anywhere(self, name: str) -> bool:
        """Whether some product class or object has ``name`` as a member, or the product
        declares it (a parameter's name aside)."""
        return (
            name in self._member_names
            or name in self.classes
            or any(d.kind != "parameter" for d in self.declares(name))
        )

    def _near(self, name: str, pool: Iterable[str] | None = None) -> tuple[str, ...]:
        return tuple(self.nearest(name, pool))

    def _in_module(self, module: str, rest: list[str]) -> Resolution:
        name, after = rest[0], rest[1:]
        public = self.modules[module]
        submodules = {
            m[len(module) + 1 :].split(".")[0] for m in self.modules if m.startswith(module + ".")
        }
        here = {d.name for d in self.declares(name) if d.owner == module}
        if name not in public and name not in submodules and not here:
            if "*" in public:
                why = reexports.star_reason(self.facts, self.modules, module)
                return Resolution("unjudged", reason=why)
            pool = {*public, *submodules} - {"*"}
            return Resolution("missing", owner=module, missing=name, nearest=self._near(name, pool))
        if not after:
            # Declared here, else re-exported from a module of the same package.
            declared = self.declares(name)
            here_first = [d for d in declared if d.owner == module] + [
                d for d in declared if d.owner.startswith(module + ".")
            ]
            where = here_first[0].where() if here_first else f"module {module}"
            return Resolution("found", where=where)
        if name in self.classes:
            return self._chain(name, after, name)
        site = reexports.reexport_site(self.facts, module, name)
        if site is not None:  # another party's name the product re-exports: its members too
            return Resolution("unjudged", reason=reexports.site_reason(module, name, site))
        return self._loose(after, f"{module}.{name}")

    def _chain(self, class_name: str, rest: list[str], shown: str) -> Resolution:
        current = class_name
        for position, part in enumerate(rest):
            members, problem = self.members(current)
            if part not in members:
                if problem:
                    return Resolution("unjudged", reason=problem)
                return Resolution(
                    "missing", owner=current, missing=part, nearest=self._near(part, members)
                )
            following = self._member_type(current, part)
            declared = self._field_types(current, part) if following is None else []
            if declared and position + 1 < len(rest):
                # A field declared as a type the product does not have (`rollupOptions:
                # RollupOptions`): what follows is that type's, not the product's.
                return Resolution("unjudged", reason=_outside(f"{current}.{part}", declared))
            if following is None:
                return (
                    self._loose(rest[position + 1 :], part)
                    if position + 1 < len(rest)
                    else (self._found_member(current, part))
                )
            current = following
        where = self.classes[current][0] if current in self.classes else None
        return Resolution("found", where=where.path if where else shown)

    def _found_member(self, class_name: str, member: str) -> Resolution:
        for decl in self.declares(member):
            if decl.owner.endswith(("." + class_name, ":" + class_name)):
                return Resolution("found", where=decl.where())
        return Resolution("found", where=f"member of {class_name}")

    def _member_type(self, class_name: str, member: str) -> str | None:
        """The product class a member holds or returns, when the code says (a nested class,
        a method whose return annotation names a product class)."""
        if member in self.classes:
            return member
        for typed in self._field_types(class_name, member):
            simple = typed.rsplit(".", 1)[-1]
            if simple in self.classes:
                return simple
        for entry in self.classes.get(class_name, []):
            for function in self.callables.get(f"{entry.qualname}.{member}", []):
                named = re.sub(r"[\[<].*|^[\"']|[\"']$", "", function.returns).rsplit(".", 1)[-1]
                if named in self.classes:
                    return named
        return None

    def _loose(self, rest: list[str], after: str, rooted: bool = True) -> Resolution:
        """Members after a value whose type the model does not know: each must at least be
        a member of some product class (never a word of some text). ``rooted`` False: the
        value is not known to be the product's, so a miss is not anchored."""
        for part in rest:
            if part not in self._member_names and part not in self.classes:
                owner = f"any product class (after {after})" if rooted else "the product"
                return Resolution("missing", owner=owner, missing=part, nearest=self._near(part))
        return Resolution("found", where=f"a member of a product class (after {after})")


def _outside(name: str, types: Sequence[str]) -> str:
    return (
        f"{name} is declared as {' | '.join(types)}, a type the product's code does not "
        "declare (another package's, or one the model does not read): its members are not "
        "judged"
    )


# ---------------------------------------------------------------------- build and cache

_MODELS: dict[tuple[str, str], ApiModel] = {}
_MODELS_LOCK = threading.Lock()
# The run's scratch folder, where a process of the run notes the digest of each model file
# it built or checked (``<name>.vouched``), so that another process of the same run (a
# look-ahead or xdist worker) loads that file without checking it again against the code
# (model_check: about half of a load, on a worker's first post). Unset: every load checks.
_VOUCHES: list[Path] = []


def vouch_in(folder: Path | None) -> None:
    """Note and trust the models this process builds or checks in ``folder`` (a run's
    scratch folder, which only that run writes); None: no more."""
    _VOUCHES[:] = [] if folder is None else [folder]


def build_model(
    commit: str,
    sources: dict[str, str],
    others: dict[str, str] | None = None,
    entries: dict[str, tuple[str, ...]] | None = None,
    runs: tuple[dict[str, str], list[str]] = ({}, []),
    configs: dict[str, str] | None = None,
    shared: bool = False,  # each file's tables kept for gate 15's (model_js.read_js)
) -> ApiModel:
    """The model of ``sources`` (path -> text), every file read now. Besides the
    declarations, every identifier the code writes is kept: a name the product's code
    uses (imported from elsewhere, an environment variable) is real, if not declared."""
    languages = {p: repomap.source_language(p, t) for p, t in sources.items()}
    python = {p: t for p, t in sources.items() if languages[p] == "python"}
    scripts = {p: t for p, t in sources.items() if languages[p] not in (None, "python")}
    scripts.update((p, t) for p, t in sources.items() if p.endswith(".vue"))  # its scripts
    facts = model_python.read_python(python)
    if scripts:
        parsers = repomap.load_parsers()
        if isinstance(parsers, str):
            facts.unread.update({path: parsers for path in scripts})
        else:
            facts.merge(model_js.read_js(scripts, parsers, configs, shared))
    # The published packages' names, as modules with their entry files' public names.
    model_packages.add_entry_points(facts, entries or {})
    # A package the repository publishes itself (a workspace's sibling) is no other party.
    facts.keep_external(lambda module: reexports.package_root(module) in facts.modules)
    facts.constant_owners &= set(facts.imports)
    facts.executables, facts.main_modules = dict(runs[0]), list(runs[1])  # what runs its CLI
    written: set[str] = set()
    for text in sources.values():
        written.update(_IDENTIFIER.findall(text))
    facts.identifiers = written
    facts.surface = code_surface.surface_names(sources, facts.import_sites)
    facts.file_names = code_surface.file_names(sources)
    # What the repository's tests, scripts and examples define is real code, though not
    # the product's API: a post about the test suite names it (a regex over definitions:
    # these files are not modelled).
    facts.elsewhere = {
        match.group(1) for text in (others or {}).values() for match in _DEFINITION.finditer(text)
    }
    # What that code imports and the environment variables it reads are real names too
    # (an example reads `SLACK_API_KEY`; a test imports `find_examples` from a plugin).
    for text in (others or {}).values():
        facts.elsewhere |= names_shown_real(text)
    return ApiModel(commit, facts)


def _extractor_digest(paths: Iterable[str]) -> str:
    digest = hashlib.sha1(repomap.grammar_version().encode())
    for module in _EXTRACTORS:
        digest.update(Path(module.__file__ or "").read_bytes())
    digest.update(Path(__file__).read_bytes())
    for path in paths:
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()[:12]


def api_model(index: RepoIndex, cache_dir: Path) -> ApiModel:
    """The model of ``index``'s repository at its commit: from memory, from the cache
    folder, or built (by one process, under a lock) and cached."""
    names = index.memo("api_model")  # the name costs a pass over every path: once an index
    name = names.get(MODEL_VERSION)
    if name is None:
        # The sources whose text the index holds (a folder of posts leaves out its pages,
        # a file over the size cut is listed by name only), and the empty `__init__.py`
        # files that make packages: what the model reads, so the name changes with it.
        paths = repomap.source_paths(index)
        paths += [p for p in index.paths if p.endswith(("/__init__.py", "/__init__.pyi"))]
        name = f"apimodel-v{MODEL_VERSION}-{index.commit}-{_extractor_digest(paths)}"
        names[MODEL_VERSION] = name
    key = (str(cache_dir), name)
    with _MODELS_LOCK:
        known = _MODELS.get(key)
    if known is not None:
        return known
    target = cache_dir / f"{name}.json"
    model = _load(target, index)
    if model is None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        with locked(cache_dir / f"{name}.lock"):
            model = _load(target, index)
            if model is None:
                sources = product_sources(index)
                entries = model_packages.entry_points(index, sources)
                others = elsewhere_sources(index)
                runs, configs = executables(index), model_sources.alias_configs(index)
                model = build_model(index.commit, sources, others, entries, runs, configs, True)
                payload = signing.signed({"commit": index.commit, "facts": model.facts.to_json()})
                text = json.dumps(payload, sort_keys=True)
                write_atomic(target, text)
                _vouch(target, text.encode("utf-8"))
    with _MODELS_LOCK:
        return _MODELS.setdefault(key, model)


def _vouch(target: Path, data: bytes) -> None:
    if _VOUCHES:
        digest = hashlib.sha256(data).hexdigest()
        with contextlib.suppress(OSError):  # a lost note costs the other processes a check
            write_atomic(_VOUCHES[0] / f"{target.stem}.vouched", digest)


def _vouched(target: Path, data: bytes) -> bool:
    """Whether a process of this run built or checked exactly these bytes."""
    if not _VOUCHES:
        return False
    with contextlib.suppress(OSError, UnicodeDecodeError):
        noted = (_VOUCHES[0] / f"{target.stem}.vouched").read_text(encoding="ascii")
        return noted == hashlib.sha256(data).hexdigest()
    return False


def _load(target: Path, index: RepoIndex) -> ApiModel | None:
    """A cached model, checked to be of this commit, well formed and signed (under
    ``POSTGATES_CACHE_KEY``) or, unsigned, written by the code it describes
    (:mod:`~pytest_postgates.evidence.model_check`) unless a process of this run built or
    checked these very bytes (:func:`vouch_in`); else None: rebuilt."""
    try:
        data = target.read_bytes()
        payload = signing.verified(json.loads(data.decode("utf-8")))
        if payload is None or payload.get("commit") != index.commit:
            return None
        facts = ModelFacts.from_json(payload["facts"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if signing.cache_secret() is None and not _vouched(target, data):
        if model_check.unconfirmed(facts, product_sources(index), elsewhere_sources(index)):
            return None
        _vouch(target, data)
    return ApiModel(index.commit, facts)
