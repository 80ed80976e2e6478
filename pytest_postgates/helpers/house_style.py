"""House style: the thresholds that come from the seeds' own blog rather than from what a
reader needs (gate 1's body-line floor, gate 6's sentences per paragraph and its Flesch
verdict). They are enforced where the project sets them; a project that sets none of a
threshold's keys gets what the calibrated value would find listed on the card as advice,
with the reason, and never a failure: the same rule as gate 12, which enforces only the
markdownlint configuration a project has adopted. Measured on a blog that never adopted
them (bench/outside_projects.py), they failed most posts with no problem a maintainer
would fix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pytest_postgates.scorecard import Finding

# The scorecard detail's key under which unenforced house-style rules are listed.
DETAIL_KEY = "house_style"


def adopted(*values: object) -> bool:
    """Whether the project set at least one of a threshold's keys (None: not set)."""
    return any(value is not None for value in values)


def advice(findings: Sequence[Finding], keys: Sequence[str], calibrated: str) -> dict[str, Any]:
    """One unenforced threshold's entry in the detail: why it is advice, and what the
    ``calibrated`` value would have found."""
    names = ", ".join(f"`{key}`" for key in keys)
    return listed(
        findings,
        f"house style of the seeds' blog ({calibrated}) that this project has not "
        f"adopted (none of {names} is set): listed as advice, never a failure; set "
        f"`{keys[0]}` to enforce it",
    )


def listed(findings: Sequence[Finding], reason: str) -> dict[str, Any]:
    """An entry of findings a gate lists as advice, never a failure, with the ``reason``."""
    return {
        "enforced": False,
        "reason": reason,
        "findings": [
            {"line": finding.line, "code": finding.code, "message": finding.message}
            for finding in findings
        ],
    }


def summary_note(detail: dict[str, Any]) -> str:
    """A summary's tail for the advice in ``detail`` ("" when there is none)."""
    entries = detail.get(DETAIL_KEY) or {}
    counts = Counter(f["code"] for entry in entries.values() for f in entry["findings"])
    if not counts:
        return ""
    listed = ", ".join(f"{n} {code}" for code, n in sorted(counts.items()))
    return f"; house-style advice, not enforced: {listed}"


def set_aside(
    findings: list[Finding],
    codes: frozenset[str],
    keys: Sequence[str],
    calibrated: str,
    house: dict[str, Any],
) -> list[Finding]:
    """``findings`` without those of ``codes``, which become the advice of an unadopted
    threshold in ``house`` (under its first key)."""
    house[keys[0]] = advice([f for f in findings if f.code in codes], keys, calibrated)
    return [f for f in findings if f.code not in codes]
