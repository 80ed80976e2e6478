"""The API model's Python half, read with the standard library's ``ast``.

Per product module (see :func:`module_names`: packages under any layout, ``src/`` or
not): its public names (``__all__`` and the names it imports when it has one, else every
top-level name without a leading underscore, imported names included), its classes with
their members (methods, class attributes and annotated fields, enum members, ``self.x``
assignments in any method, nested classes) and bases, its functions and methods with their
parameters (keyword-only and ``**kwargs`` included) and return annotations, the keys it
reads (``x.get("key")``, ``x["key"]``, ``os.environ``/``getenv``), and the commands and
long options of an argparse, click or typer command line. A file that does not parse is listed
in ``unread`` with the reason; nothing is guessed from text.
"""

from __future__ import annotations

import ast
import dataclasses
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping

from pytest_postgates.evidence.call_resolution import UnitCalls
from pytest_postgates.evidence.calls_python import read_unit, resolve_python
from pytest_postgates.evidence.cli_python import OPTION_CALLS, CliRead, read_cli
from pytest_postgates.evidence.model_facts import (
    CallableFacts,
    ClassFacts,
    Decl,
    ImportSite,
    ModelFacts,
    normal_flag,
)
from pytest_postgates.evidence.python_kwargs import (
    FUNCTION,
    KEY_READS,
    Function,
    Passes,
    callee_name,
    kwargs_use,
)

# What the dataclass decorator adds to a class, as the running interpreter makes it.
DATACLASS_MEMBERS = sorted(set(dir(dataclasses.make_dataclass("_Probe", []))) - set(dir(object)))
_LONG_FLAG = re.compile(r"--[A-Za-z][\w-]*")
_CODE_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9_]*[_.:-]")
# A constant's name with at least two words (`RUN_ERROR`, not `OK`): an enum member.
CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_CLI_MODULES = frozenset({"argparse", "click", "typer", "optparse", "rich_click", "cyclopts"})


def module_names(paths: Iterable[str]) -> dict[str, str]:
    """Path -> dotted module name for every Python file, importable as its package layout
    says: a file's module is its path from the folder above its outermost package (a folder
    with ``__init__.py``); a file outside any package is a top-level module named from its
    folder's import root (``src/`` and the repository root are roots)."""
    paths = [p for p in paths if p.endswith((".py", ".pyi"))]
    packages = {posixpath.dirname(p) for p in paths if posixpath.basename(p) == "__init__.py"}
    names: dict[str, str] = {}
    for path in paths:
        folder = posixpath.dirname(path)
        top = folder
        while top in packages:
            parent = posixpath.dirname(top)
            if parent not in packages:
                break
            top = parent
        root = posixpath.dirname(top) if top in packages else folder
        relative = path[len(root) + 1 :] if root else path
        stem = relative.rsplit(".", 1)[0]
        parts = stem.split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and all(part.isidentifier() for part in parts):
            names[path] = ".".join(parts)
    return names


def _dispatched(method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The prefixes of the methods ``method`` looks up on its own instance by a name made
    at run time: ``getattr(self, f"visit_{node.kind}", ...)`` gives ``visit_``."""
    arguments = method.args.posonlyargs + method.args.args
    if not arguments:
        return []
    own = arguments[0].arg
    prefixes: list[str] = []
    for node in ast.walk(method):
        if not (isinstance(node, ast.Call) and callee_name(node.func) == "getattr"):
            continue
        if len(node.args) < 2 or not isinstance(node.args[0], ast.Name):
            continue
        name = node.args[1]
        if node.args[0].id != own or not isinstance(name, ast.JoinedStr) or not name.values:
            continue
        head = name.values[0]
        text = head.value if isinstance(head, ast.Constant) else None
        if isinstance(text, str) and text.isidentifier() and len(name.values) > 1:
            prefixes.append(text)
    return prefixes


def _absolute(module: str, path: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    if not path.endswith("__init__.py") and not path.endswith("__init__.pyi"):
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
    return ".".join([*base, *([node.module] if node.module else [])])


def _expand_stars(facts: ModelFacts) -> None:
    """``from .m import *`` makes m's public names the importer's (cycles cut); a star
    import of a module outside the product keeps ``*`` (names the model cannot list)."""

    def names(module: str, seen: frozenset[str]) -> list[str]:
        own = facts.modules.get(module)
        if own is None:
            return ["*"]
        result = list(own)
        for other in facts.stars.get(module, []):
            if other not in seen:
                result += [n for n in names(other, seen | {other}) if n == "*" or n[:1] != "_"]
        return result

    for module in list(facts.stars):
        facts.modules[module] = sorted(set(names(module, frozenset({module}))))


_BOM = "\ufeff"


def read_python(sources: Mapping[str, str]) -> ModelFacts:
    """The facts of the Python files in ``sources`` (path -> text, product code only)."""
    facts = ModelFacts()
    modules = module_names(sources)
    tops = frozenset(module.split(".")[0] for module in modules.values())
    units: dict[str, UnitCalls] = {}
    altered: set[str] = set()  # names some code sets an attribute on (_attribute_owner)
    overridable: list[tuple[CallableFacts, str, list[str]]] = []
    for path in sorted(sources):
        # A script without a suffix (Python by its shebang, `bin/tool`) is no module one
        # imports: it is keyed by its path, as a JavaScript file is, and its parser read.
        module = modules.get(path) or (path if "." not in posixpath.basename(path) else None)
        if module is None:
            facts.unread[path] = "not importable under its package layout"
            continue
        try:
            # A UTF-8 byte order mark opens some files (Windows editors): Python runs them
            tree = ast.parse(sources[path].removeprefix(_BOM), filename=path)
        except (SyntaxError, ValueError) as exc:
            facts.unread[path] = f"does not parse: {exc.__class__.__name__}"
            continue
        facts.files += 1
        reader = _ModuleReader(path, module, facts, tops, altered)
        reader.read(tree)
        overridable += reader.overridable
        units[module] = read_unit(tree, path, module)
    for made in facts.callables:
        made.plain_function = made.plain_function and made.name not in altered
    _overridden(facts, overridable)
    _expand_stars(facts)
    facts.constant_owners &= set(facts.imports)
    facts.functions.extend(resolve_python(units, tops))
    return facts


class _ModuleReader:
    def __init__(
        self, path: str, module: str, facts: ModelFacts, tops: frozenset[str], altered: set[str]
    ) -> None:
        self.path = path
        self.altered = altered
        # Functions whose ``**kwargs`` were read through methods of their class (``owner``),
        # which a subclass may override: see _overridden.
        self.overridable: list[tuple[CallableFacts, str, list[str]]] = []
        self.module = module
        self.facts = facts
        self.tops = tops  # the product's top-level packages and modules
        self.top: dict[str, str] = {}  # top-level name -> kind
        self.all: list[str] | None = None
        self.all_grown = False  # `__all__ += other.__all__`: names written elsewhere
        self.lazy: list[str] = []  # names a module `__getattr__` answers for (PEP 562)
        self.literals: dict[str, list[str]] = {}  # module constants: a collection of strings
        self.stars: list[str] = []  # modules star-imported (absolute)
        self.binding: set[int] = set()  # the ``from`` imports that bind top-level names
        # The module's own functions, by name: a ``**kwargs`` passed whole to one is read
        # through it (see :func:`.python_kwargs.kwargs_use`).
        self.functions: dict[str, Function] = {}

    def decl(self, name: str, kind: str, owner: str, line: int) -> None:
        self.facts.decls.append(Decl(name, kind, owner, self.path, line))

    def read(self, tree: ast.Module) -> None:
        self.decl(self.module.rsplit(".", 1)[-1], "module", self.module, 1)
        self.functions = {n.name: n for n in tree.body if isinstance(n, FUNCTION)}
        self.body(tree.body)
        bound, frameworks, declares_options = self.imports(tree)
        for framework in frameworks:
            if framework not in self.facts.cli_frameworks:
                self.facts.cli_frameworks.append(framework)
        read = read_cli(tree, frameworks) if frameworks else CliRead()
        self.cli(read)
        tabled = {flag for flag, _command, _line in read.declared}  # under their commands
        for node in ast.walk(tree):
            self.keys_read(node)
            self.name_pattern(node)
            self.altered.update(_attribute_owner(node))
            if declares_options and isinstance(node, ast.Constant):
                value = node.value
                if isinstance(value, str) and _LONG_FLAG.fullmatch(value) and value not in tabled:
                    self.flag(value, node.lineno)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and CONSTANT_NAME.fullmatch(node.attr)
            ):
                self.facts.constant_owners.add(node.value.id)
        public = [n for n in self.top if n[:1] != "_"]
        if self.all is not None:
            # `__all__` governs `import *`; a name the module imports is still its attribute
            # (`pkg.agent.AgentSpec` where `pkg/agent/__init__.py` imports `AgentSpec`).
            imported = [n for n in public if self.top[n] == "import"]
            public = [*self.all, *imported]
        self.facts.modules[self.module] = sorted({*public, *self.lazy})
        for name in self.lazy:
            self.decl(name, "constant", self.module, 0)
        if self.stars and (self.all is None or self.all_grown):
            # An `__all__` grown by a star-imported module's (`__all__ += __cli_all__`).
            self.facts.stars[self.module] = self.stars

    def imports(self, tree: ast.Module) -> tuple[set[str], list[str], bool]:
        """One walk recording every import of the file that takes a name from another
        package, wherever it is (a function's lazy import, a ``TYPE_CHECKING`` block), or
        binds a top-level name (relative ones too). ``import a.b`` binds ``a``, a root
        readers write anyway; only an alias (``import numpy as np``) is the file's own.
        Returns the names absolute imports bind (constant owners), the CLI frameworks
        imported (only their calls declare commands and flags) and whether the file
        declares options (``addoption``, ``add_argument``: its ``--long`` strings, which it
        may keep in a table it loops over, are its flags)."""
        bound: set[str] = set()
        frameworks: list[str] = []
        declares_options = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                binds = self.module if id(node) in self.binding else ""
                if node.level and not binds:
                    continue  # a relative import inside a function: the product's own
                source = _absolute(self.module, self.path, node)
                if not node.level:
                    _add_framework(frameworks, source)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    local = alias.asname or alias.name
                    external = not node.level and source.split(".")[0] not in self.tops
                    if external or binds:
                        site = ImportSite(
                            local, source, alias.name, self.path, node.lineno, binds, external
                        )
                        self.facts.add_import(site)
                    if not node.level:
                        bound.add(local)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    _add_framework(frameworks, alias.name)
                    if alias.asname:
                        if alias.name.split(".")[0] not in self.tops:
                            site = ImportSite(alias.asname, alias.name, "", self.path, node.lineno)
                            self.facts.add_import(site)
                        bound.add(alias.asname)
            elif isinstance(node, ast.Call) and callee_name(node.func) in OPTION_CALLS:
                declares_options = True
        return bound, frameworks, declares_options

    def body(self, statements: list[ast.stmt], stand_ins: frozenset[str] = frozenset()) -> None:
        """Read a block's declarations; ``stand_ins`` are names the block defines only in
        place of another package's (the fallback of a ``try`` that imports them): the
        import binds them, the block's class or function is no declaration of the product."""
        for node in statements:
            if _defined_names(node) & stand_ins:
                continue
            if isinstance(node, ast.Try):
                # `try: from ag_ui.core import Interrupt` / `except ImportError: class
                # Interrupt: ...`: the fallback stands in for the other package's class.
                taken = self.external_names(node.body)
                for block in (node.body, node.orelse, node.finalbody):
                    self.body(block, stand_ins)
                for handler in node.handlers:
                    self.body(handler.body, stand_ins | taken)
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.top[node.name] = "function"
                self.function(node, self.module, "function")
                if node.name == "__getattr__":
                    self.lazy += _answered_names(node, self.literals)
            elif isinstance(node, ast.ClassDef):
                self.top[node.name] = "class"
                self.klass(node, self.module)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.top[alias.asname or alias.name.split(".")[0]] = "import"
            elif isinstance(node, ast.ImportFrom):
                self.binding.add(id(node))  # recorded by :meth:`imports`
                for alias in node.names:
                    if alias.name != "*":
                        self.top[alias.asname or alias.name] = "import"
                    else:
                        self.stars.append(_absolute(self.module, self.path, node))
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.assignment(node)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                # `if TYPE_CHECKING:`, `try: import x except ImportError:` and a loop's
                # variable bind module names too.
                if isinstance(node, ast.For):
                    for name in _names(node.target):
                        self.top.setdefault(name, "constant")
                for block in _blocks(node):
                    self.body(block, stand_ins)

    def external_names(self, statements: list[ast.stmt]) -> frozenset[str]:
        """The names a block's absolute ``from`` imports take from other packages."""
        return frozenset(
            alias.asname or alias.name
            for node in statements
            if isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").split(".")[0] not in self.tops
            for alias in node.names
            if alias.name != "*"
        )

    def assignment(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        alternatives = _union(node.value) if node.value is not None else []
        for target in targets:
            for name in _names(target):
                self.top.setdefault(name, "constant")
                self.decl(name, "constant", self.module, node.lineno)
                if alternatives and isinstance(target, ast.Name):
                    self.facts.union_aliases[f"{self.module}.{name}"] = alternatives
                if node.value is not None and isinstance(
                    node.value, (ast.Set, ast.List, ast.Tuple)
                ):
                    self.literals[name] = _strings(node.value)
                if name == "__all__" and node.value is not None:
                    values = _strings(node.value)
                    if isinstance(node, ast.AugAssign):
                        self.all = [*(self.all or []), *values]
                        self.all_grown = self.all_grown or not isinstance(
                            node.value, (ast.List, ast.Tuple, ast.Set, ast.Constant)
                        )
                    else:
                        self.all = values

    def function(
        self, node: Function, owner: str, kind: str, methods: Mapping[str, Function] | None = None
    ) -> None:
        qualname = f"{owner}.{node.name}"
        self.decl(node.name, kind, owner, node.lineno)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        static = any(callee_name(d) == "staticmethod" for d in node.decorator_list)
        if kind == "method" and positional and not static:
            positional = positional[1:]  # the instance or class it is bound to
        params = [a.arg for a in (*positional, *args.kwonlyargs)]
        for arg in (*positional, *args.kwonlyargs):
            self.typed(arg.arg, arg.annotation)
        if args.vararg is not None:
            params.append("*" + args.vararg.arg)
        for name in params:
            self.decl(name.lstrip("*"), "parameter", qualname, node.lineno)
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        made = CallableFacts(
            qualname,
            node.name,
            self.path,
            node.lineno,
            params,
            args.kwarg is not None,
            returns,
            _unpacked(args.kwarg.annotation) if args.kwarg is not None else "",
        )
        if args.kwarg is not None:
            passes = Passes(methods or {}, self.functions)
            made.kwargs_read, made.kwargs_to, made.kwargs_open = kwargs_use(
                node, args.kwarg.arg, passes
            )
            if passes.followed:
                self.overridable.append((made, owner, passes.followed))
        made.attaches = _returned_attributes(node)
        made.plain_function = not node.decorator_list
        self.facts.callables.append(made)

    def klass(self, node: ast.ClassDef, owner: str) -> None:
        qualname = f"{owner}.{node.name}"
        bases = [ast.unparse(b) for b in node.bases]
        kind = "enum" if any(b.rsplit(".", 1)[-1].endswith("Enum") for b in bases) else "class"
        self.decl(node.name, "class", owner, node.lineno)
        members: list[str] = []

        def member(name: str, what: str, line: int) -> None:
            if name not in members:
                members.append(name)
            self.decl(name, what, qualname, line)

        if any(callee_name(d.func if isinstance(d, ast.Call) else d) == "dataclass"
               for d in node.decorator_list):  # fmt: skip
            for name in DATACLASS_MEMBERS:
                member(name, "attribute", node.lineno)
        methods = {c.name: c for c in node.body if isinstance(c, FUNCTION)}
        for child in node.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                member(child.name, "method", child.lineno)
                self.function(child, qualname, "method", methods)
                for prefix in _dispatched(child):
                    known = self.facts.name_dispatch.setdefault(qualname, [])
                    if prefix not in known:
                        known.append(prefix)
                for inner in ast.walk(child):
                    for target in _self_targets(inner):
                        member(target, "attribute", getattr(inner, "lineno", child.lineno))
            elif isinstance(child, ast.ClassDef):
                member(child.name, "class", child.lineno)
                self.klass(child, qualname)
            elif isinstance(child, (ast.Assign, ast.AnnAssign)):
                assigned = child.targets if isinstance(child, ast.Assign) else [child.target]
                if isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                    self.typed(child.target.id, child.annotation, f"{qualname}.{child.target.id}")
                for expression in assigned:
                    for name in _names(expression):
                        member(name, "attribute", child.lineno)
        self.facts.classes.append(
            ClassFacts(qualname, node.name, self.path, node.lineno, members, bases, kind)
        )

    def typed(self, name: str, annotation: ast.expr | None, field_of: str = "") -> None:
        """Note the classes a parameter or (``field_of``: its qualname) a class attribute
        is annotated as."""
        if annotation is None:
            return
        written = _annotation_names(annotation)
        named = [n for n in written if n.rsplit(".", 1)[-1][:1].isupper()]
        one = named[0] if len(written) == 1 and named else ""
        counts = self.facts.declared_as.setdefault(name, {})
        counts[one] = counts.get(one, 0) + 1
        # A built-in (`str`, `int`) is no class of the product's: not kept.
        if named:
            known = self.facts.typed_names.setdefault(name, [])
            known.extend(n for n in named if n not in known)
            if field_of:
                self.facts.field_types[field_of] = named

    def keys_read(self, node: ast.AST) -> None:
        """``x.get("key")``, ``x["key"]``, ``os.getenv("KEY")``: keys the code reads."""
        key: ast.expr | None = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (callee_name(node.func) in KEY_READS or callee_name(node.func) == "getenv")
        ):
            key = node.args[0]
        value = key.value if isinstance(key, ast.Constant) else None
        if isinstance(value, str) and value and len(value) <= 80 and "\n" not in value:
            self.decl(value, "key", self.module, getattr(node, "lineno", 0))

    def name_pattern(self, node: ast.AST) -> None:
        """``f"FRONT_MATTER_{name}"``: codes made from a fixed prefix (kept as a pattern,
        ``FRONT_MATTER_*``, whose rest must be a word of the product's code)."""
        if not isinstance(node, ast.JoinedStr) or not node.values:
            return
        first = node.values[0]
        if len(node.values) < 2 or not isinstance(first, ast.Constant):
            return
        prefix = first.value
        if isinstance(prefix, str) and _CODE_PREFIX.fullmatch(prefix):
            self.decl(prefix + "*", "pattern", self.module, node.lineno)

    def cli(self, read: CliRead) -> None:
        """The commands and flags of the module's parser, each flag under its command."""
        for command, line in read.commands:
            self.command(command, line)
        for flag, command, line in read.declared:
            self.flag(flag, line, command)
        for flag, command, how in read.derived:
            self.facts.derived_flags.setdefault(normal_flag(flag), f"{self.path}: {how}")
            self.facts.add_command_flags(command, [normal_flag(flag)])
        self.facts.open_commands.extend(f"{self.path}:{line}" for line in read.open)

    def flag(self, flag: str, line: int, command: str = "") -> None:
        self.facts.flags.setdefault(normal_flag(flag), self.path)
        self.facts.add_command_flags(command, [normal_flag(flag)])
        self.decl(flag, "flag", self.module, line)

    def command(self, command: str, line: int) -> None:
        self.facts.commands.setdefault(command, self.path)
        self.decl(command, "command", self.module, line)


def _add_framework(found: list[str], module: str) -> None:
    """Note the CLI framework ``module`` belongs to, if any, once."""
    head = module.split(".")[0]
    if head in _CLI_MODULES and head not in found:
        found.append(head)


def _union(value: ast.expr) -> list[str]:
    """The names a union type alias joins (``Union[A, B]``, ``A | B``, ``None`` left out),
    as written; [] for any other value. ``A | B`` may be flags or numbers or'd together: a
    reader takes it for a union only where every name is a class."""
    if isinstance(value, ast.Subscript) and callee_name(value.value) == "Union":
        parts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
    elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr):
        parts = []
        stack: list[ast.expr] = [value]
        while stack:
            part = stack.pop()
            if isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr):
                stack += [part.right, part.left]
            else:
                parts.append(part)
    else:
        return []
    kept = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]
    if len(kept) < 2 or not all(isinstance(p, (ast.Name, ast.Attribute)) for p in kept):
        return []
    return [ast.unparse(p) for p in kept]


# Annotations whose first argument is the type itself (``Optional[Client]``).
_SAME_TYPE = frozenset({"Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired"})


def _annotation_names(annotation: ast.expr | None) -> list[str]:
    """The named types an annotation is (``Client``, ``mod.Client``, ``Client | None``,
    ``Optional[Client]``, ``Union[A, B]``, ``"Client"``), as written; [] for any other
    (a container of them, a callable, a literal)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return []
    if isinstance(annotation, (ast.Name, ast.Attribute)):
        return [ast.unparse(annotation)]
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return [*_annotation_names(annotation.left), *_annotation_names(annotation.right)]
    if isinstance(annotation, ast.Subscript):
        wrapper = callee_name(annotation.value)
        inner = annotation.slice
        items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if wrapper in _SAME_TYPE:
            return _annotation_names(items[0])
        if wrapper == "Union":
            return [name for item in items for name in _annotation_names(item)]
    return []


def _own_nodes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions or classes it defines."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(child))


def _returned_attributes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The attributes a body assigns on a local name it returns (`new_prog.detailed_results =
    result` then `return new_prog`): the product's code adds them to the value the call gives."""
    own = list(_own_nodes(node))
    returned = {
        n.value.id for n in own if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)
    }
    returned.discard("self")  # the class's own attributes are its members already
    found: list[str] = []
    for statement in own:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id in returned and target.attr not in found):  # fmt: skip
                    found.append(target.attr)
    return found


def _blocks(node: ast.If | ast.Try | ast.With | ast.For | ast.While) -> list[list[ast.stmt]]:
    if isinstance(node, (ast.If, ast.For, ast.While)):
        return [node.body, node.orelse]
    if isinstance(node, ast.Try):
        return [node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)]
    return [node.body]


def _defined_names(node: ast.stmt) -> set[str]:
    """The names a class, function or assignment statement binds (none for the others)."""
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {name for target in node.targets for name in _names(target)}
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        return set(_names(node.target))
    return set()


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for element in target.elts for n in _names(element)]
    return []


def _self_targets(node: ast.AST) -> list[str]:
    """``self.x = ...`` / ``self.x: T = ...`` targets in a method body."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    found: list[str] = []
    for target in targets:
        elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        for element in elements:
            if (
                isinstance(element, ast.Attribute)
                and isinstance(element.value, ast.Name)
                and element.value.id in ("self", "cls")
            ):
                found.append(element.attr)
    return found


def _overridden(facts: ModelFacts, overridable: list[tuple[CallableFacts, str, list[str]]]) -> None:
    """A ``**kwargs`` read through a method of its class (``self._populate(kwargs)``) is
    open when another class of the product defines a method of that name: a subclass's
    override may read other keys."""
    owners: dict[str, set[str]] = {}
    for decl in facts.decls:
        if decl.kind == "method":
            owners.setdefault(decl.name, set()).add(decl.owner)
    for made, owner, methods in overridable:
        if any(owners.get(name, set()) - {owner} for name in methods):
            made.kwargs_open = True


def _attribute_owner(node: ast.AST) -> list[str]:
    """The names ``node`` sets an attribute on or wraps: ``func.cache = {}``,
    ``core.func.cache = {}``, ``setattr(func, ...)``, ``func = lru_cache(func)`` (a class
    body's ``name = property(name)`` too): such a name need not hold a plain function."""
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        owners = [
            t.value.id if isinstance(t.value, ast.Name) else t.value.attr
            for t in targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, (ast.Name, ast.Attribute))
        ]
        if isinstance(node.value, ast.Call):
            wrapped = {a.id for a in node.value.args if isinstance(a, ast.Name)}
            owners += [t.id for t in targets if isinstance(t, ast.Name) and t.id in wrapped]
        return owners
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
        return [node.args[0].id] if callee_name(node.func) == "setattr" else []
    return []


def _answered_names(
    node: ast.FunctionDef | ast.AsyncFunctionDef, literals: dict[str, list[str]]
) -> list[str]:
    """The names a module ``__getattr__(name)`` tests its argument against (``name ==
    "x"``, ``name in ("a", "b")``, ``name in _DEPRECATED`` over a module constant): the
    attributes it answers for (PEP 562; click's deprecated names)."""
    params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    if not params:
        return []
    found: list[str] = []
    for test in ast.walk(node):
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            continue
        if not (isinstance(test.left, ast.Name) and test.left.id == params[0]):
            continue
        other = test.comparators[0]
        if isinstance(test.ops[0], ast.Eq):
            found += _strings_of([other])
        elif isinstance(test.ops[0], ast.In):
            found += literals.get(other.id, []) if isinstance(other, ast.Name) else _strings(other)
    return [name for name in dict.fromkeys(found) if name.isidentifier()]


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return _strings_of(node.elts)
    return _strings_of([node])


def _strings_of(nodes: Iterable[ast.expr]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _unpacked(annotation: ast.expr | None) -> str:
    """The TypedDict named by ``Unpack[T]`` (``typing.Unpack``, ``typing_extensions.Unpack``)
    as the annotation of ``**kwargs``, else ""."""
    if not isinstance(annotation, ast.Subscript):
        return ""
    if callee_name(annotation.value) != "Unpack":
        return ""
    inner = annotation.slice
    if isinstance(inner, ast.Name):
        return inner.id
    return inner.attr if isinstance(inner, ast.Attribute) else ""
