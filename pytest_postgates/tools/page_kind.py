"""What kind of page a Markdown file is for the gates whose rules are a blog's: a blog
post (Jekyll, Hugo, anything under ``_posts``) or a documentation page (an MkDocs,
VitePress or Docusaurus site, or a file without front matter outside ``_posts``)."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.tools.site import page_generator

# Generators of documentation sites (not blogs): their pages are reference pages.
DOCS_GENERATORS = frozenset({"mkdocs", "vitepress", "docusaurus"})


def generator_of_page(path: Path, memo: dict[object, object]) -> str | None:
    """:func:`page_generator` of ``path``'s folder, found once per folder in ``memo`` (a
    run's ``GateContext.memo``)."""
    key = ("site.generator", path.parent)
    if key not in memo:
        memo[key] = page_generator(path.parent)
    found = memo[key]
    return found if isinstance(found, str) else None


def is_docs_page(generator: str | None, path: Path, has_front_matter: bool) -> bool:
    """Whether a page is documentation, not a blog post: a page of a docs-site generator,
    or, with no generator found, a page outside ``_posts`` without front matter."""
    if generator in DOCS_GENERATORS:
        return True
    return generator is None and "_posts" not in path.parts and not has_front_matter
