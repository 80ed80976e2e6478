"""Code-shaped references outside code spans (code_references.py)."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.code_references import find_code_references
from tests.helpers import make_post


def test_an_autoref_keeps_the_underscores_markdown_reads_as_emphasis(tmp_path: Path) -> None:
    # markdown-it reads `__init__` as strong emphasis around `init`: the identifier the
    # doc names keeps its underscores.
    post = make_post(
        "See [`toolsets`][pkg.agent.Agent.__init__] and [schema][pkg.Model.__schema__].\n\n"
        "# The _private_name heading\n",
        tmp_path,
    )
    found = {
        (ref.text, ref.source)
        for ref in find_code_references(post.tokens, post.body_start_line, None)
    }
    assert ("pkg.agent.Agent.__init__", "autoref") in found
    assert ("pkg.Model.__schema__", "autoref") in found
    assert ("_private_name", "heading") in found
