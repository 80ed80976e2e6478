"""Gate 6's links to the site itself and to example addresses, through the plugin, on a
Jekyll blog laid out as the outside blogs of issue 27 are (bench/outside_projects.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
