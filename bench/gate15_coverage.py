"""Gate 15's coverage of the fences it reads, on whole docs folders of the TUNE half (issue 26:
no silent tokens).

The product's rule: a token a gate does not judge is listed with its reason, never passed
silently. This bench runs gate 15 alone on each tune project's docs folder (the projects,
pins and checkout of bench/docs_precision.py: ``TUNE_PROJECTS`` + ``GATE15_TUNE_EXTRA``,
pins in bench/labels/gate15_docs_tune.jsonl) and, independently of the gate, enumerates
with a parser every token of the kinds gate 15 is meant to judge in each fence it reads
(JavaScript/TypeScript fences by tree-sitter, Python fences and REPL blocks by ``ast``):

- ``member``: each step of a member chain (``x.y``, ``a.b().c``);
- ``key``: each key of an object literal handed to a call or ``new`` (nested ones too,
  not inside a function handed along);
- ``keyword``: each keyword argument of a Python call;
- ``import``: each name imported from the product (``import { A } from 'pkg'``,
  ``const { A } = require('pkg')``, ``from pkg import A``).

A token is *accounted* when the card names it: an entry (checked, violation or unjudged)
at its line or up to three lines before it names the word, an entry of the same fence
quotes the use (``orm.em.find``), or an entry lists the whole fence (a fence not read, one
that does not parse). Otherwise it is *silent*, unless its root is plainly not the
product's, which is *excluded* and counted by reason: a global of the runtime or a builtin
of the language (``console``, ``JSON``, ``print``), a literal or a value the page binds to
one, a name imported from another package. Silent tokens are printed by cause: what the
chain's root is bound to (a product import, a local value, a parameter of a callback, a
free name, ``this``...) and the syntax around it (JSX, a template literal, a decorator, a
class body, a default parameter, spread, optional chaining, a computed member; Python
f-strings, comprehensions, with-statements, decorators...).

    python bench/gate15_coverage.py --project mikro-orm/mikro-orm --cache /tmp/x/dp-cache
    python bench/gate15_coverage.py --json OUT.json --results bench/results/gate15_coverage.json

Tune half only: the report half's docs are never read here.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import docs_precision as dp  # noqa: E402

from pytest_postgates.evidence.repomap import load_parsers  # noqa: E402
from pytest_postgates.helpers.code_fences import fence_kind  # noqa: E402
from pytest_postgates.helpers.js_tree import named_nodes, node_string, node_text  # noqa: E402
from pytest_postgates.helpers.python_samples import parse_leniently, sample_code  # noqa: E402
from pytest_postgates.helpers.sample_accounting import RUNTIME  # noqa: E402
from pytest_postgates.post import Fence, parse_post  # noqa: E402

KINDS = ("member", "key", "keyword", "import")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_BUILTINS = frozenset(dir(builtins))
_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "method_definition", "generator_function_declaration", "generator_function"}
)  # fmt: skip
_LITERALS = frozenset(
    {"string", "template_string", "number", "array", "object", "regex", "true", "false",
     "null", "undefined"}
)  # fmt: skip
# An entry that stands for every use of its fence (the fence is not read as code).
_WHOLE_FENCE = re.compile(
    r"fence (?:with no language )?(?:that )?(?:does not parse|is not read|parses as no)"
    r"|not read as code|its code is not read|old way|no release"
)
# The syntax around a JavaScript token (the first ancestor of these kinds, innermost first).
_JS_CONTEXTS = {
    "jsx_expression": "JSX", "jsx_attribute": "JSX", "template_substitution": "template literal",
    "decorator": "decorator", "spread_element": "spread", "assignment_pattern": "default parameter",
    "class_body": "class body",
}  # fmt: skip


@dataclass(frozen=True)
class Token:
    kind: str  # KINDS
    line: int  # page line
    name: str  # the member, key, keyword or imported name
    use: str  # as a reason quotes it (``orm.em.find``), or ""
    root: str  # what the root is bound to (a cause) or an exclusion (``excluded: ...``)
    context: str  # the syntax around it ("" plain)


@dataclass
class Coverage:
    accounted: Counter[str] = field(default_factory=Counter)  # by kind
    silent: Counter[str] = field(default_factory=Counter)
    excluded: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, reason)
    causes: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # kind, root, ctx
    examples: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    fences: int = 0
    docs: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Coverage) -> None:
        self.accounted.update(other.accounted)
        self.silent.update(other.silent)
        self.excluded.update(other.excluded)
        self.causes.update(other.causes)
        for key, shown in other.examples.items():
            self.examples.setdefault(key, []).extend(shown)
        self.fences += other.fences
        self.docs += other.docs
        self.problems.extend(other.problems)


# ------------------------------------------------------------------ JavaScript tokens


def _is_product_spec(spec: str | None, packages: set[str]) -> bool:
    if not spec or spec.startswith((".", "/")):
        return False
    return any(spec == p or spec.startswith(p + "/") for p in packages)


class JsPage:
    """What a page's JavaScript fences bind, across its fences (in page order)."""

    def __init__(self, packages: set[str]) -> None:
        self.packages = packages
        self.imports: dict[str, bool] = {}  # local -> from the product
        self.held: dict[str, str] = {}  # variable -> the cause of its value
        self.functions: set[str] = set()  # functions the page writes
        self.classes: dict[str, str] = {}  # classes the page writes -> their cause


class JsTokens:
    def __init__(self, source: bytes, first: int, page: JsPage) -> None:
        self.source, self.first, self.page = source, first, page
        self.packages = page.packages

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    def line(self, node: Any) -> int:
        return self.first + int(node.start_point[0])

    def bindings(self, root: Any) -> None:
        page = self.page
        for node in named_nodes(root):
            if node.type == "import_statement":
                spec = node_string(self.source, node.child_by_field_name("source"))
                ours = _is_product_spec(spec, self.packages)
                for name in named_nodes(node):
                    if name.type == "identifier" and name.parent.type in (
                        "import_clause", "namespace_import", "import_specifier"
                    ):  # fmt: skip
                        page.imports[self.text(name)] = ours
        for node in named_nodes(root):
            if node.type == "variable_declarator":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                if name is None:
                    continue
                spec = self._required(value)
                for local in [name, *named_nodes(name)]:
                    if local.type not in ("identifier", "shorthand_property_identifier_pattern"):
                        continue
                    word = self.text(local)
                    if spec is not None:
                        page.imports[word] = _is_product_spec(spec, self.packages)
                    elif value is None:
                        page.held[word] = self._annotated(node)
                    elif value.type in _FUNCTIONS:
                        page.functions.add(word)
                    else:
                        page.held[word] = self.cause(value, frozenset({word}))
            elif node.type in ("function_declaration", "generator_function_declaration"):
                named = node.child_by_field_name("name")
                if named is not None:
                    page.functions.add(self.text(named))
            elif node.type in ("class_declaration", "abstract_class_declaration"):
                named = node.child_by_field_name("name")
                if named is not None:
                    page.classes[self.text(named)] = self._class_cause(node)

    def _annotated(self, declarator: Any) -> str:
        """The cause of a variable declared with no value (``let app: FastifyInstance``):
        its annotation's type, when the page imports it."""
        annotation = declarator.child_by_field_name("type")
        named = next(
            (n for n in named_nodes(annotation) if n.type == "type_identifier"), None
        ) if annotation is not None else None  # fmt: skip
        if named is not None and self.text(named) in self.page.imports:
            ours = self.page.imports[self.text(named)]
            return "product import (annotated)" if ours else "excluded: another package"
        return "local value (no initializer)"

    def _class_cause(self, node: Any) -> str:
        heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
        bases = [
            b.named_children[0] if b.type == "extends_clause" and b.named_children else b
            for b in (heritage.named_children if heritage is not None else [])
            if b.type != "implements_clause"
        ]
        over = [c for c in (self.cause(b) for b in bases) if not c.startswith("excluded")]
        return f"the page's class over ({over[0]})" if over else "excluded: the page's own class"

    def _required(self, value: Any) -> str | None:
        while value is not None and value.type in ("await_expression", "member_expression"):
            value = value.named_children[0] if value.named_children else None
        if value is None or value.type != "call_expression":
            return None
        function = value.child_by_field_name("function")
        if function is None or self.text(function) not in ("require", "import"):
            return None
        args = value.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        return node_string(self.source, first) if first is not None else None

    def root_of(self, node: Any) -> Any:
        while True:
            if node.type in ("member_expression", "subscript_expression"):
                node = node.child_by_field_name("object")
            elif node.type == "call_expression":
                node = node.child_by_field_name("function")
            elif node.type in ("new_expression",):
                node = node.child_by_field_name("constructor")
            elif node.type in ("await_expression", "parenthesized_expression",
                               "non_null_expression", "as_expression",
                               "satisfies_expression") and node.named_children:  # fmt: skip
                node = node.named_children[0]
            else:
                return node
            if node is None:
                return None

    def cause(self, node: Any, seen: frozenset[str] = frozenset()) -> str:
        root = self.root_of(node)
        page = self.page
        if root is None:
            return "other root"
        if root.type in _LITERALS or root.type.startswith("jsx_"):
            return "excluded: a literal of the page"
        if root.type in _FUNCTIONS or root.type == "class":
            return "excluded: the page's own function"
        if root.type in ("this", "super"):
            owner = root.parent
            while owner is not None and owner.type not in (
                "class_declaration", "class", "abstract_class_declaration",
                "function_declaration", "function_expression", "function",
            ):  # fmt: skip
                owner = owner.parent
            if owner is not None and "class" in owner.type:
                return self._class_cause(owner)
            return "this"
        if root.type == "binary_expression":
            operator = root.child_by_field_name("operator")
            if operator is None or self.text(operator) not in ("||", "??", "&&"):
                return "excluded: a value the page computes"
            sides = [root.child_by_field_name(side) for side in ("left", "right")]
            causes = [self.cause(side, seen) for side in sides if side is not None]
            kept = [c for c in causes if not c.startswith("excluded")]
            return kept[0] if kept else "excluded: a value the page computes"
        if root.type != "identifier":
            return f"other root ({root.type})"
        name = self.text(root)
        binder = self._binder(root, name)
        if binder is not None:
            args = binder.parent
            call = args.parent if args is not None and args.type == "arguments" else None
            if call is not None:
                callee = call.child_by_field_name("function") or call.child_by_field_name(
                    "constructor"
                )
                if callee is not None and self.cause(callee, seen).startswith("excluded"):
                    return "excluded: a parameter of a callback handed to another party"
                return "callback parameter"
            return "parameter"
        if name in page.imports:
            return "product import" if page.imports[name] else "excluded: another package"
        if name in page.functions:
            called = root.parent is not None and root.parent.type == "call_expression"
            if called and root.parent.child_by_field_name("function") == root:
                return "the value the page's own function returns"
            return "excluded: the page's own function"
        if name in page.classes:
            return page.classes[name]
        if name in page.held and name not in seen:
            inner = page.held[name]
            return inner if inner.startswith("excluded") else f"local value ({inner})"
        if name in RUNTIME:
            return "excluded: a global of the runtime"
        return "free name"

    def _binder(self, node: Any, name: str) -> Any:
        parent = node.parent
        while parent is not None:
            if parent.type in _FUNCTIONS:
                held = parent.child_by_field_name("parameters") or parent.child_by_field_name(
                    "parameter"
                )
                if held is not None and any(
                    n.type in ("identifier", "shorthand_property_identifier_pattern")
                    and self.text(n) == name
                    for n in [held, *named_nodes(held)]
                ):
                    return parent
            elif parent.type in ("catch_clause", "for_in_statement"):
                held = parent.child_by_field_name("parameter") or parent.child_by_field_name("left")
                if held is not None and any(
                    self.text(n) == name for n in [held, *named_nodes(held)]
                ):
                    return parent
            parent = parent.parent
        return None

    def context(self, node: Any) -> str:
        parts: list[str] = []
        if node.type == "member_expression" and any(
            c.type == "optional_chain" for c in node.children
        ):
            parts.append("optional chaining")
        parent = node.parent
        while parent is not None:
            shown = _JS_CONTEXTS.get(parent.type)
            if (
                parent.type == "subscript_expression"
                and parent.child_by_field_name("index") is not None
                and _inside(node, parent.child_by_field_name("index"))
            ):
                shown = "computed member"
            if shown and shown not in parts:
                parts.append(shown)
            parent = parent.parent
        return ", ".join(parts)

    def tokens(self, root: Any) -> Iterator[Token]:
        self.bindings(root)
        for node in named_nodes(root):
            if node.type == "member_expression":
                prop = node.child_by_field_name("property")
                obj = node.child_by_field_name("object")
                if prop is None or obj is None or prop.type == "private_property_identifier":
                    continue
                name = self.text(prop)
                use = f"{' '.join(self.text(obj).split())[:60]}.{name}"
                yield Token("member", self.line(prop), name, use, self.cause(node),
                            self.context(node))  # fmt: skip
            elif node.type in ("call_expression", "new_expression"):
                callee = node.child_by_field_name("function") or node.child_by_field_name(
                    "constructor"
                )
                args = node.child_by_field_name("arguments")
                if callee is None or args is None or args.type != "arguments":
                    continue
                if self.text(callee) in ("require", "import"):
                    continue
                cause = self.cause(callee)
                if cause == "the value the page's own function returns":
                    cause = "excluded: the parameters of the page's own function"
                for arg in args.named_children:
                    for key in self._keys(arg):
                        word = (
                            node_string(self.source, key)
                            if key.type == "string"
                            else self.text(key)
                        )
                        if word:
                            yield Token("key", self.line(key), word, "", cause, self.context(key))
            elif node.type == "import_statement":
                spec = node_string(self.source, node.child_by_field_name("source"))
                ours = _is_product_spec(spec, self.packages)
                for item in named_nodes(node):
                    if item.type == "import_specifier":
                        named = item.child_by_field_name("name")
                        if named is not None:
                            yield Token("import", self.line(named), self.text(named), "",
                                        "product import" if ours else "excluded: another package",
                                        "")  # fmt: skip
            elif node.type == "variable_declarator":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                spec = self._required(value) if value is not None else None
                if name is None or value is None or name.type != "object_pattern":
                    continue
                if spec is None:  # `const { data } = load()`: members of what it gives
                    shown = " ".join(self.text(value).split())[:60]
                    for key in self._pattern_keys(name):
                        yield Token("member", self.line(key), self.text(key),
                                    f"{shown}.{self.text(key)}", self.cause(value),
                                    self.context(key))  # fmt: skip
                    continue
                ours = _is_product_spec(spec, self.packages)
                for item in name.named_children:
                    key = item.child_by_field_name("key") if item.type == "pair_pattern" else item
                    if key is not None and key.type in (
                        "shorthand_property_identifier_pattern", "property_identifier"
                    ):  # fmt: skip
                        yield Token("import", self.line(key), self.text(key), "",
                                    "product import" if ours else "excluded: another package",
                                    "")  # fmt: skip

    def _pattern_keys(self, pattern: Any) -> Iterator[Any]:
        for item in pattern.named_children:
            key = below = None
            if item.type == "shorthand_property_identifier_pattern":
                key = item
            elif item.type == "pair_pattern":
                key, below = item.child_by_field_name("key"), item.child_by_field_name("value")
            elif item.type == "object_assignment_pattern":
                key = item.child_by_field_name("left")
            if key is not None and key.type in (
                "shorthand_property_identifier_pattern", "property_identifier"
            ):  # fmt: skip
                yield key
            if below is not None and below.type == "object_pattern":
                yield from self._pattern_keys(below)

    def _keys(self, node: Any) -> Iterator[Any]:
        while node.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
            node = node.named_children[0]
        if node.type == "array":
            for item in node.named_children:
                yield from self._keys(item)
            return
        if node.type != "object":
            return
        for item in node.named_children:
            key = value = None
            if item.type == "pair":
                key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
            elif item.type == "shorthand_property_identifier":
                key = item
            elif item.type == "method_definition":
                key = item.child_by_field_name("name")
            if key is None or key.type not in (
                "property_identifier", "string", "shorthand_property_identifier"
            ):  # fmt: skip
                continue
            yield key
            if value is not None and value.type not in _FUNCTIONS:
                yield from self._keys(value)


def _inside(node: Any, outer: Any) -> bool:
    return bool(outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte)


# ------------------------------------------------------------------ Python tokens


def _target_names(target: ast.AST) -> Iterator[str]:
    """The names an assignment target binds (not those of ``x.y = ...`` or ``x[k] = ...``)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for item in target.elts:
            yield from _target_names(item)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


class PyTokens:
    def __init__(self, tree: ast.Module, at: Any, tops: set[str], earlier: dict[str, str]) -> None:
        self.tree, self.at, self.tops, self.earlier = tree, at, tops, earlier
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        self.imports: dict[str, bool] = {}
        self.values: dict[str, ast.AST | None] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
            if isinstance(node, ast.Import | ast.ImportFrom):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                for alias in node.names:
                    top = (module or alias.name).split(".")[0]
                    ours = top in tops and not getattr(node, "level", 0)
                    self.imports[alias.asname or alias.name.split(".")[0]] = ours
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(node.name, node)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in _target_names(target):
                        self.values.setdefault(name, node.value)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                for name in ast.walk(node.target):
                    if isinstance(name, ast.Name):
                        self.values.setdefault(name.id, None)
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    if item.optional_vars is not None:
                        for name in ast.walk(item.optional_vars):
                            if isinstance(name, ast.Name):
                                self.values.setdefault(name.id, item.context_expr)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.values.setdefault(node.name, None)

    def cause(self, node: ast.AST, seen: frozenset[str] = frozenset()) -> str:
        root = node
        while isinstance(root, ast.Attribute | ast.Subscript | ast.Call | ast.Await):
            root = root.func if isinstance(root, ast.Call) else root.value
        if isinstance(
            root, ast.Constant | ast.List | ast.Dict | ast.Tuple | ast.Set | ast.JoinedStr
        ):
            return "excluded: a literal of the page"
        if isinstance(root, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            return "excluded: a literal of the page"
        if isinstance(root, ast.BinOp | ast.Compare | ast.UnaryOp):
            return "excluded: a value the page computes"
        if not isinstance(root, ast.Name):
            return f"other root ({type(root).__name__})"
        name = root.id
        binder = self._binder(root, name)
        if binder == "self":
            owner = self._class_of(root)
            return "self" if owner is None else self._own_class(owner, seen)
        if binder is not None:
            return binder
        if name in self.imports:
            return "product import" if self.imports[name] else "excluded: another package"
        if name in self.classes:
            return self._own_class(self.classes[name], seen)
        if name in self.functions:
            function = self.functions[name]
            decorated = [self.cause(d, seen | {name}) for d in function.decorator_list]
            over = [c for c in decorated if not c.startswith("excluded")]
            if over:
                return f"a function the page decorates with ({over[0]})"
            parent = self.parents.get(root)
            if isinstance(parent, ast.Call) and parent.func is root:
                return "the value the page's own function returns"
            return "excluded: the page's own function"
        if name in self.values:
            value = self.values[name]
            if value is None or name in seen:
                return "local value (no value shown)"
            inner = self.cause(value, seen | {name})
            return inner if inner.startswith("excluded") else f"local value ({inner})"
        if name in self.earlier:
            return self.earlier[name]
        if name in _BUILTINS:
            return "excluded: a builtin"
        return "free name"

    def remember(self) -> None:
        """What this fence binds, for the page's later fences."""
        for name in [*self.imports, *self.classes, *self.functions, *self.values]:
            if name not in ("self", "cls"):
                self.earlier[name] = self.cause(ast.Name(id=name), frozenset())

    def _own_class(self, node: ast.ClassDef, seen: frozenset[str]) -> str:
        """A class the page defines: excluded when every base is not the product's."""
        if node.name in seen:
            return "excluded: the page's own class"
        causes = [self.cause(base, seen | {node.name}) for base in node.bases]
        over = [c for c in causes if not c.startswith("excluded")]
        if not over:
            return "excluded: the page's own class"
        return f"the page's class over ({over[0]})"

    def _class_of(self, node: ast.AST) -> ast.ClassDef | None:
        parent = self.parents.get(node)
        while parent is not None and not isinstance(parent, ast.ClassDef):
            parent = self.parents.get(parent)
        return parent

    def _binder(self, node: ast.AST, name: str) -> str | None:
        parent = self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                args = parent.args
                every = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                         *([args.vararg] if args.vararg else []),
                         *([args.kwarg] if args.kwarg else [])]  # fmt: skip
                if any(a.arg == name for a in every):
                    if name in ("self", "cls"):
                        return "self"
                    return "parameter"
            parent = self.parents.get(parent)
        return None

    def context(self, node: ast.AST) -> str:
        parts: list[str] = []
        child, parent = node, self.parents.get(node)
        while parent is not None:
            shown = None
            if isinstance(parent, ast.JoinedStr | ast.FormattedValue):
                shown = "f-string"
            elif isinstance(parent, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
                shown = "comprehension"
            elif isinstance(parent, ast.withitem):
                shown = "with-statement"
            elif isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and (
                child in parent.decorator_list
            ):
                shown = "decorator"
            elif isinstance(parent, ast.arguments) and (
                child in parent.defaults or child in parent.kw_defaults
            ):
                shown = "default parameter"
            elif isinstance(parent, ast.ClassDef) and child in parent.body:
                shown = "class body"
            elif isinstance(parent, ast.Lambda):
                shown = "lambda"
            if shown and shown not in parts:
                parts.append(shown)
            child, parent = parent, self.parents.get(parent)
        return ", ".join(parts)

    def _shown(self, node: ast.AST) -> str:
        if isinstance(node, ast.Attribute):
            return f"{self._shown(node.value)}.{node.attr}"
        if isinstance(node, ast.Call):
            return self._shown(node.func) + "()"
        if isinstance(node, ast.Subscript):
            return self._shown(node.value) + "[]"
        if isinstance(node, ast.Name):
            return node.id
        return type(node).__name__.lower()

    def tokens(self) -> Iterator[Token]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute):
                row = getattr(node, "end_lineno", None) or node.lineno
                use = f"{self._shown(node.value)}.{node.attr}"
                yield Token("member", self.at(row), node.attr, use, self.cause(node),
                            self.context(node))  # fmt: skip
            elif isinstance(node, ast.Call):
                cause = self.cause(node.func)
                if cause == "the value the page's own function returns":
                    cause = "excluded: the parameters of the page's own function"
                for keyword in node.keywords:
                    if keyword.arg is not None:
                        row = getattr(keyword, "lineno", node.lineno)
                        yield Token("keyword", self.at(row), keyword.arg, "", cause,
                                    self.context(node))  # fmt: skip
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                ours = node.module.split(".")[0] in self.tops
                for alias in node.names:
                    if alias.name != "*":
                        row = getattr(alias, "lineno", node.lineno)
                        yield Token("import", self.at(row), alias.name, "",
                                    "product import" if ours else "excluded: another package",
                                    "")  # fmt: skip


# ------------------------------------------------------------------ the card


@dataclass
class Card:
    words: dict[int, set[str]]
    reasons: list[tuple[int, str]]
    whole: list[int]  # lines of entries that stand for their whole fence
    statements: dict[int, str]  # unjudged entries' texts by line (an import statement's)

    @classmethod
    def of(cls, detail: dict[str, Any]) -> Card:
        words: dict[int, set[str]] = {}
        reasons: list[tuple[int, str]] = []
        whole: list[int] = []
        statements: dict[int, str] = {}
        for key in ("checked_names", "violations", "unjudged"):
            for entry in detail.get(key) or []:
                line = int(entry.get("line", 0))
                said = f"{entry.get('name', '')} {entry.get('reason', '')}"
                words.setdefault(line, set()).update(_WORD.findall(said))
                if entry.get("reason"):
                    reasons.append((line, str(entry["reason"])))
                    if key == "unjudged" and not entry.get("name"):
                        statements[line] = f"{statements.get(line, '')} {entry.get('text', '')}"
                    if key == "unjudged" and _WHOLE_FENCE.search(str(entry["reason"])):
                        whole.append(line)
        return cls(words, reasons, whole, statements)

    def accounts(self, token: Token, fence_lines: range) -> bool:
        if any(line in fence_lines for line in self.whole):
            return True
        words = _WORD.findall(token.name)  # ``no-unused-vars``: each of its words
        # An import statement's names are recorded at its first line, which may lie well
        # above the name's (``import {\n  A,\n  B,\n} from 'pkg'``): the fence's lines.
        near = fence_lines if token.kind == "import" else range(token.line - 3, token.line + 2)
        for line in near:
            said = self.words.get(line, set())
            if words and all(word in said for word in words):
                return True
        if token.kind == "import" and token.name in _WORD.findall(
            self.statements.get(token.line, "")
        ):  # an entry that lists the whole import statement with why
            return True
        listed = f"`{token.name}`"  # a chain's entry lists its steps: (`a`, `b` not judged)
        if any(
            at in fence_lines and listed in why and "not judged)" in why for at, why in self.reasons
        ):
            return True
        if token.use:
            return any(token.use in why for at, why in self.reasons if at in fence_lines)
        return False


# ------------------------------------------------------------------ a project


def _packages(detail: dict[str, Any]) -> set[str]:
    found = {p.strip() for p in str(detail.get("package") or "").split(",") if p.strip()}
    found |= {str(spec) for spec in (detail.get("resolved") or {}) if not str(spec).startswith(".")}
    return found


def fence_tokens(
    fence: Fence,
    kind: str,
    packages: set[str],
    parsers: dict[str, Any],
    js_page: JsPage,
    py_page: dict[str, str],
) -> list[Token]:
    first = fence.start_line + 1 if fence.markup else fence.start_line
    if kind == "code":
        parser = parsers["tsx" if fence.lang in ("tsx", "jsx") else "typescript"]
        source = fence.content.encode("utf-8")
        return list(JsTokens(source, first, js_page).tokens(parser.parse(source).root_node))
    code, where = sample_code(fence.content)
    tree = parse_leniently(code)
    if tree is None:
        return []

    def at(row: int) -> int:
        return first + (where[row - 1] if 0 < row <= len(where) else 0)

    tops = {p.replace("-", "_") for p in packages} | {
        p.split("/")[-1].replace("-", "_") for p in packages
    }
    reader = PyTokens(tree, at, tops, py_page)
    tokens = list(reader.tokens())
    reader.remember()
    return tokens


def measure_cards(
    read: Callable[[str], bytes | None], cards: Path, parsers: dict[str, Any]
) -> Coverage:
    """The coverage of the gate 15 cards in ``cards``, the docs read by ``read``."""
    cover = Coverage()
    for overall in sorted(cards.glob("*-overall.json")):
        doc = str(json.loads(overall.read_text(encoding="utf-8"))["post"])
        card_path = cards / f"{overall.name.removesuffix('-overall.json')}-gate15-code_samples.json"
        if not card_path.is_file():
            continue
        card = json.loads(card_path.read_text(encoding="utf-8"))
        if card.get("verdict") not in ("PASS", "FAIL"):
            continue
        detail = card.get("detail") or {}
        if len(detail.get("checked_names") or []) >= 2000:
            cover.problems.append(f"{doc}: checked_names cut at 2000")
        data = read(doc)
        if data is None:
            cover.problems.append(f"{doc}: not found")
            continue
        post = parse_post(Path(doc), data)
        names = Card.of(detail)
        packages = _packages(detail)
        js_page, py_page = JsPage(packages), dict[str, str]()
        cover.docs += 1
        for fence in sorted((*post.fences, *post.indented_code), key=lambda f: f.start_line):
            kind = fence_kind(fence)
            if kind not in ("code", "python"):
                continue
            cover.fences += 1
            lines = range(fence.start_line, fence.end_line + 1)
            for token in fence_tokens(fence, kind, packages, parsers, js_page, py_page):
                if token.root.startswith("excluded"):
                    cover.excluded[(token.kind, token.root.removeprefix("excluded: "))] += 1
                elif names.accounts(token, lines):
                    cover.accounted[token.kind] += 1
                else:
                    cover.silent[token.kind] += 1
                    key = (token.kind, token.root, token.context)
                    cover.causes[key] += 1
                    shown = cover.examples.setdefault(key, [])
                    if len(shown) < 3:
                        shown.append(f"{doc}:{token.line} {token.use or token.name}")
    return cover


def _reader(site: Path) -> Callable[[str], bytes | None]:
    def read(doc: str) -> bytes | None:
        path = site / doc
        return path.read_bytes() if path.is_file() else None

    return read


def _mirror_reader(mirror: Path, commit: str) -> Callable[[str], bytes | None]:
    def read(doc: str) -> bytes | None:
        shown = subprocess.run(["git", "-C", str(mirror), "show", f"{commit}:{doc}"],
                               capture_output=True, check=False)  # fmt: skip
        return shown.stdout if shown.returncode == 0 else None

    return read


def run_project(project: dp.Project, commit: str, mirrors: Path, keep: Path | None) -> Coverage:
    parsers = load_parsers()
    if isinstance(parsers, str):
        sys.exit(f"gate15_coverage: {parsers}")
    with tempfile.TemporaryDirectory(prefix="postgates-coverage-") as scratch:
        root = Path(scratch)
        site = dp.prepare_site(dp.mirror_of(project.name, mirrors), commit, project.docs, root)
        run = dp.gate_site(project, commit, site, root / "cards", 15)
        cover = measure_cards(_reader(site), root / "cards", parsers)
        cover.problems.extend(run.problems)
        if keep is not None:
            target = keep / project.name.replace("/", "+")
            target.mkdir(parents=True, exist_ok=True)
            for card in [*(root / "cards").glob("*gate15*.json"),
                         *(root / "cards").glob("*-overall.json")]:  # fmt: skip
                (target / card.name).write_bytes(card.read_bytes())
    return cover


def report(title: str, cover: Coverage, top: int) -> list[str]:
    lines = [f"{title}: {cover.docs} docs, {cover.fences} fences read"]
    for kind in KINDS:
        excluded = sum(n for (k, _), n in cover.excluded.items() if k == kind)
        lines.append(
            f"  {kind:8} accounted {cover.accounted[kind]:5}  silent {cover.silent[kind]:5}"
            f"  excluded {excluded:5}"
        )
    if cover.excluded:
        shown = ", ".join(f"{k} {why} {n}" for (k, why), n in cover.excluded.most_common())
        lines.append(f"  excluded by reason: {shown}")
    for (kind, root, context), n in cover.causes.most_common(top):
        where = f" in {context}" if context else ""
        examples = "; ".join(cover.examples.get((kind, root, context), []))
        lines.append(f"  silent {n:4}  {kind}: root {root}{where}  e.g. {examples}")
    lines.extend(f"  problem: {p}" for p in cover.problems[:10])
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", action="append", help="owner/name (repeatable; default all)")
    parser.add_argument("--cache", type=Path, help="XDG cache folder shared by the runs")
    parser.add_argument("--keep", type=Path, help="copy each project's gate 15 cards here")
    parser.add_argument(
        "--cards", type=Path,
        help="measure the cards a run kept (--keep) instead of running gate 15",
    )  # fmt: skip
    parser.add_argument("--top", type=int, default=25, help="silent causes printed per project")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    dp.SHARED_CACHE[:] = [args.cache.resolve()] if args.cache else []
    mirrors = Path(os.environ.get(dp.MIRRORS_ENV, dp.DEFAULT_MIRRORS))
    projects = (*dp.TUNE_PROJECTS, *dp.GATE15_TUNE_EXTRA)
    chosen = [p for p in projects if not args.project or p.name in args.project]
    if args.project and len(chosen) != len(set(args.project)):
        sys.exit(f"gate15_coverage: tune projects: {', '.join(p.name for p in projects)}")
    pins, _labels = dp.load_labels(dp.GATE15_TUNE_LABELS)
    record = None
    if args.results:
        from bench.results_json import Run

        record = Run("gate15_coverage", {"projects": [p.name for p in chosen]})
    total = Coverage()
    per: dict[str, Coverage] = {}
    for project in chosen:
        commit = pins.get(project.name)
        if commit is None:
            sys.exit(f"gate15_coverage: no pin for {project.name}")
        if args.cards is not None:
            parsers = load_parsers()
            assert not isinstance(parsers, str), parsers
            mirror = dp.mirror_of(project.name, mirrors)
            folder = args.cards / project.name.replace("/", "+")
            cover = measure_cards(_mirror_reader(mirror, commit), folder, parsers)
        else:
            cover = run_project(project, commit, mirrors, args.keep)
        per[project.name] = cover
        total.add(cover)
        print("\n".join(report(f"{project.name} at {commit[:12]}", cover, args.top)), flush=True)
    print("\n".join(report("OVERALL", total, args.top * 2)))
    if args.json:
        payload = {
            name: {
                "accounted": dict(c.accounted), "silent": dict(c.silent),
                "excluded": {f"{k}: {why}": n for (k, why), n in c.excluded.items()},
                "causes": [[k, root, ctx, n, c.examples.get((k, root, ctx), [])]
                           for (k, root, ctx), n in c.causes.most_common()],
                "docs": c.docs, "fences": c.fences, "problems": c.problems,
            }
            for name, c in {**per, "OVERALL": total}.items()
        }  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None:
        rows = record.table(
            "Tokens of the fences gate 15 reads on tune docs folders, by kind",
            [{"name": "project", "kind": "label"}, {"name": "kind", "kind": "label"},
             {"name": "accounted", "kind": "figure"}, {"name": "silent", "kind": "figure"},
             {"name": "excluded", "kind": "control"}],
        )  # fmt: skip
        for name, cover in {**per, "all": total}.items():
            for kind in KINDS:
                excluded = sum(n for (k, _), n in cover.excluded.items() if k == kind)
                rows.append([name, kind, cover.accounted[kind], cover.silent[kind], excluded])
        causes = record.table(
            "Silent tokens by cause (top 15, all projects)",
            [{"name": "kind", "kind": "label"}, {"name": "root", "kind": "label"},
             {"name": "context", "kind": "label"}, {"name": "tokens", "kind": "figure"}],
        )  # fmt: skip
        causes.extend(
            [k, root, ctx or "-", n] for (k, root, ctx), n in total.causes.most_common(15)
        )
        record.write(args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
