"""Gate 12's speed shortcuts (issue 15) give the answers of the work they skip.

- :class:`Document` takes its block tokens from the micromark model's parser where
  :func:`shares_inline_model_parse` says both parsers agree;
- the model leaves contents without a construct character unparsed and its "text" and
  "newline" inline rules unwrapped;
- MD049/MD050 are not evaluated where no ``_`` run can open emphasis;
- the heading and list walks are made once per document.

Each is checked against the slow path on generated Markdown built from the pieces that
decide these parsers' behaviour.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from pytest_postgates.tools.lint import micromark
from pytest_postgates.tools.lint.document import _PARSER, Document, shares_inline_model_parse
from pytest_postgates.tools.lint.emphasis import emphasis
from pytest_postgates.tools.lint.reconcile import native_violations
from pytest_postgates.tools.lint.rules.md049 import may_open_underscore, style_may_differ

_PIECES = [
    "a",
    "word",
    "snake_case",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "    ",
    "> ",
    "- ",
    "* ",
    "1. ",
    "# ",
    "---",
    "```",
    "~~~",
    "|",
    "| a | b |\n|---|---|\n",
    "[a]",
    "[a]: ",
    "]:",
    "[^1]",
    "[^1]: note",
    "(http://x.y)",
    "<",
    ">",
    "<b>",
    "</b>",
    "<!--",
    "-->",
    "`",
    "``",
    "\\",
    "&",
    "&amp;",
    "&#106;",
    "&colon;",
    "javascript:",
    "JavaScript:",
    "file:",
    "data:",
    "vbscript",
    ":",
    "*",
    "**",
    "_",
    "__",
    "~",
    "!",
    "$",
    "www.x.org",
    "a@b.co",
    "\0",
    "é",
    "2",
]

_TEXT = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


def _shape(tokens: list[Token]) -> list[tuple[Any, ...]]:
    return [
        (t.type, t.tag, t.nesting, t.map, t.level, t.content, t.markup, t.info, t.block, t.hidden)
        for t in tokens
    ]


@settings(max_examples=800, deadline=None)
@given(_TEXT)
def test_shared_block_parse_is_the_documents_own(text: str) -> None:
    if not shares_inline_model_parse(text):
        return
    own_env: dict[str, Any] = {}
    own = _PARSER.parse(text, own_env)
    shared, env = micromark.block_parse(text)
    assert _shape(shared) == _shape(own)
    assert env.get("references", {}) == own_env.get("references", {})


@pytest.mark.parametrize(
    "text",
    [
        "[a]: javascript:alert(1)\n\n[a]",
        "[a]: JavaScript&colon;x\n",
        "[a]: javascript\\:x\n",
        "> [a]:\n> data:x\n",
        "[a]: <file:x>\n",
        "[a]: &#106;avascript:x\n",
        "[^1]: note\n",
        "a\0b\n",
    ],
)
def test_texts_the_parsers_may_read_apart_are_not_shared(text: str) -> None:
    assert not shares_inline_model_parse(text)


def _slow_model(document: Document, monkeypatch: pytest.MonkeyPatch) -> micromark.Model:
    """The model as it was built before the shortcuts: its own block parse, every inline
    rule recorded, every content parsed."""
    with monkeypatch.context() as patched:
        patched.setattr(micromark, "_UNRECORDED", frozenset())
        patched.setattr(micromark, "_MAIN", micromark._parser(html_flow=True))
        patched.setattr(micromark, "_REPARSE", micromark._parser(html_flow=False))
        patched.setattr(micromark, "_CONSTRUCT_START", re.compile(""))
        model = micromark.Model()
        lines = list(document.raw_lines)
        micromark._contents("\n".join(lines), 0, False, model, lines)
        micromark.undefined_references(model)
    return model


def _comparable(model: micromark.Model) -> dict[str, Any]:
    return {
        f.name: getattr(model, f.name)
        for f in fields(model)
        if f.name not in ("shim_pending", "children")
    }


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_fast_model_is_the_slow_model(text: str) -> None:
    lines = text.split("\n")
    with pytest.MonkeyPatch.context() as monkeypatch:
        slow = _slow_model(Document(lines), monkeypatch)
    document = Document(lines)
    _ = document.tokens  # the rules' parse first, as MD001 makes it in a real run
    fast = micromark.model_of(document)
    micromark.undefined_references(fast)
    assert _comparable(fast) == _comparable(slow)


def _underscore_sequences(text: str) -> Iterator[str]:
    document = Document(text.split("\n"))
    for strong in (False, True):
        for sequence in emphasis(document, strong):
            if sequence.markup.startswith("_"):
                yield sequence.markup


@settings(max_examples=800, deadline=None)
@given(_TEXT)
def test_no_underscore_emphasis_where_no_run_may_open(text: str) -> None:
    if may_open_underscore(text):
        return
    assert list(_underscore_sequences(text)) == []


def test_underscore_runs_inside_words_cannot_open() -> None:
    assert not may_open_underscore("snake_case and x__dunder__x a__b")
    assert may_open_underscore("_x_")
    assert may_open_underscore("a `_x` b")
    assert may_open_underscore("é _x_")
    assert not style_may_differ(["**bold** and snake_case"], {"style": "consistent"})
    assert style_may_differ(["**bold** and _em_"], {"style": "consistent"})
    # an unknown style keeps the old test (markdownlint reports every emphasis then)
    assert style_may_differ(["*a* b_c"], {"style": "other"})


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_native_rules_answer_as_without_the_shortcuts(text: str) -> None:
    """Every native rule at its defaults and the emphasis styles: the findings with the
    shortcuts equal the findings with each one undone."""
    configs: list[dict[str, Any]] = [
        {"default": True},
        {"default": True, "MD049": {"style": "asterisk"}, "MD050": {"style": "asterisk"}},
    ]
    fast = [[v.to_dict() for v in native_violations(text, config)] for config in configs]
    with pytest.MonkeyPatch.context() as monkeypatch:
        import pytest_postgates.tools.lint.document as document_module
        import pytest_postgates.tools.lint.rules.md037 as md037
        import pytest_postgates.tools.lint.rules.md049 as md049

        monkeypatch.setattr(document_module, "shares_inline_model_parse", lambda _t: False)
        monkeypatch.setattr(micromark, "shares_inline_model_parse", lambda _t: False)
        monkeypatch.setattr(micromark, "_CONSTRUCT_START", re.compile(""))
        monkeypatch.setattr(md049, "may_open_underscore", lambda t: "_" in t)
        monkeypatch.setattr(md037, "inline_children", lambda _document, _token: None)
        slow = [[v.to_dict() for v in native_violations(text, config)] for config in configs]
    assert fast == slow


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.sampled_from(["-", "*", "_", " ", "\t", "\u00a0", "\x1c", "a", "> ", "- "]), max_size=12
    )
    .map("".join)
    .flatmap(
        lambda first: st.lists(
            st.sampled_from([first, "---", "* * *", "a -", "- a", "", " _ _ _\t", "x"]), max_size=8
        )
    )
)
def test_break_texts_are_those_of_every_line(lines: list[str]) -> None:
    from pytest_postgates.tools.lint.candidates import _break_texts
    from pytest_postgates.tools.lint.rules.md035 import break_text, maybe_break

    every_line = {text for line in lines if maybe_break(text := break_text(line))}
    assert _break_texts(lines) == every_line


def test_md051_without_fragment_links_reads_no_heading() -> None:
    from pytest_postgates.tools.lint.rules import md051

    document = Document(["# Title", "", "[a](http://x.y) and [b](#title) and [c](#nope)"])
    assert list(md051.check(document, {})) == [(2, "Link fragments should be valid")]
    plain = Document(["# Title", "", "[a](http://x.y) and [b](other.md)"])
    assert list(md051.check(plain, {})) == []


@settings(max_examples=600, deadline=None)
@given(_TEXT)
def test_md037_reads_the_models_inline_parse_as_its_own(text: str) -> None:
    from pytest_postgates.tools.lint.rules.md037 import _EMPHASIS_PARSER

    document = Document(text.split("\n"))
    micromark.model_of(document)
    for token in document.tokens:
        if token.type != "inline":
            continue
        shared = micromark.inline_children(document, token)
        if shared is None:
            continue
        own = _EMPHASIS_PARSER.parseInline(token.content, document.env)[0].children or []
        assert _shape(shared) == _shape(own)
