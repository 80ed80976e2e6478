"""Site layouts (issue 13 step 3): gate 6's internal links resolve for Hugo and MkDocs
sites as for Jekyll, and ``paths`` entries may be globs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.config import in_folder
from pytest_postgates.gates import GATES, GateContext, default_settings, readability_links
from pytest_postgates.post import parse_post
from pytest_postgates.tools import site

if TYPE_CHECKING:
    from tests.conftest import Blog

PROSE = (
    "This page shows how pytest runs a Python plugin over Markdown files.\n\n"
    "Each gate becomes one test item with plain line numbers.\n\n"
)


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def hugo_page(title: str, date: str, body: str, slug: str | None = None) -> str:
    extra = f'slug = "{slug}"\n' if slug else ""
    return f'+++\ntitle = "{title}"\ndate = {date}\n{extra}+++\n\n{PROSE}{body}'


def internal(path: Path) -> dict[str, object]:
    card = readability_links.GATE.evaluate(
        parse_post(path), GateContext.create(default_settings(offline=True, flesch_floor=0))
    )
    assert card.verdict in ("PASS", "FAIL"), card.detail
    detail = card.detail["internal_links"]
    assert isinstance(detail, dict)
    return detail


# ----------------------------------------------------------------------------- Hugo
def make_hugo(root: Path, permalinks: str = "") -> dict[str, Path]:
    write(root, "hugo.toml", f'baseURL = "https://blog.example.org/"\ntitle = "Site"\n{permalinks}')
    return {
        "first": write(root, "content/posts/first-post.md", hugo_page("First", "2026-06-03", "")),
        "second": write(
            root,
            "content/posts/second.md",
            hugo_page("Second Post", "2026-07-01", "", slug="the-second"),
        ),
        "bundle": write(root, "content/posts/bundled/index.md", hugo_page("B", "2026-07-02", "")),
        "about": write(root, "content/about.md", hugo_page("About", "2026-01-01", "")),
    }


def test_hugo_default_urls(tmp_path: Path) -> None:
    pages = make_hugo(tmp_path)
    index = site.site_index(pages["first"])
    assert index.generator == "hugo"
    assert {"/posts/first-post", "/posts/the-second", "/posts/bundled", "/about"} <= index.paths
    assert index.resolve("/posts/first-post/") == (True, True)
    assert index.resolve("/posts/no-such-post/") == (True, False)
    assert index.resolve("/tags/python/") == (False, False)  # a taxonomy page: not judged
    assert index.is_own_host("blog.example.org")


def test_hugo_permalinks_from_the_config(tmp_path: Path) -> None:
    pages = make_hugo(tmp_path, '[permalinks]\nposts = "/:year/:month/:slug/"\n')
    index = site.site_index(pages["second"])
    assert "/2026-07/the-second" not in index.paths
    assert {"/2026/06/first", "/2026/07/the-second"} <= index.paths  # :slug falls back to title
    assert index.resolve("/2026/06/first/") == (True, True)
    assert index.resolve("/2026/06/missing/") == (True, False)


def test_hugo_links_resolve_in_gate_6(tmp_path: Path) -> None:
    pages = make_hugo(tmp_path)
    body = (
        "See [the first](/posts/first-post/), [the second](/posts/the-second/), "
        "[the file](first-post.md), [gone](/posts/gone/) and "
        "[absolute](https://blog.example.org/posts/bundled/).\n"
    )
    post = write(tmp_path, "content/posts/third.md", hugo_page("Third", "2026-07-03", body))
    detail = internal(post)
    assert detail["site"] == "hugo"
    assert detail["checked"] == 5
    assert [b["url"] for b in detail["broken"]] == ["/posts/gone/"]  # type: ignore[index]
    del pages


# ---------------------------------------------------------------------------- MkDocs
def make_mkdocs(root: Path, config: str = "site_name: Docs\n") -> dict[str, Path]:
    write(root, "mkdocs.yml", config)
    docs = "documentation" if "docs_dir" in config else "docs"
    return {
        "index": write(root, f"{docs}/index.md", "# Home\n\n" + PROSE),
        "guide": write(root, f"{docs}/guide/install.md", "# Install\n\n" + PROSE),
        "readme": write(root, f"{docs}/api/README.md", "# API\n\n" + PROSE),
    }


def test_mkdocs_urls_with_and_without_directory_urls(tmp_path: Path) -> None:
    pages = make_mkdocs(tmp_path / "a")
    index = site.site_index(pages["guide"])
    assert index.generator == "mkdocs"
    assert index.paths == {"/", "/guide/install", "/api"}
    assert index.resolve("/guide/install/") == (True, True)
    assert index.resolve("/img/logo.png") == (False, False)
    flat = make_mkdocs(tmp_path / "b", "site_name: D\nuse_directory_urls: false\n")
    assert site.site_index(flat["guide"]).resolve("/guide/install.html") == (True, True)


def test_mkdocs_relative_md_links_resolve_inside_docs_dir_only(tmp_path: Path) -> None:
    pages = make_mkdocs(tmp_path, "site_name: Docs\ndocs_dir: documentation\n")
    write(tmp_path, "outside.md", "# Not a page\n")
    body = (
        "Read [install](guide/install.md#steps), [the API](api/README.md), "
        "[missing](guide/missing.md), [outside](../outside.md) and "
        "[site path](/guide/install/).\n"
    )
    page = write(tmp_path, "documentation/start.md", "# Start\n\n" + PROSE + body)
    detail = internal(page)
    assert detail["site"] == "mkdocs"
    broken = sorted(b["url"] for b in detail["broken"])  # type: ignore[union-attr]
    assert broken == ["../outside.md", "guide/missing.md"]
    assert detail["checked"] == 5
    del pages


def test_mkdocs_config_with_python_tags_still_loads(tmp_path: Path) -> None:
    config = (
        "site_name: Docs\nuse_directory_urls: false\nmarkdown_extensions:\n"
        "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
    )
    pages = make_mkdocs(tmp_path, config)
    assert "/guide/install" in site.site_index(pages["guide"]).paths
    assert site.site_index(pages["guide"]).resolve("/guide/install.html") == (True, True)


# --------------------------------------------------------------------------- globs
@pytest.mark.parametrize(
    ("path", "glob", "inside"),
    [
        ("/s/content/posts/x.md", "/s/content/*", True),
        ("/s/content/posts/deep/x.md", "/s/**/posts", True),
        ("/s/docs/x.md", "/s/docs/**/*.md", True),
        ("/s/docs/a/b/x.md", "/s/docs/**/*.md", True),
        ("/s/docs/x.txt", "/s/docs/**/*.md", False),
        ("/s/other/x.md", "/s/d*", False),
        ("/s/docs-v2/x.md", "/s/docs-v[0-9]", True),
        ("/s/docs/x.md", "/s/docs", True),
    ],
)
def test_paths_entries_can_be_globs(path: str, glob: str, inside: bool) -> None:
    assert in_folder(Path(path), Path(glob)) is inside


# ------------------------------------------------- whole scratch sites under pytest
ALL_GATES = "--postgates-only=" + ",".join(str(gate.id) for gate in GATES)


def _gate_outcomes(blog: Blog, stem: str) -> dict[str, str]:
    return {
        name.split("-gate", 1)[1].removesuffix(".json"): card["verdict"]
        for name, card in blog.scorecards().items()
        if name.startswith(stem + "-gate")
    }


def _write_repo_files(blog: Blog) -> None:
    blog.raw("package.json", json.dumps({"name": "demo-site", "version": "1.0.0"}).encode())
    blog.raw(".markdownlint.json", b'{"default": true, "MD013": false}')


def test_hugo_site_runs_every_gate_and_resolves_internal_links(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    _write_repo_files(blog)
    blog.raw("hugo.toml", b'baseURL = "https://blog.example.org/"\n')
    blog.pyproject(
        'paths = ["content/*"]\nrequired_front_matter = ["title", "date"]\nbody_line_floor = 1\n'
    )
    first = hugo_page("First", "2026-06-03", "It reads `package.json` first.\n")
    blog.raw("content/posts/2026-06-03-first.md", first.encode())
    second = hugo_page(
        "Second",
        "2026-06-04",
        "Back to [the first post](/posts/2026-06-03-first/) and [its file](2026-06-03-first.md).\n",
    )
    blog.raw("content/posts/2026-06-04-second.md", second.encode())
    blog.git_init()
    result = pytester.runpytest(
        "content", ALL_GATES, "--postgates-all", "--postgates-offline", "-rA", "-p", "no:randomly"
    )
    result.stdout.no_fnmatch_line("*ERROR*")
    outcomes = _gate_outcomes(blog, "2026-06-04-second")
    assert len(outcomes) == len(GATES), outcomes
    assert "ERROR" not in outcomes.values()
    for gate in (
        "1-blog_quality",
        "6-readability_links",
        "12-markdownlint",
        "11-narrative_opening",
    ):
        assert outcomes[gate] == "PASS", (gate, outcomes)
    card = blog.card("2026-06-04-second-gate6-readability_links.json")
    assert card["detail"]["internal_links"]["site"] == "hugo"
    assert card["detail"]["internal_links"]["checked"] == 2
    assert card["detail"]["internal_links"]["broken"] == []
    front = blog.card("2026-06-04-second-gate1-blog_quality.json")["detail"]["front_matter"]
    assert front["format"] == "toml" and front["date_matches_filename"] is True


def test_mkdocs_site_runs_every_gate_and_resolves_internal_links(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    _write_repo_files(blog)
    blog.raw("mkdocs.yml", b"site_name: Demo\ndocs_dir: docs\n")
    blog.pyproject('paths = ["docs"]\n')
    blog.raw(
        "docs/index.md",
        ("# Home\n\n" + PROSE + "Start with [install](guide/install.md).\n").encode(),
    )
    blog.raw(
        "docs/guide/install.md",
        (
            "# Install\n\n" + PROSE + "Back [home](../index.md) or [broken](../nowhere.md).\n"
        ).encode(),
    )
    blog.git_init()
    result = pytester.runpytest(
        "docs", ALL_GATES, "--postgates-all", "--postgates-offline", "-rA", "-p", "no:randomly"
    )
    result.stdout.no_fnmatch_line("*ERROR*")
    home = _gate_outcomes(blog, "index")
    assert len(home) == len(GATES) and "ERROR" not in home.values(), home
    assert (
        home["1-blog_quality"] == home["6-readability_links"] == home["12-markdownlint"] == "PASS"
    )
    install = blog.card("install-gate6-readability_links.json")["detail"]["internal_links"]
    assert install["site"] == "mkdocs"
    assert [b["url"] for b in install["broken"]] == ["../nowhere.md"]
    assert blog.card("install-gate6-readability_links.json")["verdict"] == "FAIL"
