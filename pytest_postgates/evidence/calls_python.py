"""The call graph's Python reader: each function's and method's calls, from ``ast``.

A nested function or lambda belongs to the function it is written in (its calls are that
body's), and a function written by name there is a node of its own too (:func:`_locals`);
the calls outside any function (module statements, class bodies, decorators) belong
to the module's code (:data:`~.call_resolution.MODULE_CODE`). ``self.x()`` and ``cls.x()``
are calls on the enclosing class, ``super().x()`` on its bases, ``name()`` and
``mod.name()`` go through the module's names and imports; any other receiver is a value
whose type the code does not state (dynamic dispatch). A callee the code computes
(``getattr(obj, name)()``, ``handlers[kind]()``, a call's result called, a local bound to
such a value called) is opaque: it may be any function; the function's own parameter called
is a callback (whatever its callers pass), and a name passed to a call as a value is
recorded as passed (a product function's name only). A decorator that is not one of
Python's own descriptors or caches wraps the body: its wrapper runs around it, so the
decorated function's body is not all it runs (an opaque call at the decorator's line).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

from pytest_postgates.evidence.call_flow import PyFlows, py_flows
from pytest_postgates.evidence.call_resolution import (
    CALLBACK,
    CLASS_BODY,
    DYNAMIC,
    FIELD,
    MEMBER,
    MODULE_CODE,
    NAME,
    OPAQUE,
    PASSED,
    SUPER,
    THIS,
    ClassEntry,
    RawCall,
    RawFunction,
    UnitCalls,
    resolve_units,
    settled,
)
from pytest_postgates.evidence.messages import py_decorated, py_messages
from pytest_postgates.evidence.model_facts import FunctionCalls

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` as text when it is names and attributes only."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def raw_call(node: ast.Call) -> RawCall:
    """A call as written (see :class:`~.call_resolution.RawCall`)."""
    func = node.func
    if isinstance(func, ast.Name):
        return RawCall(NAME, func.id, "", func.id, node.lineno)
    if isinstance(func, ast.Attribute):
        return raw_member_call(func.value, func.attr, node.lineno)
    return RawCall(DYNAMIC, "", "", "(...)", node.lineno)


def raw_member_call(value: ast.expr, attr: str, line: int) -> RawCall:
    """The call of member ``attr`` of ``value``, written ``value.attr(...)``."""
    if isinstance(value, ast.Name) and value.id in ("self", "cls"):
        return RawCall(THIS, attr, "", f"{value.id}.{attr}", line)
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "super"
    ):
        return RawCall(SUPER, attr, "", f"super().{attr}", line)
    base = _dotted(value)
    if (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == "self"
    ):
        return RawCall(FIELD, attr, value.attr, f"self.{value.attr}.{attr}", line)
    if base is not None and base.split(".")[0] not in ("self", "cls"):
        return RawCall(MEMBER, attr, base, f"{base}.{attr}", line)
    shown = f"{base}.{attr}" if base is not None else f"(...).{attr}"
    return RawCall(DYNAMIC, attr, "", shown, line)


def _computed(value: ast.expr | None) -> bool:
    """Whether ``value`` is a callee the code computes: an item by a key, a call's result
    (``getattr(o, name)``, ``make()``)."""
    return isinstance(value, (ast.Subscript, ast.Call))


def attribute_named(value: ast.expr | None) -> tuple[ast.expr, str] | None:
    """``getattr(obj, "extract")`` or ``getattr(obj, "extract", None)``: the attribute is
    named in the code, so calling it is ``obj.extract(...)``; (obj, the name), else None."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "getattr"
        and len(value.args) in (2, 3)
        and isinstance(value.args[1], ast.Constant)
        and isinstance(value.args[1].value, str)
        and value.args[1].value.isidentifier()
    ):
        return None
    return value.args[0], value.args[1].value


def _given(
    node: ast.FunctionDef | ast.AsyncFunctionDef, bindings: dict[str, int]
) -> tuple[set[str], set[str], dict[str, RawCall]]:
    """The function's own parameters (``self`` and ``cls`` left out: the callbacks it is
    given), the locals its body binds to a computed value (``fn = getattr(self,
    name)``, ``handler = table[kind]``), and those bound once to an attribute the code
    names (``fn = getattr(obj, "extract", None)``: a call of ``obj.extract``)."""
    arguments = node.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    computed: set[str] = set()
    named: dict[str, RawCall] = {}
    for inner in ast.walk(node):
        if isinstance(inner, (ast.Assign, ast.NamedExpr)) and _computed(inner.value):
            targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
            bound = {t.id for t in targets if isinstance(t, ast.Name)}
            attribute = attribute_named(inner.value)
            if attribute is not None and len(bound) == 1 and not bound & (computed | set(named)):
                named[bound.pop()] = raw_member_call(*attribute, inner.lineno)
            else:
                computed |= bound
    computed |= {name for name in named if bindings.get(name, 0) > 1}  # bound again elsewhere
    return {a.arg for a in every} - {"self", "cls"}, computed, named


def _passed(call: ast.Call) -> list[RawCall]:
    """The names a call passes as values (``register(handler)``, ``map(self.step, xs)``)."""
    found: list[RawCall] = []
    for value in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(value, ast.Starred):
            value = value.value
        name = value.id if isinstance(value, ast.Name) else ""
        if isinstance(value, ast.Attribute):
            name = value.attr
        if name:
            found.append(RawCall(PASSED, name, "", ast.unparse(value)[:60], value.lineno))
    return found


def dispatch(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The position (``self`` and ``cls`` left out) of the parameter the body calls a
    member by (``getattr(self, name)()``, ``self.handlers[name]()``); -1 when none."""
    arguments = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    arguments = [a for a in arguments if a not in ("self", "cls")]
    for inner in ast.walk(node):
        if not isinstance(inner, ast.Call):
            continue
        func, key = inner.func, None
        if isinstance(func, ast.Subscript):
            key = func.slice
        elif (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "getattr"
            and len(func.args) >= 2
        ):
            key = func.args[1]
        if isinstance(key, ast.Name) and key.id in arguments:
            return arguments.index(key.id)
    return -1


def _calls_in(
    node: ast.FunctionDef | ast.AsyncFunctionDef, bindings: dict[str, int]
) -> list[RawCall]:
    """Every call in ``node``'s body, nested closures included, in source order, and the
    names its calls pass as values."""
    own, computed, named = _given(node, bindings)
    return _calls_of(ast.walk(node), own, computed, named, py_flows(node))


def _outside_functions(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes of the module's code that runs outside any function: its statements,
    class bodies, decorators and default values, lambdas written there."""
    pending: list[ast.AST] = list(reversed(tree.body))
    while pending:
        node = pending.pop()
        if isinstance(node, _FUNCTIONS):
            outer = [*node.decorator_list, *node.args.defaults]
            outer += [d for d in node.args.kw_defaults if d is not None]
            pending.extend(reversed(outer))
            continue
        yield node
        pending.extend(reversed(list(ast.iter_child_nodes(node))))


def _module_code(tree: ast.Module, module: str) -> RawFunction | None:
    """The calls of the module's code outside any function, as one pseudo-function
    (:data:`~.call_resolution.MODULE_CODE`); None when it makes none."""
    nodes = list(_outside_functions(tree))
    own = {a.arg for n in nodes if isinstance(n, ast.Lambda) for a in n.args.args}
    computed = {
        t.id
        for n in nodes
        if isinstance(n, ast.Assign) and _computed(n.value)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    calls = _calls_of(nodes, own, computed, {}, py_flows(tree, into_functions=False))
    if not calls:
        return None
    code = RawFunction(f"{module}.{MODULE_CODE}", MODULE_CODE, "", 1, True, calls)
    code.sends, code.listens = py_messages(nodes)
    return code


def _calls_of(
    nodes: Iterable[ast.AST],
    own: set[str],
    computed: set[str],
    named: dict[str, RawCall],
    flows: PyFlows,
) -> list[RawCall]:
    """The calls among ``nodes`` and the names they pass, each with its flow (``flows``:
    :func:`~.call_flow.py_flows`)."""
    found: list[RawCall] = []
    for inner in nodes:
        if not isinstance(inner, ast.Call):
            continue
        made = len(found)
        func = inner.func
        attribute = attribute_named(func)
        if isinstance(func, ast.Name) and func.id in own:
            found.append(RawCall(CALLBACK, func.id, "", func.id, inner.lineno))
        elif isinstance(func, ast.Name) and func.id in named and func.id not in computed:
            found.append(replace(named[func.id], line=inner.lineno))
        elif attribute is not None:
            found.append(raw_member_call(*attribute, inner.lineno))
        elif (isinstance(func, ast.Name) and func.id in computed) or _computed(func):
            shown = ast.unparse(func)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            held = func.value if isinstance(func, ast.Subscript) else None
            base = (_dotted(held) if held is not None else None) or ""
            found.append(RawCall(OPAQUE, "", base, shown, inner.lineno))
        else:
            literals = tuple(
                a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                for a in inner.args
            )
            found.append(replace(raw_call(inner), literals=literals))
        found += _passed(inner)
        flow, arms = flows.get(id(inner), (0, ""))
        if flow or arms:
            found[made:] = [replace(c, flow=flow, arms=arms) for c in found[made:]]
    found.sort(key=lambda call: call.line)
    return found


# Decorators that run no code of their own around the body: Python's descriptors, caches
# and markers (by their last name).
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "property", "setter", "getter", "deleter"}
    | {"abstractmethod", "abstractproperty", "cache", "lru_cache", "cached_property"}
    | {"override", "overload", "final", "wraps", "total_ordering", "dataclass"}
    | {"contextmanager", "asynccontextmanager", "no_type_check", "runtime_checkable"}
)


def _wrapping(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[RawCall]:
    """An opaque call for each decorator that may wrap the body (see the module doc)."""
    found: list[RawCall] = []
    for decorator in node.decorator_list:
        named = decorator.func if isinstance(decorator, ast.Call) else decorator
        last = ast.unparse(named).rsplit(".", 1)[-1]
        if last not in _PLAIN_DECORATORS:
            found.append(RawCall(OPAQUE, "", "", "@" + ast.unparse(named), decorator.lineno))
    return found


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str, owner: str
) -> RawFunction:
    returns = ast.unparse(node.returns) if node.returns is not None else ""
    modifiers = ["async"] if isinstance(node, ast.AsyncFunctionDef) else []
    decorators = {ast.unparse(d).rsplit(".", 1)[-1] for d in node.decorator_list}
    modifiers += sorted(decorators & {"staticmethod", "classmethod", "property"})
    bindings = _bindings(node)
    calls = _wrapping(node) + _calls_in(node, bindings)
    switches = sorted(
        (ast.unparse(n.subject), n.lineno) for n in ast.walk(node) if isinstance(n, ast.Match)
    )
    sends, listens = py_messages(list(ast.walk(node)))
    return RawFunction(
        qualname,
        node.name,
        owner,
        node.lineno,
        True,
        calls,
        returns,
        modifiers,
        switches,
        made_by=_made_by(node, bindings),
        dispatch=dispatch(node),
        sends=sends,
        listens=listens + py_decorated(node),
    )


def _bindings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
    """How many times the body binds each name (assignments, ``for`` and ``with``
    targets, walrus), nested closures included."""
    bound: dict[str, int] = {}
    for inner in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(inner, ast.Assign):
            targets = inner.targets
        elif isinstance(inner, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            targets = [inner.target]
        elif isinstance(inner, (ast.For, ast.AsyncFor, ast.withitem)):
            held = inner.target if not isinstance(inner, ast.withitem) else inner.optional_vars
            targets = [held] if held is not None else []
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    bound[name.id] = bound.get(name.id, 0) + 1
    return bound


def _made_by(
    node: ast.FunctionDef | ast.AsyncFunctionDef, bindings: dict[str, int]
) -> dict[str, str]:
    """The locals bound once, to a call of a dotted name (``store = Store()``): the name
    called, which the resolution reads as a class where it names one."""
    made: dict[str, str] = {}
    for inner in ast.walk(node):
        if (
            isinstance(inner, ast.Assign)
            and len(inner.targets) == 1
            and isinstance(inner.targets[0], ast.Name)
            and isinstance(inner.value, ast.Call)
        ):
            written = _dotted(inner.value.func)
            if written:
                made.setdefault(inner.targets[0].id, written)
    return {name: written for name, written in made.items() if bindings.get(name) == 1}


def _held(annotation: ast.expr | None) -> str:
    """The class an annotation names (``Store``, ``pkg.Store``, ``Store | None``)."""
    if isinstance(annotation, ast.BinOp):  # `Store | None`
        return _held(annotation.left) or _held(annotation.right)
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return _held(ast.parse(annotation.value, mode="eval").body)
        except SyntaxError:
            return ""
    dotted = _dotted(annotation) if annotation is not None else None
    return dotted if dotted and dotted != "None" else ""


def _self_fields(method: ast.FunctionDef | ast.AsyncFunctionDef, fields: dict[str, str]) -> None:
    """``self.x: Store = ...`` and ``self.x = Store(...)`` in a method: x holds a Store."""
    for node in ast.walk(method):
        target: ast.expr | None = None
        held = ""
        if isinstance(node, ast.AnnAssign):
            target, held = node.target, _held(node.annotation)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(node.value, ast.Call):
                held = _dotted(node.value.func) or ""
        if (
            held
            and isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        ):
            fields.setdefault(target.attr, held)


def _locals(node: ast.FunctionDef | ast.AsyncFunctionDef, top: RawFunction) -> list[RawFunction]:
    """The functions written by name inside ``node`` (at any depth), each a node of its own
    qualified by it (``mod.f.<locals>.helper``), with the calls of its body (its own nested
    closures included). A name one of them calls is the other local function of that name
    (of two: either, so opaque), else a parameter or a local of ``node``'s (a callback:
    whatever it holds, never the module function of that name), else the module's; the
    enclosing function's own calls of a local function's name are that function's."""
    inner = [n for n in ast.walk(node) if isinstance(n, _FUNCTIONS) and n is not node]
    if not inner:
        return []
    counts: dict[str, int] = {}
    for function in inner:
        counts[function.name] = counts.get(function.name, 0) + 1
    named = {n.name: f"{top.qualname}.<locals>.{n.name}" for n in inner if counts[n.name] == 1}
    twice = {name for name, count in counts.items() if count > 1}
    closure = set(_bindings(node)) | {
        a.arg for n in ast.walk(node) if isinstance(n, (*_FUNCTIONS, ast.Lambda)) for a in (
            *n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs, n.args.vararg, n.args.kwarg
        ) if a is not None
    }  # fmt: skip

    top.calls = [settled(c, named, twice, lambda name: False) for c in top.calls]
    made: list[RawFunction] = []
    for function in inner:
        local = _function(function, f"{top.qualname}.<locals>.{function.name}", "")
        local.calls = [settled(c, named, twice, closure.__contains__) for c in local.calls]
        made.append(local)
    return made


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".")
    if not is_package:
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
    return ".".join([*base, *([node.module] if node.module else [])])


def read_unit(tree: ast.Module, path: str, module: str) -> UnitCalls:
    """The functions, classes and imports of one parsed module."""
    unit = UnitCalls(module, path, "__init__")
    is_package = path.endswith(("__init__.py", "__init__.pyi"))

    def statements(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, _FUNCTIONS):
                qualname = f"{module}.{node.name}"
                unit.top[node.name] = qualname
                unit.functions.append(_function(node, qualname, ""))
                unit.functions += _locals(node, unit.functions[-1])
            elif isinstance(node, ast.ClassDef):
                klass(node, module)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        unit.bindings[alias.asname] = (alias.name, "*")
                    else:
                        head = alias.name.split(".")[0]
                        unit.bindings[head] = (head, "*")
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, is_package, node)
                for alias in node.names:
                    if alias.name != "*":
                        unit.bindings[alias.asname or alias.name] = (source, alias.name)
            elif isinstance(node, (ast.If, ast.Try)):
                blocks = [node.body, node.orelse]
                if isinstance(node, ast.Try):
                    blocks += [node.finalbody, *(h.body for h in node.handlers)]
                for block in blocks:
                    statements(block)

    def klass(node: ast.ClassDef, owner: str) -> None:
        qualname = f"{owner}.{node.name}"
        bases = [b for b in (_dotted(base) for base in node.bases) if b]
        entry = ClassEntry(qualname, node.name, module, bases)
        unit.classes.setdefault(node.name, entry)
        for child in node.body:
            if isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                held = _held(child.annotation)
                if held:
                    entry.fields.setdefault(child.target.id, held)
            if isinstance(child, _FUNCTIONS):
                method = f"{qualname}.{child.name}"
                entry.methods[child.name] = method
                unit.functions.append(_function(child, method, node.name))
                unit.functions += _locals(child, unit.functions[-1])
                _self_fields(child, entry.fields)
            elif isinstance(child, ast.ClassDef):
                klass(child, qualname)
        if not any(isinstance(child, _FUNCTIONS) for child in node.body):
            body = [n for c in node.body if not isinstance(c, ast.ClassDef) for n in ast.walk(c)]
            unit.functions.append(
                RawFunction(
                    f"{qualname}.{CLASS_BODY}",
                    CLASS_BODY,
                    node.name,
                    node.lineno,
                    True,
                    _calls_of(body, set(), set(), {}, py_flows(node)),
                )
            )

    statements(tree.body)
    module_code = _module_code(tree, module)
    if module_code is not None:
        unit.functions.append(module_code)
    return unit


def resolve_python(
    units: Mapping[str, UnitCalls], top_packages: frozenset[str]
) -> list[FunctionCalls]:
    """The functions of ``units`` (module -> unit) with their calls resolved."""

    def locate(_importer: str, spec: str) -> str | None:
        if spec in units:
            return spec
        return None if spec.split(".")[0] in top_packages else ""

    return resolve_units(dict(units), locate)
