"""What the API model's extractors read from the product's code, as plain data.

:mod:`.model_python` (the standard library's ``ast``) and :mod:`.model_js` (tree-sitter)
each turn source files into :class:`ModelFacts`; :mod:`.api_model` merges them into the
model the gates ask. Everything here round-trips JSON, so a model is cached per commit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

# Paths that hold code, but not the product's: its tests, examples, docs, benchmarks and
# build scripts. A name declared only there is not part of the product's API (a renamed
# attribute must never ground on a test's variable of the same name).
NOT_PRODUCT_CODE = re.compile(
    r"(?:^|/)(?:tests?|testing|__tests__|__mocks__|e2e|spec|fixtures?|examples?|demos?|[^/]*-demo|docs?|"
    r"docs_src|benchmarks?|bench|scripts|\.github|node_modules|vendor|third_party|dist|"
    r"build|out|coverage|site)/"
    r"|(?:^|/)(?:test_[^/]*|[^/]*_test|conftest|setup|noxfile|tasks|fabfile)\.py$"
    r"|\.(?:test|spec|bench|stories)\.[cm]?[jt]sx?$"
    r"|\.min\.js$"
)


def is_product_code(path: str) -> bool:
    """Whether ``path`` is source the product ships (not tests, examples, docs, builds)."""
    return NOT_PRODUCT_CODE.search(path) is None


_TEST_MODULE = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test|conftest)\.pyi?$")


def product_code_of(paths: Iterable[str]) -> Callable[[str], bool]:
    """:func:`is_product_code`, corrected by what the file list shows: a subpackage of the
    product's Python package whose name is a test, docs or build folder's (hatch's
    ``hatch/cli/test/``, the code of its ``test`` command) is the product's when it holds
    no test module. A top-level ``tests`` package, or a ``tests`` subpackage holding
    ``test_*.py`` files, stays outside."""
    listed = set(paths)
    tested = {path.rsplit("/", 1)[0] for path in listed if _TEST_MODULE.search(path)}
    rescued: list[str] = []
    for path in sorted(listed):
        if not path.endswith(("/__init__.py", "/__init__.pyi")):
            continue
        folder = path.rsplit("/", 1)[0]
        parent = folder.rsplit("/", 1)[0] if "/" in folder else ""
        subpackage = bool(parent) and (
            f"{parent}/__init__.py" in listed or f"{parent}/__init__.pyi" in listed
        )
        if subpackage and folder not in tested and not is_product_code(path):
            rescued.append(folder)
    if not rescued:
        return is_product_code
    rescued.sort(key=len, reverse=True)

    def product(path: str) -> bool:
        if is_product_code(path) or _TEST_MODULE.search(path):
            return is_product_code(path)
        for folder in rescued:  # deepest first: `a/test/build/x.py` neutralises both
            if path.startswith(folder + "/"):
                head, _, name = folder.rpartition("/")
                path = f"{head}/_{name}{path[len(folder) :]}"
        return is_product_code(path)

    return product


# Names the repository's other code (tests, examples, scripts) shows to be real without
# declaring them: what it imports (`from x import a, b`, `import { a } from "x"`, `const { a }
# = require("x")`) and the environment variables it reads (`os.environ.get("X")`,
# `os.getenv("X")`, `process.env.X`). A variable a test assigns is not among them (a renamed
# attribute must never ground on a test's variable of the same name).
_PY_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n#]+))", re.M
)
_JS_NAMED_IMPORT = re.compile(
    r"""\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]"""
    r"""|\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*require\s*\("""
)
_ENV_READ = re.compile(
    r"""\b(?:environ(?:\.get)?|getenv|env\.get)\s*[\[(]\s*['"]([A-Za-z_][\w]*)['"]"""
    r"""|\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*['"]([A-Za-z_]\w*)['"])"""
)


def names_shown_real(text: str) -> set[str]:
    """The names ``text`` (a source file) imports and the environment variables it reads."""
    found: set[str] = set()
    for match in _PY_FROM_IMPORT.finditer(text):
        for item in (match.group(1) or match.group(2) or "").replace("\\", " ").split(","):
            found.update(re.findall(r"[A-Za-z_]\w*", item))
    for match in _JS_NAMED_IMPORT.finditer(text):
        for item in (match.group(1) or match.group(2) or "").split(","):
            found.update(re.findall(r"[A-Za-z_$][\w$]*", item))
    for match in _ENV_READ.finditer(text):
        found.update(name for name in match.groups() if name)
    return found - {"as", "type"}


@dataclass(frozen=True)
class Decl:
    """One declared name: what it is, whose it is, and where."""

    name: str
    # module, class, interface, type, enum, function, method, attribute, parameter, key,
    # constant, flag, command
    kind: str
    owner: str  # qualified owner ("" at a module's top level: then ``module`` says which)
    path: str
    line: int

    def where(self) -> str:
        """The file that declares it. (Not its line: a scorecard must not change when an
        unrelated edit moves the declaration; ``line`` is kept for callers that want it.)"""
        return self.path


@dataclass(frozen=True)
class ImportSite:
    """One import of the product's code: ``module`` (a Python module path, absolute; an
    npm specifier) and the ``name`` imported from it ("" for the module itself,
    ``default``, ``*`` for a namespace), bound as ``local`` in ``path``. ``binds``: the
    Python module whose top-level name a ``from`` import binds ("" for an import inside a
    function, a plain ``import``, JavaScript); ``external``: ``module`` is outside the
    product (a dependency, the standard library)."""

    local: str
    module: str
    name: str
    path: str
    line: int
    binds: str = ""
    external: bool = True

    def where(self) -> str:
        """The importing file. (Not its line, as :meth:`Decl.where`: a scorecard must not
        change when an unrelated edit moves the import.)"""
        return self.path


@dataclass
class ClassFacts:
    """A class or interface: its own members and its bases as written."""

    qualname: str
    name: str
    path: str
    line: int
    members: list[str] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    kind: str = "class"  # class | interface | enum


@dataclass
class CallableFacts:
    """A function or method: its parameters, whether it takes any keyword (``**kwargs``,
    an untyped options object) and its declared return type, as written."""

    qualname: str
    name: str
    path: str
    line: int
    params: list[str] = field(default_factory=list)
    var_keyword: bool = False
    returns: str = ""
    # The TypedDict a Python ``**kwargs: Unpack[T]`` names: its keys are the only keywords
    # the ``**kwargs`` takes (empty: any keyword, or none).
    keywords_of: str = ""
    # What a Python body does with its ``**kwargs``: the keys it reads by name
    # (``kwargs.get("x")``, ``kwargs["x"]``, ``"x" in kwargs``), the callees it passes them
    # all to as written (``super().__init__``, ``self.run``, ``helper``), and whether it uses
    # them any other way (then the keywords it takes are not all known).
    kwargs_read: list[str] = field(default_factory=list)
    kwargs_to: list[str] = field(default_factory=list)
    kwargs_open: bool = False
    # The class a JavaScript/TypeScript body with no declared return type makes: every
    # ``return`` is a ``new`` of it (``Signature.made``), so a call gives an instance of it.
    # Last, so that the positional construction of Python's facts is unchanged.
    made: str = ""
    # The attributes a Python body sets on the local it returns (`prog.detailed_results = r`
    # before `return prog`): members its result has beyond those of its declared type.
    attaches: list[str] = field(default_factory=list)
    # A Python ``def`` with no decorator whose name no code of the product sets an attribute
    # on (``func.cache = {}``, ``setattr(func, ...)``): its name holds a plain function (a
    # method: a bound method), whose attributes are a function's, never its result's.
    plain_function: bool = False


@dataclass
class CallSite:
    """One call a function's body makes: the callee's last name, the callee as written
    (``this.client.send``), its line, and what it resolved to. ``kind``: ``resolved``
    (``target`` is a product function's qualname), ``constructor`` (``target`` is a
    product class without a constructor of its own), ``dynamic`` (a member of a value
    whose type the model does not know: dynamic dispatch), ``unresolved`` (a bare name
    that is no product function: a local, a global), ``external`` (imported from outside
    the product) or ``opaque`` (a callee the code computes: a computed key, a callback
    parameter, a wrapping decorator; any
    function)."""

    name: str
    text: str
    line: int
    kind: str
    target: str = ""
    # The functions written in place (closures) the call sits in, inside the function
    # whose call it is, outermost first: "<start byte>:stored" (an object's property, a JSX
    # attribute, a member assigned: it runs when something calls it), "<start byte>:on<L>"
    # (the handler the registration at line L registers: it runs when the message comes)
    # or "<start byte>:handed" (anything else: handed to a call, it may run in place),
    # joined by "/"; "" in the function's own body (and for Python: not read). See
    # :func:`in_turn` and :func:`handler_calls`.
    scope: str = ""
    # Where it sits in the calling function's own flow, as bits (:mod:`.call_flow`): in a
    # loop (1), in a branch that may not run (2), in another call's arguments (4, and from
    # 16 up how many lines back the outermost call holding it starts), in a Python function
    # written in place (8); 0 in its straight-line code.
    flow: int = 0
    # The loops and the arms of conditionals around it inside the calling function,
    # outermost first (:mod:`.call_flow`: :func:`~.call_flow.exclusive`, two calls no run
    # of the function makes both; :func:`~.call_flow.share_loop`); "" none.
    arms: str = ""


def in_turn(first: str, then: str) -> bool:
    """Whether a call with scope ``then`` written after one with scope ``first`` (both of
    one function, :attr:`CallSite.scope`) may run after it: not when a function written in
    place that holds only one of them is stored (its calls run when something calls it,
    in no order with the calls around it) or a message handler."""
    ours, theirs = first.split("/") if first else [], then.split("/") if then else []
    shared = 0
    while shared < min(len(ours), len(theirs)) and ours[shared] == theirs[shared]:
        shared += 1
    return all(s.endswith(":handed") for s in ours[shared:] + theirs[shared:])


def may_follow(first: str, then: str) -> bool:
    """Whether a call with scope ``then`` may run after one with scope ``first`` though
    the two are not in turn (:func:`in_turn`): one of them runs in the function's flow and
    the other in a function written in place that is stored or a handler, which whatever
    holds it may call after the first (an ``onDone`` callback of an options object). Two
    calls in different stored functions are not: each runs on its own, as two methods do."""
    ours, theirs = first.split("/") if first else [], then.split("/") if then else []
    shared = 0
    while shared < min(len(ours), len(theirs)) and ours[shared] == theirs[shared]:
        shared += 1
    in_flow = [
        all(s.endswith(":handed") for s in rest) for rest in (ours[shared:], theirs[shared:])
    ]
    return any(in_flow)


def handler_calls(calls: list[CallSite], line: int) -> list[CallSite]:
    """The calls of the handler written in place that the registration at ``line``
    registers, among a function's ``calls`` (:attr:`CallSite.scope`)."""
    mark = f":on{line}"
    return [c for c in calls if any(s.endswith(mark) for s in c.scope.split("/"))]


@dataclass
class FunctionCalls:
    """A function or method of the product and the calls its body makes (nested closures
    included). ``complete``: the body was read without syntax errors."""

    qualname: str
    name: str
    owner: str  # the class a method belongs to ("" for a function)
    path: str
    line: int
    complete: bool = True
    calls: list[CallSite] = field(default_factory=list)
    returns: str = ""  # the declared return type as written ("" when none is declared)
    # What its declaration says besides: async, static, private, protected, public.
    modifiers: list[str] = field(default_factory=list)
    # The switch statements (Python: match statements) of its body: (what is switched
    # over, as written, and the line).
    switches: list[tuple[str, int]] = field(default_factory=list)
    # The calls of product code it hands a function written in place to (``TaskEngine.on(
    # evt, () => ...)``: a listener registered), (callee as written, line): whatever holds
    # the function may call it back from anywhere.
    hands: list[tuple[str, int]] = field(default_factory=list)
    # The messages its body sends (:mod:`.messages`): (channel kind, key, the name the key
    # is written as, the sending call's name, line); key "" when the code computes it.
    sends: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    # The handlers its body registers for a message: (channel kind, key, the handler's name
    # as passed, line); handler "" when written in place (its code is this body's), key ""
    # when computed or decided in the handler's body.
    listens: list[tuple[str, str, str, int]] = field(default_factory=list)

    def to_json(self) -> list[Any]:
        rows = [
            [c.name, c.text, c.line, c.kind, c.target, *_tail(c.scope, c.flow, c.arms)]
            for c in self.calls
        ]
        head = [self.qualname, self.name, self.owner, self.path, self.line, self.complete]
        tail = [[list(s) for s in self.switches], [list(h) for h in self.hands]]
        messages = [[list(s) for s in self.sends], [list(r) for r in self.listens]]
        return [*head, rows, self.returns, self.modifiers, *tail, *messages]

    @classmethod
    def from_json(cls, row: list[Any]) -> FunctionCalls:
        qualname, name, owner, path, line, complete, rows, returns, modifiers, switched = row[:10]
        calls = [CallSite(*call) for call in rows]
        switches = [(str(text), int(at)) for text, at in switched]
        hands = [(str(text), int(at)) for text, at in (row[10] if len(row) > 10 else [])]
        sends = [
            (str(c), str(k), str(w), str(n), int(at))
            for c, k, w, n, at in (row[11] if len(row) > 11 else [])
        ]
        listens = [
            (str(c), str(k), str(h), int(at)) for c, k, h, at in (row[12] if len(row) > 12 else [])
        ]
        return cls(
            qualname,
            name,
            owner,
            path,
            int(line),
            bool(complete),
            calls,
            returns,
            modifiers,
            switches,
            hands,
            sends,
            listens,
        )


def _tail(scope: str, flow: int, arms: str) -> list[str | int]:
    """A call's optional fields as stored: its scope, its flow, then its arms, each only
    when it or a later one is set."""
    return [scope, flow, arms] if arms else [scope, flow] if flow else [scope] if scope else []


@dataclass
class ValueEnd:
    """A module-level constant of a JS/TS file that is no function: an instance
    (``kind`` "new", ``made_by`` the class as written), a value a call makes (``"call"``,
    ``made_by`` the callee as written: ``create`` of a Zustand store) or an object literal
    (``"object"``). ``functions``: the qualnames of the functions its initializer writes
    (a store's actions, an object's methods)."""

    name: str
    path: str
    line: int
    kind: str
    made_by: str = ""
    functions: list[str] = field(default_factory=list)
    # its initializer spreads other values in (`...createSlice(set)`, `...base`): it has
    # functions the file does not show here
    open: bool = False


@dataclass
class ModelFacts:
    """Everything one language's extractor read from the product's code."""

    decls: list[Decl] = field(default_factory=list)
    classes: list[ClassFacts] = field(default_factory=list)
    callables: list[CallableFacts] = field(default_factory=list)
    # module -> its public names (Python: dotted module; JS/TS: the file's path)
    modules: dict[str, list[str]] = field(default_factory=dict)
    flags: dict[str, str] = field(default_factory=dict)  # normalised long flag -> where
    commands: dict[str, str] = field(default_factory=dict)  # CLI command -> where
    cli_frameworks: list[str] = field(default_factory=list)
    # Long flags the parser derives rather than the code writes (`--no-x` of a bool option,
    # typer's `--install-completion`, `--help`): normalised flag -> how.
    derived_flags: dict[str, str] = field(default_factory=dict)
    # CLI command ("" for the root: accepted by every command) -> its normalised flags.
    command_flags: dict[str, list[str]] = field(default_factory=dict)
    # Where the CLI makes commands at run time ("path:line"): its command table is open.
    open_commands: list[str] = field(default_factory=list)
    # Where the parser takes flags the model cannot list ("path:line: why": options added at
    # run time, a table spread from what the model does not read, a parser taking any flag):
    # its flag set is open, and a flag it does not declare is not judged.
    open_flags: list[str] = field(default_factory=list)
    # The product's executables (console scripts, package.json `bin`) -> what they run, and
    # its modules `python -m` runs (a package with a `__main__`).
    executables: dict[str, str] = field(default_factory=dict)
    main_modules: list[str] = field(default_factory=list)
    unread: dict[str, str] = field(default_factory=dict)  # path -> why it was not read
    stars: dict[str, list[str]] = field(default_factory=dict)  # module -> star-imported
    files: int = 0  # source files read
    # Every identifier the product's code writes (declared or not), for near-miss checks.
    identifiers: set[str] = field(default_factory=set)
    # Names the repository's tests, scripts and examples define (real, not the API).
    elsewhere: set[str] = field(default_factory=set)
    # Members, keys, keyword arguments and string values the product's code writes
    # (:mod:`.code_surface`): with the declarations, what a near miss can be of.
    surface: set[str] = field(default_factory=set)
    # The names of the files the product's code writes in its strings (``"lerna.json"``,
    # ``'pyproject.toml'``): the configuration files it may read (:mod:`.code_surface`).
    file_names: set[str] = field(default_factory=set)
    # The call graph: every product function and method with the calls its body makes.
    functions: list[FunctionCalls] = field(default_factory=list)
    # Type aliases that are a union of literal values (`type Mode = "a" | "b"`): a type of
    # their own, naming no other type (an alias `type A = B` may be B under another name).
    literal_types: set[str] = field(default_factory=set)
    # Imported names whose CONSTANT_CASE members the code reads (`EventType.RUN_ERROR`): an
    # enum of another package the product uses, whose other members a page may name bare.
    constant_owners: set[str] = field(default_factory=set)
    # Properties the code holds as maps keyed by the names its user gives (``plugin.rules
    # [name]``, ``Object.keys(globals)``, ``headers: Record<string, string>``): name ->
    # ``path:line`` of the first code that shows it (:mod:`.map_keys`).
    maps: dict[str, str] = field(default_factory=dict)
    # The one record of the product's imports, in the order the files were read (see
    # ImportSite): :attr:`imports` and :attr:`module_imports` are read from it.
    import_sites: list[ImportSite] = field(default_factory=list)
    # Python: class qualname -> the prefixes of the methods it calls on itself by a name
    # made at run time (`getattr(self, f"visit_{node.kind}")`): hooks a subclass defines.
    name_dispatch: dict[str, list[str]] = field(default_factory=dict)
    # Python: module-level type aliases that are a union of names ("module.Extension" ->
    # ["VisitorExtension", "InspectorExtension"] for `Extension = Union[VisitorExtension,
    # InspectorExtension]`), the names as written: a sample may subclass or annotate one.
    union_aliases: dict[str, list[str]] = field(default_factory=dict)
    # JS/TS: "path:alias" -> the file whose names `export * as alias from "./file"` in
    # ``path`` re-exports as one namespace (a package's `util`: `prettier.util.x`).
    namespaces: dict[str, str] = field(default_factory=dict)
    # A name the code declares with a type (a TS field or parameter, a Python annotated
    # parameter or class attribute) -> the named types it is declared as, as written
    # (`jestHooks: JestHookEmitter`): what a value of that name holds.
    typed_names: dict[str, list[str]] = field(default_factory=dict)
    # A name the code declares with a type annotation (a TS parameter or field, a Python
    # annotated parameter or class attribute) -> each type it is so declared as -> how many
    # times: one named type as written, its generic arguments and `null`/`undefined`/`None`
    # left out (`chart: Chart | null`: "Chart"); "" for any other (a primitive, a function,
    # an object or several named types). What the code's own naming says a name holds.
    declared_as: dict[str, dict[str, int]] = field(default_factory=dict)
    # "<class qualname>.<field>" -> the named types the class declares that field as (a TS
    # field, a Python annotated class attribute), as written: what a chain goes on into.
    field_types: dict[str, list[str]] = field(default_factory=dict)
    # JS/TS: "path:name" -> the type a variable of the file is declared as, as written
    # (`typeof import("fs-extra")`, `typeof _chalk`, `Jest`): what the value is, where
    # its initializer does not say (`wrap("fs", _fs)`).
    value_types: dict[str, str] = field(default_factory=dict)
    # JS/TS: the module-level constants that are no function (see ValueEnd): what a claim
    # naming an instance, a store or an object means.
    values: list[ValueEnd] = field(default_factory=list)
    _import_views: tuple[dict[str, list[ImportSite]], dict[str, dict[str, str]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def imports(self) -> dict[str, list[ImportSite]]:
        """What the product's code imports from outside the product (a dependency, the
        standard library): the local name -> each distinct import of it (first file first)."""
        return self._views()[0]

    @property
    def module_imports(self) -> dict[str, dict[str, str]]:
        """Python: module -> {name it binds with a top-level `from X import Y [as name]`:
        "X:Y"} (X absolute; the first such line wins): where a name a module re-exports is
        declared, followed import by import."""
        return self._views()[1]

    def _views(self) -> tuple[dict[str, list[ImportSite]], dict[str, dict[str, str]]]:
        if self._import_views is None:
            imports: dict[str, list[ImportSite]] = {}
            for site in (s for s in self.import_sites if s.external):
                known = imports.setdefault(site.local, [])
                if all((k.module, k.name) != (site.module, site.name) for k in known):
                    known.append(site)
            bound: dict[str, dict[str, str]] = {}
            # By line: the record is in walk order (breadth first), names bind in source order.
            for site in sorted((s for s in self.import_sites if s.binds), key=lambda s: s.line):
                names = bound.setdefault(site.binds, {})
                names.setdefault(site.local, f"{site.module}:{site.name}")
            self._import_views = (imports, bound)
        return self._import_views

    def add_import(self, site: ImportSite) -> None:
        self.import_sites.append(site)
        self._import_views = None

    def keep_external(self, inside: Callable[[str], bool]) -> None:
        """Mark the imports of the modules ``inside`` says are the product's as its own
        (a workspace's sibling package); one that binds no module name is dropped."""
        kept = [
            replace(s, external=False) if s.external and inside(s.module) else s
            for s in self.import_sites
        ]
        self.import_sites = [s for s in kept if s.external or s.binds]
        self._import_views = None

    def merge(self, other: ModelFacts) -> None:
        self.decls.extend(other.decls)
        self.classes.extend(other.classes)
        self.callables.extend(other.callables)
        self.modules.update(other.modules)
        for flag, where in other.flags.items():
            self.flags.setdefault(flag, where)
        for command, where in other.commands.items():
            self.commands.setdefault(command, where)
        self.cli_frameworks.extend(f for f in other.cli_frameworks if f not in self.cli_frameworks)
        for flag, how in other.derived_flags.items():
            self.derived_flags.setdefault(flag, how)
        for command, flags in other.command_flags.items():
            self.add_command_flags(command, flags)
        self.open_commands.extend(other.open_commands)
        self.open_flags.extend(other.open_flags)
        self.executables.update(other.executables)
        self.main_modules.extend(m for m in other.main_modules if m not in self.main_modules)
        self.unread.update(other.unread)
        self.stars.update(other.stars)
        self.files += other.files
        self.identifiers |= other.identifiers
        self.elsewhere |= other.elsewhere
        self.surface |= other.surface
        self.file_names |= other.file_names
        self.functions.extend(other.functions)
        self.literal_types |= other.literal_types
        self.import_sites.extend(other.import_sites)
        self._import_views = None
        self.constant_owners |= other.constant_owners
        for name, where in other.maps.items():
            self.maps.setdefault(name, where)
        self.name_dispatch.update(other.name_dispatch)
        self.union_aliases.update(other.union_aliases)
        self.namespaces.update(other.namespaces)
        for name, types in other.typed_names.items():
            known = self.typed_names.setdefault(name, [])
            known.extend(t for t in types if t not in known)
        for name, counts in other.declared_as.items():
            mine = self.declared_as.setdefault(name, {})
            for typed, count in counts.items():
                mine[typed] = mine.get(typed, 0) + count
        self.field_types.update(other.field_types)
        self.value_types.update(other.value_types)
        self.values.extend(other.values)

    def add_command_flags(self, command: str, flags: list[str]) -> None:
        known = self.command_flags.setdefault(command, [])
        known.extend(flag for flag in flags if flag not in known)

    def to_json(self) -> dict[str, Any]:
        return {
            # Flat records: their fields as they are (``asdict`` deep-copies each one, a
            # quarter of a cold model build on a large repository).
            "decls": [[d.name, d.kind, d.owner, d.path, d.line] for d in self.decls],
            "classes": [dict(vars(c)) for c in self.classes],
            "callables": [dict(vars(c)) for c in self.callables],
            "modules": self.modules,
            "flags": self.flags,
            "commands": self.commands,
            "cli_frameworks": self.cli_frameworks,
            "derived_flags": self.derived_flags,
            "command_flags": self.command_flags,
            "open_commands": self.open_commands,
            "open_flags": self.open_flags,
            "executables": self.executables,
            "main_modules": self.main_modules,
            "unread": self.unread,
            "stars": self.stars,
            "files": self.files,
            "identifiers": sorted(self.identifiers),
            "elsewhere": sorted(self.elsewhere),
            "surface": sorted(self.surface),
            "file_names": sorted(self.file_names),
            "functions": [f.to_json() for f in self.functions],
            "literal_types": sorted(self.literal_types),
            "constant_owners": sorted(self.constant_owners),
            "maps": dict(sorted(self.maps.items())),
            "import_sites": [
                [s.local, s.module, s.name, s.path, s.line, s.binds, s.external]
                for s in self.import_sites
            ],
            "name_dispatch": self.name_dispatch,
            "union_aliases": self.union_aliases,
            "namespaces": self.namespaces,
            "typed_names": self.typed_names,
            "declared_as": self.declared_as,
            "field_types": self.field_types,
            "value_types": self.value_types,
            "values": [
                [v.name, v.path, v.line, v.kind, v.made_by, v.functions, v.open]
                for v in self.values
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelFacts:
        return cls(
            decls=[Decl(*row) for row in data["decls"]],
            classes=[ClassFacts(**c) for c in data["classes"]],
            callables=[CallableFacts(**c) for c in data["callables"]],
            modules={k: list(v) for k, v in data["modules"].items()},
            flags=dict(data["flags"]),
            commands=dict(data["commands"]),
            cli_frameworks=list(data["cli_frameworks"]),
            derived_flags=dict(data["derived_flags"]),
            command_flags={k: list(v) for k, v in data["command_flags"].items()},
            open_commands=list(data["open_commands"]),
            open_flags=list(data["open_flags"]),
            executables=dict(data["executables"]),
            main_modules=list(data["main_modules"]),
            unread=dict(data["unread"]),
            stars={k: list(v) for k, v in data["stars"].items()},
            files=int(data["files"]),
            identifiers=set(data["identifiers"]),
            elsewhere=set(data["elsewhere"]),
            surface=set(data.get("surface", [])),
            file_names=set(data.get("file_names", [])),
            functions=[FunctionCalls.from_json(row) for row in data["functions"]],
            literal_types=set(data.get("literal_types", [])),
            constant_owners=set(data.get("constant_owners", [])),
            maps=dict(data.get("maps", {})),
            import_sites=[ImportSite(*row) for row in data["import_sites"]],
            name_dispatch={k: list(v) for k, v in data.get("name_dispatch", {}).items()},
            union_aliases={k: list(v) for k, v in data.get("union_aliases", {}).items()},
            namespaces=dict(data.get("namespaces", {})),
            typed_names={k: list(v) for k, v in data.get("typed_names", {}).items()},
            declared_as={k: dict(v) for k, v in data.get("declared_as", {}).items()},
            field_types={k: list(v) for k, v in data.get("field_types", {}).items()},
            value_types=dict(data.get("value_types", {})),
            values=[ValueEnd(*row) for row in data.get("values", [])],
        )


def normal_flag(name: str) -> str:
    """A long option as parsers treat it alike: ``--maxTokens``, ``--max-tokens`` and
    ``--max_tokens`` are one option (yargs camel-expands, click and typer dash names)."""
    bare = name.lstrip("-")
    kebab = re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", bare).lower()
    return kebab.replace("_", "-")
