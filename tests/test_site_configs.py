"""Which repositories are a static site's source (site_configs), read by the API model."""

from __future__ import annotations

import pytest

from pytest_postgates.site_configs import is_static_site_root


@pytest.mark.parametrize(
    "paths",
    [
        ["_config.yml", "_posts/2026-01-01-a.md", "assets/js/search.js"],
        ["_config.yaml", "_layouts/post.html", "js/menu.js"],
        ["hugo.toml", "content/post.md", "static/app.js"],
        ["hugo.yml", "layouts/index.html", "assets/main.ts"],
    ],
)
def test_a_jekyll_or_hugo_root_with_its_folders_is_a_static_site(paths: list[str]) -> None:
    assert is_static_site_root(paths)


@pytest.mark.parametrize(
    "paths",
    [
        # A library's lone `_config.yml` only picks a GitHub Pages theme for its README.
        ["_config.yml", "src/index.ts", "package.json"],
        # A Python package beside the site keeps its code.
        ["_config.yml", "_posts/2026-01-01-a.md", "pyproject.toml", "pkg/__init__.py"],
        ["setup.py", "hugo.toml", "content/a.md"],
        # The configuration one folder down is not the repository's root.
        ["docs/_config.yml", "docs/_posts/2026-01-01-a.md", "index.js"],
        ["mkdocs.yml", "docs/index.md", "src/app.py"],
    ],
)
def test_other_repositories_are_not(paths: list[str]) -> None:
    assert not is_static_site_root(paths)
