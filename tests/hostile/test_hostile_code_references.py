"""Hostile posts: names gate 2 never read because they were not in backticks (issue 25).

A name in ``<code>`` (an HTML block or inline HTML) is a token like a backticked one, and so
are the code-shaped references DESIGN lists for gate 2 outside backticks: heading words
(``#### ERR_PLUGIN_NOT_FOUND``), link text (``[.validateSchema(...)](#x)``) and MkDocs
autorefs (``[text][pkg.mod.Name]``, ``[pkg.mod.Name][]``). Each token says where it came
from (``source``), and only tokens that are not code spans carry the key on the card.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.code_references import code_shaped_words
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.tokens import extract_tokens
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "src/lib/neurolink.ts": "export class NeuroLink {\n  generateText() {}\n}\n",
    "package.json": '{"name": "@acme/neuro"}\n',
}
INTRO = "Uses `NeuroLink` and `generateText` here.\n\n"  # file line 6; the case starts on 8


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("refs"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


def _entries(detail: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(detail["ungrounded"])
    for entries in detail.get("outcomes", {}).values():
        found += entries
    return found


@pytest.mark.parametrize(
    ("body", "token", "line", "source"),
    [
        (
            "<div>\n<p>Call <code>NeuroLink.inventedThing</code>.</p>\n</div>\n",
            "NeuroLink.inventedThing",
            9,
            "html-code",
        ),
        (
            "<p>Call\n<code>NeuroLink.inventedThing</code>.</p>\n",
            "NeuroLink.inventedThing",
            9,
            "html-code",
        ),
        (
            "Then call <code>NeuroLink.inventedThing</code> twice.\n",
            "NeuroLink.inventedThing",
            8,
            "html-code",
        ),
        (
            "Then\ncall <code>NeuroLink.inventedThing()</code>.\n",
            "NeuroLink.inventedThing()",
            9,
            "html-code",
        ),
        ("#### ERR_PLUGIN_NOT_FOUND\n\nText.\n", "ERR_PLUGIN_NOT_FOUND", 8, "heading"),
        ("## Calling NeuroLink.inventedThing\n\nText.\n", "NeuroLink.inventedThing", 8, "heading"),
        ("See [.validateSchema(...)](#x) there.\n", ".validateSchema(...)", 8, "link-text"),
        ("## Routing (NeuroLink.invented), today\n", "NeuroLink.invented", 8, "heading"),
        ("## Routing (NeuroLinkInvented).\n", "NeuroLinkInvented", 8, "heading"),
        (
            "See [the NeuroLink.inventedThing method](#x).\n",
            "NeuroLink.inventedThing",
            8,
            "link-text",
        ),
        (
            "See [the method][neuro.NeuroLink.invented] there.\n",
            "neuro.NeuroLink.invented",
            8,
            "autoref",
        ),
        (
            "Text.\nSee [neuro.NeuroLink.invented][] there.\n",
            "neuro.NeuroLink.invented",
            9,
            "autoref",
        ),
    ],
)
def test_a_name_outside_backticks_is_a_gate_2_token(
    body: str, token: str, line: int, source: str, tmp_path: Path, ctx: GateContext
) -> None:
    post = make_post(INTRO + body, tmp_path)
    assert [(t.text, t.line, t.source) for t in extract_tokens(post)][2:] == [(token, line, source)]
    card = gate.GATE.evaluate(post, ctx)
    entry = next(e for e in _entries(card.detail) if e["token"] == token)
    assert (entry["line"], entry["source"]) == (line, source)


def test_an_invented_name_in_html_code_fails_gate_2(tmp_path: Path, ctx: GateContext) -> None:
    body = INTRO + "<div>\n<p>Then <code>NeuroLink.inventedThing</code>.</p>\n</div>\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    assert card.verdict == "FAIL"
    assert [(u["token"], u["line"]) for u in card.detail["ungrounded"]] == [
        ("NeuroLink.inventedThing", 9)
    ]


@pytest.mark.parametrize(
    "body",
    [
        "## The Setup Guide, e.g. for v1.2.3 {#setup_guide}\n\nText.\n",
        "See [example.com](https://example.com) and [the docs](#x).\n",
        "<pre><code>NeuroLink.inventedThing</code></pre>\n",
        "```html\n<code>NeuroLink.inventedThing</code>\n```\n",
        "Text.\n\n**Related posts:**\n\n- [NeuroLink.inventedThing](/x/)\n",
        "A [task][] list and [^1] note.\n",
        "## Tracing with OpenAI-Compatible endpoints\n\nText.\n",
        "See [docs.neurolink.ink](https://docs.neurolink.ink/) and [x](http://[).\n",
    ],
)
def test_prose_words_code_blocks_and_related_posts_are_not_tokens(
    body: str, tmp_path: Path
) -> None:
    post = make_post(INTRO + body, tmp_path)
    assert [t.source for t in extract_tokens(post)] == ["code-span", "code-span"]


def test_code_span_entries_keep_their_shape(tmp_path: Path, ctx: GateContext) -> None:
    """No ``source`` key on code-span tokens: pinned scorecards of posts without HTML code,
    code-shaped headings, link text or autorefs do not change."""
    card = gate.GATE.evaluate(make_post(INTRO + "`NeuroLink.inventedThing`\n", tmp_path), ctx)
    assert card.detail["ungrounded"] and all("source" not in e for e in _entries(card.detail))


def test_a_name_written_in_backticks_and_in_a_heading_is_judged_as_the_code_span(
    tmp_path: Path,
) -> None:
    post = make_post(
        INTRO + "## NeuroLink.inventedThing\n\nCall `NeuroLink.inventedThing`.\n", tmp_path
    )
    assert [(t.text, t.source) for t in extract_tokens(post)][2:] == [
        ("NeuroLink.inventedThing", "code-span")
    ]


@pytest.mark.parametrize("unit", ["a(", "ab", "a.1", "[a][", "{:", "_a"])
def test_reading_words_takes_linear_time(unit: str) -> None:
    """One long heading word costs in proportion to its length: no run of word characters
    is re-read from each of its characters."""

    def cost(repeats: int) -> float:
        text = unit * repeats
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            list(code_shaped_words(text))
            best = min(best, time.process_time() - start)
        return best

    small, large = cost(2_000), cost(32_000)
    assert large < max(small, 0.001) * 48
