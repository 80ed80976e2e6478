"""The site model: which URLs and files the posts of a site have, for gate 6's internal
links. Three generators are understood, each found by its configuration file, the nearest
upward from a post's folder:

- Jekyll (``_config.yml``): the whole site as Jekyll builds it (every ``_posts`` folder,
  pages, collections, redirects and static files: :mod:`pytest_postgates.tools.jekyll_site`),
  ``url`` and ``baseurl``; without a configuration, the posts of the gated folder and of
  the run.
- Hugo (``hugo.toml``/``hugo.yaml``/``hugo.json``, or ``config.toml``/``config.yaml``
  beside a ``content`` folder): every page under ``content/``, URLs ``/<section>/<slug or
  file name>/`` unless ``permalinks`` in the configuration names a template for the
  section (``:year``, ``:month``, ``:day``, ``:slug``, ``:title``, ``:filename``,
  ``:section``, ...), front matter ``url`` wins; ``baseURL`` gives host and base path.
- MkDocs (``mkdocs.yml``): every page under ``docs_dir`` (default ``docs``), URLs from
  the page's path (``index.md``/``README.md`` name the folder), with or without
  ``use_directory_urls``; ``site_url`` gives host and base path. Relative ``.md`` links
  resolve to files inside ``docs_dir``, as MkDocs resolves them.

A link never resolves to a file outside the site's root (``../../etc/passwd.md``). Every
file is read through the same admission checks as a post (symlinks out of the tree, FIFOs,
oversized files are never read) and through :func:`pytest_postgates.post.read_front_matter`
(YAML, TOML or JSON, with its limits).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from pytest_postgates.post import (
    Post,
    admission_problem,
    load_yaml,
)
from pytest_postgates.prose import LIQUID_LINK, Link
from pytest_postgates.site_configs import (
    HUGO_CONFIGS,
    HUGO_LEGACY_CONFIGS,
    JEKYLL_CONFIGS,
    MKDOCS_CONFIGS,
)
from pytest_postgates.tools.jekyll_site import (
    POST_NAME,
    JekyllSite,
    permalink_template,
    render_permalink,
    template_regex,
    walked_site,
)
from pytest_postgates.tools.site_files import front_matter, normal_path, stamp

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# How far up from a post's folder a site configuration is looked for.
CONFIG_SEARCH_LEVELS = 8
# At most this many pages are read for one site's URLs (a docs tree of a big project has a
# few thousand).
MAX_SITE_PAGES = 20_000
MARKDOWN = (".md", ".markdown")


@dataclass(frozen=True)
class SiteIndex:
    """What internal links can name: the corpus's posts under the site's URL scheme."""

    template: str
    host: str | None  # the site's own host (``url`` in _config.yml)
    baseurl: str
    slugs: frozenset[str]
    paths: frozenset[str]  # normalised permalinks of every post
    files: frozenset[Path]
    stems: frozenset[str]  # file names without extension, for {% post_url %}
    generator: str = "jekyll"  # "jekyll", "hugo" or "mkdocs"
    root: Path | None = None  # no link resolves to a file outside it
    # Sections whose absolute paths are page links (Hugo: the content folders).
    sections: frozenset[str] = frozenset()

    @property
    def shape(self) -> re.Pattern[str] | None:
        """A regex for paths shaped like a post under the template; None when the
        template cannot tell a post from a page (``/:title/``)."""
        if self.generator == "mkdocs":
            return None
        if self.generator == "hugo":
            return _hugo_template_regex(self.template)
        return template_regex(self.template)

    def is_own_host(self, host: str | None) -> bool:
        return (
            host is not None and bool(host) and self.host is not None and host.lower() == self.host
        )

    def resolve(self, path: str) -> tuple[bool, bool]:
        """(is a post link, resolves) for a site-absolute path."""
        normal = self.normalise(path)
        if self.generator == "mkdocs":
            # Every page of a docs site is a page link; an asset (a dot in the last part)
            # is not judged here.
            last = normal.rsplit("/", 1)[-1]
            return ("." not in last), normal in self.paths
        if self.generator == "hugo":
            section = normal.split("/")[1] if normal.count("/") >= 2 else ""
            shape = self.shape
            if section in self.sections or (shape is not None and shape.fullmatch(normal)):
                return True, normal in self.paths
            return False, normal in self.paths
        if normal.startswith("/posts/") and normal.count("/") == 2 and len(normal) > 7:
            slug = normal[len("/posts/") :]
            return True, slug in self.slugs or normal in self.paths
        shape = self.shape
        if shape is not None and shape.fullmatch(normal):
            return True, normal in self.paths
        return False, normal in self.paths

    def normalise(self, path: str) -> str:
        path = unquote(path.split("#", 1)[0].split("?", 1)[0])
        if self.baseurl and (path == self.baseurl or path.startswith(self.baseurl + "/")):
            path = path[len(self.baseurl) :]
        return normal_path(path)


def find_site_config(folder: Path) -> Path | None:
    """The site configuration for posts in ``folder`` (Jekyll ``_config.yml``, Hugo
    ``hugo.toml``/``config.toml``, MkDocs ``mkdocs.yml``): the nearest one upward, a few
    levels, stopping at a repository root."""
    start = current = folder.resolve()
    for _ in range(CONFIG_SEARCH_LEVELS):
        for name in (*JEKYLL_CONFIGS, *MKDOCS_CONFIGS, *HUGO_CONFIGS):
            candidate = current / name
            if candidate.is_file() and _builds(candidate, start):
                return candidate
        if (current / "content").is_dir():
            for name in HUGO_LEGACY_CONFIGS:
                candidate = current / name
                if candidate.is_file():
                    return candidate
        if (current / ".git").exists() or current.parent == current:
            return None
        current = current.parent
    return None


# Generators gate 1 knows by their files but this model does not index (no link model).
VITEPRESS_FOLDER = ".vitepress"
DOCUSAURUS_CONFIGS = tuple(f"docusaurus.config.{ext}" for ext in ("js", "ts", "mjs", "cjs", "mts"))


def page_generator(folder: Path) -> str | None:
    """Which site generator builds the Markdown files of ``folder``: ``jekyll``, ``hugo``,
    ``mkdocs``, ``vitepress`` or ``docusaurus``, from the nearest configuration upward (as
    :func:`find_site_config` looks), or None when no generator's file is found."""
    start = current = folder.resolve()
    for _ in range(CONFIG_SEARCH_LEVELS):
        if (current / VITEPRESS_FOLDER).is_dir():
            return "vitepress"
        if any((current / name).is_file() for name in DOCUSAURUS_CONFIGS):
            return "docusaurus"
        for name in (*JEKYLL_CONFIGS, *MKDOCS_CONFIGS, *HUGO_CONFIGS):
            if (current / name).is_file() and _builds(current / name, start):
                return generator_of(current / name)
        if (current / "content").is_dir() and any(
            (current / name).is_file() for name in HUGO_LEGACY_CONFIGS
        ):
            return "hugo"
        if (current / ".git").exists() or current.parent == current:
            return None
        current = current.parent
    return None


# The front matter keys each generator needs of a page (the others it fills in: MkDocs,
# VitePress and Docusaurus take the title from the first heading, and none has layouts).
REQUIRED_BY_GENERATOR: dict[str, tuple[str, ...]] = {
    "jekyll": ("layout", "title", "date"),
    "hugo": ("title",),
    "mkdocs": (),
    "vitepress": (),
    "docusaurus": (),
}


# Jekyll dates a post by its file name (``YYYY-MM-DD-slug.md``); a front matter ``date``
# only overrides that one, so a post with a dated file name does not need the key.
_JEKYLL_DATED_NAME = re.compile(r"\d{4}-\d{2}-\d{2}-")


def generator_front_matter(generator: str | None, path: Path) -> tuple[str, ...]:
    """The front matter keys a page of ``generator`` needs (:func:`page_generator`); with
    none found, a post under ``_posts`` is Jekyll's and any other page needs none."""
    found = generator or ("jekyll" if "_posts" in path.parts else "")
    keys = REQUIRED_BY_GENERATOR.get(found, ())
    if found == "jekyll" and _JEKYLL_DATED_NAME.match(path.name):
        keys = tuple(key for key in keys if key != "date")
    return keys


def generator_of(config: Path | None) -> str:
    """Which generator a configuration file belongs to (Jekyll when there is none)."""
    if config is None or config.name in JEKYLL_CONFIGS:
        return "jekyll"
    if config.name in MKDOCS_CONFIGS:
        return "mkdocs"
    return "hugo"


def _mkdocs_docs(config: Path) -> Path:
    """The ``docs_dir`` of an MkDocs configuration, resolved (default ``docs``)."""
    settings = _site_config(config, stamp(config)[0])
    docs_dir = settings["docs_dir"] if isinstance(settings.get("docs_dir"), str) else "docs"
    return (config.parent / docs_dir).resolve()


def _builds(config: Path, folder: Path) -> bool:
    """Whether the site of ``config`` builds the pages of ``folder``: MkDocs builds only
    its ``docs_dir`` (a repository's ``mkdocs.yml`` says nothing of its ``_posts``)."""
    return config.name not in MKDOCS_CONFIGS or folder.is_relative_to(_mkdocs_docs(config))


class _ConfigLoader(yaml.SafeLoader):
    """The safe loader, with every application tag (``!!python/name:...`` of MkDocs
    plugins, ``!ENV``) read as null: nothing is constructed, the rest of the file still
    loads."""


_ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


@lru_cache(maxsize=32)
def _site_config(config: Path | None, version: int) -> dict[str, Any]:
    del version  # part of the cache key only
    if config is None:
        return {}
    try:
        if admission_problem(config) is not None:
            return {}
        text = config.read_text(encoding="utf-8")
        if config.suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif config.suffix == ".json":
            data = json.loads(text)
        else:
            data = load_yaml(text, _ConfigLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def site_index(post_path: Path, batch_posts: Iterable[Path] = ()) -> SiteIndex:
    """The posts an internal link may name: the post's folder and every collected post.

    Built once per (folder, collected posts, folder and config versions, version of the
    site) in a process: every post of a folder shares it. A Jekyll site is walked once for
    all its folders (:func:`~.jekyll_site.walked_site`), again when a folder or file the
    walk read has changed.
    """
    folder = post_path.resolve().parent
    config_path = find_site_config(folder)
    config_stamp = stamp(config_path) if config_path else (0, 0)
    if config_path is not None and generator_of(config_path) != "jekyll":
        # A Hugo or MkDocs site is one index for every folder of it.
        return _whole_site_index(config_path, config_stamp, tuple(batch_posts))
    whole = None
    if config_path is not None:
        # A site's links name any of its posts, pages and files, not only this folder's.
        config = _site_config(config_path, config_stamp[0])
        root = config_path.parent.resolve()
        whole = walked_site(root, config, (config_path, config_stamp), MAX_SITE_PAGES)
    batch = tuple(batch_posts)
    return _site_index(folder, batch, stamp(folder), config_path, config_stamp, whole)


@lru_cache(maxsize=8)
def _whole_site_index(
    config_path: Path, config_stamp: tuple[int, int], batch_posts: tuple[Path, ...]
) -> SiteIndex:
    config = _site_config(config_path, config_stamp[0])
    if generator_of(config_path) == "mkdocs":
        return _mkdocs_index(config_path.parent, config, batch_posts)
    return _hugo_index(config_path.parent, config, batch_posts)


@lru_cache(maxsize=16)
def _site_index(
    folder: Path,
    batch_posts: tuple[Path, ...],
    folder_stamp: tuple[int, int],
    config_path: Path | None,
    config_stamp: tuple[int, int],
    whole: JekyllSite | None,
) -> SiteIndex:
    del folder_stamp
    config = _site_config(config_path, config_stamp[0])
    template = permalink_template(config)
    files = {p.resolve() for p in batch_posts}
    site_root = config_path.parent if config_path else folder.parent
    with contextlib.suppress(OSError):
        # A sibling that is refused as a post (a symlink out of the site, a FIFO, too
        # large) is never read for its permalink either.
        files.update(
            p.resolve()
            for p in folder.iterdir()
            if p.suffix.lower() in (".md", ".markdown")
            and admission_problem(p, (site_root,)) is None
        )
    slugs: set[str] = set()
    paths: set[str] = set()
    stems: set[str] = set()
    root = site_root.resolve()
    if whole is not None:
        files |= whole.posts
        paths |= whole.paths
        slugs |= whole.slugs
        stems |= whole.stems
    for path in files:
        front = front_matter(path, stamp(path))
        stems.add(path.stem)
        match = POST_NAME.match(path.name)
        if match:
            slugs.add(match.group(4))
        if isinstance(front.get("slug"), str):
            slugs.add(front["slug"])
        permalink = front.get("permalink")
        if isinstance(permalink, str) and permalink.strip():
            paths.add(normal_path(permalink.strip()))
        parts = path.relative_to(root).parts if path.is_relative_to(root) else ()
        folders = parts[: parts.index("_posts")] if "_posts" in parts else ()
        try:
            rendered = render_permalink(template, path, front, folders)
        except (ValueError, TypeError, OverflowError):
            # One post's impossible date or odd categories cost that post its URL (its own
            # gate 1 reports them), never another post's gate.
            rendered = None
        if rendered is not None:
            paths.add(normal_path(rendered))
    url = config.get("url")
    host = urlsplit(url).hostname if isinstance(url, str) and "://" in url else None
    baseurl = config.get("baseurl")
    baseurl = "/" + baseurl.strip("/") if isinstance(baseurl, str) and baseurl.strip("/") else ""
    return SiteIndex(
        template=template,
        host=host.lower() if host else None,
        baseurl=baseurl,
        slugs=frozenset(slugs),
        paths=frozenset(paths),
        files=frozenset(files),
        stems=frozenset(stems),
        generator="jekyll",
        root=site_root,
    )


def _host_and_base(url: Any) -> tuple[str | None, str]:
    """(host, base path) of a site URL (Hugo ``baseURL``, MkDocs ``site_url``)."""
    if not isinstance(url, str) or "://" not in url:
        return None, ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None, ""
    base = parts.path.strip("/")
    return (parts.hostname.lower() if parts.hostname else None), ("/" + base if base else "")


def _pages_under(folder: Path, root: Path) -> list[Path]:
    """Markdown files under ``folder`` (at most :data:`MAX_SITE_PAGES`), each one admitted
    as a post would be (no symlink out of ``root``, regular files only)."""
    pages: list[Path] = []
    for current, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.lower().endswith(MARKDOWN):
                continue
            path = Path(current, name)
            if admission_problem(path, (root,)) is None:
                pages.append(path.resolve())
            if len(pages) >= MAX_SITE_PAGES:
                return pages
    return pages


def _as_date(value: Any) -> date | None:
    if isinstance(value, (date, datetime)):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return date.fromisoformat(value.strip()[:10])
    return None


def urlize(text: str) -> str:
    """Hugo's ``urlize`` for the ASCII cases: lower case, runs of other characters to
    one hyphen."""
    return re.sub(r"[^\w]+", "-", text.lower(), flags=re.ASCII).strip("-")


_HUGO_PLACEHOLDER = re.compile(
    r":(year|monthname|month|day|weekdayname|weekday|yearday|sections|section|"
    r"slugorfilename|slugorcontentbasename|slug|title|filename|contentbasename)"
)
_HUGO_PLACEHOLDER_REGEX = {
    "year": r"\d{4}",
    "month": r"\d{2}",
    "day": r"\d{2}",
    "yearday": r"\d{1,3}",
    "weekday": r"\d",
}


def _hugo_permalinks(config: dict[str, Any]) -> dict[str, str]:
    """section -> permalink template, from ``permalinks`` (Hugo's flat form or its
    ``permalinks.page`` table)."""
    table = config.get("permalinks")
    if not isinstance(table, dict):
        return {}
    if isinstance(table.get("page"), dict):
        table = table["page"]
    return {str(k): v for k, v in table.items() if isinstance(v, str) and v.strip()}


def _render_hugo(template: str, page: Path, section_path: str, front: dict[str, Any]) -> str:
    when = _as_date(front.get("date")) or _as_date(front.get("publishDate"))
    stem = page.parent.name if page.stem in ("index", "_index") else page.stem
    title = front["title"] if isinstance(front.get("title"), str) else ""
    slug = front["slug"] if isinstance(front.get("slug"), str) and front["slug"] else ""
    values = {
        "section": section_path.split("/")[0],
        "sections": section_path,
        "filename": stem,
        "contentbasename": stem,
        "slug": slug or urlize(title) or stem,
        "slugorfilename": slug or stem,
        "slugorcontentbasename": slug or stem,
        "title": urlize(title) or stem,
    }
    if when is not None:
        values.update(
            year=f"{when.year:04d}",
            month=f"{when.month:02d}",
            monthname=when.strftime("%B").lower(),
            day=f"{when.day:02d}",
            weekday=str((when.weekday() + 1) % 7),
            weekdayname=when.strftime("%A").lower(),
            yearday=str(when.timetuple().tm_yday),
        )
    return _HUGO_PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


@lru_cache(maxsize=64)
def _hugo_template_regex(template: str) -> re.Pattern[str] | None:
    normal = normal_path(template)
    if not any(part and not part.startswith(":") for part in normal.split("/")) and not any(
        name in normal for name in (":year", ":month", ":day")
    ):
        return None
    pattern = ""
    position = 0
    for match in _HUGO_PLACEHOLDER.finditer(normal):
        pattern += re.escape(normal[position : match.start()])
        pattern += _HUGO_PLACEHOLDER_REGEX.get(match.group(1), r"[^/]+")
        position = match.end()
    return re.compile(pattern + re.escape(normal[position:]))


def _hugo_index(root: Path, config: dict[str, Any], batch_posts: tuple[Path, ...]) -> SiteIndex:
    content_dir = config.get("contentDir") if isinstance(config.get("contentDir"), str) else ""
    content = (root / (content_dir or "content")).resolve()
    permalinks = _hugo_permalinks(config)
    files = set(_pages_under(content, root)) if content.is_dir() else set()
    files.update(p.resolve() for p in batch_posts if p.resolve().is_relative_to(content))
    slugs: set[str] = set()
    paths: set[str] = set()
    stems: set[str] = set()
    sections: set[str] = set()
    for page in files:
        relative = page.relative_to(content)
        stems.add(page.stem)
        section_path = "/".join(relative.parts[:-1])
        if section_path:
            sections.add(relative.parts[0])
        front = front_matter(page, stamp(page))
        if isinstance(front.get("slug"), str) and front["slug"]:
            slugs.add(front["slug"])
        slugs.add(page.stem)
        url = front.get("url")
        if isinstance(url, str) and url.strip():
            paths.add(normal_path(url.strip()))
            continue
        template = permalinks.get(relative.parts[0]) if len(relative.parts) > 1 else None
        if page.stem == "_index":  # a section's own page
            paths.add(normal_path("/" + section_path))
        elif template is not None:
            paths.add(normal_path(_render_hugo(template, page, section_path, front)))
        else:
            stem = page.parent.name if page.stem == "index" else page.stem
            slug = front.get("slug") if isinstance(front.get("slug"), str) else ""
            parent = "/".join(relative.parts[:-2] if page.stem == "index" else relative.parts[:-1])
            paths.add(normal_path(f"/{parent}/{slug or stem}"))
        for alias in front.get("aliases") or ():
            if isinstance(alias, str):
                paths.add(normal_path(alias))
    host, base = _host_and_base(config.get("baseURL") or config.get("baseurl"))
    template = next(iter(permalinks.values()), "/:section/:slugorfilename/")
    return SiteIndex(
        template=template,
        host=host,
        baseurl=base,
        slugs=frozenset(slugs),
        paths=frozenset(paths),
        files=frozenset(files),
        stems=frozenset(stems),
        generator="hugo",
        root=root,
        sections=frozenset(sections),
    )


def _mkdocs_index(root: Path, config: dict[str, Any], batch_posts: tuple[Path, ...]) -> SiteIndex:
    docs_dir = config["docs_dir"] if isinstance(config.get("docs_dir"), str) else "docs"
    docs = (root / docs_dir).resolve()
    directory_urls = config.get("use_directory_urls", True) is not False
    files = set(_pages_under(docs, root)) if docs.is_dir() and docs.is_relative_to(root) else set()
    files.update(p.resolve() for p in batch_posts if p.resolve().is_relative_to(docs))
    paths: set[str] = set()
    for page in files:
        relative = page.relative_to(docs).with_suffix("")
        parts = list(relative.parts)
        if parts and parts[-1].lower() in ("index", "readme"):
            parts.pop()
            url = "/" + "/".join(parts)
        else:
            url = "/" + "/".join(parts) + ("/" if directory_urls else ".html")
        paths.add(normal_path(url))
    host, base = _host_and_base(config.get("site_url"))
    return SiteIndex(
        template="",
        host=host,
        baseurl=base,
        slugs=frozenset(),
        paths=frozenset(paths),
        files=frozenset(files),
        stems=frozenset(p.stem for p in files),
        generator="mkdocs",
        root=docs,
    )


def _site_file(site_root: Path, path: Path) -> bool:
    """Whether ``path`` is a file inside the site: ``{% link /etc/passwd %}`` or
    ``../../../x.md`` point out of it and never resolve."""
    root = site_root.resolve()
    resolved = path.resolve()
    return resolved.is_relative_to(root) and resolved.is_file()


def find_site_root(post: Post) -> Path:
    """The folder links may resolve inside: MkDocs' ``docs_dir``, the folder of a Jekyll
    or Hugo site's configuration, else the folder above ``_posts``."""
    config = find_site_config(post.path.resolve().parent)
    if config is None:
        return post.path.resolve().parent.parent
    if generator_of(config) == "mkdocs":
        docs = _mkdocs_docs(config)
        return docs if docs.is_relative_to(config.parent.resolve()) else config.parent
    return config.parent


# ============================================================================ caching
# What gate 6's result-cache key holds of the site and of the files a post's links name.


def linked_file(link: Link, post: Post) -> Path | None:
    """The file on disk ``link`` names, unresolved, or None when it names none: a ``{% link
    %}`` tag (inside the site root) or a relative ``.md`` link (beside the post), the two
    kinds :func:`judge_internal` answers from the disk rather than the site model."""
    if link.kind == "liquid":
        match = LIQUID_LINK.fullmatch(link.url)
        if match is None or match.group(1) != "link":
            return None
        return find_site_root(post) / match.group(2).lstrip("/")
    url = link.url
    if not url or url.startswith("#"):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme or parts.netloc:
        return None  # a web URL; the site's own host is judged by the site model
    path = parts.path
    if path.startswith("/") or not path.lower().endswith((".md", ".markdown")):
        return None
    return post.path.parent / unquote(path)


def file_state(name: str) -> str:
    """What the gate reads of a linked file: where it resolves to and whether a file is
    there (never its content)."""
    resolved = os.path.realpath(name)
    return f"{name}\0{resolved}\0{int(os.path.isfile(resolved))}"


@lru_cache(maxsize=16)
def site_digest(site: SiteIndex) -> str:
    """A digest of everything the site model answers from (a result-cache input)."""
    digest = hashlib.sha256()
    parts = [site.generator, site.template, site.host or "", site.baseurl]
    for values in (site.slugs, site.paths, {str(path) for path in site.files}, site.stems):
        parts.append("\x1e")
        parts.extend(sorted(values))
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()
