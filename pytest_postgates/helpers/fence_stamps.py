"""What gate 15's cached result of a page depends on of the other pages of its folder
(:mod:`.js_docs_names` types a name the page leaves unbound by their samples' bindings):
each page's stamp (:func:`~pytest_postgates.helpers.js_docs_names.fences_stamp`), so an edit
of one page's prose re-gates that page alone, not its whole folder.

A stamp needs a page parsed, which a run whose results are all cached never does
otherwise; so stamps are kept across runs by (path, size, time of change) in one file of
the cache folder, appended to line by line (an append of one short line is atomic, so
pytest-xdist's workers share it), and rewritten whole when it has grown to several times
the pages it stamps. The file's name carries a digest of the code that stamps: another
version of it never reads these stamps.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import time
from pathlib import Path

from pytest_postgates.helpers import code_fences, js_docs_names
from pytest_postgates.post import ParsedAhead, is_markdown

# The stamps a process has read or made, by file of stamps: (path, size, mtime) -> stamp.
_KNOWN: dict[Path, dict[tuple[str, int, int], str]] = {}
# The file is rewritten with only its live stamps once it holds this many times as many
# lines as it has stamps in use, and at least this many lines.
_GROWTH = 4
_MIN_REWRITE = 1_000
# A listing is kept only of a folder unchanged for this long (:func:`_listing`).
_RACY_NS = 2_000_000_000
# How many lines each file of stamps held when read, with those appended since.
_load_lines: dict[Path, int] = {}


def _code_digest() -> str:
    digest = hashlib.sha256()
    for module in (js_docs_names, code_fences):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(Path(str(is_markdown.__code__.co_filename)).read_bytes())
    return digest.hexdigest()[:12]


_STAMPS_FILE = f"fence-stamps-{_code_digest()}.jsonl"


# A run's listings of folders (:func:`folder_stamp`'s ``listings``): the folder's identity
# and time of change when listed -> its pages' names in order, each with whether it is a
# symbolic link, and the folder resolved.
Listings = dict[str, tuple[tuple[int, int, int], list[tuple[str, bool]], str]]


def folder_stamp(
    page: Path,
    cache_dir: Path | None,
    kept: js_docs_names.DiskPages | None = None,
    ahead: ParsedAhead | None = None,
    listings: Listings | None = None,
) -> str:
    """What a cached result of ``page`` depends on of its folder's pages: their names and
    stamps (``cache_dir``: where stamps are kept across runs; None: in this process only;
    ``kept``: the run's pages read from disk, which its readings of the folder read too;
    ``ahead``: where a page parsed is offered to the runner, which parses it next;
    ``listings``: the run's listings of folders, a folder listed again only when an entry
    was added, removed or renamed in it since, its time of change tells)."""
    try:
        listed = _listing(page.parent, listings)
    except OSError:
        return "unread"
    store = cache_dir / _STAMPS_FILE if cache_dir is not None else Path(_STAMPS_FILE)
    known = _KNOWN.get(store)
    if known is None:
        known = _KNOWN[store] = _load(store) if cache_dir is not None else {}
    made: list[tuple[str, int, int, str]] = []
    parts = []
    names, folder = listed  # each page's path resolved: its folder's, once
    for name, symlink in names:
        path = page.parent / name
        try:
            if symlink:  # its target may change with no change of the folder: asked each time
                try:
                    status = os.stat(path)
                except OSError as error:
                    if error.errno in _NOT_A_FILE:
                        continue  # a link to nothing is no page (Path.is_file)
                    return "unread"
                if not stat.S_ISREG(status.st_mode):
                    continue
                resolved = str(path.resolve())
            else:
                resolved = f"{folder.rstrip('/')}/{name}"
                status = os.stat(resolved)
        except OSError:
            parts.append(f"{name}:unread")
            continue
        key = (resolved, status.st_size, status.st_mtime_ns)
        if key not in known:
            known[key] = js_docs_names.fences_stamp(path, kept, ahead)
            made.append((*key, known[key]))
        parts.append(f"{name}:{known[key]}")
    if made and cache_dir is not None:
        _save(store, known, made)
    return ",".join(parts)


def _listing(folder: Path, listings: Listings | None) -> tuple[list[tuple[str, bool]], str]:
    """The folder's markdown pages (a file, or a symbolic link to one) in name order, each
    with whether it is a link, and the folder resolved: from ``listings`` while the folder's
    identity and time of change are those it was listed at."""
    where = str(folder)
    status = os.stat(where)
    stamp = (status.st_dev, status.st_ino, status.st_mtime_ns)
    known = listings.get(where) if listings is not None else None
    if known is not None and known[0] == stamp:
        return known[1], known[2]
    # Listed once, each entry's type asked of the listing (os.scandir).
    with os.scandir(where) as entries:
        found = [(e.name, e.is_symlink()) for e in entries if _is_file(e)]
    pages = sorted((n, link) for n, link in found if is_markdown(folder / n))
    resolved = str(folder.resolve())
    # A folder changed in the last seconds may change again within its clock's tick, its
    # time of change the same: its listing is not kept (git's racy index, the same way).
    if listings is not None and time.time_ns() - status.st_mtime_ns > _RACY_NS:
        listings[where] = (stamp, pages, resolved)
    return pages, resolved


# The errors Path.is_file answers False for (pathlib's _IGNORED_ERRNOS): a listed entry
# is a file as Path.is_file tells it.
_NOT_A_FILE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError as error:
        if error.errno in _NOT_A_FILE:
            return False
        raise


def _load(store: Path) -> dict[tuple[str, int, int], str]:
    known: dict[tuple[str, int, int], str] = {}
    try:
        lines = store.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return known
    for line in lines:
        try:
            path, size, mtime, stamp = json.loads(line)
            known[(str(path), int(size), int(mtime))] = str(stamp)
        except (ValueError, TypeError):
            continue  # a line cut short by a run that stopped while writing it
    _load_lines[store] = len(lines)
    return known


def _save(
    store: Path, known: dict[tuple[str, int, int], str], made: list[tuple[str, int, int, str]]
) -> None:
    lines = _load_lines.get(store, 0) + len(made)
    live = {key[0]: key for key in known}  # each path's newest stamp
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        if lines >= _MIN_REWRITE and lines > _GROWTH * len(live):
            kept = [(*key, known[key]) for key in live.values()]
            temporary = store.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text("".join(json.dumps(k) + "\n" for k in kept), encoding="utf-8")
            os.replace(temporary, store)
            _load_lines[store] = len(kept)
            return
        with store.open("a", encoding="utf-8") as stamps:
            stamps.write("".join(json.dumps(row) + "\n" for row in made))
        _load_lines[store] = lines
    except OSError:
        pass  # stamps are made again next run
