"""The summary line of gate 2's card after its counts: how many tokens are no claims, and
why each group of unjudged tokens was left unjudged (silence made visible)."""

from __future__ import annotations

from typing import Any

# Unjudged rules whose group the summary names, with what it says of them.
_GROUPS = (
    (("model-unjudged", "model-module-member"), "the API model cannot finish their lookup"),
    (("historical",), "written as the product's past"),
    (("prose-only",), "only prose writes them, and prose is no evidence"),
    (("not-anchored",), "nothing ties them to the product"),
    (("dependency-not-installed",), "their dependency is not installed"),
    (("release-not-judged",), "the page documents a release the product's tags do not give"),
)


def unjudged_summary(detail: dict[str, Any], others: int, invisible: int) -> str:
    """What follows "N/M claims grounded" on the card: ``others`` tokens that are no
    claims, the unjudged ones by why, and tokens holding invisible characters."""
    summary = ""
    total = detail["total"]
    if others:
        summary += f"; {others} of {total} tokens are not claims about the repository"
    unjudged = detail.get("outcomes", {}).get("unjudged", [])
    declared = [entry for entry in unjudged if entry.get("repo")]
    if declared:
        names = ", ".join(detail.get("unavailable_repos", []))
        summary += (
            f"; {len(declared)} unjudged (they name code in {names}, not available to this run)"
        )
    named = 0
    for rules, why in _GROUPS:
        count = sum(1 for entry in unjudged if entry.get("rule") in rules)
        if count:
            summary += f"; {count} unjudged ({why})"
            named += count
    if len(unjudged) > len(declared) + named:
        # Another party's names, an OpenRouter variant: what the repositories cannot judge.
        summary += (
            f"; {len(unjudged) - len(declared) - named} unjudged (names of other"
            " parties the repositories cannot judge)"
        )
    if invisible:
        summary += f"; {invisible} token(s) hold invisible characters"
    return summary
