"""The classes and functions the Python samples of a docs tree define, for gate 15's
reading of the names a page's Python samples use without binding them (issue 26): a
permission class one page of the docs defines in its sample (``class ReadOnly(
BasePermission)`` in ``docs/api-guide/permissions.md``) that another page of the same docs
uses (``permission_classes = [IsAuthenticated | ReadOnly]`` in
``docs/community/3.9-announcement.md``) is the docs' own, not a name of the product's.

Which pages count: every markdown page of the page's docs tree, the repository's top-level
folder that holds the page (``docs/`` for ``docs/community/x.md``), at any depth, as on
disk; a page outside the repository, or at its top, counts its own folder's pages only.
What counts as defining a name: a ``class``/``def`` statement on a line of a Python fence
(a REPL session's prompts read through), or of a fence with no language or an indented code
block that parses as Python (MkDocs pages indent their samples). Code only: what the pages'
prose says is never read. A tree of more than :data:`MAX_PAGES` pages is not read (its
names are judged as before).
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from pytest_postgates import held_blocks
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.post import Fence, PostRefused, is_markdown, parse_post

MAX_PAGES = 2_000
# A line of Python code that defines a class or function (a REPL prompt before it).
_DEFINES = re.compile(
    r"^[ \t]*(?:(?:>>>|\.\.\.)[ \t]+)?(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)", re.M
)
_SKIPPED_DIRS = frozenset({"node_modules", "site-packages", "__pycache__"})
# What the docs' samples define: name -> where (page:line) the first definition is.
Defined = Mapping[str, str]


def docs_tree(page: Path, root: Path | None) -> tuple[Path, bool]:
    """The folder whose pages count for ``page`` (``root``: the repository's top), and
    whether its subfolders count too."""
    if root is not None:
        try:
            parts = page.resolve().relative_to(root.resolve()).parts
        except (OSError, ValueError):
            parts = ()
        if len(parts) > 1:
            return root.resolve() / parts[0], True
    return page.parent, False


def defined_names(page: Path, root: Path | None, memo: dict[object, object]) -> Defined:
    """What the Python samples of ``page``'s docs tree define (:func:`docs_tree`), read
    once per tree for a run's ``memo``."""
    tree, deep = docs_tree(page, root)
    key = ("python_docs_names", str(tree), deep)
    if key not in memo:
        memo[key] = _read(tree, deep)
    found: Defined = memo[key]  # type: ignore[assignment]
    return found


def tree_stamp(page: Path, root: Path | None, memo: dict[object, object]) -> str:
    """What a cached result of ``page`` depends on of its tree's definitions (gate 15's
    cache inputs): a digest of them, "" when there are none."""
    defined = defined_names(page, root, memo)
    if not defined:
        return ""
    text = "\n".join(f"{name}\0{where}" for name, where in sorted(defined.items()))
    return "|py-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _read(tree: Path, deep: bool) -> Defined:
    try:
        pages = sorted(_pages(tree, deep))
    except OSError:
        return {}
    if len(pages) > MAX_PAGES:
        return {}
    found: dict[str, str] = {}
    for path in pages:
        try:
            if not _DEFINES.search(path.read_text(encoding="utf-8", errors="replace")):
                continue  # no line of the page defines anything: not parsed
            post = parse_post(path)
        except (PostRefused, OSError, ValueError):
            continue
        shown = path.relative_to(tree.parent).as_posix() if deep else path.name
        blocks = held_blocks.code_blocks(post)
        for fence in blocks:
            if not _python(fence):
                continue
            for match in _DEFINES.finditer(fence.content):
                row = fence.content.count("\n", 0, match.start())
                line = fence.start_line + 1 + row  # start_line: the line before the code
                found.setdefault(match.group(1), f"{shown}:{line}")
    return found


def _python(fence: Fence) -> bool:
    """Whether a block is Python: tagged so (or a REPL session), or untagged (an indented
    block too) and parsing as Python."""
    if fence.lang or fence_kind(fence) == "python":
        return fence_kind(fence) == "python"
    try:
        ast.parse(fence.content)
    except (SyntaxError, ValueError):
        return False
    return True


def _pages(tree: Path, deep: bool) -> list[Path]:
    if not deep:
        return [p for p in tree.iterdir() if p.is_file() and is_markdown(p)]
    found: list[Path] = []
    for path in tree.rglob("*"):
        relative = path.relative_to(tree).parts
        if any(part.startswith(".") or part in _SKIPPED_DIRS for part in relative[:-1]):
            continue
        if path.is_file() and is_markdown(path):
            found.append(path)
            if len(found) > MAX_PAGES:
                break
    return found
