"""What every site model (:mod:`pytest_postgates.tools.site`,
:mod:`pytest_postgates.tools.jekyll_site`) reads of a site's files: a URL path in one
normal form, a page's front matter (cached per file version) and a file's version stamp."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_postgates.post import PostRefused, read_front_matter, read_post_bytes


def normal_path(path: str) -> str:
    """A site path as links and permalinks compare: one leading slash, no ``.html``,
    ``/index.html`` or trailing slash (GitHub Pages and most hosts serve ``/a/``,
    ``/a.html`` and ``/a`` alike), runs of slashes as one."""
    path = "/" + path.lstrip("/")
    for suffix in ("/index.html", ".html"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    path = re.sub(r"/+", "/", path)
    return path.rstrip("/") or "/"


@lru_cache(maxsize=32768)
def front_matter(path: Path, stamp: tuple[int, int]) -> dict[str, Any]:
    """A page's front matter (YAML, TOML or JSON), read without parsing its Markdown
    (cached per file version)."""
    del stamp
    try:
        data = read_post_bytes(path)
    except PostRefused:
        return {}
    return read_front_matter(data) or {}


def stamp(path: Path) -> tuple[int, int]:
    """A file's version for caches: its modification time and size ((0, 0) if absent)."""
    try:
        stat = path.stat()
    except OSError:
        return (0, 0)
    return (stat.st_mtime_ns, stat.st_size)
