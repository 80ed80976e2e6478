"""Gate 2's ``other-repository`` rule.

``other-repository``: the sentence places the token in a repository that
is not the product's ("In the `eslint/eslint.org` repository, submit a PR to set `x` in
`tools/release-data.js`"; "see `agent_docs/conventions.md` in that repo" after naming
`pydantic/pydantic-ai-harness`). That repository is not this run's, so its names and files
are listed as unjudged, never grounded and never findings.

Unlike the attribution rules it decides a token the page presents as the product's (a path
whose first folder the product also has, `tools/`, `src/`): the sentence says in so many
words where the file is. The product's own repository named so ("In the `eslint/eslint`
repository") places nothing elsewhere.
"""

from __future__ import annotations

import re

# Its table is empty: ``other-project-link`` (a list item or table row led by a link to
# another project's address makes the item's names that project's) was deleted at session
# 21 (bench/ablation.py at b9a2a19): it decided 13 tokens of the held-out docs and no
# held-out drift case or planted invention, and turned off nothing held out moved.
RULES: tuple[()] = ()

_SLUG = r"(?P<slug>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)"
# "the `owner/name` repository", "owner/name repo".
_NAMED = re.compile(rf"`?{_SLUG}`?\s+(?:repository|repo)\b", re.I)
# "in that repo", "from the other repository", after the sentence has named one.
_THAT = re.compile(
    r"\b(?:in|from|of|to)\s+(?:that|the other|another)\s+(?:repository|repo)\b", re.I
)
# A backticked owner/name whose name has no file extension (`pydantic/pydantic-ai-harness`,
# not `docs/index.md`): only read where the sentence says "that repo".
_BARE_SLUG = re.compile(r"`(?P<slug>[A-Za-z0-9][\w-]*/[A-Za-z0-9][\w-]*)`")


def other_repository(sentence: str, product_names: tuple[str, ...]) -> str | None:
    """The repository (``owner/name``) the sentence places its names in, when it is not
    the product's; else None."""
    slugs = [m.group("slug") for m in _NAMED.finditer(sentence)]
    if not slugs and _THAT.search(sentence):
        slugs = [m.group("slug") for m in _BARE_SLUG.finditer(sentence)]
    products = {n.lower() for n in product_names if n and "/" not in n}
    for slug in slugs:
        name = slug.lower().split("/", 1)[1]
        if name not in products:
            return slug
    return None


def placed_elsewhere(sentence: str, product_names: tuple[str, ...]) -> tuple[str, str] | None:
    """(rule, reason) when the sentence places the token in another repository."""
    slug = other_repository(sentence, product_names)
    if slug is None:
        return None
    return (
        "other-repository",
        f"the sentence places it in the {slug} repository, which this run does not hold",
    )
