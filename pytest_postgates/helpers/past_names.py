"""Gate 2's look at the product's past (:mod:`pytest_postgates.evidence.past_releases`):
a name the product's code no longer declares, but an earlier release's code did.

On a page about an earlier release (a migration guide, a changelog, release notes), such a
name is the page's subject, not a claim about the product now: it is ``unjudged`` with the
release that last declared it. Anywhere else it stays a finding (a stale page). A name no
release declared is judged as before: an invented name in a migration guide is still an
invention.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from pytest_postgates.evidence.past_releases import PastReleases
from pytest_postgates.helpers.model_grounding import Rule, chain_parts, signature_name

if TYPE_CHECKING:
    from pytest_postgates.post import Post


class _Judged(Protocol):
    """What this module reads of gate 2's verdict (a dataclass of gates/, which helpers
    never import)."""

    @property
    def token(self) -> str: ...

    @property
    def outcome(self) -> str: ...

    @property
    def rule(self) -> str: ...


_V = TypeVar("_V", bound=_Judged)

RULES = (
    Rule(
        "past-release",
        "unjudged",
        "the name is no longer declared, but the code of an earlier release declares it (the "
        "newest tag of each earlier major version, a maintenance branch's included, read as "
        "syntax trees), and the page is "
        "about the past (its path or title: a migration guide, a changelog, release notes): "
        "listed with that release; elsewhere the finding stays",
        "tests/test_past_releases.py::test_a_removed_name_is_unjudged_on_a_migration_guide_only",
    ),
)
# A page whose subject is an earlier release: its file name or title says so.
_ABOUT_THE_PAST = re.compile(
    r"migrat|upgrad|change[-_ ]?log|release[-_ ]?notes|breaking[-_ ]changes|what'?s[-_ ]new",
    re.IGNORECASE,
)
# Rules whose finding says a name is missing from the product's code now.
_MISSING_NOW = frozenset({"model-near-miss", "model-rooted-miss"})


def page_about_the_past(post: Post) -> str:
    """Why the page is about an earlier release ("" when it is not)."""
    title = str((post.front_matter or {}).get("title", "")) if post.front_matter else ""
    for what, text in (("file", post.path.name), ("title", title)):
        found = _ABOUT_THE_PAST.search(text)
        if found:
            return f'its {what} says "{found.group(0)}"'
    return ""


def with_the_past(
    verdicts: Sequence[_V], post: Post, past: PastReleases, rules_off: frozenset[str]
) -> list[_V]:
    """``verdicts``, with each finding of a name an earlier release declared unjudged when
    the page is about the past. Other pages are left as they are, and cost no model of a
    past release (a build each, a few seconds on a large repository)."""
    about = "" if "past-release" in rules_off else page_about_the_past(post)
    if not about:
        return list(verdicts)
    out: list[_V] = []
    for verdict in verdicts:
        parts = (
            chain_parts(signature_name(verdict.token))
            if verdict.outcome == "ungrounded" and verdict.rule in _MISSING_NOW
            else None
        )
        declared = past.last_declared(parts) if parts else None
        if declared is None:
            out.append(verdict)
            continue
        out.append(
            replace(
                cast(Any, verdict),
                outcome="unjudged",
                rule="past-release",
                reason=f"declared until {declared.release} ({declared.where}), not now; "
                f"the page is about an earlier release ({about})",
            )
        )
    return out
