"""What gate 15's JavaScript/TypeScript fence reader makes of names a page uses without
binding them: the package called by its own name (``Fastify()``), a variable named for a
product type (``reply``), a product file's functions called bare, a class made with ``new``
(a workspace package's own class in its README) or whose static member is read
(``MikroORM.init``: the one class the entry points export so named), and a typo of a
product member on a parameter the sample does not type (a handler's ``reply``). Each
function takes the fence reader (:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.evidence.name_spelling import one_letter_changed, one_letter_slipped
from pytest_postgates.helpers import js_docs_names, js_free_calls
from pytest_postgates.helpers.js_tree import node_text
from pytest_postgates.helpers.js_types import Keys, hump_changed
from pytest_postgates.helpers.sample_accounting import RUNTIME
from pytest_postgates.helpers.sample_checks import (
    ASSUMED_FROM_NAME,
    CODE_NAMED,
    CODE_NAMED_SHARE,
    SampleValue,
    code_declared,
    did_you_mean,
)

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import Cls, JsTypes

# What :func:`code_named` gave each name, per model's JavaScript/TypeScript side.
_CODE_NAMED: WeakKeyDictionary[JsTypes, dict[str, SampleValue | None]] = WeakKeyDictionary()
IDENTIFIER = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")
# A member written after a call (``expect(x).toBeinstanceOf``): long enough to be judged a typo.
_CALLED_MEMBER = re.compile(r"\)\s*\.\s*([A-Za-z_$][\w$]{4,})")
# Calls that load a module: what they return is the module's, read elsewhere.
_LOADERS = frozenset({"require", "import"})
_NEW = re.compile(r"\bnew\s+([A-Z][\w$]*)")
_RECEIVER = re.compile(r"(?<![\w$.])([a-z_$][\w$]*)\s*\.\s*[A-Za-z_$]")
# A capitalised name whose member the fence reads (`MikroORM.init`): a class's static side.
_CLASS_NAME = re.compile(r"(?<![\w$.])([A-Z][\w$]*)\s*\.\s*[A-Za-z_$]")
# What a declaration file's name may be besides a value: a type, never a function or constant.
_TYPE_KINDS = frozenset({"class", "interface", "type", "enum", "namespace"})


def package_word(name: str) -> str:
    """A name as a package name is compared with (``Fastify``, ``fast-ify``: ``fastify``)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def uses_unbound(sample: FenceReading, content: str) -> bool:
    """Whether the fence uses the product through a name it never binds: one held by
    convention, functions called bare, a class made or whose static member it reads, a
    typo of a product member."""
    return (
        uses_conventional(sample, content)
        or calls_unqualified(sample, content)
        or constructs_unbound(sample, content)
        or uses_public_class(sample, content)
        or misspells_member(sample, content)
        or any(
            misspelled_function(sample, n) for n in js_free_calls.bare_calls(content) - sample.bound
        )
    )


def _unbound_calls(sample: FenceReading, content: str) -> set[str]:
    return js_free_calls.bare_calls(content) - sample.bound


def calls_unqualified(sample: FenceReading, content: str) -> bool:
    """Whether the fence calls, bare, at least two functions of one product file, or one
    an entry point exports (:func:`public_called`)."""
    names = js_free_calls.bare_calls(content) - sample.bound
    if any(_public_function(sample, name) is not None for name in sorted(names)):
        return True
    if any(len(_readings(sample, name)) > 1 for name in sorted(names)):
        return True  # several product functions go by the name (readings_callee)
    if len(names) < 2:
        return False
    types = sample.types()
    return types is not None and js_free_calls.anchor(types.model, names) is not None


def constructs_unbound(sample: FenceReading, content: str) -> bool:
    """Whether the fence makes, with ``new``, a product class it never binds."""
    names = {m.group(1) for m in _NEW.finditer(content)} - sample.bound
    types = sample.types() if names else None
    return types is not None and any(
        types.entries((name, "")) or home_class(sample, name) for name in names
    )


def free_calls(sample: FenceReading, root: Any) -> None:
    """The fence's bare calls of a product file's functions (js_free_calls)."""
    types = sample.types()
    if types is None:
        return
    calls = js_free_calls.free_callees(root, sample.source)
    reported: set[int] = set()

    def report(name: str, node: Any, anchor: js_free_calls.Anchor) -> None:
        reported.add(node.id)
        free_call(sample, name, node, anchor)

    def bound(node: Any, name: str) -> bool:
        return name in sample.values or sample.is_bound(node, name)

    js_free_calls.check_free_calls(types.model, calls, bound, report)
    for name, node in calls:
        known = node.id in reported or bound(node, name)
        real = None if known else misspelled_function(sample, name)
        if real is not None:
            line, (function, path) = sample.line(node), real
            why = f"{name}() is nowhere in the product's code, one letter off {function}()"
            sample.report.count("export", line, name)
            sample.report.violation(line, "named_export", name, path,
                                    f"{why}, which {path} exports{did_you_mean([function])}",
                                    [function])  # fmt: skip


def misspelled_function(sample: FenceReading, name: str) -> tuple[str, str] | None:
    """The function (and its file) the product's entry points export that a bare call of
    ``name``, which the page never binds and the product's code never writes, misspells
    (one letter changed, typed in or left out, or one letter's case; five letters or more):
    the import the reader adds or a framework's auto-import, spelt wrong
    (``definedCachedFunction``). None otherwise."""
    types = sample.types()
    if types is None or len(name) < 5 or name in js_free_calls.JS_GLOBALS or types.written(name):
        return None
    key = ("misspelled_function", sample.gate.package, name)

    def compute() -> tuple[str, str] | None:
        for real in _one_letter_off(sample, types, name):
            near = one_letter_changed(name, real) or one_letter_slipped(name, real)
            if len(real) >= 5 and (near or hump_changed(name, real)):
                path = _exported_function(sample, types, real)
                if path is not None:
                    return real, path
        return None

    # Shared by the run's samples, the files it read marked read for each that asks.
    held: tuple[str, str] | None = sample.gate.lookup.shared_answer(key, compute)
    return held


def _one_letter_off(sample: FenceReading, types: JsTypes, name: str) -> list[str]:
    """The model's names of five letters or more that may be one letter off ``name``
    (changed, typed in or left out, or in the other case), sorted: those an index of the
    names by their halves made once per run gives (:func:`_halves`: every name those tests
    pass is one), not every name of the model tested."""
    model = types.model
    key = ("one letter off", id(model))
    kept = sample.gate.lookup.shared_answer(key, lambda: (model, _halves(model.by_name)))
    index: dict[tuple[str, int, str], list[str]] = kept[1]
    found = {real for part in _asked(name) for real in index.get(part, ())}
    return sorted(real for real in found if abs(len(real) - len(name)) <= 1)


def _halves(names: Iterable[str]) -> dict[tuple[str, int, str], list[str]]:
    """Each name of five letters or more by its halves: of its own length ``n`` (split at
    ``n // 2``: a name one letter changed from it, or one letter longer, shares one of
    them), and of a name one letter shorter (``m = n - 1`` split at ``m // 2``, the
    letter there skipped: that name shares its first ``m // 2`` letters or the rest)."""
    index: dict[tuple[str, int, str], list[str]] = {}
    for real in names:
        n = len(real)
        if n >= 5:
            m = n - 1
            for part in (("p", n, real[: n // 2]), ("s", n, real[n // 2 :]),
                         ("P", m, real[: m // 2]), ("S", m, real[m // 2 + 1 :])):  # fmt: skip
                index.setdefault(part, []).append(real)
    return index


def _asked(name: str) -> list[tuple[str, int, str]]:
    """The halves :func:`_halves` files a name one letter off ``name`` under: changed
    (``name``'s own), one shorter (``name`` is that name with a letter typed in) or
    one longer (``name`` is that name with a letter left out)."""
    n, m = len(name), len(name) - 1
    return [("p", n, name[: n // 2]), ("s", n, name[n // 2 :]),
            ("p", m, name[: m // 2]), ("s", m, name[m // 2 + 1 :]),
            ("P", n, name[: n // 2]), ("S", n, name[n // 2 :])]  # fmt: skip


def free_call(sample: FenceReading, name: str, node: Any, anchor: js_free_calls.Anchor) -> None:
    sample.report.count("export", sample.line(node), name)
    types = sample.types()
    if name not in anchor.functions and types is not None:
        reason, close = js_free_calls.finding(types.model, name, anchor)
        sample.report.violation(sample.line(node), "named_export", name, anchor.path, reason, close)


def misspells_member(sample: FenceReading, content: str) -> bool:
    """Whether the fence calls, after a call, a member that is a typo of a product member
    the code never writes (a reason to read a fence that names nothing else of the
    product's: ``expect(x).toBeinstanceOf(A)``)."""
    names = {m.group(1) for m in _CALLED_MEMBER.finditer(content)}
    types = sample.types() if names else None
    return types is not None and any(types.misspelled_member(n) for n in names)


def uses_conventional(sample: FenceReading, content: str) -> bool:
    """Whether the fence uses, unbound, a name that holds a product type by convention."""
    names = set(IDENTIFIER.findall(content)) - sample.bound
    if not any(name[:1].islower() for name in names):
        return False
    types = sample.types()
    package = sample.gate.package
    if types is None:
        return False
    # A name the docs' samples type counts where the fence reads a member of it (`orm.em`).
    receivers = {m.group(1) for m in _RECEIVER.finditer(content)} - sample.bound
    return (
        any(types.conventional(n, package) for n in names)
        or any(
            sample.docs_declared(n) and _docs_typed(sample.docs_names(n)) for n in sorted(receivers)
        )
        or any(code_named(types, n) is not None for n in sorted(receivers))
    )


def _docs_typed(held: SampleValue | None) -> bool:
    """Whether the docs' bindings type a name (not one they bind to types of no common
    base: no reason to read a fence that uses nothing else of the product's)."""
    return held is not None and held.kind != "unknown"


def held(sample: FenceReading, node: Any, name: str) -> SampleValue | None:
    """What ``name`` holds where ``node`` uses it: the value the reader bound it to last,
    except an annotated parameter's outside its function (``(em: EntityManager) => ...`` in
    one fence, ``em.createQueryBuilder()`` after it): the name is not bound there."""
    found = sample.values.get(name)
    scope = sample.parameters.get(name)
    if found is None or scope is None or scope[3] is not found:
        return found
    inside = scope[0] is sample.source and scope[1] <= node.start_byte < scope[2]
    return found if inside else None


def conventional(sample: FenceReading, name: str) -> SampleValue | None:
    """An instance of the product type a name the post never binds holds by the docs'
    convention (``reply.send()`` in a doc about replies: ``FastifyReply``), else the one
    every binding of it in the docs' other pages gives (js_docs_names). A name the
    product's code itself exports as a function or a constant (``defineConfig``) is that
    thing, not an instance of a type named like it: the one export of the entry points
    under it, else unknown with the reason (:func:`exported_value`)."""
    types = sample.types()
    cls = types.conventional(name, sample.gate.package) if types is not None else None
    if cls is None or types is None:
        if types is None:
            return None
        return sample.docs_names(name) or code_named(types, name)
    own = exported_value(sample, types, name, cls)
    if own is not None:
        return own
    return SampleValue("typed", cls[1], cls[0], origin=ASSUMED_FROM_NAME)


def code_named(types: JsTypes, name: str) -> SampleValue | None:
    """:func:`_code_named`, once per model and name (a page asks for each receiver)."""
    known = _CODE_NAMED.setdefault(types, {})
    if name not in known:
        known[name] = _code_named(types, name)
    return known[name]


def _code_named(types: JsTypes, name: str) -> SampleValue | None:
    """An instance of the product type the product's own code declares ``name`` as
    (:attr:`~pytest_postgates.evidence.model_facts.ModelFacts.declared_as`: its typed
    parameters and fields), for a name no sample binds (``em.flush()`` where mikro-orm's
    code declares ``em: EntityManager`` 63 times and ``em: SqlEntityManager`` 8): of its
    declarations (:func:`~pytest_postgates.helpers.sample_checks.code_declared`), more than
    CODE_NAMED_SHARE are of the most declared types, one, or several whose nearest common
    base is one (:func:`~pytest_postgates.helpers.js_docs_names.common_base`); None
    otherwise, and for a global (``process``). Code only: the docs' prose is not read."""
    declared = code_declared(types.model.facts.declared_as.get(name))
    if declared is None or not name[:1].islower() or name in RUNTIME:
        return None
    total, named = declared
    # The fewest most-declared types that together make more than the share.
    ranked = sorted(named.items(), key=lambda item: (-item[1], item[0]))
    most = [t for i, (t, _) in enumerate(ranked)
            if sum(c for _, c in ranked[:i]) <= CODE_NAMED_SHARE * total]  # fmt: skip
    if sum(named[t] for t in most) <= CODE_NAMED_SHARE * total:
        return None
    classes: list[Cls] = [(t, "") for t in most]
    if any(not types.entries(cls) for cls in classes):
        return None  # a type parameter, another party's type
    found = classes[0] if len(classes) == 1 else js_docs_names.common_base(types, classes)
    if found is None:
        return None
    shown = ", ".join(f"{t} {c}" for t, c in ranked)
    common = f"; {' and '.join(most)} are all {found[0]} or extend it" if len(most) > 1 else ""
    origin = f"{CODE_NAMED} ({name}: {shown} of its {total} typed declarations{common})"
    return SampleValue("typed", found[1], found[0], origin=origin)


def exported_value(sample: FenceReading, types: JsTypes, name: str, cls: Cls) -> SampleValue | None:
    """What a name the post never binds holds when a product file exports a function or a
    constant under it (None: none does): the one such export of the package's entry
    points (the import the reader adds: a function's own signature, a constant's declared
    type), else unknown, with the file that exports it as the reason."""
    files = sorted(
        {d.path for d in types.model.declares(name)
         if d.kind in ("function", "constant") and d.owner == d.path
         and name in types.model.facts.modules.get(d.path, ())}
    )  # fmt: skip
    if not files:
        return None
    found: dict[tuple[str, str], tuple[str, Binding]] = {}
    for _spec, module in sample.gate.entries():
        binding = sample.gate.lookup.find_export(module, name)
        if isinstance(binding, Binding) and binding.kind not in _TYPE_KINDS:
            found.setdefault((binding.path, binding.local), (module, binding))
    if len(found) == 1:
        ((module, binding),) = found.values()
        return SampleValue("export", module, name, binding)
    where = ", ".join(files[:2])
    why = f"the product exports {name} itself ({where}), not an instance of {cls[0]}"
    return SampleValue("unknown", origin=f"{name} is never bound in the page's samples; {why}")


def package_called(sample: FenceReading, function: Any) -> SampleValue | None:
    """``Fastify()`` or ``express()`` in a sample that never binds the name: the
    package's own name (any case), called, is its entry module called, the import
    the reader is expected to add (only as a call: a bare ``fastify.get`` in a doc
    is as often an instance as the module). Any other name: :func:`public_called`."""
    name = node_text(sample.source, function)
    if name in sample.bound or not sample.package_word or package_word(name) != sample.package_word:
        return public_called(sample, function)
    line, text = sample.line(function), sample.linenode_text(function)
    module = sample.gate.module_for(sample.gate.package, False, line, text)
    return SampleValue("namespace", module) if module else None


def public_called(sample: FenceReading, function: Any) -> SampleValue | None:
    """``defineNitroConfig({...})`` in a sample that never binds the name: the one function
    the product's entry points export under it at their top level (the import the reader
    adds, or the framework's auto-import); None when none or several do, or for a name
    JavaScript or a test runner provides."""
    name = node_text(sample.source, function)
    if function.type != "identifier" or sample.is_bound(function, name):
        return None
    found = _public_function(sample, name)
    if found is None:
        return None
    return SampleValue("export", found.path, name, Binding(found.path, found.local, "function"))


def _public_function(sample: FenceReading, name: str) -> Binding | None:
    if name in js_free_calls.JS_GLOBALS:
        return None
    specs = {spec for spec, _module in sample.gate.entries()}
    top = {(r.path, r.local) for r in sample.gate.public_functions(name)
           if r.via.removesuffix(f".{name}") in specs}  # fmt: skip
    if len(top) != 1:
        return None
    ((path, local),) = top
    return Binding(path, local, "function")


def _exported_function(sample: FenceReading, types: JsTypes, name: str) -> str | None:
    """The file of the function ``name`` the product's entry points export, else of the
    one top-level function of that name a product file declares and exports (a
    framework's auto-import names such functions without an entry point's import)."""
    binding = _public_function(sample, name)
    if binding is not None:
        return binding.path
    files = {
        d.path for d in types.model.declares(name) if d.kind == "function" and d.owner == d.path
    }
    exported = [
        f for f in sorted(files) if isinstance(sample.gate.lookup.find_export(f, name), Binding)
    ]
    return exported[0] if len(exported) == 1 else None


def uses_public_class(sample: FenceReading, content: str) -> bool:
    """Whether the fence uses, never binding it, a name that classes the product's entry
    points export go by (:func:`public_class`, :func:`static_returns`)."""
    names = {m.group(1) for m in _CLASS_NAME.finditer(content)} - sample.bound
    return any(public_classes(sample, name) for name in sorted(names))


def public_classes(sample: FenceReading, name: str) -> list[tuple[str, Binding]]:
    """The classes the product's entry points export under ``name`` (module, binding),
    one per declaration; none for a name JavaScript provides."""
    if not name[:1].isupper():
        return []
    return [(module, b) for _spec, module, b in _exported(sample, name) if b.kind == "class"]


def public_class(sample: FenceReading, name: str) -> SampleValue | None:
    """``MikroORM.init({...})`` in a sample that never binds ``MikroORM``: the one class
    the product's entry points export under that name (the import the reader adds), as
    an export; None when none or several do, or for a name JavaScript provides."""
    held = public_classes(sample, name)
    return SampleValue("export", held[0][0], name, held[0][1]) if len(held) == 1 else None


def static_returns(sample: FenceReading, function: Any) -> Cls | None:
    """``MikroORM.init()`` where the page binds no ``MikroORM`` and the entry points export
    several classes of that name (each driver package's subclass): the class their static
    method declares it returns, when every one of them says the same (None otherwise)."""
    obj, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
    types = sample.types()
    if obj is None or prop is None or obj.type != "identifier" or types is None:
        return None
    name, method = node_text(sample.source, obj), node_text(sample.source, prop)
    held = [] if sample.is_bound(obj, name) else public_classes(sample, name)
    said = {
        types.static_returns((binding.local, binding.path), method)
        for _module, binding in held
        if types.entries((binding.local, binding.path))
    }
    return said.pop() if len(held) > 1 and len(said) == 1 else None


def unbound_class(sample: FenceReading, name: str, node: Any) -> SampleValue | None:
    """``new LeakDetector()`` where no sample of the page binds the name: in the docs of
    a workspace package that exports a class of that name, or whose default export is
    a class (anonymous or so named: the import the reader adds), that export; another
    product class of that name is listed unjudged (None: the product declares no class
    so named, so the value is not the product's)."""
    line, text = sample.line(node), sample.linenode_text(node)
    found = home_class(sample, name, line, text)
    if found is not None:
        sample.values[name] = found
        return found
    types = sample.types()
    entries = types.entries((name, "")) if types is not None else []
    if not entries:
        return None
    where = ", ".join(sorted({e.path for e in entries})[:2])
    reason = f"{name} is never imported in the page's samples (the product declares it in {where})"
    sample.report.skip(line, text, f"new {name}(): {reason}")
    return SampleValue("unknown", origin=reason)


def home_class(
    sample: FenceReading, name: str, line: int = 0, text: str = ""
) -> SampleValue | None:
    """The class ``name`` stands for in the docs of the workspace package holding the
    page: its export of that name, or its default export when that is a class
    anonymous or so named."""
    home = sample.gate.home
    module = sample.gate.module_for(home, False, line, text) if home else None
    if not module:
        return None
    lookup = sample.gate.lookup
    found = lookup.find_export(module, name)
    if isinstance(found, Binding) and found.kind == "class":
        return SampleValue("export", module, name, found)
    default = lookup.find_export(module, "default")
    if (
        isinstance(default, Binding)
        and default.kind == "class"
        and default.local
        in (
            name,
            "default",
        )
    ):
        return SampleValue("export", module, name, default)  # shown as the page names it
    return None


def misspelling(sample: FenceReading, name: str) -> tuple[str, str] | None:
    """The product member ``name`` is a typo of (:meth:`JsTypes.misspelled_member`) and how
    it is off, as a finding says it; None when it is none."""
    types = sample.types()
    real = types.misspelled_member(name) if types is not None else None
    if real is None:
        return None
    if real.endswith(name):
        return real, f"its member {real} is the name behind a private prefix"
    return real, f"one letter off its member {real}"


def untyped_member(sample: FenceReading, obj: Any, name: str, line: int, text: str) -> bool:
    """A member on a parameter the sample does not type (a plugin's ``app``, a handler's
    ``reply``) or on what a function the page never binds returns (a global the reader is
    expected to have: jest's ``expect(x)``): judged only when it is a typo of a product
    member that the code never writes (``decorareRequest``, ``toBeinstanceOf``); any
    other name may be anyone's. True when it judged the member."""
    if obj.type == "call_expression":
        function = obj.child_by_field_name("function")
        called = node_text(sample.source, function) if function is not None else ""
        if function is None or function.type != "identifier" or called in _LOADERS:
            return False
        if sample.is_bound(function, called):
            return False  # the reader's own function, or another library's import
        local = f"{called}()"
    elif obj.type == "this":
        local = "this"
        if _in_a_class(obj) or _declared_by_sample(sample, name):
            return False  # a class's own `this`, or an object of the sample's with that member
    elif obj.type == "identifier":
        local = node_text(sample.source, obj)
        at = obj.start_byte
        if not any(n == local and start <= at < end for n, start, end in sample.scoped):
            return False  # a name of the reader's or another library's, not a parameter
        if _called_by_the_sample(sample, obj, local):
            return False  # the sample's own function, given the sample's own values
    else:
        return False
    misspelt = misspelling(sample, name)
    if misspelt is None:
        return False
    real, how = misspelt
    sample.report.count("member", line, name)
    sample.report.violation(line, "member", f"{local}.{name}", "",
                            f"{name} is nowhere in the product's code, {how}"
                            f"{did_you_mean([real])}", [real])  # fmt: skip
    return True


def _in_a_class(node: Any) -> bool:
    """Whether ``this`` at ``node`` is a class's (its nearest function, arrow functions
    aside, is a method of a class body)."""
    function = node.parent
    while function is not None and function.type not in _FUNCTIONS - {"arrow_function"}:
        function = function.parent
    parent = function.parent if function is not None else None
    return parent is not None and parent.type == "class_body"


def _declared_by_sample(sample: FenceReading, name: str) -> bool:
    """Whether the sample writes ``name`` other than as a member it reads (a method or
    key of its own object, a function or variable of its own)."""
    text = sample.source.decode("utf-8", "replace")
    return re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", text) is not None


def _called_by_the_sample(sample: FenceReading, obj: Any, local: str) -> bool:
    """Whether ``local`` is a parameter of a function the sample declares and only ever
    calls itself (``function cleanUp(db) {...}; cleanUp(globalDatabase)``): its values are
    what the sample passes, not what the product hands a callback (a function passed by
    name, ``app.register(routes)``, is still the product's to call)."""
    function = obj.parent
    while function is not None and function.type not in _FUNCTIONS:
        function = function.parent
    if function is None or function.type != "function_declaration":
        return False
    name_node = function.child_by_field_name("name")
    parameters = function.child_by_field_name("parameters")
    if name_node is None or parameters is None:
        return False
    if local not in IDENTIFIER.findall(node_text(sample.source, parameters)):
        return False  # a name of an outer function's, or the reader's
    name = node_text(sample.source, name_node)
    text = sample.source.decode("utf-8", "replace")
    uses = [m.end() for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", text)]
    calls = [end for end in uses if text[end:].lstrip().startswith("(")]
    # Every use but the declaration is a call: nothing hands the function to the product.
    return len(calls) >= 2 and len(calls) == len(uses)


_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "arrow_function", "method_definition",
     "generator_function_declaration", "function"}
)  # fmt: skip


def function_readings(sample: FenceReading, function: Any) -> list[tuple[str, Binding]]:
    """What a name the page never binds, called (``defineConfig({...})``), may be: each
    declaration the product's entry points export under it (re-exports of one declaration
    count once), with the specifier of the first entry point exporting it."""
    name = node_text(sample.source, function)
    if function.type != "identifier" or sample.is_bound(function, name):
        return []
    if sample.package_word and package_word(name) == sample.package_word:
        return []  # the package called by its name: its entry module (package_called)
    return _readings(sample, name)


def _readings(sample: FenceReading, name: str) -> list[tuple[str, Binding]]:
    return [(spec, binding) for spec, _module, binding in _exported(sample, name)]


def _exported(sample: FenceReading, name: str) -> list[tuple[str, str, Binding]]:
    """Each declaration the product's entry points export under ``name`` (re-exports of one
    declaration count once), with the specifier and module of the first entry point
    exporting it; none for a name JavaScript provides. Shared by the run's samples."""
    if name in js_free_calls.JS_GLOBALS:
        return []
    key = ("exported", sample.gate.package, name)

    def compute() -> list[tuple[str, str, Binding]]:
        found: dict[tuple[str, str], tuple[str, str, Binding]] = {}
        for spec, module in sample.gate.entries():
            binding = sample.gate.lookup.find_export(module, name)
            if isinstance(binding, Binding):
                found.setdefault((binding.path, binding.local), (spec, module, binding))
        return list(found.values())

    # The files it read are marked read for each sample that asks, not the first only.
    held: list[tuple[str, str, Binding]] = sample.gate.lookup.shared_answer(key, compute)
    return held


KeysAt = Callable[[int, tuple[str, ...]], Keys | None]


def readings_callee(
    sample: FenceReading, function: Any, shown: str
) -> tuple[KeysAt, str] | str | None:
    """The option keys of a call of a name the page never binds that several product
    declarations go by (:func:`function_readings`): a key is taken when one of them takes
    it, and the callee as shown names them all; why not, when one is no function the
    model types; None when fewer than two declarations go by the name."""
    readings = function_readings(sample, function)
    types = sample.types()
    if len(readings) < 2 or types is None:
        return None
    listed = ", ".join(f"{spec} ({b.path})" for spec, b in readings[:4])
    listed += f" and {len(readings) - 4} more" if len(readings) > 4 else ""
    if any(binding.kind != "function" for _, binding in readings):
        return (f"{shown}() are not judged: the page never binds {shown}, which names several "
                f"of the product's exports, not all functions: {listed}")  # fmt: skip
    parts: list[KeysAt] = [partial(types.function_keys, b.path, b.local) for _, b in readings]
    return partial(_any_reading, parts), f"{shown}() (any of the product's {listed})"


def _any_reading(parts: list[KeysAt], position: int, path: tuple[str, ...]) -> Keys | None:
    """The keys one of several callees takes at a place: every one's declared fields; None
    when one's are not in the model, and a reason when one's are not closed."""
    found = [at(position, path) for at in parts]
    known = [keys for keys in found if keys is not None]
    if len(known) < len(found):
        return None
    if any(keys.any_key or keys.reason for keys in known):
        why = next(k.reason or "it takes any key" for k in known if k.any_key or k.reason)
        return Keys(reason=f"one of the readings' keys are not closed ({why})")
    owners = " or ".join(dict.fromkeys(k.owner for k in known if k.owner))
    read_by = " or ".join(dict.fromkeys(k.read_by for k in known if k.read_by))
    hand_written = next((k.hand_written for k in known if k.hand_written), "")
    fields = frozenset().union(*(k.fields for k in known))
    return Keys(fields, owners, hand_written=hand_written, read_by=read_by)
