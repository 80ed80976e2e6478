"""Gate results cached on disk: an unchanged post on an unchanged repository is not gated
again.

A result is keyed by the plugin version, the gate, the post's bytes, every setting, and
what the gate itself says its result depends on (``cache_inputs`` in the gate module:
usually the commit it grounds against; ``None`` means "do not cache", and a gate without
the hook is never cached). Only PASS and FAIL are stored: an ERROR or SKIP is decided
again every run. Entries are written atomically, so an interrupted run or two runs sharing
the folder never leave a torn file, and an unreadable entry is simply recomputed.

An entry is data from disk, and a cache folder is often shared or restored in CI, so it is
never trusted: every entry must have the exact shape written here, a verdict of PASS or
FAIL, the gate it is looked up for, and its own key inside (a PASS copied from another
post's entry is a miss). With ``POSTGATES_CACHE_KEY`` set, entries also carry an HMAC-SHA256
of their content under that key; an entry without a valid one is a miss. Without a key, a
writer who can edit the folder can still forge a consistent entry: sign it in CI.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

from pytest_postgates import __version__
from pytest_postgates.config import Settings
from pytest_postgates.fileio import write_atomic
from pytest_postgates.scorecard import Finding, Scorecard

# The secret entries are signed with (HMAC-SHA256); unset: entries are unsigned.
ENV_CACHE_KEY = "POSTGATES_CACHE_KEY"
_ENTRY_KEYS = frozenset(
    {"key", "gate", "name", "advisory", "verdict", "detail", "findings", "summary", "score"}
)


class CacheWriteError(OSError):
    """The cache folder could not take an entry (full disk, read-only): caching stops."""


def settings_fingerprint(settings: Settings) -> str:
    """Every setting except where output goes and how the run is scheduled."""
    ignored = {"scorecards", "feedback", "sarif", "html", "run_all", "only", "snapshot"}
    values = {
        f.name: repr(getattr(settings, f.name)) for f in fields(settings) if f.name not in ignored
    }
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


class ResultCache:
    def __init__(self, folder: Path | None, settings: Settings, secret: str | None = None) -> None:
        self.folder = folder
        self.fingerprint = settings_fingerprint(settings)
        if secret is None:
            secret = os.environ.get(ENV_CACHE_KEY) or None
        self._secret = secret.encode("utf-8") if secret else None
        # Set when a write failed: the run goes on without storing (warned about once).
        self.write_error: OSError | None = None

    def _mac(self, entry: dict[str, Any]) -> str:
        assert self._secret is not None
        text = json.dumps(entry, sort_keys=True, ensure_ascii=True).encode("ascii")
        return hmac.new(self._secret, text, hashlib.sha256).hexdigest()

    def key(self, gate: int, content: bytes, inputs: str) -> str:
        digest = hashlib.sha256()
        for part in (__version__, str(gate), self.fingerprint, inputs):
            digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(content)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}.json"

    def load(self, key: str, gate: int | None = None, name: str | None = None) -> Scorecard | None:
        """The cached scorecard under ``key``, or None for a miss: absent, unreadable, or
        anything but an entry of exactly the written shape for this key (and gate)."""
        if self.folder is None:
            return None
        try:
            path = self._path(key)
            # A planted FIFO or device must not block or flood the read.
            if not path.is_file() or path.stat().st_size > 4 * 1024 * 1024:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return self._validated(data, key, gate, name)

    def _validated(
        self, data: Any, key: str, gate: int | None, name: str | None
    ) -> Scorecard | None:
        if not isinstance(data, dict):
            return None
        if self._secret is not None:
            mac = data.pop("mac", None)
            if not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(data)):
                return None
        if set(data) != _ENTRY_KEYS or data["key"] != key:
            return None
        if data["verdict"] not in ("PASS", "FAIL"):  # only these two are ever stored
            return None
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

    def store(self, key: str, card: Scorecard) -> None:
        if self.folder is None or self.write_error is not None:
            return
        if card.verdict not in ("PASS", "FAIL"):
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
            write_atomic(self._path(key), json.dumps(data, sort_keys=True))
        except OSError as exc:
            # A full or read-only cache costs later runs time, never this run a verdict.
            self.write_error = exc
            raise CacheWriteError(exc.errno, exc.strerror) from None


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
