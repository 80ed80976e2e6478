"""TypeScript's ``paths`` aliases: the file a bare specifier names where a monorepo's code
imports its own libraries by alias (``import { log } from "@lerna/core"`` ->
``libs/core/src/index.ts``) instead of through node_modules, or an app its own folders
(``"@/*": ["src/*"]``).

The aliases are those of the tsconfig.json (else jsconfig.json) nearest the importing file,
walking up to the repository's top, with its ``extends`` chain followed (a relative path, or
a list of them; a package's config is another party's and not read): ``paths`` and
``baseUrl`` are each taken from the nearest config of the chain declaring them, ``paths``
resolved against the ``baseUrl`` (else the folder of the config declaring them), as
TypeScript does; a ``baseUrl`` alone maps every bare specifier under it (tried after the
``paths``, a package when no file is there). A solution-style config (``"files": []`` and
``references``, as Vite's templates write) compiles a file with the one referenced config
whose ``include`` folders hold it. Patterns are tried exact first, then by the longest
prefix before ``*``.
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
    if config is None:
        return ()
    data = read_tsconfig(read_text(config) or "")
    references = data.get("references")
    if not _declares(config, read_text) and isinstance(references, list):
        here = posixpath.dirname(config)
        holders = [
            path
            for path in (_reference_path(here, r) for r in references)
            if path is not None and _includes(path, folder, read_text)
        ]
        found = {_aliases_of(path, read_text) for path in holders}
        return found.pop() if len(found) == 1 else ()
    return _aliases_of(config, read_text)


def _aliases_of(config: str, read_text: Callable[[str], str | None]) -> tuple[Alias, ...]:
    options = _options(config, read_text, 0)
    paths, base_url = options.get("paths"), options.get("baseUrl")
    aliases: list[Alias] = []
    if paths is not None:
        written, where = paths
        base = base_url[1] if base_url is not None else where
        aliases += [
            (pattern, tuple(t for t in targets if isinstance(t, str)), base)
            for pattern, targets in written.items()
            if isinstance(pattern, str) and isinstance(targets, list)
        ]
    ordered = _ordered(iter(aliases))
    if base_url is not None:  # after the paths: a bare specifier under the baseUrl
        ordered = (*ordered, (BASE_URL, ("*",), base_url[1]))
    return ordered


# The pattern of a ``baseUrl``'s own mapping: every bare specifier, a package when no file
BASE_URL = "*"


def _options(
    config: str, read_text: Callable[[str], str | None], depth: int
) -> dict[str, tuple[Any, str]]:
    """``paths`` (the mapping, the config's folder) and ``baseUrl`` (the folder it names)
    as the config and the chain it extends give them, its own winning."""
    if depth > _MAX_EXTENDS:
        return {}
    data = read_tsconfig(read_text(config) or "")
    here = posixpath.dirname(config)
    found: dict[str, tuple[Any, str]] = {}
    parents = data.get("extends")
    for parent in parents if isinstance(parents, list) else [parents]:
        if isinstance(parent, str) and parent.startswith("."):
            path = posixpath.normpath(posixpath.join(here, parent))
            path = path if path.endswith(".json") else path + ".json"
            found.update(_options(path, read_text, depth + 1))
    options = data.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    if isinstance(options.get("paths"), dict):
        found["paths"] = (options["paths"], here)
    if isinstance(options.get("baseUrl"), str):
        found["baseUrl"] = ("", posixpath.normpath(posixpath.join(here, options["baseUrl"])))
    return found


def _declares(config: str, read_text: Callable[[str], str | None]) -> bool:
    options = _options(config, read_text, 0)
    return "paths" in options or "baseUrl" in options


def _reference_path(here: str, reference: object) -> str | None:
    written = reference.get("path") if isinstance(reference, dict) else None
    if not isinstance(written, str):
        return None
    path = posixpath.normpath(posixpath.join(here, written))
    return path if path.endswith(".json") else posixpath.join(path, "tsconfig.json")


def _includes(config: str, folder: str, read_text: Callable[[str], str | None]) -> bool:
    """Whether a file of ``folder`` is one ``config`` includes: under the static folder
    before a pattern's first wildcard, in a folder a pattern names, or beside a file a
    pattern names (``vite.config.ts``: the top folder only); none listed: all."""
    data = read_tsconfig(read_text(config) or "")
    if not data:
        return False
    here = posixpath.dirname(config)
    patterns = data.get("include")
    if not isinstance(patterns, list):
        patterns = [] if isinstance(data.get("files"), list) else ["**/*"]
    for pattern in (p for p in patterns if isinstance(p, str)):
        parts = pattern.split("/")
        wild = next((i for i, part in enumerate(parts) if any(c in part for c in "*?")), None)
        named_file = wild is None and "." in parts[-1].strip(".")
        static = parts[:wild] if wild is not None else parts[:-1] if named_file else parts
        root = posixpath.normpath(posixpath.join(here, *static)) if static else here
        root = "" if root == "." else root
        if named_file and folder == root:
            return True
        if not named_file and (not root or folder == root or folder.startswith(root + "/")):
            return True
    return False


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
        for name in ("tsconfig.json", "jsconfig.json"):
            config = posixpath.join(current, name)  # "tsconfig.json" at the top
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


def folder_prefix(value: Any) -> str | None:
    """A tsconfig folder option as a path prefix (``./dist`` -> ``dist/``; ``.`` -> "")."""
    if not isinstance(value, str) or not value.strip():
        return None
    cleaned = posixpath.normpath(value.strip().removeprefix("./"))
    return "" if cleaned == "." else cleaned.rstrip("/") + "/"


def tsconfig_options(text: str) -> dict[str, Any]:
    """compilerOptions of a tsconfig."""
    options = read_tsconfig(text).get("compilerOptions")
    return options if isinstance(options, dict) else {}


def tsconfig_include(text: str) -> list[str]:
    """The folders a tsconfig's ``include`` names (as prefixes; a glob or a file is none)."""
    written = read_tsconfig(text).get("include")
    items = written if isinstance(written, list) else []
    folders = [
        folder_prefix(i) for i in items if isinstance(i, str) and not re.search(r"[*?]|\.\w+$", i)
    ]
    return [f for f in folders if f]
