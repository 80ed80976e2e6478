"""Gate 2's ``other-repository`` and ``other-project-link`` rules.

``other-repository``: the sentence places the token in a repository that
is not the product's ("In the `eslint/eslint.org` repository, submit a PR to set `x` in
`tools/release-data.js`"; "see `agent_docs/conventions.md` in that repo" after naming
`pydantic/pydantic-ai-harness`). That repository is not this run's, so its names and files
are listed as unjudged, never grounded and never findings.

Unlike the attribution rules it decides a token the page presents as the product's (a path
whose first folder the product also has, `tools/`, `src/`): the sentence says in so many
words where the file is. The product's own repository named so ("In the `eslint/eslint`
repository") places nothing elsewhere.

``other-project-link``: the list item or table row holding the token opens with a link to
another project's repository or site (``- [`pydantic-ai-todo`](https://github.com/vstorm-co/
pydantic-ai-todo) - `TodoToolset` with `read_todos`...``, a community list, a capability
table): the item is about that project, so its names are that project's. Listed unjudged,
never grounded and never a finding. A link to the product's own repository, package or site
(:func:`~.attribution_rules.products_address`) places nothing elsewhere, and the link's own
text is left to ``linked-elsewhere`` (where a name that grounds stays grounded).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pytest_postgates.helpers.attribution_rules import products_address
from pytest_postgates.helpers.rule import Rule

RULES = (
    Rule(
        "other-project-link",
        "unjudged",
        "the list item or table row holding the token opens with a link to another "
        "project's repository, package or site (a community list's item opening with a "
        "link to github.com/other/pkg, then `SomeTool` with ...): the item is about that "
        "project, and its names are that "
        "project's, which this run does not hold; a link to the product's own repository, "
        "package or docs site places nothing elsewhere",
        "tests/test_other_repositories.py::test_a_list_item_led_by_another_projects_link_is_unjudged",
        earns=(
            "earns on the tune half only; off, held out: findings +0, nothing labelled moved; "
            "tune: findings +9, 8 labelled false back, 1 labelled defects gained "
            "(bench/ablation.py at f373629)"
        ),
    ),
)

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


def linked_project(lead_url: str, product_names: tuple[str, ...]) -> tuple[str, str] | None:
    """(rule, reason) when ``lead_url`` (the link the token's list item or table row opens
    with) is another project's address, not the product's."""
    names = frozenset(n.lower() for n in product_names if len(n) >= 2)
    if not lead_url or not names or products_address(lead_url, names) is not False:
        return None
    parts = urlsplit(lead_url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    shown = "/".join([host, *[s for s in parts.path.split("/") if s][:2]])
    return (
        "other-project-link",
        f"its list item or table row opens with a link to {shown}, another project: the "
        "item's names are that project's, which this run does not hold",
    )
