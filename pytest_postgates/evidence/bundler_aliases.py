"""The module aliases a bundler's config declares statically: Vite's ``resolve.alias``
(``vite.config.{ts,js,mjs,mts,cjs}``), Vue CLI's ``configureWebpack.resolve.alias``
(``vue.config.js``) and webpack's ``resolve.alias`` (``webpack.config.js``).

The config nearest the importing file (walking up to the repository's top) is parsed with
tree-sitter and every ``alias`` written as an object literal (``{'@': path}``) or a list of
``{find, replacement}`` objects is read. A target is read only where the config writes it
as a fixed path: ``path.resolve(__dirname, 'src')`` (``resolve``, ``join``, ``path.join``),
``fileURLToPath(new URL('./src', import.meta.url))``, or a string naming another package.
Anything else (a relative or absolute string, a variable, a call, a computed key, a regular
expression, an ``alias`` that is no literal) is an alias whose target is unknown: a
specifier it may match is the product's, unresolved, never guessed. No convention is
assumed: Vue CLI's built-in ``@`` is no declaration.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CONFIG_NAMES = tuple(
    [f"vite.config.{e}" for e in ("ts", "js", "mjs", "mts", "cjs")]
    + ["vue.config.js", "webpack.config.js"]
)
_JOINS = frozenset({"path.resolve", "resolve", "path.join", "join"})
_DIRNAME = frozenset({"__dirname", "process.cwd()"})
# An alias whose target the config computes: its key is known, its target is not.
UNKNOWN = ""


@dataclass
class BundlerAliases:
    """``entries``: (find, target folder or file as a repository path, exact only), the
    target :data:`UNKNOWN` when the config computes it, or a bare specifier (another
    package) when ``package`` is set; ``open``: why some alias's key is unknown ("" none)."""

    config: str = ""
    entries: list[tuple[str, str, bool]] = field(default_factory=list)
    packages: set[str] = field(default_factory=set)
    open: str = ""

    def targets(self, spec: str) -> tuple[bool, list[str]]:
        """Whether ``spec`` matches an alias, and the repository paths (or packages) it
        then names, in the config's order; a match with no path: the target is unknown."""
        for find, target, exact in self.entries:
            if spec == find or (not exact and spec.startswith(find.rstrip("/") + "/")):
                if target == UNKNOWN:
                    return True, []
                rest = spec[len(find) :].lstrip("/")
                if target in self.packages:
                    return True, [target + ("/" + rest if rest else "")]
                return True, [posixpath.normpath(posixpath.join(target, rest))]
        return False, []


def bundler_aliases(
    folder: str, read_text: Callable[[str], str | None], parser: Any
) -> BundlerAliases:
    """The aliases of the bundler config nearest ``folder`` (none: no config)."""
    current = posixpath.normpath(folder or ".")
    current = "" if current == "." else current
    while True:
        for name in CONFIG_NAMES:
            config = posixpath.join(current, name)
            text = read_text(config)
            if text:
                return read_config(config, text, parser)
        if not current:
            return BundlerAliases()
        current = posixpath.dirname(current)


def read_config(config: str, text: str, parser: Any) -> BundlerAliases:
    """The aliases ``config`` (its repository path and text) declares."""
    found = BundlerAliases(config)
    if parser is None:
        found.open = f"{config} is not parsed"
        return found
    source = text.encode("utf-8")
    tree = parser.parse(source)
    here = posixpath.dirname(config)
    pending = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.type == "pair" and _key(source, node.child_by_field_name("key")) == "alias":
            _read_alias(source, node.child_by_field_name("value"), here, found)
            continue
        pending.extend(reversed(node.named_children))
    return found


def _read_alias(source: bytes, value: Any, here: str, found: BundlerAliases) -> None:
    if value is None:
        return
    where = f"{found.config}:{value.start_point[0] + 1}"
    if value.type == "object":
        for pair in value.named_children:
            if pair.type != "pair":  # a spread, a method: keys the config computes
                found.open = f"an alias at {where} the config computes"
                continue
            key = _key(source, pair.child_by_field_name("key"))
            if key is None:
                found.open = f"an alias key at {where} the config computes"
                continue
            exact = key.endswith("$")  # webpack: `xyz$` matches `xyz` only
            target = _target(source, pair.child_by_field_name("value"), here)
            _add(found, key.rstrip("$"), target, exact)
        return
    if value.type == "array":
        for item in value.named_children:
            keys = (
                {
                    _key(source, p.child_by_field_name("key")): p.child_by_field_name("value")
                    for p in item.named_children
                    if p.type == "pair"
                }
                if item.type == "object"
                else {}
            )
            find = keys.get("find")
            written = _string(source, find) if find is not None else None
            if written is None:  # a regular expression, a computed find
                found.open = f"an alias at {where} matches what the config computes"
                continue
            _add(found, written, _target(source, keys.get("replacement"), here), False)
        return
    found.open = f"the aliases at {where} are no literal"


def _add(found: BundlerAliases, find: str, target: tuple[str, bool], exact: bool) -> None:
    path, package = target
    if package:
        found.packages.add(path)
    found.entries.append((find, path, exact))


def _target(source: bytes, node: Any, here: str) -> tuple[str, bool]:
    """The repository path an alias's target names, (UNKNOWN, False) when computed, or
    (a package's name, True)."""
    if node is None:
        return UNKNOWN, False
    written = _string(source, node)
    if written is not None:
        if written.startswith((".", "/")) or not written:
            return UNKNOWN, False  # used as written, relative to whatever imports it
        return written, True
    if node.type == "call_expression":
        callee = _text(source, node.child_by_field_name("function"))
        args = [a for a in node.child_by_field_name("arguments").named_children]
        if callee in _JOINS and args and _text(source, args[0]) in _DIRNAME:
            parts = [_string(source, a) for a in args[1:]]
            if all(p is not None and not p.startswith("/") for p in parts):
                return _inside(posixpath.join(here, *[p or "" for p in parts]), here)
        if callee == "fileURLToPath" and len(args) == 1 and args[0].type == "new_expression":
            made = args[0]
            if _text(source, made.child_by_field_name("constructor")) == "URL":
                inner = made.child_by_field_name("arguments")
                url = inner.named_children if inner is not None else []
                relative = _string(source, url[0]) if len(url) == 2 else None
                meta = len(url) == 2 and _text(source, url[1]) == "import.meta.url"
                if relative is not None and meta and relative.startswith("."):
                    return _inside(posixpath.join(here, relative), here)
    return UNKNOWN, False


def _inside(path: str, here: str) -> tuple[str, bool]:
    normal = posixpath.normpath(path)
    if normal.startswith("../") or normal == "..":
        return UNKNOWN, False  # outside the repository
    return ("" if normal == "." else normal) or ".", False


def _key(source: bytes, node: Any) -> str | None:
    if node is None:
        return None
    if node.type in ("property_identifier", "identifier"):
        return _text(source, node)
    return _string(source, node)


def _string(source: bytes, node: Any) -> str | None:
    if node is None or node.type != "string":
        if node is not None and node.type == "template_string" and not node.named_children:
            return _text(source, node)[1:-1]
        return None
    return re.sub(r"^[\"']|[\"']$", "", _text(source, node))


def _text(source: bytes, node: Any) -> str:
    if node is None:
        return ""
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
