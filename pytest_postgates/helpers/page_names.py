"""Names a page's own code samples import from another package, read from syntax trees
(Python's ``ast``; tree-sitter for JavaScript/TypeScript), never by a search of text: a
local name the sample imports (``import``/``from``/``require``) from a package that is not
the product's (``from tenacity import stop_after_delay``, ``import sqlalchemy as sa``,
``const { z } = require('zod')``), with what it names there. Gate 2's dependency rules
(helpers/dependency_rules.py) look such a name up in that package's model.

Its own rules, ``defined-in-page`` (a name the page's sample declares) and
``imported-elsewhere`` (a name it imports from another package, unjudged), were deleted at
session 21 (bench/ablation.py at b9a2a19): on the held-out docs they decided 5 and 11
tokens and, off, no finding came or went; they decided no natural-drift report case and no
planted invention of the report half. Their table is empty.

A fence that does not parse, or a language other than these, imports nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.helpers.js_tree import named_nodes, pattern_names
from pytest_postgates.helpers.python_samples import parse_leniently, sample_code

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.post import Post

_TSX_LANGS = frozenset({"tsx", "jsx"})


RULES: tuple[()] = ()


@dataclass
class PageNames:
    foreign: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (package, line)
    # A foreign name -> what it names: the module or package, then the name imported from
    # it (`from a.b import c as d`: d -> ("a.b", "c"); `import a.b as m`: m -> ("a.b",);
    # `import x from "p"`: x -> ("p", "default")).
    imported: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def bring(self, local: str, package: str, line: int, name: str = "") -> None:
        if local not in self.foreign:
            self.foreign[local] = (package, line)
            self.imported[local] = (package, name) if name else (package,)


def page_names(
    post: Post,
    is_product: Callable[[str], bool],
    parsers: dict[str, Any] | None,
) -> PageNames:
    """The names ``post``'s Python and JavaScript/TypeScript fences import from other
    packages. ``is_product(spec)`` says whether an import specifier or module names the
    product (its imports are the product's names, not another package's); ``parsers`` are
    tree-sitter parsers by language (None: JavaScript/TypeScript fences are not read). A
    fence that quotes a file of the product's repository (`eslint.config.js` importing a
    shareable config) counts too: what it imports from another package is that package's."""
    names = PageNames()
    for fence in post.fences:
        kind = fence_kind(fence)
        line = fence.start_line
        if kind == "python":
            _python(fence.content, line, is_product, names)
        elif kind == "code" and parsers:
            parser = parsers.get("tsx" if fence.lang in _TSX_LANGS else "typescript")
            if parser is not None:
                _script(parser, fence.content, line, is_product, names)
    return names


# ---------------------------------------------------------------------- Python


def _python(content: str, line: int, is_product: Callable[[str], bool], names: PageNames) -> None:
    code, _rows = sample_code(content)
    tree = parse_leniently(code)
    if tree is None:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not is_product(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    names.foreign.setdefault(local, (alias.name, line))
                    names.imported.setdefault(local, (alias.name if alias.asname else local,))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or not module or is_product(module):
                continue  # a relative import is the reader's; the product's are its own
            for alias in node.names:
                if alias.name != "*":
                    names.bring(alias.asname or alias.name, module, line, alias.name)


# ---------------------------------------------------------------------- JavaScript / TypeScript


def _script(
    parser: Any, content: str, line: int, is_product: Callable[[str], bool], names: PageNames
) -> None:
    source = content.encode("utf-8")
    try:
        tree = parser.parse(source)
    except Exception:  # a parser that cannot read the fence declares nothing
        return

    def text(node: Any) -> str:
        return source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    for node in named_nodes(tree.root_node):
        if node.type == "variable_declarator":
            _declarator(node, text, line, is_product, names)
        elif node.type == "import_statement":
            _import(node, text, line, is_product, names)


def _declarator(
    node: Any, text: Callable[[Any], str], line: int, is_product: Callable[[str], bool],
    names: PageNames,
) -> None:  # fmt: skip
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    required = _required(value, text)
    if required is not None and not required.startswith(".") and not is_product(required):
        whole = name is not None and name.type == "identifier"  # `const x = require(p)`
        for bound in pattern_names(name) if name is not None else []:
            names.bring(text(bound), required, line, "" if whole else text(bound))


def _required(value: Any, text: Callable[[Any], str]) -> str | None:
    """The specifier of ``require('x')`` (``await import('x')`` too), or None."""
    while value is not None and value.type in ("await_expression", "parenthesized_expression"):
        value = value.named_children[0] if value.named_children else None
    if value is None or value.type != "call_expression":
        return None
    function = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    if function is None or text(function) not in ("require", "import") or arguments is None:
        return None
    first = arguments.named_children[0] if arguments.named_children else None
    if first is None or first.type != "string":
        return None
    return text(first).strip("'\"`")


def _import(
    node: Any, text: Callable[[Any], str], line: int, is_product: Callable[[str], bool],
    names: PageNames,
) -> None:  # fmt: skip
    source = node.child_by_field_name("source")
    if source is None:
        return
    specifier = text(source).strip("'\"`")
    if specifier.startswith(".") or is_product(specifier):
        return  # the reader's own module, or the product's names
    for child in named_nodes(node):
        if child.type == "import_specifier":
            imported = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias") or imported
            if alias is not None:
                names.bring(text(alias), specifier, line, text(imported) if imported else "")
        elif child.type == "namespace_import" or (
            child.type == "identifier" and child.parent is not None
            and child.parent.type == "import_clause"
        ):  # fmt: skip
            bound = (
                child
                if child.type == "identifier"
                else next((c for c in child.named_children if c.type == "identifier"), None)
            )
            if bound is not None:
                default = child.type == "identifier"  # `import x from p`; else `* as x`
                names.bring(text(bound), specifier, line, "default" if default else "")


def product_specifier(model: ApiModel, product_names: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether an import specifier names the product: its package, a module of it, or a
    package the repository publishes (a monorepo's workspace: `jest-changed-files` in jest's
    repository)."""
    names = {n.lower() for n in product_names if n}

    def is_product(spec: str) -> bool:
        lowered = spec.lower()
        if any(lowered == n or lowered.startswith((n + "/", n + ".")) for n in names):
            return True
        top = spec.split(".")[0]
        scoped = "/".join(spec.split("/")[:2]) if spec.startswith("@") else spec.split("/")[0]
        return spec in model.modules or top in model.modules or scoped in model.modules

    return is_product


def page_reader(
    post: Post,
    model: ApiModel,
    product_names: tuple[str, ...],
    package: str | None,
) -> Callable[[], PageNames]:
    """The names the post's own samples import, read on the first question only (most
    posts never ask: their tokens ground)."""
    is_product = product_specifier(model, (*product_names, package or ""))
    read: list[PageNames] = []

    def page() -> PageNames:
        if not read:
            parsers = load_parsers()
            readable = parsers if isinstance(parsers, dict) else None
            read.append(page_names(post, is_product, readable))
        return read[0]

    return page
