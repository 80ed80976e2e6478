"""Scorecards: what one gate decided about one post, and the overall verdict of a post.

A scorecard file is a stable snapshot: sorted keys, no timestamps, no absolute paths, so
that two runs over the same input write byte-identical files. Writes are atomic (a
temporary file in the same folder, then ``os.replace``), and a file name can never leave
the scorecards folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pytest_postgates.fileio import existing_bytes, replace_file, write_atomic
from pytest_postgates.jsontext import indented

__all__ = ["write_atomic"]  # re-exported: scorecards are written through it

Verdict = Literal["PASS", "FAIL", "SKIP", "ERROR"]
VERDICTS: tuple[Verdict, ...] = ("PASS", "FAIL", "SKIP", "ERROR")


@dataclass(frozen=True)
class Finding:
    """One line-numbered thing a gate found, printed as ``file:line: CODE message``."""

    line: int | None
    code: str
    message: str
    fix: str = ""  # what a drafter should do about it (retry feedback)


@dataclass
class Scorecard:
    gate: int
    name: str
    advisory: bool
    verdict: Verdict
    detail: dict[str, Any] = field(default_factory=dict)
    # Not part of the JSON shape (the seeds' ``detail`` keys carry the same facts); kept
    # for terminal output, retry feedback and later report formats.
    findings: list[Finding] = field(default_factory=list)
    summary: str = ""
    score: float | int | None = None
    # A gate that crashed keeps its traceback here for the terminal, not in the file.
    trace: str = ""
    # Set when the card is a result-cache entry (served from it or stored as it): the
    # digest of the entry's text, which with ``advisory`` names this card's file content
    # (see content_digest). Not part of the card's value.
    entry_digest: str = field(default="", compare=False, repr=False)

    def content_digest(self, compact: str | None = None) -> str:
        """A digest naming the content of this card's file: from the cache entry's text
        when the card is one (no encoding needed), else of its compact JSON (``compact``
        when the caller has it). The two kinds never collide (their prefixes differ)."""
        if self.entry_digest:
            return f"e{int(self.advisory)}:{self.entry_digest}"
        if compact is None:
            compact = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha1(compact.encode("utf-8", "surrogatepass")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate,
            "name": self.name,
            "advisory": self.advisory,
            "verdict": self.verdict,
            "detail": self.detail,
        }


def dumps(data: Mapping[str, Any]) -> str:
    """A scorecard's file text: sorted keys, two-space indent, UTF-8 as it is."""
    return indented(data) + "\n"


_UNSAFE = re.compile(r"[^A-Za-z0-9._+~-]")


def safe_stem(stem: str) -> str:
    """A file-name-safe form of a post stem: no separators, no leading dots."""
    cleaned = _UNSAFE.sub("_", stem).lstrip(".") or "_"
    return cleaned[:150]


def scorecard_path(folder: Path, stem: str, gate: int, name: str) -> Path:
    return _inside(folder, f"{safe_stem(stem)}-gate{gate}-{name}.json")


def overall_path(folder: Path, stem: str) -> Path:
    return _inside(folder, f"{safe_stem(stem)}-overall.json")


def _inside(folder: Path, filename: str) -> Path:
    # A lexical check is enough: safe_stem leaves no separator and no leading dot, and a
    # write replaces whatever is at the path (a planted symlink included), never its target.
    if filename in ("", ".", "..") or "/" in filename or os.sep in filename or "\0" in filename:
        raise ValueError(f"scorecard name {filename!r} would leave {folder}")
    return folder / filename


def write_json(path: Path, data: Mapping[str, Any], compact: str | None = None) -> None:
    """Write ``data`` as an indented JSON file, unless the file already holds exactly it.

    The comparison goes through the C JSON codec: on a rerun of an unchanged corpus every
    scorecard is already on disk, and indenting each one in pure Python only to find the
    same text cost more than serving the gate's result from the cache. ``compact`` is
    ``json.dumps(data, sort_keys=True, ensure_ascii=False)`` when the caller has it."""
    existing = existing_bytes(path)
    if compact is None:
        compact = json.dumps(data, sort_keys=True, ensure_ascii=False)
    try:
        if existing is not None and json.loads(existing) == json.loads(compact):
            return
    except ValueError:
        pass
    replace_file(path, _indented(compact, data))


# Indented text by compact text, for small cards: many are the same card for every post
# (a judge gate's SKIP without a judge, a gate not configured), and the pure-Python
# indenting encoder is most of what writing one costs.
_INDENTED: dict[str, str] = {}
_INDENTED_LIMIT = 512  # entries
_INDENTED_SIZE = 2048  # characters of compact text


def _indented(compact: str, data: Mapping[str, Any]) -> str:
    text = _INDENTED.get(compact)
    if text is None:
        text = dumps(data)
        if len(compact) <= _INDENTED_SIZE:
            if len(_INDENTED) >= _INDENTED_LIMIT:
                _INDENTED.clear()
            _INDENTED[compact] = text
    return text


def overall_report(
    post: str, records: Iterable[Scorecard], short_circuited_at: int | None
) -> dict[str, Any]:
    """The seeds' overall rule: PASS when every non-advisory gate that ran passed.

    A hard gate skipped for a reason other than short-circuit (not configured, say) is not
    a failure, but it is listed under ``unverified`` so that it never passes silently.
    """
    gates = sorted(records, key=lambda record: record.gate)
    hard = [record for record in gates if not record.advisory]
    failing = [record.gate for record in hard if record.verdict in ("FAIL", "ERROR")]
    unverified = [
        record.gate for record in hard if record.verdict == "SKIP" and short_circuited_at is None
    ]
    overall = "FAIL" if failing or short_circuited_at is not None else "PASS"
    return {
        "post": post,
        "overall": overall,
        "short_circuited_at": short_circuited_at,
        "failing_gates": failing,
        "unverified_gates": unverified,
        "gates": [
            {
                "gate": record.gate,
                "name": record.name,
                "advisory": record.advisory,
                "verdict": record.verdict,
            }
            for record in gates
        ],
    }
