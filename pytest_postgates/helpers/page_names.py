"""Names a page's own code samples give their own things, and names they import from
another package, read from syntax trees (Python's ``ast``; tree-sitter for
JavaScript/TypeScript), never by a search of text: gate 2's ``defined-in-page`` and
``imported-elsewhere`` rules (issue 24).

- declared: what a sample defines: a function, class, interface, type or enum, a variable
  (``const``/``let``/``var``, also without a value; a Python assignment, loop or ``with``
  target), a parameter of a function the sample writes, a field of a class it writes. Not
  the keys of an object or dict it writes: passed to the product, a key names the
  product's option, and the key alone cannot tell a closed type from a free-form one (a
  held-out NeuroLink defect, `input: { officeFiles }`, was such a key);
- members: ``head.name`` the sample sets (``app.util = ...``) or decorates
  (``fastify.decorate('util', ...)``), and the names it decorates;
- foreign: a local name the sample imports (``import``/``from``/``require``) from a package
  that is not the product's (``from tenacity import stop_after_delay``, ``import sqlalchemy
  as sa``, ``const { z } = require('zod')``), with that package.

A fence that does not parse, or a language other than these, declares nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.grounding import quoted_source_file
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.helpers.model_grounding import chain_parts, signature_name
from pytest_postgates.helpers.python_samples import parse_leniently, sample_code
from pytest_postgates.helpers.rule import Rule

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.post import Post

_TSX_LANGS = frozenset({"tsx", "jsx"})
_PY_SELF = frozenset({"self", "cls"})
# A call that gives its receiver a member named by its first argument (Fastify's
# `decorate`, `decorateRequest`, `decorateReply`).
_DECORATORS = ("decorate",)


RULES = (
    Rule(
        "defined-in-page",
        "unjudged",
        "the token is a name one of the page's own samples declares (a function, class, "
        "variable, parameter, a member it sets or decorates): the page's own thing, not a "
        "claim about the product; an object's key never (it may name the product's option)",
        "tests/test_page_names.py::test_a_name_the_page_declares_is_unjudged",
        earns=(
            "earns on the tune half only; off, held out: findings +0, nothing labelled moved; "
            "tune: findings +2, 2 labelled false back (bench/ablation.py at f373629)"
        ),
    ),
    Rule(
        "imported-elsewhere",
        "unjudged",
        "the token is a name one of the page's samples imports from a package that is not "
        "the product's (`from tenacity import stop_after_delay`): another package's name, "
        "which the product's code cannot judge, also in a fence that names a file of the "
        "repository (`// eslint.config.js`), whose own declarations are the product's (a "
        "member after it stays with the other rules: an invented member pinned on that "
        "package is still an invention)",
        "tests/test_page_names.py::test_a_name_imported_from_another_package_is_unjudged",
        earns=(
            "earns on the tune half only; off, held out: findings +0, nothing labelled moved; "
            "tune: findings +1, 1 unlabelled moved; the unlabelled finding off, "
            "DuckDuckGoSearchRun (LangChain's, imported in pydantic-ai's docs), is false "
            "(bench/ablation.py at f373629)"
        ),
    ),
)


@dataclass
class PageNames:
    declared: dict[str, int] = field(default_factory=dict)  # name -> fence line
    members: dict[str, int] = field(default_factory=dict)  # "head.name" -> fence line
    decorated: dict[str, int] = field(default_factory=dict)  # a decorated name -> fence line
    foreign: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (package, line)
    # A foreign name -> what it names: the module or package, then the name imported from
    # it (`from a.b import c as d`: d -> ("a.b", "c"); `import a.b as m`: m -> ("a.b",);
    # `import x from "p"`: x -> ("p", "default")).
    imported: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def bring(self, local: str, package: str, line: int, name: str = "") -> None:
        if local not in self.foreign:
            self.foreign[local] = (package, line)
            self.imported[local] = (package, name) if name else (package,)

    def declare(self, name: str, line: int) -> None:
        if name and name not in _PY_SELF:
            self.declared.setdefault(name, line)


def page_names(
    post: Post,
    is_product: Callable[[str], bool],
    parsers: dict[str, Any] | None,
    is_repo_file: Callable[[str], bool] = lambda _name: False,
) -> PageNames:
    """The names of ``post``'s Python and JavaScript/TypeScript fences. ``is_product(spec)``
    says whether an import specifier or module names the product (its imports are the
    product's names, not another package's); ``parsers`` are tree-sitter parsers by
    language (None: JavaScript/TypeScript fences are not read); a fence whose first
    comment names a file ``is_repo_file`` knows quotes the product's code: it declares
    nothing, but its imports from other packages count."""
    names = PageNames()
    for fence in post.fences:
        quoted = any(is_repo_file(name) for name in quoted_source_file(fence.content))
        # A quoted fence's declarations are the product's, never the page's; what it
        # imports from another package is still that package's (a config file the
        # product's repository also has, `eslint.config.js`, importing a shareable config).
        read = PageNames() if quoted else names
        kind = fence_kind(fence)
        line = fence.start_line
        if kind == "python":
            _python(fence.content, line, is_product, read)
        elif kind == "code" and parsers:
            parser = parsers.get("tsx" if fence.lang in _TSX_LANGS else "typescript")
            if parser is not None:
                _script(parser, fence.content, line, is_product, read)
        if quoted:
            for local, (package, at) in read.foreign.items():
                if local not in names.foreign:
                    names.foreign[local] = (package, at)
                    names.imported[local] = read.imported[local]
    return names


# ---------------------------------------------------------------------- Python


def _python(content: str, line: int, is_product: Callable[[str], bool], names: PageNames) -> None:
    code, _rows = sample_code(content)
    tree = parse_leniently(code)
    if tree is None:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.declare(node.name, line)
            if not isinstance(node, ast.ClassDef):
                arguments = node.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                for argument in every:
                    names.declare(argument.arg, line)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                _python_target(target, line, names)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            _python_target(node.target, line, names)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            _python_target(node.optional_vars, line, names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.declare(node.name, line)
        elif isinstance(node, ast.Import):
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


def _python_target(target: ast.expr, line: int, names: PageNames) -> None:
    if isinstance(target, ast.Name):
        names.declare(target.id, line)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _python_target(element, line, names)
    elif isinstance(target, ast.Starred):
        _python_target(target.value, line, names)
    elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        names.members.setdefault(f"{target.value.id}.{target.attr}", line)


# ---------------------------------------------------------------------- JavaScript / TypeScript

_DECLARING = frozenset(
    {"function_declaration", "generator_function_declaration", "class_declaration",
     "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
     "enum_declaration", "function_expression"}
)  # fmt: skip
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})


def _walk(root: Any) -> Iterator[Any]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.named_children)


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

    for node in _walk(tree.root_node):
        kind = node.type
        if kind in _DECLARING:
            name = node.child_by_field_name("name")
            if name is not None:
                names.declare(text(name), line)
        elif kind == "variable_declarator":
            _declarator(node, text, line, is_product, names)
        elif kind in _PARAMETERS:
            pattern = node.child_by_field_name("pattern")
            for bound in _bound(pattern):
                names.declare(text(bound), line)
        elif kind == "arrow_function":
            parameter = node.child_by_field_name("parameter")
            if parameter is not None and parameter.type == "identifier":
                names.declare(text(parameter), line)
        elif kind == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression":
                names.members.setdefault(text(left), line)
        elif kind == "call_expression":
            _decoration(node, text, line, names)
        elif kind == "import_statement":
            _import(node, text, line, is_product, names)


def _bound(pattern: Any) -> list[Any]:
    """The identifiers a parameter or a destructuring pattern binds."""
    if pattern is None:
        return []
    return [
        node
        for node in _walk(pattern)
        if node.type in ("identifier", "shorthand_property_identifier_pattern")
        and not _pattern_key(node)
    ]


def _pattern_key(node: Any) -> bool:
    """The key of ``{ key: local }`` in a pattern: it binds nothing."""
    parent = node.parent
    return (
        parent is not None
        and parent.type == "pair_pattern"
        and parent.child_by_field_name("key") == node
    )


def _declarator(
    node: Any, text: Callable[[Any], str], line: int, is_product: Callable[[str], bool],
    names: PageNames,
) -> None:  # fmt: skip
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    required = _required(value, text)
    if required is not None and not required.startswith("."):
        if not is_product(required):
            whole = name is not None and name.type == "identifier"  # `const x = require(p)`
            for bound in _bound(name):
                names.bring(text(bound), required, line, "" if whole else text(bound))
        return  # the product's names, or another package's: never the page's own
    for bound in _bound(name):
        names.declare(text(bound), line)


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


def _decoration(node: Any, text: Callable[[Any], str], line: int, names: PageNames) -> None:
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or arguments is None or function.type != "member_expression":
        return
    method = function.child_by_field_name("property")
    receiver = function.child_by_field_name("object")
    if method is None or receiver is None or not text(method).startswith(_DECORATORS):
        return
    first = arguments.named_children[0] if arguments.named_children else None
    if first is None or first.type != "string":
        return
    name = text(first).strip("'\"`")
    names.decorated.setdefault(name, line)
    names.members.setdefault(f"{text(receiver)}.{name}", line)


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
    for child in _walk(node):
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


# ---------------------------------------------------------------------- the rules


def page_outcome(
    text: str,
    names: PageNames,
    rules_off: frozenset[str] = frozenset(),
    presented: Callable[[], bool] = lambda: False,
) -> tuple[str, str] | None:
    """(rule, reason) when the page's own samples say whose name ``text`` is: another
    package's (``imported-elsewhere``) or the page's own (``defined-in-page``); None
    otherwise. A chain is the page's only where the sample sets or decorates that very
    member (a variable the sample declares may hold the product's instance); a bare name
    only where the sentence does not give it to the product (``presented()``: "NeuroLink's
    `x`" stays a claim though a sample defines an `x`)."""
    parts = chain_parts(signature_name(text))
    if not parts:
        return None
    head = parts[0]
    # The imported name itself only: a member written after it (`NodeSDK.syncLease`) may be
    # an invention the page pins on that package, which the planted-invention bench counts.
    if "imported-elsewhere" not in rules_off and len(parts) == 1 and head in names.foreign:
        package, at = names.foreign[head]
        return (
            "imported-elsewhere",
            f"it is what the page's sample imports from {package} (fence at line {at}):"
            " another package's name, which the product's code cannot judge",
        )
    if "defined-in-page" in rules_off:
        return None
    if len(parts) == 1:
        declared = names.declared.get(head)
        if declared is None or presented():
            return None
        return "defined-in-page", f"the page's own sample declares it (fence at line {declared})"
    line = names.members.get(".".join(parts))
    if line is None and len(parts) == 2:
        line = names.decorated.get(parts[1])
    if line is None:
        return None
    return (
        "defined-in-page",
        f"the page's own sample gives `{head}` the member `{parts[-1]}` (fence at line {line})",
    )


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
    is_repo_file: Callable[[str], bool],
) -> Callable[[], PageNames]:
    """The names of the post's own samples, read on the first question only (most posts
    never ask: their tokens ground). A fence that says it quotes a file of the product
    (`// From src/x.ts`) is the product's code, not the page's."""
    is_product = product_specifier(model, (*product_names, package or ""))
    read: list[PageNames] = []

    def page() -> PageNames:
        if not read:
            parsers = load_parsers()
            readable = parsers if isinstance(parsers, dict) else None
            read.append(page_names(post, is_product, readable, is_repo_file))
        return read[0]

    return page
