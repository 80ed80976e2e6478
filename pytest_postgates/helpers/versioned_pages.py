"""The cards of gates 15 and 2 for a versioned docs page (evidence/doc_versions.py) that no
release can judge: the page documents release X and no tag of X exists (or the product at
that tag cannot be read). Its uses (gate 15) or claims (gate 2) are then listed, each
unjudged with that reason: never judged against the ref (whose API is not what the page
documents), never a silent pass.

The uses are the ones the gate's reading of the page found (its checks at the ref give the
lines and names; none of their verdicts is kept)."""

from __future__ import annotations

from typing import Any


def unjudged_all(detail: dict[str, Any], reason: str) -> dict[str, Any]:
    """``detail`` (gate 15's) with every use it judged or listed unjudged for ``reason``."""
    uses: dict[tuple[int, str], dict[str, Any]] = {}
    for item in (*detail.get("violations", ()), *detail.get("checked_names", ())):
        line, name = int(item["line"]), str(item["name"])
        # A finding names the chain (`Widget.oldDraw`), its check the member (`oldDraw`).
        if not any(at == line and known.endswith(f".{name}") for at, known in uses):
            uses.setdefault((line, name), {"line": line, "text": name, "name": name})
    listed = [{**entry, "reason": f"{entry['name']}: {reason}"} for entry in uses.values()]
    for item in detail.get("unjudged", ()):
        key = (int(item["line"]), str(item.get("name") or item.get("text", "")))
        if key not in uses:
            listed.append({**item, "reason": reason})
    listed.sort(key=lambda entry: (int(entry["line"]), str(entry.get("name", ""))))
    return {
        **detail,
        "checked": 0,
        "checked_by_kind": {},
        "checked_names": [],
        "violations": [],
        "unjudged": listed,
        "sources_read": [],
        "resolved": {},
    }


def summary_note(release: dict[str, Any]) -> str:
    """What a card's summary says of the release the page documents."""
    if release.get("reason"):  # no tag, or one whose product cannot be read
        return str(release["reason"])
    return f"judged against {release['tag']} (the page documents release {release['version']})"


# Gate 2's rule for a token a versioned page writes that no release can judge.
RELEASE_NOT_JUDGED = "release-not-judged"


def unjudged_tokens(detail: dict[str, Any], reason: str) -> dict[str, Any]:
    """``detail`` (gate 2's) with every claim it judged (grounded or not) listed unjudged
    for ``reason``; what is no claim about the product (defined in the post, another
    party's, no reference) stays as it was."""
    outcomes = dict(detail.get("outcomes", {}))
    judged = [*outcomes.get("grounded", ()), *detail.get("ungrounded", ())]
    listed = list(outcomes.get("unjudged", ()))
    for entry in judged:
        item = {k: entry[k] for k in ("token", "kind", "line", "source") if k in entry}
        listed.append({**item, "rule": RELEASE_NOT_JUDGED, "reason": reason})
    listed.sort(key=lambda entry: (int(entry["line"]), str(entry["token"])))
    outcomes.update(grounded=[], unjudged=listed)
    return {
        **detail,
        "claims": 0,
        "grounded": 0,
        "grounded_pct": 100.0,
        "ungrounded": [],
        "outcomes": outcomes,
    }
