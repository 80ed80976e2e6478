"""Gate 6's links to the site itself and to example addresses, through the plugin, on a
Jekyll blog laid out as the outside blogs of issue 27 are (bench/outside_projects.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.tools import jekyll_site as jekyll_module
from pytest_postgates.tools import site
from pytest_postgates.tools.jekyll_site import jekyll_site

if TYPE_CHECKING:
    from tests.conftest import Blog

RUN = ("--postgates-only=6", "--postgates-offline", "_posts")
EASY = "This post shows how pytest runs a Python plugin.\n\n"


def _links(blog: Blog, stem: str) -> dict[str, object]:
    card = blog.card(f"{stem}-gate6-readability_links.json")
    links: dict[str, object] = card["detail"]["links"]
    return {"verdict": card["verdict"], **links}


def test_reader_local_and_example_links_are_examples_not_dead_links(blog: Blog) -> None:
    """``http://localhost:3000``, ``127.0.0.1`` and ``api.example.com`` in a post are for
    the reader's own machine or are shapes, not pages (issue 27: vitest's
    ``http://localhost:51204/__vitest__/`` failed as BLOCKED_LINK); a loopback link to a page
    of the blog itself is the author's local preview, dead for every reader (jalammar's
    ``http://127.0.0.1:4000/skipgram-recommender-talk/``), and fails."""
    blog.raw("_config.yml", b"permalink: /:title/\n")
    blog.post("2026-01-01-other-post.md")
    blog.post(
        "2026-01-02-examples.md",
        EASY + "Open [the UI](http://localhost:3000/ui/), then <http://127.0.0.1:8000/docs>.\n\n"
        "The client calls [the API](https://api.example.com/v1/users).\n",
    )
    blog.post(
        "2026-01-03-preview.md",
        EASY + "See [the other post](http://127.0.0.1:4000/other-post/) first.\n",
    )

    result = blog.pytester.runpytest(*RUN)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*LOCAL_PREVIEW_LINK*127.0.0.1:4000/other-post/*"])
    examples = _links(blog, "2026-01-02-examples")
    assert examples["verdict"] == "PASS"
    listed = examples["examples"]
    assert isinstance(listed, list)
    assert [row["url"] for row in listed] == [
        "http://localhost:3000/ui/",
        "http://127.0.0.1:8000/docs",
        "https://api.example.com/v1/users",
    ]
    assert "reserved for examples" in listed[2]["reason"]
    preview = _links(blog, "2026-01-03-preview")
    assert preview["verdict"] == "FAIL"


def test_a_jekyll_sites_links_resolve_to_every_folder_of_the_site(blog: Blog) -> None:
    """Issue 27 (ljvmiranda921.github.io): a post in ``notebook/_posts`` links a post of
    ``projects/_posts`` (category ``projects`` from its folder: ``/projects/2023/08/01/
    calamancy/`` under the pretty style), a page whose ``permalink`` differs from its path,
    a page at its path, a collection document, a redirect and a static file; each resolves
    as Jekyll builds the site. A post-shaped path no post has is broken; a site path the
    model cannot find (a plugin's tag page) is listed as not judged, never a failure."""
    blog.raw(
        "_config.yml",
        b"permalink: pretty\nurl: https://blog.example.org\n"
        b"collections:\n  talks:\n    output: true\n",
    )
    front = {"layout": "post", "title": "T", "date": "2023-08-01", "category": "projects"}
    blog.post("2023-08-01-calamancy.md", folder="projects/_posts", front=front)
    moved = {**front, "date": "2017-01-25", "category": "notebook"}
    blog.post("2017-01-25-forward-kinematics.md", folder="notebook/_posts", front=moved)
    blog.raw("cv.md", b"---\nlayout: page\npermalink: /curriculum/\n---\nCV\n")
    blog.raw("research/index.md", b"---\nlayout: page\nredirect_from: /papers/\n---\nR\n")
    blog.raw("_talks/acl.md", b"---\ntitle: ACL\n---\nTalk\n")
    blog.raw("assets/header.png", b"\x89PNG")
    links = (
        "[calamanCy](/projects/2023/08/01/calamancy/) and [its benchmarks]"
        "(https://blog.example.org/projects/2023/08/01/calamancy/#benchmarks),\n"
        "[my CV](/curriculum/), [research](/research/), [papers](/papers/),"
        " [a talk](/talks/acl/), ![header](/assets/header.png),\n"
        "[the FK post](/notebook/2017/01/25/forward-kinematics/),"
        " [a moved post](/projects/2017/01/25/forward-kinematics/) and [tags](/tags/nlp/).\n"
    )
    notebook = {**front, "date": "2023-11-20", "category": "notebook"}
    blog.post("2023-11-20-ner.md", EASY + links, folder="notebook/_posts", front=notebook)

    result = blog.pytester.runpytest("--postgates-only=6", "--postgates-offline", "notebook")
    result.assert_outcomes(passed=1, failed=1)
    card = blog.card("2023-11-20-ner-gate6-readability_links.json")
    internal = card["detail"]["internal_links"]
    assert [b["url"] for b in internal["broken"]] == ["/projects/2017/01/25/forward-kinematics/"]
    assert internal["checked"] == 9
    assert [row["url"] for row in internal["not_judged"]["links"]] == ["/tags/nlp/"]
    assert "not judged" in internal["not_judged"]["reason"]


def test_the_jekyll_walk_reads_what_jekyll_builds(tmp_path: Path) -> None:
    """A node_modules folder at any depth and the ``exclude`` list are not read as the
    site's pages (Jekyll excludes them; a walk of one cost more than the site); an ``_``
    folder named in ``include`` is."""
    pages = ("a/node_modules/pkg/readme.md", "drafts/notes.md", "kept/page.md", "_pages/cv.md")
    for relative in (*pages, "_talks/slides.pdf", "_posts/figure.png"):
        page = tmp_path / relative
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("---\ntitle: x\n---\nx\n", encoding="utf-8")
    config = {
        "exclude": ["drafts"],
        "include": ["_pages"],
        "permalink": "pretty",
        "collections": {"talks": {"output": True}},
    }
    site = jekyll_site(tmp_path, config, 100)
    # A collection's static file is copied under its label; a file in _posts that is no
    # dated post is not built.
    assert site.paths == {"/kept/page", "/_pages/cv", "/talks/slides.pdf"}


def _two_folder_site(root: Path) -> tuple[Path, Path]:
    """A Jekyll site with posts in ``notebook/_posts`` and ``projects/_posts``."""
    (root / "_config.yml").write_text("permalink: pretty\n", encoding="utf-8")
    made = []
    for folder, name in (("notebook", "2023-11-20-ner.md"), ("projects", "2023-08-01-cal.md")):
        post = root / folder / "_posts" / name
        post.parent.mkdir(parents=True)
        post.write_text("---\ntitle: T\n---\nText\n", encoding="utf-8")
        made.append(post)
    return made[0], made[1]


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The roots of the Jekyll site walks made while the test runs."""
    made: list[Path] = []

    def counted(root: Path, config: dict[str, object], limit: int) -> jekyll_module.JekyllSite:
        made.append(root)
        return jekyll_site(root, config, limit)

    monkeypatch.setattr(jekyll_module, "jekyll_site", counted)
    return made


def test_a_second_folder_of_a_jekyll_site_does_not_walk_the_site_again(
    tmp_path: Path, walks: list[Path]
) -> None:
    notebook, projects = _two_folder_site(tmp_path)
    first = site.site_index(notebook)
    second = site.site_index(projects)
    assert walks == [tmp_path.resolve()]  # one walk for both folders
    # Each folder's index still names the other folder's post.
    assert "/projects/2023/08/01/cal" in first.paths
    assert "/notebook/2023/11/20/ner" in second.paths


def test_an_edit_elsewhere_in_a_jekyll_site_is_noticed(tmp_path: Path, walks: list[Path]) -> None:
    """A post added to another folder, or another folder's post given a permalink, is in
    the next index of this folder (the walk is kept while nothing it read has changed)."""
    notebook, projects = _two_folder_site(tmp_path)
    assert "/projects/2023/08/02/new" not in site.site_index(notebook).paths
    assert len(walks) == 1
    site.site_index(notebook)
    assert len(walks) == 1  # nothing changed: no walk
    added = projects.parent / "2023-08-02-new.md"
    added.write_text("---\ntitle: New\n---\nText\n", encoding="utf-8")
    assert "/projects/2023/08/02/new" in site.site_index(notebook).paths
    assert len(walks) == 2
    projects.write_text("---\ntitle: T\npermalink: /calamancy/\n---\nText\n", encoding="utf-8")
    assert "/calamancy" in site.site_index(notebook).paths
    assert len(walks) == 3
