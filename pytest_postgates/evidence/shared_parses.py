"""The tables the API model's build read from each product file, kept for gate 15.

The model's build (:mod:`.model_js`) parses every product file and reads two tables of
it: the :class:`~.file_table.FileTable` gate 15's code tables hold (:mod:`.code_tables`)
and the :class:`~.type_tables.TypeTable` its type model holds (:mod:`.type_model`). Gate
15 asked the same parser of the same text again for each file its samples reach (381 of
NeuroLink's files, 12% of its cold CPU). A table kept here is handed out once, and only
for the very text and parser it was read with, and only when the build read it as the
gate's own reading would (no other grammar tried, no repair for the type table, no later
change by the build): otherwise the asker parses as before. A model loaded from the cache
folder keeps nothing here, so a warm run or an xdist worker parses as before.
"""

from __future__ import annotations

import threading
from typing import Any

from pytest_postgates.evidence.file_table import FileTable
from pytest_postgates.evidence.type_tables import TypeTable

# path -> (the text read, the parser, its FileTable or None, its TypeTable or None)
_KEPT: dict[str, tuple[str, Any, FileTable | None, TypeTable | None]] = {}
_LOCK = threading.Lock()


def keep_all(read: list[tuple[str, str, Any, FileTable | None, TypeTable | None]]) -> None:
    """Keep what a model's build read of each file (path, text, parser, its FileTable, its
    TypeTable; None where not shareable), forgetting any other build's: one model's at most."""
    with _LOCK:
        _KEPT.clear()
        for path, text, parser, file_table, type_table in read:
            if file_table is not None or type_table is not None:
                _KEPT[path] = (text, parser, file_table, type_table)


def take_file_table(path: str, text: str, parser: Any) -> FileTable | None:
    """The FileTable kept for ``path`` read from ``text`` with ``parser``, handed out once
    (None: none kept for that text and parser; the asker parses)."""
    with _LOCK:
        kept = _kept_for(path, text, parser)
        if kept is None or kept[2] is None:
            return None
        _KEPT[path] = (kept[0], kept[1], None, kept[3])
        return kept[2]


def take_type_table(path: str, text: str, parser: Any) -> TypeTable | None:
    """The TypeTable kept for ``path`` read from ``text`` with ``parser``, handed out once
    (None: none kept for that text and parser; the asker parses)."""
    with _LOCK:
        kept = _kept_for(path, text, parser)
        if kept is None or kept[3] is None:
            return None
        _KEPT[path] = (kept[0], kept[1], kept[2], None)
        return kept[3]


def _kept_for(
    path: str, text: str, parser: Any
) -> tuple[str, Any, FileTable | None, TypeTable | None] | None:
    """What is kept for ``path`` when it was read from this very text with this parser
    (the caller holds the lock)."""
    kept = _KEPT.get(path)
    return kept if kept is not None and kept[1] is parser and kept[0] == text else None
