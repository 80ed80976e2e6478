"""The one place gate 15 parses a fence's text (issue 26): tree-sitter parsers whose trees
are kept by the bytes parsed, and Python's ``ast.parse`` kept by the text parsed.

A JavaScript/TypeScript fence is parsed by its recovery (:func:`~pytest_postgates.helpers.
fence_fragments.recover_js`, which keeps a step only by the errors it leaves), by the reader
(its comments, its uses, its signatures, its exports), by the page's accounting and by the
listing of what still does not parse. Each asks the parser of the page's
:class:`FenceParsers`: a text already parsed gives the tree it gave, so each final text is
parsed once. A tree is read, never edited (no reader calls ``Tree.edit``), so one tree
serves every reader of the same bytes. Python fences alike: :func:`parse_python` keeps the
module (or the ``SyntaxError``) of the last texts parsed; the readers walk the module and
never change it.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

# The trees kept per language: a page's fences, their recovery steps and wrappings.
MAX_TREES = 2048
MAX_MODULES = 128
T = TypeVar("T")


class CachedParser:
    """A tree-sitter parser whose trees are kept by the bytes parsed (least recently used
    dropped past ``size``)."""

    def __init__(self, parser: Any, size: int = MAX_TREES) -> None:
        self.parser = parser
        self.size = size
        self.trees: OrderedDict[bytes, Any] = OrderedDict()
        self.parsed = 0  # the parses run (the rest came from the kept trees)
        # What a reader derives from a text by this parser alone (:meth:`derived`).
        self._derived: OrderedDict[tuple[str, str], Any] = OrderedDict()

    @property
    def language(self) -> Any:
        return self.parser.language

    def parse(self, source: bytes) -> Any:
        tree = self.trees.get(source)
        if tree is not None:
            self.trees.move_to_end(source)
            return tree
        tree = self.parser.parse(source)
        self.parsed += 1
        self.trees[source] = tree
        if len(self.trees) > self.size:
            self.trees.popitem(last=False)
        return tree

    def derived(self, kind: str, text: str, make: Callable[[], T]) -> T:
        """What ``make`` derives from ``text`` (``kind``: which reading), kept like the
        trees: ``make`` must read nothing but ``text`` and this parser's trees, so that
        a text read again gives what it gave (a fence's comments, read by the page's
        reader and again by each reading of its folder)."""
        key = (kind, text)
        if key in self._derived:
            self._derived.move_to_end(key)
            found: T = self._derived[key]
            return found
        made = self._derived[key] = make()
        if len(self._derived) > self.size:
            self._derived.popitem(last=False)
        return made


class FenceParsers(Mapping[str, Any]):
    """The parsers by language (``typescript``, ``tsx``, ...), each a :class:`CachedParser`."""

    def __init__(self, parsers: Mapping[str, Any]) -> None:
        self._parsers = {
            language: parser if isinstance(parser, CachedParser) else CachedParser(parser)
            for language, parser in parsers.items()
        }

    def __getitem__(self, language: str) -> CachedParser:
        return self._parsers[language]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsers)

    def __len__(self) -> int:
        return len(self._parsers)


_MODULES: OrderedDict[str, ast.Module | SyntaxError | ValueError] = OrderedDict()


def parse_python(code: str) -> ast.Module:
    """``ast.parse(code)``, the module of a text parsed before given again (its error
    raised again); the caller must not change the module."""
    found = _MODULES.get(code)
    if found is None:
        try:
            found = ast.parse(code)
        except (SyntaxError, ValueError) as error:
            found = error
        _MODULES[code] = found
        if len(_MODULES) > MAX_MODULES:
            _MODULES.popitem(last=False)
    else:
        _MODULES.move_to_end(code)
    if isinstance(found, (SyntaxError, ValueError)):
        raise found.with_traceback(None)
    return found
