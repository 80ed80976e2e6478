"""Hostile posts: text the gates never read, because it was written in HTML (issue 25).

Rendered text is what readers see: a number with a unit in a ``<div>`` or ``<p>`` block (or
written with ``&nbsp;`` or split by inline tags) is a gate-7 claim on its own file line,
exactly as in a paragraph; what is code in HTML (``<code>``, ``<pre>``) stays exempt as
code spans and fences are, and an HTML comment shows nothing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pytest_postgates.gates import numerical_claims as gate7
from pytest_postgates.html_text import code_elements, render
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

INTRO = "Intro line about the cache.\n\n"  # file lines 6-7; the HTML starts on line 8


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("html"), {"README.md": "# r\n"})


def _gate7(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    # The repository declares no product: a number's source is required explicitly.
    context = repo_context(repo, tmp_path / "c", numbers_need_sources=True)
    return gate7.GATE.evaluate(make_post(INTRO + body, tmp_path), context)


def _claims(card: Scorecard) -> list[tuple[int, str, str]]:
    return [(c["line"], c["number"], c["unit"]) for c in card.detail["claims"]]


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("<div>\nThe cache cut latency to 420 ms in our tests.\n</div>\n", 9),
        ("<p>The cache cut latency to 420 ms.</p>\n", 8),
        ('<div class="note">\n\n<p>\nFirst line.\nThe cache cut latency to 420 ms.\n</p>\n', 12),
        ("<p>The cache cut latency to 420&nbsp;ms.</p>\n", 8),
        ("<div>\n<p>The cache cut latency to 4<b>2</b>0 ms.</p>\n</div>\n", 9),
        ("<table><tr><td>latency</td><td>420 ms</td></tr></table>\n", 8),
        ("The cache cut latency to 420&nbsp;ms in a paragraph.\n", 8),
        ("The cache cut latency to <span>42&#48; ms</span> inline.\n", 8),
    ],
)
def test_a_number_in_html_is_a_claim_on_its_own_line(
    body: str, line: int, tmp_path: Path, repo: Path
) -> None:
    card = _gate7(body, tmp_path, repo)
    assert _claims(card) == [(line, "420", "ms")]
    assert card.verdict == "FAIL"
    assert [f.line for f in card.findings] == [line]


@pytest.mark.parametrize(
    "body",
    [
        "<div>\n<code>sleep 420 ms</code>\n</div>\n",
        "<pre>\nwait 420 ms\n</pre>\n",
        "<div>\n<!-- the cache cut latency to 420 ms -->\n</div>\n",
        "<div>\n<script>const latency = '420 ms';</script>\n</div>\n",
        "Run <code>sleep 420 ms</code> to see it.\n",
    ],
)
def test_code_comments_and_scripts_in_html_are_not_claims(
    body: str, tmp_path: Path, repo: Path
) -> None:
    assert _claims(_gate7(body, tmp_path, repo)) == []


def test_a_link_in_html_cites_the_number_beside_it(tmp_path: Path, repo: Path) -> None:
    body = '<p>The cache cut latency to 420 ms (<a href="https://b.example/run">run</a>).</p>\n'
    card = _gate7(body, tmp_path, repo)
    assert [(c["line"], c["cited_by"]) for c in card.detail["claims"]] == [(8, "link")]
    assert card.verdict == "PASS"


def test_rendering_keeps_every_line_and_decodes_entities() -> None:
    shown = render('<div>\n<p title="a\nb">x&amp;y &#10;z</p>\n<code>k</code>\n</div>')
    # A block tag separates words (a space), an inline one joins them; a decoded line
    # break is a space, so the rendered text keeps the source's five lines.
    assert shown.lines == (" ", " ", "x&y  z ", "k", " ")
    assert shown.blanked == (" ", " ", "x&y  z ", " ", " ")


def test_code_elements_are_found_on_their_lines_outside_pre() -> None:
    html = "<div>\n<p>Use <code>Neuro&#76;ink.run()</code>.</p>\n<pre><code>x.y</code></pre>\n"
    assert list(code_elements(html)) == [(1, "NeuroLink.run()")]


@pytest.mark.parametrize(
    "unit",
    ["<a <a ", "<!--<!--", "<script>", "<code>", "</code>", "&amp;&#1;", "<p x='>'>", "<b>1</b>"],
)
def test_rendering_takes_linear_time_on_hostile_html(unit: str) -> None:
    """Sixteen times the input costs about sixteen times as long (a search for a closing
    marker that is not there is never repeated from every later ``<``)."""

    def cost(repeats: int) -> float:
        html = unit * repeats
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            render(html)
            render(html.replace("\n", " "), markdown=True)
            list(code_elements(html))
            best = min(best, time.process_time() - start)
        return best

    small, large = cost(2_000), cost(32_000)
    assert large < max(small, 0.001) * 48
