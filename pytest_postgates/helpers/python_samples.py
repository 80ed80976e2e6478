"""Gate 15's reader of Python fences (REPL ``>>>`` fences included), judged against the API
model through :class:`~pytest_postgates.helpers.python_types.PythonTypes`.

A post's Python fences are read in order as one session (a tutorial binds ``client`` in one
fence and uses it in the next). Every import of a product package is resolved to a module
of the model and each imported name must be a public name of it; module attributes, members
of classes and of instances the sample makes (constructed, returned by a product callable
whose declared return type is a product class, annotated, entered with ``with``, iterated
over), through chains and with inherited members, must be declared; keyword arguments of
calls to product callables must be parameters of the callee. A use the gate cannot type is
listed as unjudged with the reason; names the sample does not tie to the product are not
its business. Findings name the nearest real names."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable
from dataclasses import replace

from pytest_postgates.evidence.near_miss import near_name
from pytest_postgates.helpers.fence_parsers import parse_python
from pytest_postgates.helpers.js_comments import QUOTED_REASON
from pytest_postgates.helpers.python_comments import read_comments
from pytest_postgates.helpers.python_free_names import FreeNames
from pytest_postgates.helpers.python_function_values import function_attribute
from pytest_postgates.helpers.python_signatures import judge_signature, read_signature
from pytest_postgates.helpers.python_types import PythonTypes
from pytest_postgates.helpers.python_values import EITHER, Miss, PyValue, Unjudged
from pytest_postgates.helpers.sample_checks import SampleReport

# The kind of a value reached through a member the model says is missing.
INVENTED = "invented"
# A product value whose declared type is another library's (``-> Path``): members unjudged.
OUTSIDE = "outside"
# Names every module has without binding them: a sample's use of one is no free name.
_BUILTIN_NAMES = frozenset(dir(builtins))
# Members of the built-in types a product value may be (a str, a dict, a list...).
BUILTIN_MEMBERS = frozenset(
    name
    for kind in (str, bytes, int, float, complex, bool, list, dict, set, frozenset, tuple,
                 object, type, BaseException)
    for name in dir(kind)
)  # fmt: skip

INDENTED_NOT_PYTHON = (
    "an indented code block with no language that does not parse as Python: not read"
)
# `try: ... except* E as group:` (Python 3.11+): its handlers bind exception groups.
_TRY_STAR: tuple[type[ast.AST], ...] = (ast.TryStar,) if hasattr(ast, "TryStar") else ()
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_REPL_PROMPT = re.compile(r"^(>>>|\.\.\.)(?: |$)")
_PLACEHOLDER = re.compile(r"<[A-Za-z_][\w .:/-]*>")
# How many broken lines (a placeholder, a shell escape) a fence may have blanked.
_MAX_REPAIRS = 12
# A line that is only an elision (``...`` or ``…``), as among a call's arguments.
_ELISION = re.compile(r"^\s*(?:\.\.\.|\u2026),?\s*(?:#.*)?$")
# A line that starts a keyword argument (``    headers=[...]``), not a comparison.
_KEYWORD_LINE = re.compile(r"^(\s*[A-Za-z_]\w*)\s*=(?!=)")
# What a line's bracket depth counts: strings and comments are skipped.
_BRACKET_TEXT = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|#.*|[()\[\]{}]")


def _never_bound(root: str, member: str) -> str:
    return f"{root}.{member}: the page's samples never bind {root}, so its type is not known"


def sample_code(content: str) -> tuple[str, list[int]]:
    """The Python a fence holds and, per line of it, the fence line it came from. In a
    REPL fence (``>>>`` prompts) the prompts are cut and output lines dropped."""
    lines = content.splitlines()
    if not any(line.startswith(">>>") for line in lines):
        return content, list(range(len(lines)))
    code: list[str] = []
    where: list[int] = []
    for number, line in enumerate(lines):
        match = _REPL_PROMPT.match(line)
        if match:
            code.append(line[match.end() :])
            where.append(number)
    return "\n".join(code), where


def parse_leniently(code: str) -> ast.Module | None:
    """``code`` parsed, a line that does not parse (a ``<placeholder>``, a ``!pip``) made
    an empty statement of its indentation a few times over; None when it still fails.
    Inside brackets, a bare ``...`` line (the arguments a page leaves out) is blanked and a
    keyword argument whose value does not parse keeps its keyword (``headers=...,``)."""
    lines = code.splitlines()
    for _attempt in range(_MAX_REPAIRS):
        try:
            return parse_python("\n".join(lines))
        except SyntaxError as error:
            depths = _bracket_depths(lines)
            elided = [n for n, line in enumerate(lines) if depths[n] and _ELISION.match(line)]
            if elided:
                for number in elided:
                    lines[number] = ""
                continue
            number = (error.lineno or 0) - 1
            if not 0 <= number < len(lines):
                return None
            line = lines[number]
            indent = line[: len(line) - len(line.lstrip())]
            replacement = _PLACEHOLDER.sub("...", line)  # `Client(<options>)`: keep the rest
            keyword = _KEYWORD_LINE.match(line) if depths[number] else None
            if replacement == line and keyword and not line.rstrip().endswith("..."):
                replacement = f"{keyword.group(1)}=...,"
            if replacement == line:
                replacement = indent + ("if True:" if line.rstrip().endswith(":") else "pass")
            if line == replacement:
                return None
            lines[number] = replacement
        except ValueError:
            return None
    return None


def _bracket_depths(lines: list[str]) -> list[int]:
    """How many brackets are open where each line starts (strings and comments skipped,
    a triple-quoted string read as its quotes: an estimate for repairs only)."""
    depths: list[int] = []
    depth = 0
    for line in lines:
        depths.append(depth)
        for token in _BRACKET_TEXT.findall(line):
            if token in "([{":
                depth += 1
            elif token in ")]}":
                depth = max(0, depth - 1)
    return depths


class PythonSample:
    """One post's Python fences, read in order against the model."""

    def __init__(self, types: PythonTypes, report: SampleReport, ref: str) -> None:
        self.types = types
        self.report = report
        self.ref = ref
        self.env: dict[str, PyValue | None] = {}
        self.resolved: dict[str, str] = {}  # imported product module -> its file
        # The members the page uses on each name its samples never bind: (member, file
        # line, line text, the fence's first line), judged once the page is read.
        self.free_uses: dict[str, list[tuple[str, int, str]]] = {}
        self._lines: list[str] = []
        self._map: list[int] = []
        self._first = 0
        self.free = FreeNames()
        # The names a failed import binds that no code of the product writes: each use is
        # a finding (the value bound, the import's module, the nearest real names).
        self.failed: dict[str, tuple[PyValue, str, tuple[str, ...]]] = {}
        # The signature fences: the name, its parameters with rows, (lines, first line).
        self.signatures: list[tuple[str, list[tuple[str, int]], tuple[list[str], int]]] = []

    def fence(self, content: str, first_line: int) -> None:
        shown = read_signature(content)
        if shown is not None:  # `Name(param: type, ...)`: judged once the page is read
            lead = content[: len(content) - len(content.lstrip("\n"))].count("\n")
            at = (content.strip("\n").splitlines(), first_line + lead)
            self.signatures.append((*shown, at))
            return
        watched = self.types.tops | {n for n, v in self.env.items() if v is not None}
        code, where = sample_code(content)
        repl = code is not content  # a `>>>` session: Python by its prompts, always read
        code, quoted = read_comments(code)  # code commented out read as code
        tree = parse_leniently(code)
        free: set[str] = set()  # the names it loads and does not bind
        if tree is not None:  # the class names it uses free (python_free_names)
            free = self.free.read(tree, (content.splitlines(), where, first_line))
        named = set(_IDENTIFIER.findall(content))
        if not repl and not watched & named and not any(map(self._product_free, free)):
            self.free.unread_lines.update(range(first_line, first_line + len(content.split("\n"))))
            return  # neither imports the product nor uses a name bound to it or its own
        self._lines, self._map, self._first = content.splitlines(), where, first_line
        for row, name in quoted:  # a name a comment quotes: prose, listed
            line = where[row] if row < len(where) else 0
            text = self._lines[line] if line < len(self._lines) else ""
            self.report.skip(first_line + line, text, QUOTED_REASON, name)
        if tree is None:
            self.report.skip(first_line, content.splitlines()[0] if content else "",
                             "the fence does not parse as Python")  # fmt: skip
            return
        self.block(tree.body)

    def indented(self, content: str, first_line: int) -> None:
        """An indented code block that is no REPL session: read as Python when all of it
        parses as Python (no line repaired: an untagged block is Python only if it says so
        by its syntax); one that names the product and does not parse is listed unread."""
        try:
            ast.parse(content)
        except (SyntaxError, ValueError):
            watched = self.types.tops | {n for n, v in self.env.items() if v is not None}
            if watched & set(_IDENTIFIER.findall(content)):
                self.report.skip(first_line, content.split("\n", 1)[0], INDENTED_NOT_PYTHON)
            return
        self.fence(content, first_line)

    # -------------------------------------------------------------- reporting
    def _line(self, node: ast.AST) -> tuple[int, str]:
        row = getattr(node, "lineno", 1) - 1
        index = self._map[row] if 0 <= row < len(self._map) else 0
        text = self._lines[index] if index < len(self._lines) else ""
        return self._first + index, text

    def _count(self, node: ast.AST, kind: str, name: str) -> None:
        self.report.count(kind, self._line(node)[0], name)

    def _skip(self, node: ast.AST, reason: str) -> None:
        line, text = self._line(node)
        self.report.skip(line, text, reason)

    def _miss(self, node: ast.AST, kind: str, name: str, reason: str, miss: Miss) -> None:
        line, _text = self._line(node)
        if miss.nearest:
            reason += "; did you mean " + " or ".join(f"`{n}`" for n in miss.nearest[:3]) + "?"
        self.report.violation(line, kind, name, miss.where or miss.owner, reason,
                              list(miss.nearest))  # fmt: skip

    # -------------------------------------------------------------- statements
    def block(self, statements: Iterable[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            self.import_names(node)
        elif isinstance(node, ast.ImportFrom):
            self.import_from(node)
        elif isinstance(node, ast.Assign):
            value = self.value(node.value)
            for target in node.targets:
                self.bind(target, value)
        elif isinstance(node, ast.AnnAssign):
            value = self.value(node.value) if node.value is not None else None
            declared = self.annotated(node.annotation)
            self.bind(node.target, declared or value)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.bind(node.target, self.item(self.value(node.iter)))
            self.block(node.body)
            self.block(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                held = self.value(item.context_expr)
                if item.optional_vars is not None:
                    entered = self.types.entered(held) if held is not None else None
                    self.bind(item.optional_vars, entered)
            self.block(node.body)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.function(node)
        elif isinstance(node, ast.ClassDef):
            for expression in node.decorator_list:
                self.value(expression)
            bases = [self.value(expression) for expression in node.bases]
            for base in bases:
                if base is not None and base.kind in ("class", "union"):
                    for child in node.body:
                        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            self.hook(child, base, node.name)
            for keyword in node.keywords:
                self.value(keyword.value)
            saved = dict(self.env)
            self.block(node.body)
            self.env = saved
            self.env[node.name] = None
        else:
            self.children(node)

    def hook(
        self, method: ast.FunctionDef | ast.AsyncFunctionDef, base: PyValue, owner: str
    ) -> None:
        """A method a sample's subclass of a product class defines, where the product calls
        methods of that class by a name made at run time (``getattr(self, f"visit_{...}")``)
        and the method's name has that prefix: one of the product's own hooks of the
        family is judged true, a spelling of one that differs only in case is a finding
        (the lookup is by exact name), any other name is listed (the names the product
        makes are not known). A method of no such family is the subclass's own. A base that
        is a type alias of a union of product classes (``Extension = Union[VisitorExtension,
        InspectorExtension]``) is judged by the classes of it that make such names; a
        method any of them declares is an override."""
        name = method.name
        classes = base.alternatives or (base.name,)
        found = [(c, p) for c in classes for p in self.types.dispatch_prefixes(c)]
        dispatchers = [(c, p) for c, p in found if name.startswith(p)]
        if not dispatchers:
            return
        caller, prefix = dispatchers[0]
        family = self.types.hook_names(prefix)
        made = f'getattr(self, f"{prefix}...")'
        dispatch = f"{caller} calls its methods by a name made at run time ({made})"
        if base.kind == "union":
            dispatch = f"{base.name} is the type alias {' | '.join(classes)}, and {dispatch}"
        if name in family or any(name in self.types.model.members(c)[0] for c in classes):
            self._count(method, "member", name)
            return
        same = sorted(f for f in family if f.lower() == name.lower())
        if not same:
            self._skip(method, f"{owner}.{name}: {dispatch}; the product defines no "
                       f"{prefix} method of that name, so it is not judged")  # fmt: skip
            return
        self._count(method, "member", name)
        miss = Miss(name, base.name, tuple(same))
        self._miss(method, "member", f"{owner}.{name}",
                   f"{dispatch}, and the product's own methods of that family spell it "
                   f"{same[0]}: getattr looks a name up by its exact spelling, so {name} is "
                   "not the method it calls", miss)  # fmt: skip

    def children(self, node: ast.AST) -> None:
        """Every statement and expression under ``node``, in order (an except handler's
        name and a match capture bind nothing of the product's)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.statement(child)
            elif isinstance(child, ast.expr):
                self.value(child)
            elif isinstance(child, ast.ExceptHandler):
                self.handler(child, isinstance(node, _TRY_STAR))
            else:
                self.children(child)

    def handler(self, node: ast.ExceptHandler, group: bool) -> None:
        """``except APIException as exc``: ``exc`` is an instance of the class it catches;
        under ``except*`` it is an ExceptionGroup of them (the standard library's type)."""
        caught = self.value(node.type) if node.type is not None else None
        if node.name:
            held: PyValue | None = None
            if caught is not None and caught.kind == "class" and group:
                why = f"{node.name} is an ExceptionGroup of {caught.name} (except*), a type "
                held = PyValue(OUTSIDE, caught.name, node.name, reason=why + "outside the product")
            elif caught is not None and caught.kind == "class":
                held = PyValue("instance", caught.name, node.name)
            self.env[node.name] = held
        self.block(node.body)

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for expression in node.decorator_list:
            self.value(expression)
        arguments = node.args
        for default in (*arguments.defaults, *(d for d in arguments.kw_defaults if d)):
            self.value(default)
        saved = dict(self.env)
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for argument in every:
            typed = self.annotated(argument.annotation) if argument.annotation else None
            self.env[argument.arg] = replace(typed, shown=argument.arg) if typed else None
        if node.returns is not None:
            self.value(node.returns)
        self.block(node.body)
        self.env = saved
        self.env[node.name] = None

    def bind(self, target: ast.expr, value: PyValue | None) -> None:
        if isinstance(target, ast.Name):
            # Findings show the name the sample gave the value (`client.shut`).
            self.env[target.id] = replace(value, shown=target.id) if value else None
        elif isinstance(target, (ast.Tuple, ast.List)):
            plain = not any(isinstance(e, ast.Starred) for e in target.elts)
            tupled = value is not None and value.kind == "tuple" and plain
            if tupled and value is not None and len(value.elements) == len(target.elts):
                # A declared fixed-length tuple, unpacked by position.
                for element, held in zip(target.elts, value.elements, strict=True):
                    self.bind(element, held)
                return
            # An element of a product value: from the product, of a type not known.
            element_value = None
            if value is not None:
                why = f"an element of {value.shown}, which the model does not split"
                element_value = PyValue("unknown", "", "", reason=why)
            for element in target.elts:
                self.bind(element, element_value)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value)
        else:
            self.value(target)  # `client.timeout = 3`: the member must exist

    def annotated(self, annotation: ast.expr) -> PyValue | None:
        """An instance of the class an annotation names (``client: kit.Client``)."""
        named = self.value(annotation)
        if named is not None and named.kind == "class":
            return PyValue("instance", named.name, named.shown)
        return None

    # -------------------------------------------------------------- imports
    def import_names(self, node: ast.Import) -> None:
        for alias in node.names:
            dotted = alias.name
            top = dotted.split(".")[0]
            bound = alias.asname or top
            if top not in self.types.tops:
                self.env[bound] = None
                continue
            self._count(node, "python", dotted)
            if not self.types.is_module(dotted):
                miss = self.types.module_miss(dotted)
                self._miss(node, "python_import", dotted,
                           f"no module {dotted} at {self.ref}: {miss.owner} has no submodule "
                           f"{miss.missing}", miss)  # fmt: skip
                self.env[bound] = None
                continue
            self._resolved(dotted)
            self.env[bound] = PyValue("module", dotted if alias.asname else top, bound)

    def import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        names = [alias for alias in node.names if alias.name != "*"]
        if node.level or module.split(".")[0] not in self.types.tops:
            for alias in names:
                self.env[alias.asname or alias.name] = None
            return
        self._count(node, "python", module)
        if not self.types.is_module(module):
            miss = self.types.module_miss(module)
            # The names the line imports are named too: none of them can be imported.
            shown = f"from {module} import {', '.join(a.name for a in names)}" if names else module
            self._miss(node, "python_import", shown,
                       f"no module {module} at {self.ref}: {miss.owner} has no submodule "
                       f"{miss.missing}", miss)  # fmt: skip
            for alias in names:
                # The path is wrong, not the name when the product has one class (or one
                # union type alias of classes) of that name (`When`, imported from a module
                # that moved): its uses are judged.
                bound = alias.asname or alias.name
                classes = {entry.qualname for entry in self.types.entries(alias.name)}
                one = PyValue("class", alias.name, bound) if len(classes) == 1 else None
                self.env[bound] = one or (
                    None if classes else self.types.union_named(alias.name, bound)
                )
                if self.env[bound] is None:
                    self._invented(alias.name, bound, module, ())
            return
        self._resolved(module)
        for alias in names:
            bound = alias.asname or alias.name
            found = self.types.module_name(module, alias.name, bound)
            self.env[bound] = None
            if isinstance(found, Unjudged):
                self._skip(alias, f"{alias.name}: {found.reason}")
                continue
            self._count(alias, "python", alias.name)
            if isinstance(found, Miss):
                self._miss(alias, "python_import", f"{module}.{alias.name}",
                           f"{alias.name} is not a public name of {module}", found)  # fmt: skip
                self._invented(alias.name, bound, module, found.nearest)
                continue
            self.env[bound] = found

    def _invented(self, name: str, bound: str, module: str, nearest: tuple[str, ...]) -> None:
        """``bound``, which an import of ``name`` from ``module`` that failed binds: when no
        code of the product writes ``name``, invented (its uses are findings)."""
        if self.types.written(name):
            return
        held = PyValue(INVENTED, name, bound)
        self.env[bound] = held
        self.failed[bound] = (held, module, nearest or tuple(self.types.model.nearest(name)))

    def _invented_use(self, node: ast.Name, held: PyValue) -> None:
        _held, module, nearest = self.failed[node.id]
        self._count(node, "python_name", node.id)
        self._miss(node, "python_name", node.id,
                   f"{node.id} is bound by a failed import from {module}, and no code of the "
                   f"product names {held.name}", Miss(held.name, module, nearest))  # fmt: skip

    def _resolved(self, module: str) -> None:
        path = self.types.paths.get(module, "")
        if path:
            self.resolved[module] = path

    # -------------------------------------------------------------- expressions
    def value(self, node: ast.expr) -> PyValue | None:
        """What ``node`` holds, every product use in it checked on the way."""
        if isinstance(node, ast.Name):
            if node.id not in self.env and node.id in self.types.tops:
                # A doc writes `httpx.get(...)` without the import a reader adds.
                return PyValue("module", node.id, node.id)
            held = self.env.get(node.id)
            if held is not None and node.id in self.failed and self.failed[node.id][0] is held:
                self._invented_use(node, held)
            if node.id not in self.env and node.id not in _BUILTIN_NAMES:
                return self.types.unbound(node.id)  # `get_model(...)` with no import
            return held
        if isinstance(node, ast.Attribute):
            root = node.value
            if isinstance(root, ast.Name) and self._free(root.id):
                # A name no sample binds (`exc` in a REPL line): its type is not shown.
                line, text = self._line(node)
                uses = self.free_uses.setdefault(root.id, [])
                uses.append((node.attr, line, text))
                self.report.skip(line, text, _never_bound(root.id, node.attr))
            return self.attribute(self.value(node.value), node)
        if isinstance(node, ast.Call):
            callee = self.value(node.func)
            for argument in node.args:
                self.value(argument)
            for keyword in node.keywords:
                self.value(keyword.value)
            return self.call(callee, node)
        if isinstance(node, ast.Await):
            return self.value(node.value)
        if isinstance(node, ast.NamedExpr):
            held = self.value(node.value)
            self.bind(node.target, held)
            return held
        if isinstance(node, ast.Subscript):
            held = self.value(node.value)
            self.value(node.slice)
            if held is not None and held.kind == "container":
                return PyValue("instance", held.name, f"{held.shown}[]")
            if held is not None and held.kind == INVENTED:
                return PyValue(INVENTED, held.name, f"{held.shown}[]")
            if held is not None and held.kind == "class":
                return held  # a generic class subscripted (`Box[int]`)
            if held is not None and held.kind in (OUTSIDE, "unknown", "instance"):
                # An item of a product value (`r.headers["x"]`): from the product, its type
                # not known (another library's, when the value is).
                why = held.reason or f"an item of {held.shown}, whose type the model does not know"
                kind = OUTSIDE if held.kind == OUTSIDE else "unknown"
                return PyValue(kind, held.name, f"{held.shown}[]", reason=why)
            return None
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            saved = dict(self.env)
            for generator in node.generators:
                self.bind(generator.target, self.item(self.value(generator.iter)))
                for condition in generator.ifs:
                    self.value(condition)
            parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in parts:
                self.value(part)
            self.env = saved
            return None
        if isinstance(node, ast.Lambda):
            saved = dict(self.env)
            for parameter in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                self.env[parameter.arg] = None
            self.value(node.body)
            self.env = saved
            return None
        self.children(node)
        return None

    def untyped_members(self) -> None:
        """The members the page uses on a name its samples never bind (``exc`` in a REPL
        session), judged once the page is read: where its other members there, two or
        more that no built-in type has, are together those of one product class (and its
        subclasses) only, a member that no code of the product names and that is a near
        miss of one of that class's members is a finding. A subclass may add members of
        its own (a model's fields), so any other name stays listed unjudged, as does every
        use of a name not so typed. The page's signature fences are judged here too
        (python_signatures)."""
        for name, params, at in self.signatures:
            self._lines, self._map, self._first = at[0], list(range(len(at[0]))), at[1]
            held = self.value(ast.parse(name, mode="eval").body)
            judge_signature(held, name, params, at, (self.types, self.report, self._miss))
        model = self.types.model
        for root, uses in self.free_uses.items():
            used = {use[0] for use in uses}
            missing = {n for n in used if not self.types.written(n) and n not in BUILTIN_MEMBERS}
            known = used - missing
            if not missing or len(known - BUILTIN_MEMBERS) < 2:
                continue
            family = self.types.family(known)
            if family is None:
                continue
            members = model.members(family)[0]
            where = self.types.entries(family)[0].path
            shared = ", ".join(sorted(known))
            for name, line, text in uses:
                real = near_name(model, name) if name in missing else None
                if real is None or real not in members:
                    continue
                entry = {"line": line, "text": text.strip()[:160],
                         "reason": _never_bound(root, name)}  # fmt: skip
                if entry in self.report.unjudged:
                    self.report.unjudged.remove(entry)
                self.report.count("member", line, name)
                nearest = list(dict.fromkeys([real, *model.nearest(name, members)]))
                reason = (f"the page never binds {root}, but the other members it uses on it "
                          f"({shared}) are together only {family}'s (or a subclass's); no code "
                          f"of the product names {name}, a near miss of {family}'s {real}; "
                          "did you mean ")  # fmt: skip
                reason += " or ".join(f"`{n}`" for n in nearest[:3]) + "?"
                self.report.violation(line, "member", f"{root}.{name}", where, reason, nearest)

    def _product_free(self, name: str) -> bool:
        """Whether ``name``, not bound so far, holds the product's (PythonTypes.unbound)."""
        free = name not in self.env and name not in _BUILTIN_NAMES and len(name) > 1
        return free and self.types.unbound(name) is not None

    def _free(self, name: str) -> bool:
        if name in self.env or name in self.types.tops or name in _BUILTIN_NAMES:
            return False
        return self.types.unbound(name) is None

    def item(self, held: PyValue | None) -> PyValue | None:
        """What iterating over ``held`` gives (a container's item; an unknown's unknown)."""
        if held is None:
            return None
        if held.kind == "container":
            return PyValue("instance", held.name, f"an item of {held.shown}")
        if held.kind in (INVENTED, OUTSIDE):
            return replace(held, shown=f"an item of {held.shown}")
        if held.kind in ("unknown", "instance", "callable"):
            return PyValue("unknown", held.name, f"an item of {held.shown}")
        return None

    def attribute(self, held: PyValue | None, node: ast.Attribute) -> PyValue | None:
        name = node.attr
        if held is None:
            return None
        shown = f"{held.shown}.{name}"
        if held.kind == "container":
            self._skip(node, f"{shown}: {held.shown} holds {held.name} items; the container's "
                       "own type is not known")  # fmt: skip
            return None
        if held.kind == OUTSIDE:
            self._skip(node, f"{shown}: {held.reason}")
            return PyValue(OUTSIDE, name, shown, reason=held.reason)
        read = function_attribute(self.types, held, name, shown)  # a function's own
        if held.kind == "callable" and read is None:
            # A member read without a call after a method: a property's value.
            typed = self.types.returned(held)
            if typed is None and self.types.outside(held):
                # `-> str`: not the product's value
                outside = self._outside(held)
                self._skip(node, f"{shown}: {outside.reason}")
                return replace(outside, name=name, shown=shown)
            if typed is None:
                self._skip(node, f"{shown}: the model does not know the type of {held.shown}")
                return PyValue("unknown", name, shown)
            held = typed
        if read is not None:
            (found, reason), kind, label = read, "member", shown
        elif held.kind == "module":
            found = self.types.module_name(held.name, name, shown)
            kind, reason = "python_attribute", f"{held.name} has no attribute {name}"
            label = f"{held.name}.{name}"
        elif held.kind in ("class", "instance"):
            found = self.types.member(held.name, name, shown, held.kind == "class")
            found = self.types.code_named_member(held, name, found)
            found = PyValue("unknown", name, shown) if name in held.attached else found
            kind, reason = "member", f"{held.name} has no member {name}"
            label = shown
        elif held.kind == EITHER:
            found = self.types.either_member(held, name, shown)
            kind, label = "member", shown
            reason = f"{held.shown} is one of {', '.join(held.alternatives)}, none has {name}"
        elif held.kind == INVENTED:
            return self.after_miss(node, held, name, shown)
        else:
            why = held.reason or f"the model does not know the type of {held.shown}"
            self._skip(node, f"{shown}: {why}")
            return PyValue("unknown", name, shown)
        if isinstance(found, Unjudged):
            self._skip(node, f"{shown}: {found.reason}")
            return None
        self._count(node, kind, name)
        if isinstance(found, Miss):
            self._miss(node, kind, label, reason, found)
            # What the sample goes on to use of it is built on a member that is not there.
            return PyValue(INVENTED, name, shown)
        return found

    def _outside(self, held: PyValue) -> PyValue:
        """What a product callable whose declared return type is another library's gives."""
        returns = " | ".join(dict.fromkeys(f.returns for f in held.callables if f.returns))
        reason = f"{held.shown} returns {returns}, a type outside the product's code"
        return PyValue(OUTSIDE, held.name, f"{held.shown}()", reason=reason)

    def after_miss(self, node: ast.Attribute, held: PyValue, name: str, shown: str) -> PyValue:
        """A member of a value reached through a missing member (``item`` of a
        ``result.history`` the class does not have): no type says what it has, but a name no
        code of the product writes and no built-in type has is invented as well; any other
        name is left alone (the miss before it is the finding)."""
        if not self.types.written(name) and name not in BUILTIN_MEMBERS:
            self._count(node, "member", name)
            self.report.violation(self._line(node)[0], "member", shown, "",
                                  f"{name}: {held.shown} follows a missing member, and no code "
                                  f"of the product names {name}", [])  # fmt: skip
        else:
            self._skip(node, f"{shown}: {held.shown} follows a missing member; {name} is not "
                       "judged on it")  # fmt: skip
        return PyValue(INVENTED, name, shown)

    def call(self, callee: PyValue | None, node: ast.Call) -> PyValue | None:
        if callee is None or callee.kind in ("module", "container"):
            return None
        shown = f"{callee.shown}()"
        if callee.kind == "class":
            made = self.types.constructor(callee.name)
            keywords = [k for k in node.keywords if k.arg]
            if made.problem:
                for keyword in keywords:  # a field known is judged; any other is not
                    if keyword.arg in (made.fields or ()):
                        self._count(keyword, "keyword", keyword.arg or "")
                        continue
                    self._skip(keyword, f"{callee.shown}({keyword.arg}=): {made.problem}")
            else:
                params, var_keyword = self.types.taken(made.callables)
                params |= made.fields or frozenset()
                self.keywords(node, callee.shown, params, var_keyword, params)
            return PyValue("instance", callee.name, shown)
        if callee.kind == "instance":
            found = self.types.method(callee.name, "__call__")
            if not found:
                return PyValue("unknown", callee.name, shown)
            callee = PyValue("callable", "__call__", callee.shown, found, callee.name)
        if callee.kind in (INVENTED, OUTSIDE):
            return replace(callee, shown=shown)
        if callee.kind == "unknown" and callee.reason:
            # A callee the model can name but not read (another library's, an assignment):
            # its keywords are listed, not judged against a same-named function.
            for keyword in node.keywords:
                if keyword.arg:
                    self._skip(keyword, f"{callee.shown}({keyword.arg}=): {callee.reason}")
        if callee.kind == "callable":
            self.check_callable(node, callee)
            typed = self.types.returned(callee)
            if typed is None and self.types.outside(callee):
                return self._outside(callee)  # `-> Path`: another library's value
            return typed or PyValue("unknown", callee.name, shown)
        return PyValue("unknown", callee.name, shown)

    def check_callable(self, node: ast.Call, callee: PyValue) -> None:
        params, var_keyword = self.types.taken(callee.callables)
        self.keywords(node, callee.shown, params, var_keyword, params)

    def keywords(
        self,
        node: ast.Call,
        shown: str,
        params: Iterable[str],
        var_keyword: bool,
        pool: Iterable[str],
    ) -> None:
        accepted = set(params)
        for keyword in node.keywords:
            name = keyword.arg
            if not name:
                continue  # `**options`: keys the sample does not show
            if name in accepted:
                self._count(keyword, "keyword", name)
            elif var_keyword:
                self._skip(keyword, f"{shown}({name}=): {shown} accepts **kwargs")
            else:
                self._count(keyword, "keyword", name)
                nearest = tuple(self.types.model.nearest(name, pool))
                miss = Miss(name, shown, nearest)
                self._miss(keyword, "keyword_argument", f"{shown}({name}=)",
                           f"{shown}() takes no keyword argument {name}", miss)  # fmt: skip
