"""Gate 15 parses each fence's text once (helpers/fence_parsers.py, issue 26): the recovery
of a fragment, the readers, the page's accounting and the listing of what does not parse
ask one parser that keeps its trees by the text, and Python fences alike."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers import fence_parsers
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "package.json": json.dumps({"name": "kitlib", "main": "index.js"}),
    "index.js": (
        "class Agent {\n  constructor (opts) { this.opts = opts }\n  close () {}\n}\n"
        "module.exports.Agent = Agent\n"
    ),
    "kitlib/__init__.py": "def connect(url):\n    return url\n",
    "pyproject.toml": '[project]\nname = "kitlib"\n',
}
# A fragment (a placeholder, recovered), a whole sample with a comment, a sample the page
# repeats, and a Python fence: every text read by the recovery, the reader and the
# accounting.
BODY = (
    "```js\nconst { Agent } = require('kitlib')\nconst a = new Agent({ x: 1, ... })\n"
    "a.close()\n```\n\n"
    "```js\nconst { Agent } = require('kitlib')\n// a.close() later\nnew Agent().close()\n```\n\n"
    "```js\nconst { Agent } = require('kitlib')\nnew Agent().close()\n```\n\n"
    "```js\nconst { Agent } = require('kitlib')\nnew Agent().close()\n```\n\n"
    "```python\nimport kitlib\nkitlib.connect('x')\n```\n"
)


class _Counting:
    """A tree-sitter parser that counts the texts it parses."""

    def __init__(self, parser: Any, seen: Counter[bytes]) -> None:
        self.parser, self.seen = parser, seen

    @property
    def language(self) -> Any:
        return self.parser.language

    def parse(self, source: bytes) -> Any:
        self.seen[source] += 1
        return self.parser.parse(source)


@pytest.fixture(scope="module")
def kit_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("kit"), FILES)


def _card(tmp_path: Path, repo: Path) -> Scorecard:
    post = make_post(f"Intro.\n\n{BODY}\n", tmp_path, "2026-06-03-a.md")
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def test_each_fence_text_is_parsed_once(
    tmp_path: Path, kit_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = load_parsers()
    assert not isinstance(loaded, str), loaded
    seen: Counter[bytes] = Counter()
    counting = {name: _Counting(parser, seen) for name, parser in loaded.items()}
    monkeypatch.setattr(gate, "load_parsers", lambda: counting)
    card = _card(tmp_path, kit_repo)
    assert card.detail["checked"], card.detail
    fence = b"const { Agent } = require('kitlib')\nnew Agent().close()\n"
    assert seen[fence] == 1, seen  # the page shows it twice, the gate parses it once
    assert seen and max(seen.values()) == 1, [text for text, n in seen.items() if n > 1]


def test_a_python_fence_is_parsed_once(
    tmp_path: Path, kit_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: Counter[str] = Counter()
    parse = ast.parse

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str):
            seen[source] += 1
        return parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    monkeypatch.setattr(fence_parsers, "_MODULES", type(fence_parsers._MODULES)())
    _card(tmp_path, kit_repo)
    assert seen["import kitlib\nkitlib.connect('x')"] == 1, seen


def test_a_kept_tree_is_given_again_and_the_oldest_dropped() -> None:
    loaded = load_parsers()
    assert not isinstance(loaded, str), loaded
    parser = fence_parsers.CachedParser(loaded["typescript"], size=2)
    first = parser.parse(b"a()")
    assert parser.parse(b"a()") is first and parser.parsed == 1
    parser.parse(b"b()")
    parser.parse(b"c()")  # a() is the least recently used: dropped
    assert parser.parse(b"a()") is not first and parser.parsed == 4
    assert str(parser.parse(b"a()").root_node) == str(first.root_node)


def test_a_python_error_is_raised_again() -> None:
    for _ in range(2):
        with pytest.raises(SyntaxError) as raised:
            fence_parsers.parse_python("def f(:\n")
        assert raised.value.lineno == 1
    assert fence_parsers.parse_python("x = 1") is fence_parsers.parse_python("x = 1")


def test_a_folders_fences_keep_their_trees_while_its_pages_are_read_again() -> None:
    """A docs folder's readings read its pages' fences again for each name (js_docs_names):
    the trees of a folder of a few hundred fences stay kept between the readings (1,000
    texts parsed once each; with 256 kept, every one was parsed twice)."""
    loaded = load_parsers()
    assert not isinstance(loaded, str), loaded
    parser = fence_parsers.CachedParser(loaded["typescript"])
    texts = [f"const v{n} = f({n});".encode() for n in range(1000)]
    for _ in range(2):
        for text in texts:
            parser.parse(text)
    assert parser.parsed == len(texts)


def test_a_fences_comments_are_read_once_and_placed_at_each_fence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's reader and each reading of its folder read a fence's comments: read once
    per text, the names they quote given at the lines of the fence asked about, the code
    they comment out uncommented alike."""
    from pytest_postgates.helpers import js_comments

    loaded = load_parsers()
    assert not isinstance(loaded, str), loaded
    parser = fence_parsers.CachedParser(loaded["typescript"])
    read: list[str] = []
    reading = js_comments._read_comments

    def counted(content: str, first_line: int, parser: Any, quoted: Any) -> str:
        read.append(content)
        return reading(content, first_line, parser, quoted)

    monkeypatch.setattr(js_comments, "_read_comments", counted)
    code = "const a = lib.open();\n// a.close();\n// see `lib.flush` too\na.run();\n"
    at_three: list[tuple[int, str, str]] = []
    at_forty: list[tuple[int, str, str]] = []
    first = js_comments.read_comments(code, 3, parser, at_three)
    again = js_comments.read_comments(code, 40, parser, at_forty)
    assert read == [code]
    assert first == again and "  a.close();" in first  # uncommented: code
    assert at_three == [(5, "// see `lib.flush` too", "lib.flush")]
    assert at_forty == [(42, "// see `lib.flush` too", "lib.flush")]
    # The reading is the one a parser that keeps nothing gives.
    plain: list[tuple[int, str, str]] = []
    assert js_comments.read_comments(code, 40, loaded["typescript"], plain) == first
    assert plain == at_forty
