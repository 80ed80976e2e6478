"""Which of a page's code samples it shows as the wrong or the old way, beside the fix:
gate 15's ``old-way-sample`` rule (issue 26).

A migration guide or a "do this, not that" page writes the old code on purpose
(``**v2:**`` then ``**v3:**``; "If you are using the `linter` object, such as:" then
"Change your code to this:"; ``// ❌ Don't``). The names such a sample uses are the
product's past or a mistake the page warns about, not a claim that the product has them
now: gate 15 counts nothing of it as checked (never grounded) and lists what it would find
there as ``unjudged`` with the reason when an earlier release's code declares the name
(:mod:`pytest_postgates.evidence.past_releases`); a name no release declared is an
invention even on the old side, and stays a finding. A sample is the old way when:

- its label (the short line right before it, the fence's title ``js [Before]``, or its own
  first comment line) says so (``Before``, ``Old``, ``Don't``, ``Avoid``, ``Bad``,
  ``Wrong``, ``Deprecated``, ``Legacy``, ``Previously``, ``❌``), and a neighbouring sample
  (the next or the previous one, in the same section, a few lines away) is its fix; or
- its label is a version (``v2:``, ``Version 2``) and the neighbouring sample's label is a
  later one (``v3:``); or
- the text between it and the next sample turns to the replacement ("Change your code
  to", "Replace it with", "should now be", "becomes", "Instead, ...").

The fix itself (the sample labelled ``After``, ``✅``, the later version, or the one after
"Change your code to") is judged like any other sample.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pytest_postgates.helpers.rule import Rule
from pytest_postgates.post import fence_title

if TYPE_CHECKING:
    from pytest_postgates.post import Fence, Post

RULES = (
    Rule(
        "old-way-sample",
        "unjudged",
        "the page shows the sample as the wrong or the old way beside its fix (a `Before`, "
        '`Don\'t`, `❌`, `Deprecated` or older-version label, or "Change your code to" after '
        "it), and an earlier release's code declares the name gate 15 misses there: the "
        "product's past, not a claim about it now; listed unjudged with the release, nothing "
        "of the sample counted checked (a name no release declared stays a finding)",
        "tests/test_sample_sides.py::test_a_before_sample_beside_its_fix_is_unjudged",
    ),
)

# A label of the wrong or old side: its first word after Markdown markup (emphasis, a
# list, a container's colons, a comment), or a mark anywhere in it.
_OLD_LABEL = re.compile(
    r"^[\s*_>#:/\[(-]*(?:before|old(?:er)?|don'?t|do not|avoid|bad|wrong|incorrect|deprecated"
    r"|legacy|previously|not recommended|outdated)(?=[\s:!.,)*\]]|$)|❌|🚫|✗|✘|👎|⛔",
    re.I,
)
# A label is a few words ("**Before:**", "Don't do this", "Bad example!"), not a sentence
# that starts with one of them ("Before consuming resources, we need to run a server").
LABEL_WORDS = 6
# A version label (``**v2:**``, ``Version 2.x``, ``v1 (old)``).
_VERSION_LABEL = re.compile(r"^[\W_]*(?:v|version\s*)(\d+)(?:\.\d+)*(?:\.x)?\b", re.I)
# Text after a sample that turns to its replacement: an imperative that starts a sentence
# ("Change your code to this:"; not "they might change the code to"), or a few set phrases.
_TURNS_TO_FIX = re.compile(
    r"(?:^\s*|[.!?:]\s+)(?:change (?:your|the|this) code to|replace (?:it|this|them|that) with"
    r"|update (?:it|your code|this) to|rewrite (?:it|this) as)"
    r"|\b(?:should now (?:be|read|look)|now becomes|do this instead)",
    re.I,
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_COMMENT = re.compile(r"^\s*(?://+|#+|/\*+|<!--|--)\s*(.*?)\s*(?:\*/|-->)?\s*$")
# How far (in lines) a fix may stand from the sample it fixes; a label may be this long.
NEIGHBOUR_LINES = 12
LABEL_CHARS = 80


def old_way_fences(post: Post, fences: tuple[Fence, ...] | None = None) -> dict[int, str]:
    """Fence start line -> why the page shows that sample as the old way."""
    fences = post.fences if fences is None else fences
    labels = [_labels(post, fence) for fence in fences]
    found: dict[int, str] = {}
    for at, fence in enumerate(fences):
        neighbours = [n for n in (at - 1, at + 1) if 0 <= n < len(fences)]
        neighbours = [
            n for n in neighbours if _beside(post, fences[min(at, n)], fences[max(at, n)])
        ]
        if not neighbours:
            continue
        old = next((label for label in labels[at] if _old_label(label)), "")
        if old and not all(any(_old_label(x) for x in labels[n]) for n in neighbours):
            found[fence.start_line] = f'the page labels it "{old}", the old way, beside its fix'
            continue
        version = _version(labels[at])
        later = [n for n in neighbours if (_version(labels[n]) or 0) > (version or 1 << 30)]
        if version is not None and later:
            found[fence.start_line] = (
                f"the page labels it v{version}, an older version than the sample beside it "
                f"(v{_version(labels[later[0]])})"
            )
            continue
        if at + 1 in neighbours:
            between = " ".join(post.lines[fence.end_line : fences[at + 1].start_line - 1])
            turn = _TURNS_TO_FIX.search(between)
            if turn:
                found[fence.start_line] = (
                    f'the page turns from it to the fix ("{turn.group(0).strip(" .!?:")}" after it)'
                )
    return found


def _labels(post: Post, fence: Fence) -> list[str]:
    """The sample's labels: its fence title, the short line right before it, its own first
    comment line (those it has)."""
    found: list[str] = []
    parts = fence.info.split(maxsplit=1)
    title = fence_title(fence.info) or (parts[1].strip() if len(parts) > 1 else "")
    if title and len(title) <= LABEL_CHARS:
        found.append(title)
    before = fence.start_line - 2  # index of the line before the opening marker
    while before >= 0 and not post.lines[before].strip():
        before -= 1
    if before >= 0:
        line = post.lines[before].strip()
        if 0 < len(line) <= LABEL_CHARS and not _HEADING.match(line) and "```" not in line:
            found.append(_plain(line))
    for text in fence.content.splitlines()[:2]:
        comment = _COMMENT.match(text)
        if comment and comment.group(1):
            found.append(_plain(comment.group(1)))
        if text.strip():
            break
    return found


def _old_label(label: str) -> bool:
    """Whether a label marks the wrong or the old side."""
    match = _OLD_LABEL.search(label)
    return match is not None and (match.start() > 0 or len(label.split()) <= LABEL_WORDS)


def _plain(text: str) -> str:
    """A label without its Markdown emphasis and list marker."""
    return re.sub(r"^[-*+]\s+|[*_`]", "", text).strip()


def _version(labels: list[str]) -> int | None:
    """The version the first version label names (None when none is one)."""
    for label in labels:
        match = _VERSION_LABEL.match(label)
        if match:
            return int(match.group(1))
    return None


def _beside(post: Post, first: Fence, second: Fence) -> bool:
    """Whether two samples stand together: a few lines apart with no heading between."""
    if second.start_line - first.end_line > NEIGHBOUR_LINES:
        return False
    return not any(
        _HEADING.match(line) for line in post.lines[first.end_line : second.start_line - 1]
    )
