"""The source file a bundler builds each output of a package from, as its config declares
it: a package whose ``exports`` name build outputs (``./dist/config.js``) not in the
repository is often bundled from sources no folder layout predicts (vitest's
``dist/index.js`` from ``src/public/index.ts``, vite's ``dist/node/internal.js`` from
``src/node/internalIndex.ts``).

The configs read are the package folder's ``rollup``, ``rolldown``, ``tsup``, ``tsdown``,
``unbuild`` (``build.config``) and ``vite`` configs, parsed with tree-sitter. An entry is a
property whose value names a source file of the package (a string literal, or one inside
a call such as ``path.resolve(dirname, 'src/node/index.ts')``): its key is the output's
name (``index: 'src/public/index.ts'`` builds ``index.js``), except under ``input`` or
``entry`` where the output is named after the file; a string in an ``input``/``entry``
array is named after its file too. A name two configs build from different sources says
nothing and is dropped.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

CONFIG_STEMS = ("rollup.config", "rolldown.config", "tsup.config", "tsdown.config",
                "build.config", "vite.config")  # fmt: skip
CONFIG_SUFFIXES = (".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")
# Keys whose value is the entry itself, not an output name.
ENTRY_KEYS = frozenset({"input", "entry", "entries", "entryPoints"})
MAX_CONFIG_CHARS = 256 * 1024


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _string_value(source: bytes, node: Any) -> str | None:
    if node.type != "string":
        return None
    return _text(source, node)[1:-1]


def _strings_in(source: bytes, node: Any) -> list[str]:
    """The string literals of an expression (a literal, or the arguments of a call)."""
    own = _string_value(source, node)
    if own is not None:
        return [own]
    if node.type not in ("call_expression", "arguments", "template_string"):
        return []
    found: list[str] = []
    for child in node.named_children:
        found += _strings_in(source, child)
    return found


def _stem(path: str) -> str:
    base = posixpath.basename(path)
    return base.rsplit(".", 1)[0] if "." in base else base


def config_entries(
    folder: str,
    read_text: Callable[[str], str | None],
    is_source: Callable[[str], bool],
    parsers: dict[str, Any],
) -> dict[str, str]:
    """Output name (``index``, ``workers/forks``) -> the source file (repository path) the
    package in ``folder`` bundles it from, over every bundler config the folder has."""
    found: dict[str, set[str]] = {}
    for stem in CONFIG_STEMS:
        for suffix in CONFIG_SUFFIXES:
            path = posixpath.join(folder, stem + suffix) if folder else stem + suffix
            text = read_text(path)
            if not text or len(text) > MAX_CONFIG_CHARS:
                continue
            parser = parsers.get("typescript" if "ts" in suffix else "javascript")
            if parser is None:
                continue
            source = text.encode("utf-8")
            for name, target in _pairs(source, parser.parse(source).root_node):
                full = posixpath.normpath(posixpath.join(folder, target))
                if is_source(full):
                    found.setdefault(name, set()).add(full)
    return {name: next(iter(paths)) for name, paths in found.items() if len(paths) == 1}


def _pairs(source: bytes, root: Any) -> list[tuple[str, str]]:
    """(output name, written source path) of every entry the config's syntax declares."""
    pairs: list[tuple[str, str]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "pair":
            continue
        key_node, value = node.child_by_field_name("key"), node.child_by_field_name("value")
        if key_node is None or value is None:
            continue
        key = _text(source, key_node).strip("'\"`")
        if key in ENTRY_KEYS:
            items = value.named_children if value.type == "array" else [value]
            for item in items:
                pairs += [(_stem(s), s) for s in _strings_in(source, item)[-1:]]
            continue
        written = _strings_in(source, value)
        if written and written[-1].endswith((*CONFIG_SUFFIXES, ".tsx", ".jsx")):
            pairs.append((key, written[-1]))
    return pairs
