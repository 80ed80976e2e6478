"""The packages a repository publishes from its workspaces: a monorepo's root package.json
is often private and names no entry point (``@vitejs/vite-monorepo``), while the packages
a reader installs (``vite``, ``vitest``, ``@eslint/js``) live in workspace folders.

The workspace folders are the globs of ``pnpm-workspace.yaml`` (``packages:``), the root
package.json's ``workspaces`` (npm, yarn, bun: a list, or ``{packages: [...]}``) and
``lerna.json``'s ``packages`` (``packages/*`` when lerna names none); a ``!`` glob takes
folders out. A folder is a package when it holds a package.json with a ``name``. The
product's packages are the root one (unless private) and every workspace package that is
not private and is product code (a test fixture or a docs site in a workspace glob is
not what a reader imports). Each keeps its folder and manifest, so a specifier is
resolved through its own package's ``exports`` with its own files.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from typing import Any

import yaml

from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import is_product_code

MANIFEST = "package.json"
LERNA_DEFAULT = ("packages/*",)


@dataclass(frozen=True)
class PackageSite:
    """A package of the repository: its name, its folder (``""`` for the root) and its
    parsed package.json."""

    name: str
    folder: str
    manifest: dict[str, Any]


def _loaded_json(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def workspace_globs(index: RepoIndex) -> list[str]:
    """Every workspace glob the repository declares, in the order its tools read them."""
    globs: list[str] = []
    text = index.file_text("pnpm-workspace.yaml")
    if text:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            globs += _strings(data.get("packages"))
    declared = _loaded_json(index.file_text(MANIFEST)).get("workspaces")
    if isinstance(declared, dict):
        declared = declared.get("packages")
    globs += _strings(declared)
    lerna_text = index.file_text("lerna.json")
    if lerna_text is not None:
        lerna = _loaded_json(lerna_text)
        globs += _strings(lerna.get("packages")) or list(LERNA_DEFAULT)
    return list(dict.fromkeys(g.strip() for g in globs if g.strip()))


def _glob_pattern(glob: str) -> re.Pattern[str]:
    """A workspace glob as a pattern of ``<folder>/``: ``*`` is (part of) one path
    segment, ``**`` any number of segments."""
    pattern = ""
    for segment in glob.removeprefix("./").strip("/").split("/"):
        if segment == "**":
            pattern += "(?:[^/]+/)*"
            continue
        pattern += "".join(
            "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in segment
        )
        pattern += "/"
    return re.compile(pattern)


def workspace_folders(index: RepoIndex) -> list[str]:
    """The folders the workspace globs select that hold a package.json, sorted."""
    globs = workspace_globs(index)
    if not globs:
        return []
    keep = [_glob_pattern(g) for g in globs if not g.startswith("!")]
    drop = [_glob_pattern(g[1:]) for g in globs if g.startswith("!")]
    found: list[str] = []
    for path in index.text_paths:
        if posixpath.basename(path) != MANIFEST or "node_modules/" in path:
            continue
        folder = posixpath.dirname(path)
        if not folder:
            continue
        selected = folder + "/"
        if any(p.fullmatch(selected) for p in keep) and not any(
            p.fullmatch(selected) for p in drop
        ):
            found.append(folder)
    return sorted(found)


def product_packages(index: RepoIndex) -> dict[str, PackageSite]:
    """Package name -> site of every package of the product a reader can install: the root
    package (unless private) and each public workspace package of product code."""
    sites: dict[str, PackageSite] = {}
    root = _loaded_json(index.file_text(MANIFEST))
    name = root.get("name")
    if isinstance(name, str) and name and root.get("private") is not True:
        sites[name] = PackageSite(name, "", root)
    for folder in workspace_folders(index):
        if not is_product_code(folder + "/"):
            continue
        manifest = _loaded_json(index.file_text(posixpath.join(folder, MANIFEST)))
        name = manifest.get("name")
        if not isinstance(name, str) or not name or manifest.get("private") is True:
            continue
        sites.setdefault(name, PackageSite(name, folder, manifest))
    return sites


def product_packages_of(index: RepoIndex) -> dict[str, PackageSite]:
    """:func:`product_packages`, read once per index (gates 14 and 15 ask it per page)."""
    memo = index.memo("workspaces.product_packages")
    if "sites" not in memo:
        memo["sites"] = product_packages(index)
    sites: dict[str, PackageSite] = memo["sites"]
    return sites


def primary_package(root_name: str, sites: dict[str, PackageSite]) -> PackageSite | None:
    """The workspace package a private root stands for: the one whose unscoped name is a
    word of the root's name (``@vitejs/vite-monorepo`` -> ``vite``, ``@vitest/monorepo``
    -> ``vitest``), else the only one; None when that says nothing."""
    words = set(re.split(r"[@/_.-]+", root_name.lower())) - {""}
    named = [s for s in sites.values() if s.folder and s.name.rsplit("/", 1)[-1] in words]
    if len(named) == 1:
        return named[0]
    if named:
        # Several match (`@scope/x` and `x`): the unscoped one is the one named so.
        bare = [s for s in named if "/" not in s.name]
        return bare[0] if len(bare) == 1 else None
    return next(iter(sites.values())) if len(sites) == 1 else None
