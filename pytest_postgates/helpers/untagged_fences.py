"""Gate 15's language of a fence with no language tag, decided by parsing it (issue 26).

:func:`~pytest_postgates.helpers.code_fences.fence_kind` sniffs an untagged fence with two
regexes (a package manager's command, a JavaScript keyword) and leaves every other one
unread; gate 15 instead parses it, with the languages the product is written in (its API
model's declarations) as the prior:

* shell: today's rule (a line runs ``npx``/``npm``/``yarn``/``pnpm``/``bun``), or a line
  runs one of the product's own programs (its ``bin`` or ``[project.scripts]`` names);
* Python: a REPL session (``>>>`` prompts), or all of it parses (``ast``) and it holds a
  call, an import or an attribute a statement uses (a bare word, a number, an assignment of
  literals or a path such as ``docs/index.md`` is no code);
* JavaScript/TypeScript: tree-sitter's TypeScript parser reads it with no ERROR or MISSING
  node and it holds a call, an import, a declaration or a member a statement uses; one with
  a JavaScript keyword the parser rejects (a ``...`` placeholder) is read as before. A
  literal alone is data: JSON (what ``json.loads`` reads) is not read; an object literal
  with a key JSON would not write bare is read as code, as gate 15 reads a ``js`` fence
  that shows an object alone (``js_option_keys.bare``).

When both parses succeed the product's language decides; a product written in both reads
the fence as the language whose package it names (a specifier of its JavaScript package, a
use of its top Python package), and lists it otherwise. Every untagged fence that is read
in no language gets one reason (:func:`untagged_kind`), which gate 15
lists as unjudged: its uses are never passed silently. Output, YAML, diagrams and prose
parse as neither language, or as no code.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.code_fences import _JSISH, _REPL, _SHELLISH

if TYPE_CHECKING:
    from pytest_postgates.post import Fence

# tree-sitter node types that make a JavaScript/TypeScript fence code, not a value.
_JS_CODE = frozenset(
    {
        "call_expression",
        "new_expression",
        "member_expression",
        "import_statement",
        "export_statement",
        "lexical_declaration",
        "variable_declaration",
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "function_signature",
    }
)
# What makes an expression statement do something (not a listing of names or paths).
_DOING = frozenset({"assignment_expression", "augmented_assignment_expression", "await_expression"})
# What a literal alone is (JSON's values, and the wrappers a parser puts round them).
_LITERALS = frozenset(
    {"object", "array", "string", "number", "true", "false", "null", "template_string"}
)
_IDENT_KEY = re.compile(r"[{,]\s*[A-Za-z_$][\w$]*\s*:")

NO_LANGUAGE = (
    "a fence with no language that parses as no language the product is written in "
    "({languages}): its text is not read as code"
)
BOTH = (
    "a fence with no language that parses as both Python and JavaScript, and the product "
    "is written in both: its text is not read as code"
)
ONLY_DATA = "a fence with no language that is a literal alone (JSON data): not read as code"


def python_code(content: str) -> bool:
    """Whether all of ``content`` parses as Python and holds a call, an attribute use or an
    import."""
    try:
        tree = ast.parse(content)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    if any(isinstance(node, (ast.Call, ast.Import, ast.ImportFrom)) for node in ast.walk(tree)):
        return True
    # An attribute used by a statement that does something (``client.timeout = 5``); a
    # bare expression of names and dots (``docs/index.md``, ``README.md``) names files.
    return any(
        isinstance(node, ast.Attribute)
        for statement in tree.body
        if not isinstance(statement, ast.Expr)
        for node in ast.walk(statement)
    )


def _walk(node: Any) -> Iterable[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _literal_alone(root: Any) -> bool:
    """Whether the program is one expression statement of a literal (or a parenthesised
    one), or a block the parser made of an object literal."""
    statements = root.named_children
    if len(statements) != 1:
        return False
    node = statements[0]
    if node.type == "statement_block":
        return True
    if node.type != "expression_statement" or not node.named_children:
        return False
    value = node.named_children[0]
    while value.type == "parenthesized_expression" and value.named_children:
        value = value.named_children[0]
    return value.type in _LITERALS


def js_code(content: str, parser: Any) -> str | None:
    """``code`` when ``content`` parses as TypeScript with no error and holds code; ``data``
    when it is a literal alone (JSON); None when it is neither."""
    stripped = content.strip()
    if stripped.startswith(("{", "[")):
        try:
            json.loads(stripped)
        except ValueError:
            pass
        else:
            return "data"
    if stripped.startswith("{") and stripped.endswith("}"):
        # An object literal alone (a parser reads it as a block): code when one of its keys
        # is a bare name, as JavaScript writes them and JSON does not.
        tree = parser.parse(f"({stripped}\n)".encode())
        if not tree.root_node.has_error and _literal_alone(tree.root_node):
            return "code" if _IDENT_KEY.search(stripped) else "data"
    tree = parser.parse(content.encode("utf-8", "replace"))
    root = tree.root_node
    if root.has_error:
        return None
    if _literal_alone(root):
        return "data"
    if any(node.type in _JS_CODE - {"member_expression"} for node in _walk(root)):
        return "code"
    # A member used by a statement that does something (``client.timeout = 5``); a bare
    # expression of names and dots (``docs/index.md``, ``README.md``) names files.
    for statement in root.named_children:
        if statement.type == "expression_statement" and not any(
            node.type in _DOING for node in _walk(statement)
        ):
            continue
        if any(node.type == "member_expression" for node in _walk(statement)):
            return "code"
    return None


def runs_bin(content: str, bins: Iterable[str]) -> bool:
    """Whether a line of ``content`` runs one of the product's programs (``$ tool sub``)."""
    names = sorted({b for b in bins if b}, key=len, reverse=True)
    if not names:
        return False
    env = r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*"  # `HATCH_NO_SOURCES=1 hatch env create`
    pattern = rf"^\s*(?:[$>]\s+)?{env}(?:{'|'.join(map(re.escape, names))})(?:[ \t]|$)"
    return re.search(pattern, content, re.MULTILINE) is not None


def untagged_kind(
    content: str,
    languages: frozenset[str],
    bins: Iterable[str],
    parsers: Mapping[str, Any],
    python_imports: Iterable[str] = (),
    js_packages: Iterable[str] = (),
) -> tuple[str | None, str]:
    """The kind gate 15 reads an untagged fence as (``shell``, ``python``, ``code``) and
    ``""``; or None and the reason it is not read. ``languages``: what the product is
    written in (``python``, ``js``); ``python_imports``: its top Python packages and
    ``js_packages`` its package names, which decide a fence of a product in both."""
    if not content.strip():
        return None, ""
    if _SHELLISH.search(content) or runs_bin(content, bins):
        return "shell", ""
    if _REPL.search(content) and "python" in languages:
        return "python", ""  # a REPL session (`>>>` prompts), as an indented block is read
    python = python_code(content)
    parser = parsers.get("typescript")
    javascript = js_code(content, parser) if parser is not None else None
    js = javascript == "code"
    if python and js and {"python", "js"} <= languages:
        # A specifier of its package (`require('kit')`), else a use of its top Python
        # package (`kit.get(url)`); a Python import never parses as JavaScript.
        if any(f"'{p}" in content or f'"{p}' in content for p in js_packages if p):
            return "code", ""
        if _uses_python_top(content, python_imports):
            return "python", ""
        return None, BOTH
    if python and "python" in languages and not (js and "js" in languages):
        return "python", ""
    if js and "js" in languages:
        return "code", ""
    sniffed = _JSISH.search(content) and not _REPL.search(content)
    if javascript is None and not python and "js" in languages and sniffed:
        # What today's sniff reads (a sample with a `...` the parser rejects): still code.
        return "code", ""
    if javascript == "data" and not python:
        return None, ONLY_DATA
    written = ", ".join(sorted("JavaScript" if x == "js" else "Python" for x in languages))
    return None, NO_LANGUAGE.format(languages=written or "none read")


def _uses_python_top(content: str, tops: Iterable[str]) -> bool:
    names = "|".join(re.escape(t) for t in tops if t)
    if not names:
        return False
    return re.search(rf"(?<![\w.$])(?:{names})\.[A-Za-z_]", content) is not None


def read_untagged(
    fences: Iterable[Fence],
    languages: frozenset[str],
    bins: Iterable[str],
    parsers: Mapping[str, Any],
    python_imports: Iterable[str] = (),
    js_packages: Iterable[str] = (),
) -> tuple[list[tuple[Fence, str]], list[tuple[Fence, int, str, str]]]:
    """The untagged fences read, each with its kind, and for each one not read (but for a
    fence with no text) the fence, its first line with text, that text and why."""
    bins, tops, packages = list(bins), list(python_imports), list(js_packages)
    read: list[tuple[Fence, str]] = []
    unread: list[tuple[Fence, int, str, str]] = []
    for fence in fences:
        kind, why = untagged_kind(fence.content, languages, bins, parsers, tops, packages)
        if kind is not None:
            read.append((fence, kind))
        elif why:
            lines = fence.content.splitlines()
            offset = next((n for n, line in enumerate(lines) if line.strip()), 0)
            text = lines[offset] if lines else ""
            unread.append((fence, fence.start_line + 1 + offset, text, why))
    return read, unread
