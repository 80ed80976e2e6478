"""TypeScript's ``paths`` aliases: the file a bare specifier names where a monorepo's code
imports its own libraries by alias (``import { log } from "@lerna/core"`` ->
``libs/core/src/index.ts``) instead of through node_modules.

The aliases are those of the tsconfig.json nearest the importing file, walking up to the
repository's top, with its ``extends`` chain followed (a relative path; a package's
config is another party's and not read): the first config in the chain that declares
``paths`` gives them, resolved against its ``baseUrl`` (else its own folder), as
TypeScript does. Patterns are tried exact first, then by the longest prefix before ``*``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterator
from typing import Any

# (pattern, targets, the folder the targets are relative to)
Alias = tuple[str, tuple[str, ...], str]
_MAX_EXTENDS = 8


def read_tsconfig(text: str) -> dict[str, Any]:
    """A tsconfig (JSON with comments and trailing commas), {} when it cannot be read."""
    cleaned = re.sub(
        r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S
    )
    cleaned = re.sub(r",(\s*[}\]])", r"\1", cleaned)
    try:
        data = json.loads(cleaned)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def aliases_for(folder: str, read_text: Callable[[str], str | None]) -> tuple[Alias, ...]:
    """The ``paths`` aliases a file in ``folder`` (a repository path) is compiled with."""
    config = _nearest_config(folder, read_text)
    for _ in range(_MAX_EXTENDS):
        if config is None:
            return ()
        data = read_tsconfig(read_text(config) or "")
        options = data.get("compilerOptions")
        options = options if isinstance(options, dict) else {}
        paths = options.get("paths")
        here = posixpath.dirname(config)
        if isinstance(paths, dict):
            base_url = options.get("baseUrl")
            base = posixpath.normpath(posixpath.join(here, base_url)) if base_url else here
            return _ordered(
                (pattern, tuple(t for t in targets if isinstance(t, str)), base)
                for pattern, targets in paths.items()
                if isinstance(pattern, str) and isinstance(targets, list)
            )
        parent = data.get("extends")
        if not isinstance(parent, str) or not parent.startswith("."):
            return ()
        config = posixpath.normpath(posixpath.join(here, parent))
        if not config.endswith(".json"):
            config += ".json"
    return ()


def alias_targets(spec: str, aliases: tuple[Alias, ...]) -> Iterator[str]:
    """The repository paths ``spec`` may name through ``aliases``, in TypeScript's order
    (each to be completed with a source extension or ``/index``)."""
    for pattern, targets, base in aliases:
        if "*" in pattern:
            prefix, _, suffix = pattern.partition("*")
            fits = spec.startswith(prefix) and spec.endswith(suffix)
            if not fits or len(spec) < len(prefix) + len(suffix):
                continue
            star = spec[len(prefix) : len(spec) - len(suffix)]
        elif spec == pattern:
            star = ""
        else:
            continue
        for target in targets:
            yield posixpath.normpath(posixpath.join(base, target.replace("*", star)))


def _nearest_config(folder: str, read_text: Callable[[str], str | None]) -> str | None:
    current = posixpath.normpath(folder or ".")
    current = "" if current == "." else current  # the repository's top
    while True:
        config = posixpath.join(current, "tsconfig.json")  # "tsconfig.json" at the top
        if read_text(config):
            return config
        if not current:
            return None
        current = posixpath.dirname(current)


def _ordered(aliases: Iterator[Alias]) -> tuple[Alias, ...]:
    listed = list(aliases)
    exact = [a for a in listed if "*" not in a[0]]
    starred = sorted((a for a in listed if "*" in a[0]), key=lambda a: -len(a[0].split("*")[0]))
    return (*exact, *starred)
