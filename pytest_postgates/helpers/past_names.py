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
from pytest_postgates.helpers.model_grounding import chain_parts, long_flag, signature_name
from pytest_postgates.helpers.rule import Rule

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

    @property
    def reason(self) -> str: ...


_V = TypeVar("_V", bound=_Judged)

RULES = (
    Rule(
        "past-release",
        "unjudged",
        "the name is no longer declared, but the code of an earlier release declares it (a "
        "single name: declares or writes it, an option it reads; a flag: its command line "
        "declared it), and the page is about the "
        "past (its file, folder or title: a migration guide, a changelog, release notes, a "
        "history; or its "
        "opening says its subject was removed): listed with that release; elsewhere the "
        "finding stays. Read: the newest tag of each of the last earlier major versions (a "
        "maintenance branch's included), and first the major a page migrates from "
        "(`migrating-to-2.0.0`: 1.x) or that its opening says removed its subject "
        '("removed in v9.0.0": 8.x), however old; a near miss on a member of a value the '
        "model cannot type (`engine.getFormatter()`) or on a key is looked up by that name",
        "tests/test_past_releases.py::test_a_removed_name_is_unjudged_on_a_migration_guide_only",
        earns=(
            "no held-out occasion: it decided no token of the report half's docs, no drift "
            "case, no invention; earns on the tune half: 35 tokens decided there (at f373629, "
            "off: findings +29, 20 labelled false back). Kept for the lead's decision "
            "(bench/ablation.py at b9a2a19: docs and natural drift of the report half; "
            "planted inventions of the report half at 1835184, gate 2 as b9a2a19)"
        ),
    ),
)
# A page whose subject is an earlier release: its file name or title says so.
_ABOUT_THE_PAST = re.compile(
    r"migrat|upgrad|change[-_ ]?log|release[-_ ]?notes|breaking[-_ ]changes|what'?s[-_ ]new"
    r"|^history(?=\.\w+$|$)",
    re.IGNORECASE,
)
# A page that migrates to a major version (`migrating-to-2.0.0`, `Migration-Guide-V5`,
# "Migrate to v10.x"): it is about the major before.
_MIGRATES_TO = re.compile(
    r"migrat\w*[-_ ]+(?:guide[-_ ]+)?(?:to[-_ ]+)?v?(\d+)(?:\.|x\b|$|[-_ ])", re.IGNORECASE
)
# A page whose opening says its subject was removed ("This rule was removed in ESLint
# v9.0.0"): about the release before that one.
_REMOVED = re.compile(
    r"\b(?:was|were|has been|have been) removed(?: in (?:[A-Za-z][\w.-]* )?v?(\d+)(?:\.\d+)*\b)?",
    re.IGNORECASE,
)
_OPENING_LINES = 6
# The name a near miss is about (`the key `x``, `the type `X``, `` `x` ``).
_NEAR_MISS_NAME = re.compile(r"^(?:the (?:key|type) )?`([^`]+)` is not declared in the product")


def page_about_the_past(post: Post) -> str:
    """Why the page is about an earlier release ("" when it is not)."""
    title = str((post.front_matter or {}).get("title", "")) if post.front_matter else ""
    # A changelog kept as a folder of pages (hatch's `docs/history/hatch.md`) is named by
    # its folder.
    where = (("file", post.path.name), ("folder", post.path.parent.name), ("title", title))
    for what, text in where:
        found = _ABOUT_THE_PAST.search(text)
        if found:
            return f'its {what} says "{found.group(0)}"'
    removed = _REMOVED.search(_opening(post))
    if removed:
        return f'its opening says "{removed.group(0)}"'
    return ""


def page_majors(post: Post) -> list[int]:
    """The earlier major versions the page is about: the one before the major it migrates
    to (its file name or title), or before the release its opening says removed its
    subject."""
    title = str((post.front_matter or {}).get("title", "")) if post.front_matter else ""
    majors = [
        int(found.group(1)) - 1
        for text in (post.path.stem, title)
        for found in [_MIGRATES_TO.search(text)]
        if found
    ]
    removed = _REMOVED.search(_opening(post))
    if removed and removed.group(1):
        majors.append(int(removed.group(1)) - 1)
    return [m for m in dict.fromkeys(majors) if m >= 0]


def _opening(post: Post) -> str:
    """The first lines of the page's body with text."""
    lines = [text for _number, text in post.body_lines() if text.strip()]
    return " ".join(lines[:_OPENING_LINES])


def _past_parts(verdict: _Judged) -> list[str] | None:
    """The names to look up in earlier releases for an ungrounded ``verdict``: its chain,
    or the name its near miss is about when that is not the chain's head (a member of a
    value the model cannot type, `engine.getFormatter()`; a key, `"requireReturn": false`)."""
    parts = chain_parts(signature_name(verdict.token))
    named = _NEAR_MISS_NAME.match(verdict.reason) if verdict.rule == "model-near-miss" else None
    if named is not None and (parts is None or named.group(1) != parts[0]):
        return [named.group(1)]
    return parts


def with_the_past(
    verdicts: Sequence[_V], post: Post, past: PastReleases, rules_off: frozenset[str]
) -> list[_V]:
    """``verdicts``, with each finding of a name an earlier release declared unjudged when
    the page is about the past. Other pages are left as they are, and cost no model of a
    past release (a build each, a few seconds on a large repository)."""
    about = "" if "past-release" in rules_off else page_about_the_past(post)
    if not about:
        return list(verdicts)
    majors = page_majors(post)
    out: list[_V] = []
    for verdict in verdicts:
        declared = None
        if verdict.outcome == "ungrounded":
            flag = long_flag(verdict.token)
            if flag is not None:
                declared = past.last_flag(flag, majors)
            else:
                parts = _past_parts(verdict)
                declared = past.last_declared(parts, majors) if parts else None
        if declared is None:
            out.append(verdict)
            continue
        out.append(
            replace(
                cast(Any, verdict),
                outcome="unjudged",
                rule="past-release",
                reason=f"in the code until {declared.release} ({declared.where}), not now; "
                f"the page is about an earlier release ({about})",
            )
        )
    return out
