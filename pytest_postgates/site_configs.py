"""The files that make a folder a site generator's source, shared by the site model
(``tools/site.py``, which reads a site from disk) and the API model
(``evidence/api_model.py``, which reads a repository's tree at a commit)."""

from __future__ import annotations

from collections.abc import Iterable

JEKYLL_CONFIGS = ("_config.yml", "_config.yaml")
HUGO_CONFIGS = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json")
# Hugo's older names; only a Hugo site's when a ``content`` folder sits beside them.
HUGO_LEGACY_CONFIGS = ("config.toml", "config.yaml", "config.yml", "config.json")
MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")

# The folders of a Jekyll or Hugo source beside its configuration: a library's lone
# `_config.yml` only picks a GitHub Pages theme for its README.
_SITE_FOLDERS = ("_layouts/", "_posts/", "content/", "layouts/")
_PACKAGE_MANIFESTS = frozenset({"pyproject.toml", "setup.py", "setup.cfg"})


def is_static_site_root(paths: Iterable[str]) -> bool:
    """Whether a repository (its tracked paths, relative to its root) is a Jekyll or Hugo
    site's source and no Python package: its scripts are the site's own JavaScript,
    served to browsers as files, not an API a page documents."""
    paths = list(paths)
    roots = {path for path in paths if "/" not in path}
    return (
        any(name in roots for name in (*JEKYLL_CONFIGS, *HUGO_CONFIGS))
        and not roots & _PACKAGE_MANIFESTS
        and any(path.startswith(_SITE_FOLDERS) for path in paths)
    )
