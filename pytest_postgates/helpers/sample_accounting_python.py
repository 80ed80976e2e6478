"""Gate 15's accounting of the Python fences it reads (issue 26: never silent), as
:mod:`.sample_accounting` does for JavaScript: after the reader
(:mod:`.python_samples`) ran, every attribute chain (``orm.em.remove_entity(book)``) and
every keyword argument of a call (``em.persist(book, flush=True)``) the fence parses that
no card entry names is listed ``unjudged`` with why its receiver or callee is not typed.
What is not the product's is left out: a chain or callee rooted at a built-in
(``print``, ``len``, ``str``), at a module or name imported from another package (``os``,
``numpy``), at a literal, at a function or class the page defines (and ``self`` in a class
whose bases are all of those), or at a variable the sample binds to one of those."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from dataclasses import dataclass, field

from pytest_postgates.helpers.python_samples import parse_leniently, sample_code
from pytest_postgates.helpers.sample_accounting import (
    HOLDS,
    NEVER_BOUND,
    OWN_RESULT,
    PARAMETER,
    PRODUCT_VALUE,
    UNTYPED_BINDING,
    CardNames,
    listing,
)
from pytest_postgates.helpers.sample_checks import SampleReport

_BUILTINS = frozenset(dir(builtins)) | {"__name__", "__file__"}
KEYWORD_OF = "a keyword argument of `{callee}()`: {why}"
SELF = "`{root}` is the instance of a class over `{base}`, which the gate does not type here"
OWN_CLASS = "`{root}` is the sample's class over `{base}`, which the gate does not type here"
DECORATED = "`{root}` is decorated with `@{decorator}`, which may replace it: its type is not shown"


@dataclass
class PythonPage:
    """What the page binds across its Python fences: other packages' names, its own
    functions and classes, and variables holding what is not the product's."""

    foreign: set[str] = field(default_factory=set)
    product: set[str] = field(default_factory=set)  # names imported from the product
    own: set[str] = field(default_factory=set)
    not_product: set[str] = field(default_factory=set)
    bound: set[str] = field(default_factory=set)
    # The page's classes and functions by name: a class over the product's base, a function
    # a decorator may replace, what a function returns are not the page's own.
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)


def target_names(target: ast.AST) -> list[ast.Name]:
    """The names an assignment (or ``for``, ``with``) target binds: ``a``, ``a, *b``; not
    the root of ``x.y = ...`` or ``x[k] = ...``, which binds nothing."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for item in target.elts for name in target_names(item)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def _root(node: ast.AST) -> ast.AST:
    while True:
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Await):
            node = node.value
        else:
            return node


def _shown(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_shown(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _shown(node.func) + "()"
    if isinstance(node, ast.Subscript):
        return _shown(node.value) + "[]"
    if isinstance(node, ast.Name):
        return node.id
    return type(node).__name__.lower()


class PythonAccount:
    def __init__(self, tree: ast.Module, page: PythonPage, tops: frozenset[str]) -> None:
        self.tree, self.page, self.tops = tree, page, tops
        self.parents: dict[ast.AST, ast.AST] = {}
        self.values: dict[str, ast.AST | None] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    top = (module or alias.name).split(".")[0]
                    ours = top in tops and not getattr(node, "level", 0)
                    (page.product if ours else page.foreign).add(local)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                page.own.add(node.name)
                if isinstance(node, ast.ClassDef):
                    page.classes[node.name] = node
                else:
                    page.functions.setdefault(node.name, node)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in target_names(target):
                        self.values.setdefault(name.id, node.value)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
                held = [node.target] if isinstance(node, ast.For | ast.AsyncFor) else [
                    i.optional_vars for i in node.items if i.optional_vars is not None
                ]  # fmt: skip
                for target in held:
                    for name in target_names(target):
                        self.values.setdefault(name.id, None)
        page.bound.update(self.values)
        for local, value in self.values.items():
            if value is not None and self.why(value, set()) is None:
                page.not_product.add(local)

    def why(self, node: ast.AST, seen: set[str]) -> str | None:
        root = _root(node)
        if isinstance(root, ast.Constant | ast.List | ast.Dict | ast.Tuple | ast.Set):
            return None
        if isinstance(root, ast.JoinedStr | ast.ListComp | ast.DictComp | ast.BinOp):
            return None
        if not isinstance(root, ast.Name):
            return f"the receiver `{_shown(root)}` is no name the gate types: its type is not shown"
        name = root.id
        # A parameter shadows what the page binds by its name.
        binder = self._parameter(root, name)
        if binder is not None:
            if name in ("self", "cls") and isinstance(binder, ast.ClassDef):
                bases = [_shown(b) for b in binder.bases]
                if all(self.why(b, seen | {binder.name}) is None for b in binder.bases):
                    return None
                return SELF.format(root=name, base=", ".join(bases))
            return PARAMETER.format(root=name)
        if name in self.page.product:
            return PRODUCT_VALUE.format(root=name, what=f"the product's `{name}`")
        if name in self.page.own:
            return self._own(root, name, seen)
        # This fence's binding of a name comes before another fence's and before a built-in
        # of the name (`filter = Filter(); filter.apply()`).
        if name in self.values:
            value = self.values[name]
            if value is None or name in seen:
                return UNTYPED_BINDING.format(root=name)
            if self.why(value, {*seen, name}) is None:
                return None
            return HOLDS.format(root=name, held=f"`{_shown(value)[:60]}`")
        if name in _BUILTINS or name in self.page.foreign:
            return None
        if name in self.page.not_product:
            return None
        if name in self.page.bound:
            return UNTYPED_BINDING.format(root=name)
        return NEVER_BOUND.format(root=name)

    def _own(self, node: ast.Name, name: str, seen: set[str]) -> str | None:
        """Why a class or function the page writes is not typed (None: its own): a class
        over a base of the product's, a function a product decorator may replace, the value
        a function returns."""
        if name in seen:
            return None
        cls = self.page.classes.get(name)
        if cls is not None:
            over = [b for b in cls.bases if self.why(b, {*seen, name}) is not None]
            return OWN_CLASS.format(root=name, base=_shown(over[0])) if over else None
        function = self.page.functions.get(name)
        if function is None:
            return None
        for decorator in function.decorator_list:
            if self.why(decorator, {*seen, name}) is not None:
                return DECORATED.format(root=name, decorator=_shown(decorator))
        parent = self.parents.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            return OWN_RESULT.format(root=name)
        return None

    def own_function(self, node: ast.AST) -> bool:
        """Whether a call calls a function the page writes that no product decorator may
        replace: its keyword arguments are the page's own parameters."""
        if not isinstance(node, ast.Name) or node.id not in self.page.functions:
            return False
        if self._parameter(node, node.id) is not None:
            return False
        function = self.page.functions[node.id]
        return all(self.why(d, {node.id}) is None for d in function.decorator_list)

    def _parameter(self, node: ast.AST, name: str) -> ast.AST | None:
        """The function binding ``name`` as a parameter around ``node`` (for ``self`` and
        ``cls`` of a method: the class), else None."""
        parent = self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                args = parent.args
                every = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                         *([args.vararg] if args.vararg else []),
                         *([args.kwarg] if args.kwarg else [])]  # fmt: skip
                if any(a.arg == name for a in every):
                    owner = self.parents.get(parent)
                    if name in ("self", "cls") and isinstance(owner, ast.ClassDef):
                        return owner
                    return parent
            parent = self.parents.get(parent)
        return None

    def chains(self) -> Iterator[tuple[ast.Attribute, list[tuple[int, str, str]], str | None]]:
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Attribute) or not self._outermost(node):
                continue
            steps: list[tuple[int, str, str]] = []
            at: ast.AST = node
            while True:
                if isinstance(at, ast.Attribute):
                    row = getattr(at, "end_lineno", None) or at.lineno
                    steps.append((row, at.attr, f"{_shown(at.value)}.{at.attr}"))
                    at = at.value
                elif isinstance(at, ast.Call):
                    at = at.func
                elif isinstance(at, ast.Subscript | ast.Await):
                    at = at.value
                else:
                    break
            yield node, list(reversed(steps)), self.why(node, set())

    def _outermost(self, node: ast.AST) -> bool:
        parent = self.parents.get(node)
        if isinstance(parent, ast.Attribute | ast.Subscript) and parent.value is node:
            return self._outermost(parent)
        if isinstance(parent, ast.Call) and parent.func is node:
            return self._outermost(parent)
        if isinstance(parent, ast.Await):
            return self._outermost(parent)
        return True

    def keywords(self) -> Iterator[tuple[int, str, str]]:
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call) or not node.keywords:
                continue
            why = self.why(node.func, set())
            if why is None or self.own_function(node.func):
                continue
            for keyword in node.keywords:
                if keyword.arg is not None:
                    row = getattr(keyword, "lineno", node.lineno)
                    yield row, keyword.arg, KEYWORD_OF.format(callee=_shown(node.func), why=why)


def account_python(
    report: SampleReport,
    card: CardNames,
    content: str,
    first: int,
    page: PythonPage,
    tops: frozenset[str],
) -> int:
    """List, unjudged, each attribute chain and keyword argument of one Python fence (or
    REPL session) the card does not name; the number listed."""
    code, where = sample_code(content)
    tree = parse_leniently(code)
    if tree is None:
        return 0
    shown = content.splitlines()
    lines = range(first, first + content.count("\n") + 1)

    def at(row: int) -> int:
        """The page line of a row of the parsed code."""
        return first + (where[row - 1] if 0 < row <= len(where) else 0)

    def text(line: int) -> str:
        return shown[line - first] if 0 <= line - first < len(shown) else ""

    account = PythonAccount(tree, page, tops)
    listed = 0
    for node, steps, why in account.chains():
        if why is None:
            continue
        missing = [(at(r), n) for r, n, use in steps if not card.names(at(r), n, use, lines)]
        if not missing:
            continue
        name, line = _shown(node), missing[0][0]
        reason = f"{name}: {why} ({', '.join(f'`{n}`' for _, n in missing)} not judged)"
        listing(report, line, text(line), reason, name)
        card.add(line, name, reason)
        listed += 1
    for row, keyword, reason in account.keywords():
        line = at(row)
        if card.names(line, keyword, "", lines):
            continue
        listing(report, line, text(line), reason, f"{keyword}=")
        card.add(line, keyword, reason)
        listed += 1
    return listed
