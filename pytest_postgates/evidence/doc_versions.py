"""Versioned docs: which release a docs page documents, and the tag that stands for it.

A Docusaurus site keeps the pages of an earlier release X in ``versioned_docs/version-X/``
(a docs plugin instance of its own id in ``<id>_versioned_docs/version-X/``), and lists X in
``versions.json`` (``<id>_versions.json``) beside that folder. Only that file states it:
a folder so named that the list beside it does not name is not read as release X, and no
version is guessed from a page's prose. (MkDocs' ``mike`` and Sphinx's
``sphinx-multiversion`` build each version from a branch or tag of the sources, so their
docs trees hold no folder per version: nothing to read there.)

Such a page is judged against the product at the newest release tag of X: ``vX.Y.Z`` and
``X.Y.Z`` tags, else the product package's own ``<package>@X.Y.Z`` tags (a monorepo's), a
pre-release never standing for a release. X is a version prefix (``22.4``: the newest
22.4.z; ``5.x`` or ``5``: the newest 5.y.z; ``1.2.3`` that release); ``current`` and
``next`` are the docs of the ref itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.evidence.repo import version_tags

_VERSIONED = re.compile(r"^(?:(?P<plugin>.+)_)?versioned_docs$")
_FOLDER = re.compile(r"^version-(?P<version>.+)$")
_LABEL = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.x)?$", re.IGNORECASE)
CURRENT = ("current", "next")
# The versions judged, newest first as ``versions.json`` lists them: each costs the index
# and model of its tag (built once, cached); an older one's pages are listed unjudged.
MAX_VERSIONS = 8


@dataclass(frozen=True)
class PageRelease:
    """The release a versioned page documents and the tag it is judged at (``tag`` None:
    none can be, ``reason`` says why; ``current``: the docs of the ref itself)."""

    version: str
    tag: str | None = None
    commit: str | None = None
    reason: str = ""
    current: bool = False

    def to_json(self) -> dict[str, str | None]:
        return {"version": self.version, "tag": self.tag, "commit": self.commit}


def documented_version(page: Path) -> str | None:
    """The release X whose ``versioned_docs/version-X/`` folder holds ``page``, when the
    site's ``versions.json`` beside that folder lists X; None otherwise."""
    found = listed_version(page)
    return found[0] if found is not None else None


def listed_version(page: Path) -> tuple[str, int] | None:
    """:func:`documented_version` and its place in ``versions.json`` (0: the newest)."""
    folders = page.parent.parts
    for at in range(len(folders) - 2, -1, -1):
        versioned = _VERSIONED.match(folders[at])
        folder = _FOLDER.match(folders[at + 1])
        if versioned is None or folder is None:
            continue
        plugin = versioned.group("plugin")
        listing = Path(*folders[:at]) / (f"{plugin}_versions.json" if plugin else "versions.json")
        version, listed = folder.group("version"), _listed(listing)
        return (version, listed.index(version)) if version in listed else None
    return None


def _listed(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [v for v in data if isinstance(v, str)] if isinstance(data, list) else []


def release_for(root: Path, version: str, package: str) -> PageRelease:
    """The newest release tag of ``version`` in the repository at ``root`` (plain version
    tags, else ``<package>@`` ones), or why there is none."""
    if version.lower() in CURRENT:
        return PageRelease(version, current=True)
    label = _LABEL.match(version)
    if label is None:
        return PageRelease(version, reason=unreadable(version))
    prefix = tuple(int(part) for part in label.groups() if part is not None)
    tags = [t for t in version_tags(root) if t.number[: len(prefix)] == prefix]
    chosen = [t for t in tags if not t.package] or [
        t for t in tags if package and t.package == package
    ]
    if not chosen:
        return PageRelease(version, reason=no_tag(version))
    newest = max(chosen, key=lambda t: (t.number, t.package, t.name))
    return PageRelease(version, newest.name, newest.commit)


def too_old(version: str) -> str:
    return (
        f"the page documents release {version}, older than the {MAX_VERSIONS} newest "
        "versions.json lists: not judged (each release judged costs a model of its own)"
    )


def no_tag(version: str) -> str:
    return f"the page documents release {version}; no tag of {version} in the repository"


def unreadable(version: str) -> str:
    return (
        f"the page documents release {version}; {version} is no version number a tag "
        "of the repository can be matched to"
    )


def cannot_build(version: str, tag: str, why: str) -> str:
    return f"the page documents release {version}; the product at {tag} cannot be read: {why}"
