"""The source files the API model reads at a commit: the product's code (no tests,
examples, docs, builds, a static site's served scripts, nor files over the size cut) and
the repository's other sources (its tests, scripts, examples), each read once per index.
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import product_code_of
from pytest_postgates.evidence.repomap import may_be_script, source_language
from pytest_postgates.evidence.vue_files import VUE_SUFFIX, script_text
from pytest_postgates.site_configs import is_static_site_root

MAX_SOURCE_CHARS = 4 * 1024 * 1024


def site_scripts(index: RepoIndex) -> Callable[[str], bool]:
    """Whether a path is a script the repository's static site serves as a file (Jekyll
    runs its `_plugins/`, Hugo no code of the repository)."""
    known = index.memo("static_site")  # asked by every reading of the sources: once
    if "site" not in known:
        known["site"] = is_static_site_root(index.paths)
    if not known["site"]:
        return lambda path: False
    return lambda path: not path.startswith("_plugins/")


def product_sources(index: RepoIndex) -> dict[str, str]:
    """The text of every product source file at the index's commit (no tests, examples,
    docs, builds, a static site's served scripts, nor files over the size cut)."""
    sources: dict[str, str] = {}
    served = site_scripts(index)
    is_product_code = _product_code(index)
    for path in index.text_paths:
        if path.endswith(VUE_SUFFIX) and is_product_code(path) and not served(path):
            # a Vue component: its script blocks, in place (:mod:`.vue_files`)
            text = index.file_text(path)
            script = script_text(text) if text and len(text) <= MAX_SOURCE_CHARS else None
            if script is not None:
                sources[path] = script
            continue
        if not may_be_script(path) or not is_product_code(path):
            continue
        if served(path):
            continue
        text = index.file_text(path)
        if text is not None and len(text) <= MAX_SOURCE_CHARS and source_language(path, text):
            sources[path] = text
    for path in index.paths:
        # An empty `__init__.py` is no text file of the index, yet it makes its folder a
        # package: without it `pkg/sub/mod.py` would be read as a top-level `mod`.
        if path.endswith(("/__init__.py", "/__init__.pyi")) and is_product_code(path):
            if served(path):
                continue
            sources.setdefault(path, "")
    return sources


def elsewhere_sources(index: RepoIndex) -> dict[str, str]:
    """The text of the repository's other source files: its tests, scripts, examples."""
    sources: dict[str, str] = {}
    served = site_scripts(index)
    is_product_code = _product_code(index)
    for path in index.text_paths:
        if not may_be_script(path) or (is_product_code(path) and not served(path)):
            continue
        text = index.file_text(path)
        if text is not None and len(text) <= MAX_SOURCE_CHARS and source_language(path, text):
            sources[path] = text
    return sources


def _product_code(index: RepoIndex) -> Callable[[str], bool]:
    """Whether a path is the product's code (:func:`~.model_facts.product_code_of` over the
    commit's files), made once per index."""
    known = index.memo("product_code")
    if "of" not in known:
        known["of"] = product_code_of(index.paths)
    found: Callable[[str], bool] = known["of"]
    return found


# The files whose aliases the call graph follows (:mod:`.specifier_aliases`).
_CONFIG_NAMES = frozenset(
    {"tsconfig.json", "jsconfig.json", "package.json", "vue.config.js", "webpack.config.js"}
    | {f"vite.config.{e}" for e in ("ts", "js", "mjs", "mts", "cjs")}
)


def alias_configs(index: RepoIndex) -> dict[str, str]:
    """The text of the repository's tsconfig/jsconfig files (any ``tsconfig*.json`` a
    config extends or references), bundler configs and package.json files."""
    found: dict[str, str] = {}
    for path in index.text_paths:
        name = path.rsplit("/", 1)[-1]
        if "node_modules/" in path:
            continue
        config = name in _CONFIG_NAMES or (name.startswith("tsconfig") and name.endswith(".json"))
        if config:
            text = index.file_text(path)
            if text is not None and len(text) <= MAX_SOURCE_CHARS:
                found[path] = text
    return found
