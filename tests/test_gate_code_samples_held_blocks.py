"""Code CommonMark does not read as code where the site renders it (issue 26):

- fences a raw HTML block holds (ajv's docs: a VuePress ``<code-group>`` whose
  ``<code-block>`` opens a fence with no blank line between);
- the body of a MkDocs admonition or content tab (lancedb's docs: ``!!! note`` with a line
  of text and then a fence, all indented: CommonMark's paragraph).

Gate 15 reads them as samples; the Markdown gates' view of the page (its fences, its code
lines) is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates import held_blocks
from pytest_postgates.gates import code_samples
from pytest_postgates.post import parse_post
from tests.helpers import make_post, make_repo, repo_context, sample_violations

AJV = {
    "package.json": json.dumps({"name": "ajv", "main": "./lib/ajv.js"}),
    "lib/ajv.js": (
        "class Ajv { addSchema(schema, key) { return this } }\n"
        "module.exports = { default: Ajv, Ajv }\n"
    ),
}

PAGE = (
    "# Schemas\n\n"
    "<code-group>\n"
    '<code-block title="validation.js">\n'
    "```javascript\n"
    'const Ajv = require("ajv").defalt\n'
    'const { Ajv: Named } = require("ajv")\n'
    "new Named().addSchema({}, 'user')\n"
    "```\n"
    "</code-block>\n"
    "</code-group>\n\n"
    "Text.\n"
)


def test_a_fence_in_a_component_block_is_a_sample(tmp_path: Path) -> None:
    post = make_post(PAGE, tmp_path)
    assert post.fences == ()  # CommonMark: one HTML block
    (block,) = held_blocks.code_blocks(post)
    assert (block.lang, block.closed) == ("javascript", True)
    assert block.content.splitlines()[0] == 'const Ajv = require("ajv").defalt'
    assert post.lines[block.start_line - 1] == "```javascript"
    assert post.lines[block.end_line - 1] == "```"
    repo = make_repo(tmp_path / "repo", AJV)
    card = code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))
    assert sample_violations(card) == [("named_export", "defalt")]


# ajv's managing-schemas page: a blank line inside the first fence ends CommonMark's HTML
# block, and the fence's closing marker opens a fence that swallows the next code block.
SPLIT = (
    "<code-group>\n"
    '<code-block title="JavaScript">\n'
    "```javascript\n"
    'const Ajv = require("ajv").defalt\n'
    "\n"
    "new Ajv()\n"
    "```\n"
    "</code-block>\n\n"
    '<code-block title="TypeScript">\n'
    "```typescript\n"
    'import Ajv from "ajv"\n'
    "```\n"
    "</code-block>\n"
    "</code-group>\n\n"
    "The end.\n"
)


def test_a_blank_line_in_a_component_fence_keeps_every_fence_whole(tmp_path: Path) -> None:
    post = make_post(SPLIT, tmp_path)
    assert [f.lang for f in post.fences] == [""]  # CommonMark's bogus fence, from a closer
    blocks = held_blocks.code_blocks(post)
    assert [(b.lang, b.content) for b in blocks] == [
        ("javascript", 'const Ajv = require("ajv").defalt\n\nnew Ajv()\n'),
        ("typescript", 'import Ajv from "ajv"\n'),
    ]
    repo = make_repo(tmp_path / "repo", AJV)
    card = code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))
    assert sample_violations(card) == [("named_export", "defalt")]


def test_a_page_with_no_tag_line_beside_other_lines_keeps_commonmarks_view(
    tmp_path: Path,
) -> None:
    page = "<div align='center'>\n\n```js\nx()\n```\n\n</div>\n"
    post = make_post(page, tmp_path)
    assert held_blocks.site_code(post) is None
    assert held_blocks.code_blocks(post) == post.fences


@given(
    st.lists(
        st.sampled_from(["<div>", "```js", "```", "code()", "````", "</div>", "x", "", "~~~"]),
        max_size=12,
    )
)
def test_blocks_of_the_sites_view_lie_inside_the_page(lines: list[str]) -> None:
    page = "---\ntitle: T\n---\n" + "\n".join(lines) + "\n"
    post = parse_post(Path("2026-01-01-p.md"), page.encode())
    for block in held_blocks.code_blocks(post):
        assert 1 <= block.start_line <= block.end_line <= len(post.lines) + 1


LANCE = {
    "pyproject.toml": "[project]\nname = 'lance'\nversion = '1'\n",
    "lance/__init__.py": "def connect(uri: str) -> None: ...\n",
}

CONTAINERS = (
    "# Embeddings\n\n"
    '!!! note "An example"\n'
    "    Here is an example that uses a model from the hub.\n"
    "    ```python\n"
    "    import lance\n"
    "    lance.conect('/tmp/db')\n"
    "    ```\n"
    "\n"
    '=== "Sync"\n'
    "    ```python\n"
    "    import lance\n"
    "    lance.connect('/tmp/db')\n"
    "    ```\n"
    "\n"
    '=== "Nested"\n'
    "    !!! tip\n"
    "        ```python\n"
    "        lance.conect2('/tmp/db')\n"
    "        ```\n"
    "\n"
    "    More text, then an indented block of the tab:\n"
    "\n"
    "        lance.connect('x')\n"
    "\n"
    "```markdown\n"
    "!!! warning\n"
    "    ```python\n"
    "    lance.shown_not_run()\n"
    "    ```\n"
    "```\n"
)


def test_the_code_of_admonitions_and_tabs_is_read_as_the_site_renders_it(
    tmp_path: Path,
) -> None:
    post = make_post(CONTAINERS, tmp_path)
    blocks = [(b.lang, b.markup, b.content.strip()) for b in held_blocks.code_blocks(post)]
    assert blocks == [
        ("python", "```", "import lance\nlance.conect('/tmp/db')"),
        ("python", "```", "import lance\nlance.connect('/tmp/db')"),
        ("python", "```", "lance.conect2('/tmp/db')"),
        ("", "", "lance.connect('x')"),
        ("markdown", "```", "!!! warning\n    ```python\n    lance.shown_not_run()\n    ```"),
    ]
    first = held_blocks.code_blocks(post)[0]
    assert post.lines[first.start_line - 1] == "    ```python"
    assert post.lines[first.end_line - 1] == "    ```"
    # CommonMark's view, which the Markdown gates read, is unchanged: one fence.
    assert [f.lang for f in post.fences] == ["markdown"]
    repo = make_repo(tmp_path / "repo", LANCE)
    card = code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))
    assert sample_violations(card) == [
        ("python_attribute", "lance.conect"),
        ("python_attribute", "lance.conect2"),
    ]


@given(
    st.lists(
        st.sampled_from(
            [
                "!!! note",
                '=== "A"',
                "    ```py",
                "    ```",
                "    x()",
                "",
                "text",
                "```",
                "        y",
            ]
        ),
        max_size=14,
    )
)
def test_container_code_is_each_line_once_and_inside_the_page(lines: list[str]) -> None:
    page = "---\ntitle: T\n---\n" + "\n".join(lines) + "\n"
    post = parse_post(Path("2026-01-01-p.md"), page.encode())
    seen: set[int] = set()
    for block in held_blocks.code_blocks(post):
        assert 1 <= block.start_line <= block.end_line <= len(post.lines) + 1
        inside = set(block.content_lines) if block.markup else set()
        assert not inside & seen, (block, seen)
        seen |= inside


def test_a_fence_in_a_nested_container_is_read_once(tmp_path: Path) -> None:
    # dspy's optimizers page: a tab inside an admonition, its fence indented eight.
    page = (
        '!!! info "x"\n'
        "    Text.\n\n"
        '    === "Tab"\n'
        "        Text.\n\n"
        "        ```python\n"
        "        import pkg\n"
        "        pkg.run()\n"
        "        ```\n"
    )
    post = make_post(page, tmp_path)
    blocks = [(b.lang, b.content) for b in held_blocks.code_blocks(post)]
    assert blocks == [("python", "import pkg\npkg.run()\n")]
