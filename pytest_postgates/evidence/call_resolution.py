"""The call graph's resolution step, the same for Python and JavaScript/TypeScript.

Each language's reader (:mod:`.calls_python`, :mod:`.calls_js`) turns a source file into a
:class:`UnitCalls`: its functions and methods with the calls their bodies make as written
(``foo()``, ``this.foo()``, ``mod.foo()``, ``new Foo()``), its top-level functions and
classes, and the names it imports. :func:`resolve_units` then resolves every call to a
product function where the code says which one it is: a function of the same file, an
imported one (followed through re-exports), a method of the enclosing class or of its
product bases, a static method or a constructor. A call on a value whose type the code
does not state is dynamic dispatch and stays unresolved, marked so. A call that passes a
string literal to a function that calls a member by that parameter (``this.report('onInit')``
into ``r[name]()``) is also a dynamic call of that name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls, ValueEnd

# Call forms as the readers write them.
NAME, THIS, SUPER, MEMBER, NEW, DYNAMIC = "name", "this", "super", "member", "new", "dynamic"
FIELD = "field"  # a method of a field of the enclosing class (`this.store.save()`)
# A call whose callee the code computes: a member by a computed key (`handlers[kind]()`,
# `getattr(self, name)()`), a call's result called, a wrapping decorator. It may call any
# function, so a body that makes one is not fully read for a claim that it calls nothing
# of a name.
OPAQUE = "opaque"
# A call of a function the caller was given (its own parameter: a callback). It may call
# whatever its callers pass: a function of the product only where one is passed as a value.
CALLBACK = "callback"
# A product function's name passed as a value (`register(handler)`, `map(self.step)`): no
# call, but whatever receives it may call it.
PASSED = "passed"
# A call of a local function of the enclosing top-level function (:mod:`.calls_nested`):
# the call's base is that function's qualname.
LOCAL = "local"
# The name of a file's code outside any function (module-level statements, and the
# callbacks written there: `app.get("/x", (req, res) => {...})`, `if __name__ ...`): a
# pseudo-function no claim can name, which runs calls in order all the same.
MODULE_CODE = "<module>"
# The name of a Python class body's code, for a class with no method (a settings model, a
# dataclass): a pseudo-method holding the calls its statements make, so that what the
# class calls is read in full (nothing, or its fields' defaults).
CLASS_BODY = "<class>"
_HOPS = 8  # re-export chains followed at most this deep (a cycle ends there)
# The languages' own global objects and builtin types (JavaScript's `JSON`, `Math`,
# `console`; Python's `str`, `dict`): a member call on one of them, when no name of the
# file shadows it, is the runtime's, never a product function reached by dynamic dispatch.
_GLOBAL_OBJECTS = frozenset(
    {"JSON", "Math", "Object", "Array", "Promise", "Reflect", "Number", "String", "Date"}
    | {"Symbol", "console", "Buffer", "Intl", "globalThis", "Atomics", "BigInt"}
    | {"Proxy", "URL", "URLSearchParams", "Error", "RegExp", "Map", "Set", "WeakMap"}
    | {"str", "dict", "list", "set", "tuple", "int", "float", "bytes", "frozenset", "bool"}
)


@dataclass(frozen=True)
class RawCall:
    """A call as written: ``form`` (see the constants), the callee's last name, the
    dotted receiver of a member call (``mod``, ``pkg.mod``, ``Client``), the callee's text
    and its line."""

    form: str
    name: str
    base: str
    text: str
    line: int
    # the string literals it passes, by argument position (None: not a literal)
    literals: tuple[str | None, ...] = ()
    # the functions written in place around it (:attr:`~.model_facts.CallSite.scope`)
    scope: str = ""
    # the loops, branches and arguments around it (:attr:`~.model_facts.CallSite.flow`)
    flow: int = 0
    # the loops and conditionals' arms around it (:attr:`~.model_facts.CallSite.arms`)
    arms: str = ""


@dataclass
class RawFunction:
    qualname: str
    name: str
    owner: str  # the enclosing class's name, "" for a function
    line: int
    complete: bool = True
    calls: list[RawCall] = field(default_factory=list)
    returns: str = ""
    modifiers: list[str] = field(default_factory=list)
    switches: list[tuple[str, int]] = field(default_factory=list)  # (switched over, line)
    # local -> the class it holds, as written: made once by a constructor call
    made_by: dict[str, str] = field(default_factory=dict)
    # the argument position of the parameter it calls a member by (`r[name]()`,
    # `getattr(self, name)()`): a string-keyed dispatch; -1 when none
    dispatch: int = -1
    # the product calls it hands a function written in place to: (callee, line)
    hands: list[tuple[str, int]] = field(default_factory=list)
    # the messages it sends and the handlers it registers (see FunctionCalls)
    sends: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    listens: list[tuple[str, str, str, int]] = field(default_factory=list)


@dataclass
class ClassEntry:
    qualname: str
    name: str
    unit: str
    bases: list[str] = field(default_factory=list)  # simple or dotted names as written
    methods: dict[str, str] = field(default_factory=dict)  # name -> function qualname
    # field -> the class it holds, as written (a type annotation, or what it is made by)
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class UnitCalls:
    """One file (JS/TS: keyed by path) or module (Python: keyed by dotted name)."""

    key: str
    path: str
    constructor: str  # "__init__" or "constructor"
    functions: list[RawFunction] = field(default_factory=list)
    top: dict[str, str] = field(default_factory=dict)  # function name -> qualname
    classes: dict[str, ClassEntry] = field(default_factory=dict)
    # local name -> (module specifier, imported name; "*" for a namespace import)
    bindings: dict[str, tuple[str, str]] = field(default_factory=dict)
    # exported name -> (module specifier, name there): re-exports from other files
    reexports: dict[str, tuple[str, str]] = field(default_factory=dict)
    # JS/TS: its module-level constants that are no function (instances, stores, objects)
    values: list[ValueEnd] = field(default_factory=list)


# What a name in a unit's scope is: ("function", qualname), ("class", ClassEntry),
# ("module", unit key), ("external", specifier) or None (not known).
Found = tuple[str, object] | None
# (importing unit key, specifier) -> the unit it names, "" when outside the product, None
# when it looks like the product's but no unit is known.
Locate = Callable[[str, str], "str | None"]


class _Resolver:
    def __init__(self, units: dict[str, UnitCalls], locate: Locate) -> None:
        self.units = units
        self.locate = locate

    def in_scope(self, unit: UnitCalls, name: str, hops: int = 0) -> Found:
        if name in unit.top:
            return ("function", unit.top[name])
        if name in unit.classes:
            return ("class", unit.classes[name])
        for table in (unit.bindings, unit.reexports):
            if name in table:
                return self.imported(unit, *table[name], hops=hops)
        return None

    def imported(self, unit: UnitCalls, spec: str, name: str, hops: int) -> Found:
        if hops > _HOPS:
            return None
        target = self.locate(unit.key, spec)
        if target == "":
            return ("external", spec)
        if target is None or target not in self.units:
            return None
        if name == "*":
            return ("module", target)
        found = self.in_scope(self.units[target], name, hops + 1)
        if found is None:
            # Python's ``from pkg import mod``: a submodule, not a name of pkg.
            sub = self.locate(unit.key, f"{spec}.{name}") if spec and spec[0] != "." else None
            if sub:
                return ("module", sub)
            sub = self.locate(target, f"{target}.{name}")
            if sub and sub in self.units:
                return ("module", sub)
        return found

    def method(self, entry: ClassEntry, name: str, seen: set[str] | None = None) -> str | None:
        """``name`` in ``entry`` or in its product bases (nearest first)."""
        seen = seen if seen is not None else set()
        if entry.qualname in seen:
            return None
        seen.add(entry.qualname)
        if name in entry.methods:
            return entry.methods[name]
        for base in entry.bases:
            found = self.dotted(self.units[entry.unit], base)
            if found is not None and found[0] == "class":
                hit = self.method(found[1], name, seen)  # type: ignore[arg-type]
                if hit is not None:
                    return hit
        return None

    def dotted(self, unit: UnitCalls, dotted: str) -> Found:
        """What a dotted receiver (``mod``, ``pkg.mod``, ``Client``) names in ``unit``."""
        parts = dotted.split(".")
        found = self.in_scope(unit, parts[0])
        for part in parts[1:]:
            if found is None or found[0] == "external":
                return found
            if found[0] != "module":
                return None
            module = str(found[1])
            step = self.in_scope(self.units[module], part)
            if step is None:
                sub = self.locate(module, f"{module}.{part}")
                step = ("module", sub) if sub and sub in self.units else None
            found = step
        return found

    def site(
        self, unit: UnitCalls, owner: str, call: RawCall, made_by: dict[str, str] | None = None
    ) -> CallSite:
        def made(kind: str, target: str = "") -> CallSite:
            return CallSite(
                call.name, call.text, call.line, kind, target, call.scope, call.flow, call.arms
            )

        if call.form == OPAQUE and call.base:
            # a computed member of another package's object (`chalk[color]()`) is that
            # package's function, never the product's
            holder = self.dotted(unit, call.base)
            root = call.base.split(".")[0]
            if (holder is not None and holder[0] == "external") or (
                holder is None and root in _GLOBAL_OBJECTS
            ):
                return made("external")
        if call.form in (OPAQUE, CALLBACK, PASSED):
            return made(call.form)
        if call.form == LOCAL:
            return made("resolved", call.base)
        if call.form in (THIS, SUPER):
            entry = unit.classes.get(owner)
            if entry is None:
                return made("dynamic")
            if call.form == THIS:
                hit = self.method(entry, call.name)
            else:
                hit = None
                for base in entry.bases:
                    found = self.dotted(unit, base)
                    if found is not None and found[0] == "class":
                        hit = self.method(found[1], call.name)  # type: ignore[arg-type]
                        if hit:
                            break
            return made("resolved", hit) if hit else made("dynamic")
        if call.form == FIELD:
            held = self.field_class(unit, owner, call.base)
            hit = self.method(held, call.name) if held is not None else None
            return made("resolved", hit) if hit else made("dynamic")
        if call.form in (NAME, NEW):
            return self.settle(unit, self.in_scope(unit, call.name), made, call.form == NEW)
        if call.form == MEMBER and made_by and call.base in made_by:
            # a local the function made (`store = Store()`, `const s = new Store()`)
            found = self.dotted(unit, made_by[call.base])
            if found is not None and found[0] == "class":
                hit = self.method(found[1], call.name)  # type: ignore[arg-type]
                return made("resolved", hit) if hit else made("dynamic")
        if call.form == MEMBER:
            holder = self.dotted(unit, call.base)
            if holder is None and call.base.split(".")[0] in _GLOBAL_OBJECTS:
                return made("external")
            if holder is None:
                return made("dynamic")
            if holder[0] == "external":
                return made("external")
            if holder[0] == "module":
                found = self.in_scope(self.units[str(holder[1])], call.name)
                return self.settle(unit, found, made, True)
            if holder[0] == "class":
                hit = self.method(holder[1], call.name)  # type: ignore[arg-type]
                return made("resolved", hit) if hit else made("dynamic")
            return made("dynamic")
        return made("dynamic")

    def field_class(self, unit: UnitCalls, owner: str, name: str) -> ClassEntry | None:
        """The product class the field ``name`` of class ``owner`` holds, when declared."""
        entry = unit.classes.get(owner)
        written = entry.fields.get(name) if entry is not None else None
        found = self.dotted(unit, written) if written else None
        if found is not None and found[0] == "class":
            return found[1]  # type: ignore[return-value]
        return None

    def settle(
        self, unit: UnitCalls, found: Found, made: Callable[..., CallSite], constructs: bool
    ) -> CallSite:
        if found is None:
            return made("unresolved")
        kind, value = found
        if kind == "function":
            return made("resolved", str(value))
        if kind == "class":
            entry: ClassEntry = value  # type: ignore[assignment]
            hit = self.method(entry, unit.constructor)
            return made("resolved", hit) if hit else made("constructor", entry.qualname)
        if kind == "external":
            return made("external")
        return made("unresolved")


def resolve_units(units: dict[str, UnitCalls], locate: Locate) -> list[FunctionCalls]:
    """Every function of ``units`` with its calls resolved (see the module doc)."""
    resolver = _Resolver(units, locate)
    result: list[FunctionCalls] = []
    # a value passed is kept only when it is named like a product function
    named = {function.name for unit in units.values() for function in unit.functions}
    dispatches = {
        function.qualname: function.dispatch
        for unit in units.values()
        for function in unit.functions
        if function.dispatch >= 0
    }
    for key in sorted(units):
        unit = units[key]
        for function in unit.functions:
            sites: list[CallSite] = []
            for call in function.calls:
                if call.form == PASSED and call.name not in named:
                    continue
                site = resolver.site(unit, function.owner, call, function.made_by)
                sites.append(site)
                keyed = dispatches.get(site.target, -1) if site.kind == "resolved" else -1
                literal = call.literals[keyed] if 0 <= keyed < len(call.literals) else None
                if literal:
                    # `this.report('onInit')` into `r[name]()`: a call named `onInit` on a
                    # value the model does not type
                    shown = f"{call.text}({literal!r}) -> [{literal}]"
                    sites.append(
                        CallSite(
                            literal,
                            shown,
                            call.line,
                            "dynamic",
                            "",
                            call.scope,
                            call.flow,
                            call.arms,
                        )
                    )
            result.append(
                FunctionCalls(
                    function.qualname,
                    function.name,
                    function.owner,
                    unit.path,
                    function.line,
                    function.complete,
                    sites,
                    function.returns,
                    function.modifiers,
                    function.switches,
                    function.hands,
                    function.sends,
                    function.listens,
                )
            )
    return result


def settled(
    call: RawCall, named: dict[str, str], twice: set[str], from_closure: Callable[[str], bool]
) -> RawCall:
    """A call by bare name once the top-level function's local functions are known (JS and
    Python alike): the local function of that name (``named``), any function when two are
    (``twice``), a callback when the calling function takes the name from its closure
    (``from_closure``: a parameter or variable of a function around it), else unchanged."""
    if call.form != NAME:
        return call
    if call.name in named:
        return replace(call, form=LOCAL, base=named[call.name])
    if call.name in twice:
        return replace(call, form=OPAQUE, base="")
    if from_closure(call.name):
        return replace(call, form=CALLBACK, base="", literals=())
    return call
