"""Gate 15 reads a fence with no language as the language it parses as, of the product's
(issue 26: pytest_postgates/helpers/untagged_fences.py), and lists every one it reads in
no language with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers.untagged_fences import (
    BOTH,
    ONLY_DATA,
    read_untagged,
    untagged_kind,
)
from pytest_postgates.post import Fence
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context
from tests.test_gate_code_samples import TS_FILES
from tests.test_gate_code_samples_python import WIREKIT

PYTHON = frozenset({"python"})
JS = frozenset({"js"})
BOTH_LANGUAGES = frozenset({"python", "js"})


@pytest.fixture(scope="module")
def parsers() -> dict[str, Any]:
    found = load_parsers()
    assert not isinstance(found, str), found
    return found


def _kind(text: str, languages: frozenset[str], parsers: dict[str, Any]) -> str | None:
    return untagged_kind(text, languages, ["kit"], parsers)[0]


@pytest.mark.parametrize(
    ("text", "languages", "kind"),
    [
        ("client = Client(timeout=5)", PYTHON, "python"),
        ("app.register(plugin, { prefix: '/v1' })", JS, "code"),
        ("app.use(x)", JS, "code"),
        ("app.use(x)", PYTHON, "python"),
        ("client.timeout = 5", PYTHON, "python"),
        (">>> import kit\n>>> kit.run()\n42", PYTHON, "python"),
        (">>> import kit\n>>> kit.run()\n42", JS, None),
        # An object literal with bare keys is JavaScript's (gate 15's `bare` reading).
        ("{ colorize: false, translateTime: true }", JS, "code"),
        ("$ kit generate --temperature 0.2", PYTHON, "shell"),
        ("kit models list", JS, "shell"),
        ("KIT_DEBUG=1 kit models list", PYTHON, "shell"),
        ("kitchen sink", PYTHON, None),
        ("npx something --flag", PYTHON, "shell"),
        # A sample the TypeScript parser rejects (a `...` argument) is still read as today.
        ("const x = foo(...)\nx.bar()", JS, "code"),
        # Python the product is not written in: not read.
        ("client = Client(timeout=5)\nprint(f'{client!r}')", JS, None),
    ],
)
def test_the_language_is_the_parse_the_product_writes(
    text: str, languages: frozenset[str], kind: str | None, parsers: dict[str, Any]
) -> None:
    assert _kind(text, languages, parsers) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Server listening on http://localhost:3000\nDone in 2.3s.",  # console output
        '{\n  "name": "demo",\n  "scripts": {"build": "tsc"}\n}',  # JSON
        "[1, 2, 3]",
        "name: demo\nversion: 1.2\nitems:\n  - a\n  - b",  # YAML
        "graph TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]",  # mermaid-like
        "sequenceDiagram\n  Alice->>John: Hello John",
        "docs/index.md",  # a path: names and dots, no code
        "src/\n  index.ts\n  utils.ts",
        "├── src\n│   └── index.ts",
        "API_KEY=abc\nDEBUG=true",
        "hello",
        "42",
    ],
)
@pytest.mark.parametrize("languages", [PYTHON, JS, BOTH_LANGUAGES])
def test_output_data_diagrams_and_text_are_not_read_but_listed(
    text: str, languages: frozenset[str], parsers: dict[str, Any]
) -> None:
    kind, why = untagged_kind(text, languages, ["kit"], parsers)
    assert kind is None
    assert why.startswith("a fence with no language")


def test_json_is_data_and_a_product_in_both_languages_leaves_ambiguity_listed(
    parsers: dict[str, Any],
) -> None:
    assert untagged_kind('{"a": 1}', JS, [], parsers) == (None, ONLY_DATA)
    assert untagged_kind("client = Client(timeout=5)", BOTH_LANGUAGES, [], parsers) == (None, BOTH)
    # What it names decides: a use of the product's top Python package, a specifier of its
    # JavaScript package.
    uses = "client = kit.Client(timeout=5)"
    assert untagged_kind(uses, BOTH_LANGUAGES, [], parsers, ["kit"]) == ("python", "")
    assert untagged_kind(uses, BOTH_LANGUAGES, [], parsers, ["other"]) == (None, BOTH)
    spec = "const k = require('@acme/kit')\nk.run({ x: 1 })"
    assert untagged_kind(spec, BOTH_LANGUAGES, [], parsers, ["kit"], ["@acme/kit"]) == ("code", "")


def test_read_untagged_lists_each_fence_not_read_at_its_first_line(
    parsers: dict[str, Any],
) -> None:
    fences = [
        Fence(4, 7, "", "```", "\nDone in 2s.\n", True),
        Fence(9, 11, "", "```", "app.use(x)\n", True),
        Fence(12, 15, "", "```", "\n\n", True),
    ]
    read, unread = read_untagged(fences, JS, [], parsers)
    assert [(f.start_line, kind) for f, kind in read] == [(9, "code")]
    assert [(line, text) for _, line, text, _ in unread] == [(6, "Done in 2s.")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(max_size=200),
    languages=st.sampled_from([PYTHON, JS, BOTH_LANGUAGES, frozenset()]),
)
def test_the_decision_never_raises(text: str, languages: frozenset[str]) -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    kind, why = untagged_kind(text, languages, ["kit", ""], parsers, ["kit"], ["@acme/kit"])
    assert kind in ("shell", "python", "code") or (kind is None and (why or not text.strip()))


# ----------------------------------------------------------------------- gate 15 itself


@pytest.fixture(scope="module")
def wirekit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("wirekit"), dict(WIREKIT))


@pytest.fixture(scope="module")
def ts_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("ts"), TS_FILES)


def _check(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))


def _names(card: Scorecard) -> list[tuple[str, str]]:
    return [(v["kind"], v["name"]) for v in card.detail["violations"]]


def test_an_untagged_python_fence_of_a_python_product_is_judged(
    tmp_path: Path, wirekit: Path
) -> None:
    body = (
        "Intro.\n\n```python\nimport wirekit\n```\n\n"
        "```\nclient = wirekit.Client(timeot=5)\nclient.shutt()\n```\n"
    )
    card = _check(body, tmp_path, wirekit)
    assert _names(card) == [
        ("keyword_argument", "wirekit.Client(timeot=)"),
        ("member", "client.shutt"),
    ]


def test_an_untagged_javascript_fence_of_a_javascript_product_is_judged(
    tmp_path: Path, ts_repo: Path
) -> None:
    body = (
        'Intro.\n\n```ts\nimport { Renamed } from "@acme/kit";\n```\n\n'
        "```\nRenamed.fromConfigs()\n```\n"
    )
    card = _check(body, tmp_path, ts_repo)
    assert _names(card) == [("member", "Renamed.fromConfigs")]


def test_an_untagged_fence_read_in_no_language_is_listed(tmp_path: Path, ts_repo: Path) -> None:
    body = (
        'Intro.\n\n```ts\nimport { Renamed } from "@acme/kit";\n```\n\n'
        "```\nServer listening on port 3000\n```\n\n"
        "```\ngraph TD\n  A[Start] --> B{Is it?}\n```\n"
    )
    card = _check(body, tmp_path, ts_repo)
    listed = [(u["text"], u["reason"]) for u in card.detail["unjudged"]]
    assert ("Server listening on port 3000", untagged_kind("Server x", JS, [], {})[1]) in listed
    assert len([r for _, r in listed if r.startswith("a fence with no language")]) == 2, listed
