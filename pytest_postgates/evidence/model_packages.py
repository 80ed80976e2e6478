"""The packages a repository publishes, as the API model names them: a package.json's
``name`` is the module a reader imports (``import { format } from "prettier"``, prose's
``prettier.format``), and its public names are those of the source file its entry point
resolves to.

The entry is resolved as Node resolves ``import "<name>"`` (``exports``, else ``main``, else
``index.*``) through :mod:`pytest_postgates.evidence.resolution`, on the repository's files
at the commit. An entry that is a build output (``dist/index.js``, absent from the
repository) is mapped back to the source it is built from when that source is the only
candidate (``src/index.ts`` for ``dist/index.js``). The ``types`` declarations are an
entry too: a JavaScript package with hand-written declarations (``main: fastify.js``,
``types: fastify.d.ts``) publishes the names of both. When no entry maps to a source
file the package is listed with ``*`` (names the model cannot list), so that a member of
it is unjudged with the reason, never a miss.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping

from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import ModelFacts, is_product_code
from pytest_postgates.evidence.resolution import IndexFiles, resolve_subpath

MANIFEST = "package.json"
_SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx", ".d.ts")
_BUILD_FOLDERS = ("dist", "build", "lib", "out", "esm", "cjs")


def manifests(index: RepoIndex) -> dict[str, str]:
    """Folder -> package.json text of every package of the product (the top one and each
    workspace package; none under tests, examples, docs or node_modules)."""
    found: dict[str, str] = {}
    for path in index.text_paths:
        if posixpath.basename(path) != MANIFEST:
            continue
        folder = posixpath.dirname(path)
        if folder and not is_product_code(folder + "/"):
            continue
        text = index.file_text(path)
        if text is not None:
            found[folder] = text
    return found


def entry_points(index: RepoIndex, sources: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Package name -> the product source files its main entry and its ``types``
    declarations resolve to (empty when none maps to a source file of the model)."""
    entries: dict[str, tuple[str, ...]] = {}
    for folder, text in sorted(manifests(index).items()):
        try:
            manifest = json.loads(text)
        except ValueError:
            continue
        name = manifest.get("name") if isinstance(manifest, dict) else None
        if not isinstance(name, str) or not name or name in entries:
            continue
        entries[name] = _entry_sources(manifest, folder, index, sources)
    return entries


def _entry_sources(
    manifest: dict[str, object], folder: str, index: RepoIndex, sources: Mapping[str, str]
) -> tuple[str, ...]:
    files = IndexFiles(index, folder)
    targets: list[str] = []
    for system in ("import", "require"):
        try:
            resolved = resolve_subpath(manifest, ".", system, files=files)
        except (ValueError, TypeError):
            continue
        if resolved.target:
            targets.append(resolved.target)
    # A legacy entry that is a build output absent from the repository does not resolve
    # (Node finds no file): the path the manifest names still says what it is built from.
    for field in ("main", "module"):
        written = manifest.get(field)
        if isinstance(written, str) and written and manifest.get("exports") is None:
            targets.append(written)
    code = _first_source(targets, folder, sources)
    types = manifest.get("types") or manifest.get("typings")
    declared = _first_source([types], folder, sources) if isinstance(types, str) else ""
    return tuple(dict.fromkeys(path for path in (code, declared) if path))


def _first_source(targets: list[str], folder: str, sources: Mapping[str, str]) -> str:
    """The first of ``targets`` that is, or is built from, a source file of the model."""
    for target in targets:
        path = posixpath.normpath(posixpath.join(folder, target))
        if path in sources:
            return path
        built = _source_of_build(path, folder, sources)
        if built:
            return built
    return ""


def _source_of_build(path: str, folder: str, sources: Mapping[str, str]) -> str:
    """The source a build output is compiled from: the same path with the build folder
    replaced by ``src`` (or dropped) and a script suffix, when exactly one exists."""
    relative = posixpath.relpath(path, folder or ".")
    parts = relative.split("/")
    if len(parts) < 2 or parts[0] not in _BUILD_FOLDERS:
        stem_paths = [relative]
    else:
        stem_paths = ["/".join(["src", *parts[1:]]), "/".join(parts[1:])]
    found: list[str] = []
    for candidate in stem_paths:
        stem = candidate
        for suffix in (".d.ts", ".js", ".mjs", ".cjs"):
            if stem.endswith(suffix):
                stem = stem[: -len(suffix)]
                break
        for suffix in _SCRIPT_SUFFIXES:
            full = posixpath.normpath(posixpath.join(folder, stem + suffix))
            if full in sources and full not in found:
                found.append(full)
    return found[0] if len(found) == 1 else ""


def add_entry_points(facts: ModelFacts, entries: Mapping[str, tuple[str, ...]]) -> None:
    """Each package name becomes a module of the model with its entry files' public
    names (``*`` when no entry is a source file the model read)."""
    for name, paths in entries.items():
        if name in facts.modules:
            continue  # a Python module of the same name keeps its own names
        read = [facts.modules[path] for path in paths if path in facts.modules]
        facts.modules[name] = (
            list(dict.fromkeys(n for names in read for n in names)) if read else ["*"]
        )
        # The packages an entry file star-exports (`export * from "expect"`) are the
        # package's too (evidence/reexports.py).
        stars = [s for path in paths for s in facts.stars.get(path, [])]
        if stars:
            facts.stars[name] = list(dict.fromkeys(stars))
        # A namespace an entry file re-exports is a module of the package (`prettier.util`).
        for path in paths:
            for key, target in facts.namespaces.items():
                origin, _, alias = key.rpartition(":")
                if origin == path and target in facts.modules:
                    facts.modules.setdefault(f"{name}.{alias}", list(facts.modules[target]))
    _follow_package_stars(facts)


def _follow_package_stars(facts: ModelFacts) -> None:
    """``export * from "@scope/sibling"``, a package of the product's own (a workspace's):
    its names are the star-exporting module's, and so are the packages it star-exports in
    turn (``export * from "chai"``, evidence/reexports.py), followed until nothing changes.
    A module whose every star is the product's lists its names whole (no ``*``)."""
    rounds = len(facts.stars) + 2  # each round follows one hop; a cycle ends too
    changed = True
    while changed and rounds > 0:
        changed, rounds = False, rounds - 1
        for module, stars in list(facts.stars.items()):
            own = [spec for spec in stars if spec in facts.modules and spec != module]
            if not own:
                continue
            names = set(facts.modules.get(module, []))
            rest = [spec for spec in stars if spec not in own]
            # A sibling whose names are open for another reason (no entry file read).
            opened = any("*" in facts.modules[spec] and not facts.stars.get(spec) for spec in own)
            for spec in own:
                names |= set(facts.modules[spec])
                rest += [s for s in facts.stars.get(spec, []) if s != module and s not in rest]
            if not opened and all(s in facts.modules for s in rest):
                names.discard("*")  # every star followed: nothing unread behind them
            facts.modules[module] = sorted(names)
            if rest:
                facts.stars[module] = rest
            else:
                del facts.stars[module]
            changed = True
