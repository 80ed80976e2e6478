"""A Jekyll site's URLs, as Jekyll makes them, for gate 6's internal links (the site
model, :mod:`pytest_postgates.tools.site`, uses it for a site with a ``_config.yml``).

- Posts: ``YYYY-MM-DD-slug.md`` files in every ``_posts`` folder of the site, not only the
  gated one: ``projects/_posts/2023-08-01-calamancy.md`` is a post of category
  ``projects``, the folders above ``_posts`` being categories as Jekyll reads them (after
  the front matter's ``categories``, before its ``category``). URLs from ``permalink`` (a
  style name or a template; ``collections.posts``/``defaults`` override).
- Pages: Markdown and HTML files with front matter outside ``_`` and ``.`` folders, at
  their ``permalink`` or at their path (``about.md`` is ``/about/`` under a pretty style,
  ``/about.html`` otherwise; ``index.md`` names its folder).
- Collections with ``output: true``: their documents at the collection's ``permalink``
  (default ``/:collection/:path``).
- ``redirect_from`` (jekyll-redirect-from) in any front matter, and static files (every
  other file outside ``_`` and ``.`` folders, ``.scss``/``.sass`` with front matter as
  ``.css``) at their own path.

Folders in ``exclude``, Jekyll's default exclusions and ``node_modules`` are left out;
``_`` folders named in ``include`` (``include: [_pages]``) are read as pages. Only dated
Markdown and HTML files are read in ``_posts``. What a theme gem or a
plugin makes (archives, pagination, a feed) is not known here: gate 6 lists a site path
it cannot find as not judged, and fails only a post-shaped path no post has.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_postgates.post import admission_problem
from pytest_postgates.tools.site_files import front_matter, normal_path, stamp

JEKYLL_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
POST_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})-(.+)\.(?:md|markdown|mkd|mdown|html)$")
_PLACEHOLDER = re.compile(
    r":(year|month|day|i_month|i_day|short_year|y_day|hour|minute|second|"
    r"title|slug|name|basename|categories|output_ext|week|short_day)"
)
_PLACEHOLDER_REGEX = {
    "year": r"\d{4}",
    "month": r"\d{2}",
    "day": r"\d{2}",
    "i_month": r"\d{1,2}",
    "i_day": r"\d{1,2}",
    "short_year": r"\d{2}",
    "y_day": r"\d{3}",
    "hour": r"\d{2}",
    "minute": r"\d{2}",
    "second": r"\d{2}",
    "week": r"\d{2}",
    "short_day": r"[A-Za-z]{3}",
    "title": r"[^/]+",
    "slug": r"[^/]+",
    "name": r"[^/]+",
    "basename": r"[^/]+",
    "output_ext": r"",
}
# Files Jekyll converts to pages when they have front matter (their URL ends in .html).
PAGE_SUFFIXES = (".md", ".markdown", ".mkd", ".mdown", ".html", ".htm")
# Jekyll's own exclusions (besides names starting with ".", "_", "#" or "~").
DEFAULT_EXCLUDE = ("Gemfile", "Gemfile.lock", "node_modules", "vendor", ".bundle")


@lru_cache(maxsize=64)
def template_regex(template: str) -> re.Pattern[str] | None:
    """A regex for paths shaped like a post under ``template``; None when the template
    cannot tell a post from a page (``/:title/``)."""
    normal = normal_path(template.replace(":output_ext", ""))
    has_anchor = any(
        name in normal for name in (":year", ":month", ":day", ":y_day", ":i_month")
    ) or any(part and not part.startswith(":") for part in normal.split("/"))
    if not has_anchor:
        return None
    pattern = ""
    position = 0
    source = normal.replace("/:categories", "\x01")
    for match in _PLACEHOLDER.finditer(source):
        pattern += re.escape(source[position : match.start()]).replace("\x01", "(?:/[^/]+)*")
        pattern += _PLACEHOLDER_REGEX.get(match.group(1), r"[^/]+")
        position = match.end()
    pattern += re.escape(source[position:]).replace("\x01", "(?:/[^/]+)*")
    return re.compile(pattern)


def permalink_template(config: dict[str, Any]) -> str:
    """The posts' permalink template: ``permalink``, ``collections.posts.permalink`` or a
    posts default, a style name expanded (Jekyll's ``date`` without one)."""
    template: Any = config.get("permalink")
    collections = config.get("collections")
    if isinstance(collections, dict) and isinstance(collections.get("posts"), dict):
        template = collections["posts"].get("permalink", template)
    for default in config.get("defaults") or ():
        if not isinstance(default, dict):
            continue
        scope, values = default.get("scope") or {}, default.get("values") or {}
        if (
            isinstance(scope, dict)
            and isinstance(values, dict)
            and scope.get("type") == "posts"
            and isinstance(values.get("permalink"), str)
        ):
            template = values["permalink"]
    chosen = template.strip() if isinstance(template, str) and template.strip() else "date"
    return JEKYLL_STYLES.get(chosen, chosen)


def _names(value: Any) -> list[str]:
    """A front matter list of names (a YAML list, or a string Jekyll splits on spaces)."""
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(item) for item in value if item is not None]
    return []


def post_categories(front: dict[str, Any], folders: tuple[str, ...] = ()) -> list[str]:
    """A post's categories as Jekyll orders them: the front matter's ``categories``, the
    folders above its ``_posts`` folder, then its ``category``; each once, lower case."""
    seen: dict[str, None] = {}
    for name in [*_names(front.get("categories")), *folders, *_names(front.get("category"))]:
        seen.setdefault(name.lower().replace(" ", "-"), None)
    return list(seen)


def render_permalink(
    template: str, path: Path, front: dict[str, Any], folders: tuple[str, ...] = ()
) -> str | None:
    """A post's URL under ``template`` (None when its file name carries no date);
    ``folders`` are the folders above its ``_posts`` folder, relative to the site."""
    match = POST_NAME.match(path.name)
    if match is None:
        return None
    year, month, day, name_slug = match.groups()
    when: date | datetime = date(int(year), int(month), int(day))
    front_date = front.get("date")
    if isinstance(front_date, (date, datetime)):
        when = front_date
    slug = str(front.get("slug") or name_slug)
    values = {
        "year": f"{when.year:04d}",
        "month": f"{when.month:02d}",
        "day": f"{when.day:02d}",
        "i_month": str(when.month),
        "i_day": str(when.day),
        "short_year": f"{when.year % 100:02d}",
        "y_day": f"{when.timetuple().tm_yday:03d}",
        "hour": f"{getattr(when, 'hour', 0):02d}",
        "minute": f"{getattr(when, 'minute', 0):02d}",
        "second": f"{getattr(when, 'second', 0):02d}",
        "week": f"{when.isocalendar()[1]:02d}",
        "short_day": when.strftime("%a"),
        "title": slug,
        "slug": re.sub(r"[^A-Za-z0-9]+", "-", slug).strip("-").lower(),
        "name": path.stem,
        "basename": path.stem,
        "categories": "/".join(post_categories(front, folders)),
        "output_ext": ".html",
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


# ============================================================================ the site
# Compared by identity: :func:`walked_site` hands out one object per version of a site.
@dataclass(frozen=True, eq=False)
class JekyllSite:
    """Every URL a Jekyll site builds that this model knows, and its posts' files."""

    paths: frozenset[str]  # normalised: posts, pages, collection documents, redirects, files
    posts: frozenset[Path]  # the posts of every _posts folder (resolved)
    slugs: frozenset[str]
    stems: frozenset[str]
    # What the walk read, each with its stamp: every folder it listed (a file added,
    # removed or renamed changes the folder's) and every file it opened. The site is the
    # same while these are.
    read: tuple[tuple[Path, tuple[int, int]], ...] = ()

    def unchanged(self) -> bool:
        """Whether every folder and file the walk read is as it was (a stat of each)."""
        return all(stamp(path) == seen for path, seen in self.read)


# The last walk of each site (root, configuration and its stamp): a site is walked once
# for all its folders, and again only when something the walk read has changed.
_WALKS: dict[tuple[Path, Path, tuple[int, int]], JekyllSite] = {}
MAX_WALKS_KEPT = 8


def walked_site(
    root: Path, config: dict[str, Any], config_key: tuple[Path, tuple[int, int]], limit: int
) -> JekyllSite:
    """:func:`jekyll_site` of ``root``, from the last walk while nothing it read has
    changed (``config_key``: the configuration file and its stamp, ``config`` read from
    it)."""
    key = (root, *config_key)
    known = _WALKS.get(key)
    if known is not None and known.unchanged():
        return known
    if len(_WALKS) >= MAX_WALKS_KEPT:
        _WALKS.clear()
    site = _WALKS[key] = jekyll_site(root, config, limit)
    return site


def _pretty(template: str) -> bool:
    """Whether pages get folder URLs (``/about/``) under the site's permalink style."""
    return template.endswith("/")


def _page_url(relative: Path, front: dict[str, Any], template: str) -> str:
    permalink = front.get("permalink")
    if isinstance(permalink, str) and permalink.strip() and ":" not in permalink:
        return permalink.strip()
    folder = "/".join(relative.parts[:-1])
    if relative.stem == "index":
        return f"/{folder}/"
    return f"/{folder}/{relative.stem}" + ("/" if _pretty(template) else ".html")


def _collections(config: dict[str, Any]) -> dict[str, str]:
    """label -> URL template of each collection Jekyll writes out (``output: true``)."""
    table = config.get("collections")
    if not isinstance(table, dict):
        return {}
    made: dict[str, str] = {}
    for label, meta in table.items():
        if label == "posts" or not isinstance(meta, dict) or meta.get("output") is not True:
            continue
        permalink = meta.get("permalink")
        made[str(label)] = permalink if isinstance(permalink, str) else "/:collection/:path/"
    return made


def _document_url(template: str, label: str, relative: Path, front: dict[str, Any]) -> str:
    permalink = front.get("permalink")
    if isinstance(permalink, str) and permalink.strip() and ":" not in permalink:
        return permalink.strip()
    template = JEKYLL_STYLES.get(template, template)
    path = relative.with_suffix("").as_posix()
    slug = re.sub(r"[^A-Za-z0-9]+", "-", relative.stem).strip("-").lower()
    values = {"collection": label, "path": path, "name": relative.stem, "title": relative.stem}
    values.update(slug=slug, basename=relative.stem, output_ext=".html", categories="")
    return re.sub(r":(\w+)", lambda m: values.get(m.group(1), m.group(0)), template)


def _excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    return any(
        relative == p or relative.startswith(p.rstrip("/") + "/") or fnmatch.fnmatch(relative, p)
        for p in patterns
    )


def jekyll_site(root: Path, config: dict[str, Any], limit: int) -> JekyllSite:
    """The URLs of the Jekyll site at ``root`` (module docstring), reading at most ``limit``
    pages' front matter; every file admitted as a post would be (no symlink out of it)."""
    template = permalink_template(config)
    collections = _collections(config)
    exclude = tuple(str(p) for p in config.get("exclude") or () if isinstance(p, str))
    exclude += DEFAULT_EXCLUDE
    include = {str(p).strip("/") for p in config.get("include") or () if isinstance(p, str)}
    paths: set[str] = set()
    posts: set[Path] = set()
    slugs: set[str] = set()
    stems: set[str] = set()
    seen: list[tuple[Path, tuple[int, int]]] = []
    read = 0
    for current, dirs, names in os.walk(root):
        folder = Path(current)
        seen.append((folder, stamp(folder)))
        relative_folder = folder.relative_to(root)
        parts = relative_folder.parts
        in_posts = "_posts" in parts
        label = parts[0][1:] if parts and parts[0].startswith("_") else None
        label = label if label in collections else None
        # A node_modules folder at any depth holds no page a post links, and walking one
        # costs more than the rest of the site.
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d != "node_modules"
            and (
                not d.startswith("_")
                or d == "_posts"
                or (not parts and d[1:] in collections)
                or (relative_folder / d).as_posix() in include  # ``include: [_pages]``
            )
            and not _excluded((relative_folder / d).as_posix(), exclude)
        )
        for name in sorted(names):
            path = folder / name
            relative = relative_folder / name
            if name.startswith((".", "#", "~")) or _excluded(relative.as_posix(), exclude):
                continue
            if not name.lower().endswith(PAGE_SUFFIXES):
                if in_posts:  # Jekyll reads only dated posts there
                    continue
                if label is not None:  # a collection's static file
                    paths.add(normal_path(f"/{label}/" + Path(*relative.parts[1:]).as_posix()))
                    continue
                if name.lower().endswith((".scss", ".sass")):
                    seen.append((path, stamp(path)))
                    if _has_front_matter(path):
                        paths.add(normal_path("/" + relative.with_suffix(".css").as_posix()))
                paths.add(normal_path("/" + relative.as_posix()))  # a static file
                continue
            if read >= limit or admission_problem(path, (root,)) is not None:
                continue
            read += 1
            seen.append((path, stamp(path)))
            front = front_matter(path, seen[-1][1])
            for alias in _names(front.get("redirect_from")):
                paths.add(normal_path(alias))
            if front.get("published") is False:  # not built
                continue
            if in_posts:
                folders = parts[: parts.index("_posts")]
                url = _post_url(template, path, front, folders)
                if url is not None:
                    posts.add(path.resolve())
                    stems.add(path.stem)
                    slugs.update(_post_slugs(path, front))
                    paths.add(url)
            elif label is not None:
                inside = Path(*relative.parts[1:])
                paths.add(normal_path(_document_url(collections[label], label, inside, front)))
            elif front or _has_front_matter(path):
                paths.add(normal_path(_page_url(relative, front, template)))
            else:  # no front matter: copied as it is
                paths.add(normal_path("/" + relative.as_posix()))
    found = (frozenset(paths), frozenset(posts), frozenset(slugs), frozenset(stems))
    return JekyllSite(*found, tuple(seen))


def _has_front_matter(path: Path) -> bool:
    """Whether Jekyll processes the file (it starts with a front matter line)."""
    try:
        with path.open("rb") as handle:
            return handle.read(3) == b"---"
    except OSError:
        return False


def _post_url(
    template: str, path: Path, front: dict[str, Any], folders: tuple[str, ...]
) -> str | None:
    permalink = front.get("permalink")
    if isinstance(permalink, str) and permalink.strip():
        return normal_path(permalink.strip())
    try:
        rendered = render_permalink(template, path, front, folders)
    except (ValueError, TypeError, OverflowError):
        # One post's impossible date costs that post its URL (its own gate 1 reports it).
        return None
    return None if rendered is None else normal_path(rendered)


def _post_slugs(path: Path, front: dict[str, Any]) -> set[str]:
    match = POST_NAME.match(path.name)
    found = {match.group(4)} if match else set()
    if isinstance(front.get("slug"), str):
        found.add(front["slug"])
    return found
