"""Gate results cached on disk: an unchanged post on an unchanged repository is not gated
again.

A result is keyed by the plugin version, the gate, the post's bytes, every setting, and
what the gate itself says its result depends on (``cache_inputs`` in the gate module:
usually the commit it grounds against; ``None`` means "do not cache", and a gate without
the hook is never cached). Only PASS and FAIL are stored: an ERROR or SKIP is decided
again every run. Entries are written atomically, so an interrupted run or two runs sharing
the folder never leave a torn file, and an unreadable entry is simply recomputed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from pytest_postgates import __version__
from pytest_postgates.config import Settings
from pytest_postgates.fileio import write_atomic
from pytest_postgates.scorecard import Finding, Scorecard


def settings_fingerprint(settings: Settings) -> str:
    """Every setting except where output goes and how the run is scheduled."""
    ignored = {"scorecards", "feedback", "sarif", "html", "run_all", "only", "snapshot"}
    values = {
        f.name: repr(getattr(settings, f.name)) for f in fields(settings) if f.name not in ignored
    }
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


class ResultCache:
    def __init__(self, folder: Path | None, settings: Settings) -> None:
        self.folder = folder
        self.fingerprint = settings_fingerprint(settings)

    def key(self, gate: int, content: bytes, inputs: str) -> str:
        digest = hashlib.sha256()
        for part in (__version__, str(gate), self.fingerprint, inputs):
            digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(content)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}.json"

    def load(self, key: str) -> Scorecard | None:
        if self.folder is None:
            return None
        try:
            data: dict[str, Any] = json.loads(self._path(key).read_text(encoding="utf-8"))
            return Scorecard(
                gate=data["gate"],
                name=data["name"],
                advisory=data["advisory"],
                verdict=data["verdict"],
                detail=data["detail"],
                findings=[Finding(*finding) for finding in data["findings"]],
                summary=data["summary"],
                score=data["score"],
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def store(self, key: str, card: Scorecard) -> None:
        if self.folder is None or card.verdict not in ("PASS", "FAIL"):
            return
        data = card.to_dict() | {
            "findings": [[f.line, f.code, f.message, f.fix] for f in card.findings],
            "summary": card.summary,
            "score": card.score,
        }
        write_atomic(self._path(key), json.dumps(data, sort_keys=True))
