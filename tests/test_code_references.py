"""Code-shaped references outside code spans (code_references.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.code_references import code_shaped_words, find_code_references
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


def test_a_type_annotation_after_a_headings_code_span_is_notation(tmp_path: Path) -> None:
    """jest's configuration reference titles each option `### \\`transform\\` \\[object<string,
    pathToTransformer | [pathToTransformer, object]>]`: the bracket after the option's code
    span is its type, written in the page's notation, not a reference to code."""
    post = make_post(
        "### `transform` \\[object&lt;string, pathToTransformer | \\[pathToTransformer, "
        "object]&gt;]\n\nText.\n\n"
        "### The camelCase heading: `setupFiles` and otherName \\[string]\n\n"
        "## onTestRunComplete [hook]\n",
        tmp_path,
    )
    found = {ref.text for ref in find_code_references(post.tokens, post.body_start_line, None)}
    assert "pathToTransformer" not in found
    # A bracket that follows no code span, and a name before a bracket, are still read.
    assert {"camelCase", "otherName", "onTestRunComplete"} <= found


def test_a_call_whose_arguments_hold_spaces_is_one_reference(tmp_path: Path) -> None:
    # markdown-it splits link text at its brackets, and a call's arguments hold spaces:
    # the call is read whole, in link text and in headings.
    post = make_post(
        "See [.compilaValidationSchema(schema, [httpStatus])](#compile) for more.\n\n"
        "## fastify.register(plugin, [options])\n\n"
        "Plain prose (with a parenthesis) and `code` stays as it was.\n",
        tmp_path,
    )
    found = {
        (ref.text, ref.source, ref.line)
        for ref in find_code_references(post.tokens, post.body_start_line, None)
    }
    line = post.body_start_line
    assert (".compilaValidationSchema(schema, [httpStatus])", "link-text", line) in found
    assert ("fastify.register(plugin, [options])", "heading", line + 2) in found
    assert not {text for text, _, _ in found} & {"parenthesis)", "(with"}


@given(st.text(alphabet="ab(), .[]_x\n", max_size=80))
def test_code_shaped_words_read_any_text(text: str) -> None:
    for word in code_shaped_words(text):
        assert word.strip() == word and word
