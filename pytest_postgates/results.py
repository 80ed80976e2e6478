"""Gate results cached on disk: an unchanged post on an unchanged repository is not gated
again.

A result is keyed by the plugin version and a digest of its source code, the gate, the
post's bytes, every run-wide setting and the gate's own settings (not another gate's: a
change to gate 6's floor recomputes gate 6 only), and what the gate itself says its result
depends on (``cache_inputs`` in the gate module: usually the commit it grounds against;
``None`` means "do not cache", and a gate without the hook is never cached). PASS and FAIL
are stored, and SKIP for gates that declare it cacheable (``caches_skip``: a judge gate
without a judge); an ERROR is decided again every run. An unreadable entry is simply
recomputed.

An entry is data from disk, and a cache folder is often shared or restored in CI, so it is
never trusted: every entry must have the exact shape written here, a verdict of PASS or
FAIL, the gate it is looked up for, and its own key inside (a PASS copied from another
post's entry is a miss). With ``POSTGATES_CACHE_KEY`` set, entries also carry an HMAC-SHA256
of their content under that key; an entry without a valid one is a miss. Without a key, a
writer who can edit the folder can still forge a consistent entry: sign it in CI.

All entries of a cache folder live in one SQLite database (``results-v1.sqlite``, WAL mode,
one connection per process, concurrent xdist workers and runs wait on its lock): one file
instead of one per (post, gate), so ``--cache-clear`` and a cold run do not create or remove
thousands of small files. A row holds the same JSON text a file did and is validated the
same way. A database that is not one (truncated, overwritten, planted as a FIFO or a link)
is replaced once; one that cannot be opened or written (a read-only or full folder) turns
the cache off for the run, with one warning when a write fails.

Beside the results the database keeps two small tables: ``notes``, what a gate learnt about
a post that its next key needs (gate 6: the files the post's links name), keyed like a
result and signed like one; and ``written``, the ``lstat`` stamp and content digest of each
scorecard written, so that a cached run tells an unchanged scorecard without reading it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import fields
from pathlib import Path
from typing import Any

from pytest_postgates import __version__, signing
from pytest_postgates.config import Settings
from pytest_postgates.scorecard import Finding, Scorecard

DATABASE_NAME = "results-v1.sqlite"
# An entry larger than this is never read (a planted one must not flood memory).
MAX_ENTRY_CHARS = 4 * 1024 * 1024
# Most keys read ahead in one query (SQLite's default limit of host parameters is 32,766).
_PREFETCH_LIMIT = 256
# How long a process waits on another's lock of the database before it gives up the cache.
_BUSY_SECONDS = 60.0
_ENTRY_KEYS = frozenset(
    {"key", "gate", "name", "advisory", "verdict", "detail", "findings", "summary", "score"}
)


class CacheWriteError(OSError):
    """The cache folder could not take an entry (full disk, read-only): caching stops."""


def code_fingerprint(package: Path) -> str:
    """A digest of every Python source file of the package: two installs that report the
    same version (an editable checkout, a git install at another commit) never share
    cached verdicts."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


# Read at import, so the key names the code that runs even if a file is edited mid-run.
CODE_FINGERPRINT = code_fingerprint(Path(__file__).resolve().parent)


def settings_fingerprint(settings: Settings) -> str:
    """Every run-wide setting except where output goes and how the run is scheduled. The
    gates' own settings are not in it: each gate's are keyed with its results only."""
    ignored = {"scorecards", "feedback", "sarif", "html", "run_all", "only", "snapshot", "jobs"}
    ignored.add("shard")  # which posts this process runs, not what a gate decides
    ignored.add("short_circuit")  # which gates run, not what a gate decides
    ignored.add("gate_settings")
    values = {
        f.name: repr(getattr(settings, f.name)) for f in fields(settings) if f.name not in ignored
    }
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


class ResultCache:
    def __init__(self, folder: Path | None, settings: Settings, secret: str | None = None) -> None:
        self.folder = folder
        self.fingerprint = settings_fingerprint(settings)
        if secret is None:
            # The key every cache entry is signed with (signing.py); unset: unsigned.
            secret = os.environ.get(signing.ENV_CACHE_KEY) or None
        self._secret = secret.encode("utf-8") if secret else None
        # Set when a write failed: the run goes on without storing (warned about once).
        self.write_error: OSError | None = None
        self._db: sqlite3.Connection | None = None
        self._db_error: OSError | None = None  # the database cannot be used this run
        self._replaced = False  # a damaged database was started again (once per run)
        self._content: bytes | None = None  # the last post digested by key(), and its digest
        # Output files' stamps (see written_unchanged): saved ones, and this run's new ones.
        self._written: dict[str, str] | None = None
        self._new_written: dict[str, str] = {}
        self._content_digest = b""
        # Per gate: its settings object and the key digest of the parts before the inputs.
        self._prefixes: dict[int, tuple[object, str, Any]] = {}
        # Entry texts read ahead by prefetch() for a post's next loads (hits only: a key
        # not found there is still queried, since another process may store it meanwhile).
        self._prefetched: dict[str, str] = {}

    def _mac(self, entry: dict[str, Any]) -> str:
        assert self._secret is not None
        text = json.dumps(entry, sort_keys=True, ensure_ascii=True).encode("ascii")
        return hmac.new(self._secret, text, hashlib.sha256).hexdigest()

    def key(self, gate: int, content: bytes, inputs: str, gate_settings: object) -> str:
        """The key of ``gate``'s result on a post with bytes ``content``; ``gate_settings``
        is the gate's own settings (a frozen dataclass: its repr names every value)."""
        # The post's bytes are digested once for all its gates (the runner hands the same
        # bytes object to every key of a post), not once per gate.
        if content is not self._content:
            self._content, self._content_digest = content, hashlib.sha256(content).digest()
        # The parts before ``inputs`` are the same for every post of a gate: digested once
        # per (gate, settings object) and copied, not rebuilt (repr of the settings
        # dataclass included) for every item. The digest fed is the same either way.
        prefix = self._prefixes.get(gate)
        if prefix is None or prefix[0] is not gate_settings or prefix[1] != CODE_FINGERPRINT:
            start = hashlib.sha256()
            own = repr(gate_settings)
            for part in (__version__, CODE_FINGERPRINT, str(gate), self.fingerprint, own):
                start.update(part.encode("utf-8", "surrogateescape") + b"\0")
            prefix = self._prefixes[gate] = (gate_settings, CODE_FINGERPRINT, start)
        digest = prefix[2].copy()
        digest.update(inputs.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(self._content_digest)
        return digest.hexdigest()

    @property
    def database(self) -> Path | None:
        return None if self.folder is None else self.folder / DATABASE_NAME

    def _connection(self, create: bool) -> sqlite3.Connection | None:
        """The process's connection to the database; None when there is none to read
        (``create`` False and no file yet) or it cannot be used (see ``_db_error``)."""
        if self._db is not None or self._db_error is not None or self.database is None:
            return self._db
        path = self.database
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            info = None
        except OSError as exc:
            self._db_error = exc
            return None
        if info is None and not create:
            return None
        try:
            if info is not None and not stat.S_ISREG(info.st_mode):
                # A FIFO would block the open, a link would write elsewhere: ours to replace.
                _remove_database(path)
            self.folder.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
            try:
                self._db = _open_database(path)
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError):
                    raise
                # Not a database (truncated, overwritten): a cache, so start it again.
                _remove_database(path)
                self._db = _open_database(path)
        except (sqlite3.Error, OSError) as exc:
            self._db_error = exc if isinstance(exc, OSError) else _os_error(exc)
            self._db = None
        return self._db

    def _read_text(self, query: str, key: str) -> str | None:
        """The text one row of ``query`` holds for ``key`` (at most MAX_ENTRY_CHARS), or
        None: no database, no row, unreadable (a damaged database is set aside)."""
        db = self._connection(create=False)
        if db is None:
            return None
        try:
            row = db.execute(query, (key, MAX_ENTRY_CHARS)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return None
        except sqlite3.Error:
            return None
        if row is None or not isinstance(row[0], str):
            return None
        return row[0]

    def _read_json(self, query: str, key: str) -> Any:
        """The JSON value one row of ``query`` holds for ``key``, or None (see _read_text)."""
        text = self._read_text(query, key)
        if text is None:
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return None

    def load(
        self, key: str, gate: int | None = None, name: str | None = None, skip: bool = False
    ) -> Scorecard | None:
        """The cached scorecard under ``key``, or None for a miss: absent, unreadable, or
        anything but an entry of exactly the written shape for this key (and gate). A
        SKIP is a hit only with ``skip`` (the gate caches its SKIPs, see Gate.caches_skip)."""
        text = self._prefetched.pop(key, None)
        if text is None:
            text = self._read_text(
                "SELECT entry FROM entries WHERE key = ? AND length(entry) <= ?", key
            )
        if text is None:
            return None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None
        card = self._validated(data, key, gate, name, skip)
        if card is not None:
            card.entry_digest = entry_digest(text)
        return card

    def prefetch(self, keys: Iterable[str]) -> None:
        """Read the entries under ``keys`` in one query, for the :meth:`load` calls that
        follow (a post's gates: one query a post instead of one an item). Only the rows
        found are kept, each for one load; they are validated when loaded, like any."""
        wanted = [key for key in dict.fromkeys(keys) if key not in self._prefetched]
        if not wanted or len(wanted) > _PREFETCH_LIMIT:
            return
        db = self._connection(create=False)
        if db is None:
            return
        if len(self._prefetched) > _PREFETCH_LIMIT:
            self._prefetched.clear()  # loads that never came (a deselected gate): let go
        marks = ",".join("?" * len(wanted))
        try:
            rows = db.execute(
                f"SELECT key, entry FROM entries WHERE key IN ({marks}) AND length(entry) <= ?",
                (*wanted, MAX_ENTRY_CHARS),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return
        except sqlite3.Error:
            return
        for key, text in rows:
            if isinstance(key, str) and isinstance(text, str):
                self._prefetched[key] = text

    def _damaged(self, exc: sqlite3.DatabaseError) -> bool:
        """After an error reading or writing: when the file turned out not to be a sound
        database (a torn copy that opened), start it again, once per run. True when it was
        replaced and the caller may retry."""
        if isinstance(exc, sqlite3.OperationalError) or self._replaced or self.database is None:
            return False  # locked, read-only, full: not damage
        self._replaced = True
        self.close()
        _remove_database(self.database)
        return True

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def _validated(
        self, data: Any, key: str, gate: int | None, name: str | None, skip: bool = False
    ) -> Scorecard | None:
        if not isinstance(data, dict):
            return None
        if self._secret is not None:
            mac = data.pop("mac", None)
            if not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(data)):
                return None
        if set(data) != _ENTRY_KEYS or data["key"] != key:
            return None
        if data["verdict"] not in (("PASS", "FAIL", "SKIP") if skip else ("PASS", "FAIL")):
            return None  # only these are ever stored
        if (gate is not None and data["gate"] != gate) or (
            name is not None and data["name"] != name
        ):
            return None
        findings = data["findings"]
        if not (
            _is_int(data["gate"])
            and isinstance(data["name"], str)
            and isinstance(data["advisory"], bool)
            and isinstance(data["detail"], dict)
            and isinstance(data["summary"], str)
            and (data["score"] is None or _is_number(data["score"]))
            and isinstance(findings, list)
            and all(_is_finding(finding) for finding in findings)
        ):
            return None
        return Scorecard(
            gate=data["gate"],
            name=data["name"],
            advisory=data["advisory"],
            verdict=data["verdict"],
            detail=data["detail"],
            findings=[Finding(*finding) for finding in findings],
            summary=data["summary"],
            score=data["score"],
        )

    def load_note(self, key: str) -> str | None:
        """A gate's own note under ``key`` (see :meth:`store_note`), or None: absent,
        unreadable, oversized, or (with ``POSTGATES_CACHE_KEY``) not signed for this key."""
        data = self._read_json("SELECT value FROM notes WHERE key = ? AND length(value) <= ?", key)
        if not isinstance(data, dict):
            return None
        if self._secret is not None:
            mac = data.pop("mac", None)
            if not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(data)):
                return None
        if set(data) != {"key", "value"} or data["key"] != key:
            return None
        value = data["value"]
        return value if isinstance(value, str) else None

    def store_note(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` beside the results: what a gate learnt about a
        post that its cache key needs on the next run (gate 6: the files the post's links
        name), so that computing the key does not need the post parsed. Keys come from
        :meth:`key` and so name the post's bytes and the code. A failed write only costs
        the next run a parse; it never stops this one."""
        if self.folder is None or self.write_error is not None:
            return
        data: dict[str, Any] = {"key": key, "value": value}
        if self._secret is not None:
            data["mac"] = self._mac(dict(data))
        try:
            db = self._connection(create=True)
            if db is None:
                return
            db.execute(
                "INSERT OR REPLACE INTO notes (key, value) VALUES (?, ?)",
                (key, json.dumps(data, sort_keys=True)),
            )
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
        except (OSError, sqlite3.Error):
            pass

    # ------------------------------------------------------------------ written files
    def written_unchanged(self, path: Path, digest: str) -> bool:
        """Whether ``path`` still holds what was last written (or found) there with content
        ``digest``, told by its ``lstat`` stamp alone (device, inode, size, modification
        and change times: any write through a new file or in place changes one of them),
        so that an unchanged scorecard costs a rerun one ``lstat`` instead of a read and
        two JSON decodes. False whenever it cannot tell: the file is then compared."""
        recorded = self._written_stamps().get(str(path))
        if recorded is None:
            return False
        try:
            info = os.lstat(path)
        except OSError:
            return False
        return stat.S_ISREG(info.st_mode) and recorded == f"{_stamp(info)} {digest}"

    def record_written(self, path: Path, digest: str) -> None:
        """``path`` now holds content ``digest``: its stamp is saved by :meth:`flush`."""
        if self.folder is None:
            return
        try:
            info = os.lstat(path)
        except OSError:
            return
        value = f"{_stamp(info)} {digest}"
        stamps = self._written_stamps()
        if stamps.get(str(path)) != value:
            stamps[str(path)] = self._new_written[str(path)] = value

    def _written_stamps(self) -> dict[str, str]:
        """Every saved stamp, read in one query the first time (not one query a file)."""
        if self._written is None:
            self._written = {}
            db = self._connection(create=False) if self.folder is not None else None
            if db is not None:
                try:
                    rows = db.execute("SELECT path, stamp FROM written").fetchall()
                except sqlite3.Error:
                    rows = []
                self._written = {
                    path: stamp
                    for path, stamp in rows
                    if isinstance(path, str) and isinstance(stamp, str)
                }
        return self._written

    def flush(self) -> None:
        """Save the stamps of the files written this run, in one transaction (at the end
        of each process's session). A failure costs the next run a comparison, no more."""
        if not self._new_written or self.folder is None or self.write_error is not None:
            return
        rows, self._new_written = list(self._new_written.items()), {}
        try:
            db = self._connection(create=True)
            if db is None:
                return
            db.execute("BEGIN")
            try:
                db.executemany("INSERT OR REPLACE INTO written (path, stamp) VALUES (?, ?)", rows)
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
        except (OSError, sqlite3.Error):
            pass

    def store(self, key: str, card: Scorecard, skip: bool = False) -> None:
        if self.folder is None or self.write_error is not None:
            return
        if card.verdict not in (("PASS", "FAIL", "SKIP") if skip else ("PASS", "FAIL")):
            return
        data: dict[str, Any] = card.to_dict() | {
            "key": key,
            "findings": [[f.line, f.code, f.message, f.fix] for f in card.findings],
            "summary": card.summary,
            "score": card.score,
        }
        if self._secret is not None:
            data["mac"] = self._mac(json.loads(json.dumps(data)))
        try:
            db = self._connection(create=True)
            if db is None:
                assert self._db_error is not None
                raise self._db_error
            text = json.dumps(data, sort_keys=True)
            try:
                _insert(db, key, text)
            except sqlite3.DatabaseError as exc:
                if not self._damaged(exc):
                    raise
                db = self._connection(create=True)
                if db is None:
                    raise
                _insert(db, key, text)
            # The card is now what a later load of ``key`` gives: the same scorecard digest.
            card.entry_digest = entry_digest(text)
        except (OSError, sqlite3.Error) as exc:
            # A full or read-only cache costs later runs time, never this run a verdict.
            error = exc if isinstance(exc, OSError) else _os_error(exc)
            self.write_error = error
            raise CacheWriteError(error.errno, error.strerror) from None


def entry_digest(text: str) -> str:
    """The digest of a stored entry's text. A scorecard served from the entry (or stored
    as it) is a function of this text and the run's advisory flag alone, so the pair names
    the scorecard file's content without encoding the card again (see written_unchanged)."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _open_database(path: Path) -> sqlite3.Connection:
    # Autocommit (each entry is its own short transaction); WAL lets readers and the one
    # writer of the moment work at once, and NORMAL sync keeps the file consistent on a
    # crash (only the last entries may be lost, and they are recomputed).
    db = sqlite3.connect(path, timeout=_BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    try:
        _while_busy(lambda: db.execute("PRAGMA journal_mode=WAL"))
        db.execute("PRAGMA synchronous=NORMAL")
        # entries: gate results; notes: what gates noted for their keys (gate 6's linked
        # files); written: the stamps of the scorecards written (see written_unchanged).
        for table, key, value in (
            ("entries", "key", "entry"),
            ("notes", "key", "value"),
            ("written", "path", "stamp"),
        ):
            columns = f"{key} TEXT PRIMARY KEY, {value} TEXT NOT NULL"
            db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
    except BaseException:
        db.close()
        raise
    return db


def _while_busy(statement: Callable[[], object]) -> None:
    """Run ``statement``, again while SQLite answers SQLITE_BUSY at once. Processes that
    open a new database together (xdist's workers on a cold run) each read it and then
    switch it to WAL; SQLite refuses one of two such lock upgrades without waiting (to
    break the deadlock), and a process whose open failed kept no cache for the run."""
    deadline = time.monotonic() + _BUSY_SECONDS
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _busy(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11 and later
    if code is not None:
        return bool(code & 0xFF == sqlite3.SQLITE_BUSY)
    return str(exc) == "database is locked"


def _stamp(info: os.stat_result) -> str:
    return f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


def _insert(db: sqlite3.Connection, key: str, entry: str) -> None:
    db.execute("INSERT OR REPLACE INTO entries (key, entry) VALUES (?, ?)", (key, entry))


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


def _os_error(exc: sqlite3.Error) -> OSError:
    """An SQLite failure as the OSError the cache's callers handle (the message kept)."""
    return OSError(0, str(exc))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_finding(value: Any) -> bool:
    """``[line, code, message, fix]`` with line an integer or null, the rest text."""
    return (
        isinstance(value, list)
        and len(value) == 4
        and (value[0] is None or _is_int(value[0]))
        and all(isinstance(part, str) for part in value[1:])
    )
