"""The names the docs' own code gives, for gate 15's reading of an option key no
declaration takes (issue 26, defined-in-doc).

A docs site often ships code of its own beside its pages: a plugin its sample editor
registers for every chart (Chart.js's ``docs/scripts/analyzer.js``, ``{ id:
'samples-filler-analyser', ... }``), helpers its samples call. A sample that configures
such a thing writes its name as a key of a registry the product keys by the names it is
given (``options.plugins['samples-filler-analyser']``): no declaration of the product
takes the key, and none should; the name is the docs' own, as a plugin the sample itself
registers is (``js_option_keys``: the fence writes ``id: 'quadrants'``), or one another
sample of the page defines (:class:`PageCode`).

The docs' own code: the JavaScript/TypeScript files of the page's docs folder (the top
folder of its repository path, when that folder holds no product code by
:func:`~pytest_postgates.evidence.model_facts.is_product_code`: ``docs/``, never
``packages/``), read at the ref with git. A name is given there when a string literal of
such a file spells it whole, other than as an object's key (a name written, not read).
What it finds is listed unjudged with the file and line, never checked: the docs' code
says the name is theirs, not that the product takes it."""

from __future__ import annotations

import posixpath
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pytest_postgates.evidence.model_facts import is_product_code
from pytest_postgates.helpers.js_tree import node_text

CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
# The docs' files read for one name, at most (the first ones git lists), and their size.
MAX_FILES = 20
MAX_BYTES = 512 * 1024


def docs_folder(page: str) -> str:
    """The docs folder of a page (its path from the repository's top): its top folder
    when that folder holds no product code, else "" (a page at the top, or in a package's
    folder, has no docs code of its own)."""
    if "/" not in page:
        return ""
    top = page.split("/", 1)[0]
    return "" if is_product_code(f"{top}/code.js") else top


class DocsCode:
    """The string literals of the docs folder's own code files at ``commit``, asked name
    by name (each name once)."""

    def __init__(
        self, root: Path, commit: str, folder: str, parse: Callable[[str, bytes], Any]
    ) -> None:
        """``parse(path, source)``: the file's syntax tree's root node."""
        self.root, self.commit, self.folder, self.parse = root, commit, folder, parse
        self._given: dict[str, str] = {}
        self._trees: dict[str, tuple[bytes, Any] | None] = {}

    def gives(self, name: str) -> str:
        """``path:line`` of a string literal of the docs' own code that spells ``name``
        (not as an object's key), or "" when none does."""
        if not self.folder or not name:
            return ""
        if name not in self._given:
            self._given[name] = self._find(name)
        return self._given[name]

    def _find(self, name: str) -> str:
        for path in self._files_writing(name):
            read = self._tree(path)
            if read is None:
                continue
            source, root = read
            for node in _strings(root):
                if node_text(source, node)[1:-1] == name and not _is_key(node):
                    return f"{path}:{node.start_point[0] + 1}"
        return ""

    def _files_writing(self, name: str) -> list[str]:
        """The docs folder's code files at the commit that hold ``name`` (git grep)."""
        specs = [f"{self.folder}/*{suffix}" for suffix in CODE_SUFFIXES]
        found = subprocess.run(
            ["git", "-C", str(self.root), "grep", "-l", "-I", "-F", "-e", name, self.commit,
             "--", *specs],
            capture_output=True, check=False,
        )  # fmt: skip
        if found.returncode != 0:
            return []
        paths = []
        for line in found.stdout.decode("utf-8", "replace").splitlines():
            path = line.partition(":")[2]  # `<commit>:<path>`
            if path.endswith(CODE_SUFFIXES) and not path.endswith(".d.ts"):
                paths.append(path)
        return paths[:MAX_FILES]

    def _tree(self, path: str) -> tuple[bytes, Any] | None:
        if path not in self._trees:
            shown = subprocess.run(["git", "-C", str(self.root), "show", f"{self.commit}:{path}"],
                                   capture_output=True, check=False)  # fmt: skip
            ok = shown.returncode == 0 and len(shown.stdout) <= MAX_BYTES
            self._trees[path] = (shown.stdout, self.parse(path, shown.stdout)) if ok else None
        return self._trees[path]


class PageCode:
    """The string literals of the page's own JavaScript/TypeScript samples, asked name by
    name: a plugin one sample defines (``{ id: 'quadrants', ... }``) and another
    configures (``plugins: { quadrants: {...} }``)."""

    def __init__(self, fences: list[tuple[str, int]], parse: Callable[[str, bytes], Any]) -> None:
        """``fences``: each sample's text and the page line of its first line."""
        self.fences, self.parse = fences, parse
        self._trees: list[tuple[bytes, Any, int]] | None = None

    def gives(self, name: str) -> str:
        """``the page's line N`` of a string literal of its samples that spells
        ``name`` (not as an object's key), or "" when none does."""
        if not name or not any(name in text for text, _ in self.fences):
            return ""
        if self._trees is None:
            self._trees = []
            for text, first in self.fences:
                source = text.encode("utf-8")
                self._trees.append((source, self.parse("page.ts", source), first))
        for source, root, first in self._trees:
            for node in _strings(root):
                if node_text(source, node)[1:-1] == name and not _is_key(node):
                    return f"the page's line {first + node.start_point[0]}"
        return ""


def parser_of(parsers: Any) -> Callable[[str, bytes], Any]:
    """``parse(path, source)`` with the fence readers' grammars (TSX for JSX files)."""

    def parse(path: str, source: bytes) -> Any:
        tsx = posixpath.splitext(path)[1] in (".jsx", ".tsx")
        return parsers["tsx" if tsx else "typescript"].parse(source).root_node

    return parse


def _strings(root: Any) -> Iterator[Any]:
    todo = [root]
    while todo:
        here = todo.pop()
        if here.type == "string":
            yield here
            continue
        todo.extend(reversed(here.named_children))


def _is_key(node: Any) -> bool:
    """Whether a string literal is an object's key (``{ 'a-b': 1 }``): a name read, not
    given."""
    parent = node.parent
    if parent is None or parent.type != "pair":
        return False
    return bool(parent.child_by_field_name("key") == node)
