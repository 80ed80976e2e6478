"""Fuzzing: generated and mutated posts through the parser and every deterministic gate.

Whatever the input (random front matter, nested and unclosed fences, backtick runs of any
length, CRLF, unicode, huge lines), no exception escapes a gate and every gate ends with a
verdict: PASS, FAIL, SKIP or ERROR.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.config import Settings
from pytest_postgates.gates import GATES, GateContext
from pytest_postgates.runner import PostRun
from tests.helpers import make_repo

LLM_KINDS = {"llm"}
DETERMINISTIC = [gate for gate in GATES if gate.kind not in LLM_KINDS and gate.id not in (9, 10)]

FRONT_LINES = st.sampled_from(
    [
        "layout: post",
        "title: 'A: title'",
        "title: [unclosed",
        "date: 2026-01-01",
        "date: '2026-13-45 99:00:00 +0530'",
        "tags: [a, b]",
        "tags: a",
        "categories:\n  - x\n  - 1",
        "anchor_paths: [src/app.py, ../../etc/passwd]",
        "postgates: {expect: {narrative_opening: FAIL}}",
        "postgates: [1, 2]",
        "tone: technical",
        "- list item",
        "&anchor a: *anchor",
        "!!python/object:os.system x",
        "key: \u00e9\u4e2d\U0001f600",
    ]
)
BODY_CHUNKS = st.sampled_from(
    [
        "We use pytest and Python.",
        "`span`",
        "``double ` tick``",
        "`````",
        "```",
        "````",
        "~~~",
        "```python",
        '```mermaid\nflowchart TD\nA["f()"] --> B["g()"]\n```',
        "```mermaid\nflowchart TD\nA -->\n```",
        "```js\nimport x from '@neurolink/sdk';\n```",
        "```bash\nnpm i pytest-postgates@latest\n```",
        "It takes 200ms and 50% more, 40_000 tokens.",
        "[link](https://example.invalid/x) [rel](/posts/nope/) [bad](http://[::1)",
        "<!-- postgates-disable-next-line call_graph_claims -->",
        "<!-- postgates-disable nope -->",
        "The runner calls the gate; it orchestrates.",
        "a paradigm shift",
        "**Related posts:**",
        "| a | `b` |\n|---|---|",
        "> quoted `x`",
        "- item\n  - nested `y`",
        "\n",
        "\n\n",
        "\r\n",
        "\u00e9\u4e2d\U0001f600",
        "x" * 5000,
        "TODO FIXME lorem ipsum",
        "<script>alert(1)</script>",
        "\t",
    ]
)


@st.composite
def posts(draw: st.DrawFn) -> bytes:
    front = draw(st.lists(FRONT_LINES, max_size=6))
    body = draw(st.lists(BODY_CHUNKS, max_size=25))
    text = ("---\n" + "\n".join(front) + "\n---\n" if draw(st.booleans()) else "") + " ".join(body)
    data = text.encode("utf-8")
    if draw(st.booleans()):  # a mutation: flip, insert or cut bytes
        position = draw(st.integers(0, max(0, len(data) - 1)))
        choice = draw(st.sampled_from(["flip", "insert", "cut", "crlf", "bom"]))
        if choice == "flip" and data:
            data = data[:position] + bytes([data[position] ^ 0xFF]) + data[position + 1 :]
        elif choice == "insert":
            data = data[:position] + draw(st.binary(max_size=8)) + data[position:]
        elif choice == "cut":
            data = data[:position]
        elif choice == "crlf":
            data = data.replace(b"\n", b"\r\n")
        else:
            data = b"\xef\xbb\xbf" + data
    return data


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("fuzzrepo"),
        {
            "package.json": '{"name": "@juspay/neurolink", "exports": {".": "./i.js"}}',
            "src/app.py": "def render():\n    pass\n",
            "CHANGELOG.md": "## 1.0.0\n",
        },
    )
    (root / "_posts").mkdir()
    return root


@pytest.fixture(scope="module")
def context(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> GateContext:
    return GateContext.create(
        Settings(repo=repo, offline=True, run_all=True), tmp_path_factory.mktemp("fuzzcache")
    )


# Each example runs every deterministic gate: 2,000 of them took 43-59 s of a loaded CI run.
# A default run makes 400 (a fresh random draw each CI run); the thorough profile
# (`pytest --hypothesis-profile=thorough`, tests/conftest.py) makes 2,000.
FUZZ_EXAMPLES = max(400, settings.default.max_examples)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=posts())
def test_every_deterministic_gate_ends_with_a_verdict(
    repo: Path, context: GateContext, data: bytes
) -> None:
    path = repo / "_posts" / "2026-01-01-fuzz.md"
    path.write_bytes(data)
    run = PostRun(path, "_posts/2026-01-01-fuzz.md", path.stem, context, DETERMINISTIC)
    most_lines = data.count(b"\n") + data.count(b"\r") + 2
    for spec in DETERMINISTIC:
        card = run.evaluate(spec)
        assert card.verdict in ("PASS", "FAIL", "SKIP", "ERROR")
        assert not card.trace, card.trace  # a gate crash is a bug, even when contained
        for finding in card.findings:
            assert finding.line is None or 1 <= finding.line <= most_lines


# Issue 16: the shapes that made regexes backtrack for minutes, long enough to show it
# (each one takes the replaced regex minutes to hours; the scanners tens of milliseconds).
GROWTH = 40_000
ADVERSARIAL_CHUNKS = st.sampled_from(
    [
        "`" * GROWTH,  # backtick runs: code-span patterns
        "".join("`" * width + "a" for width in range(1, 280)),  # runs of every width
        "<!-- postgates-disable " * (GROWTH // 23),  # directives never closed
        "<!--" * (GROWTH // 4),
        "http://" * (GROWTH // 7),  # URL scheme runs
        "a." * (GROWTH // 2),
        "a](" * (GROWTH // 3),
        "[" * GROWTH,  # links never closed
        "{%" * (GROWTH // 2),  # Liquid never closed
        "." * GROWTH + "x",  # sentence ends
        "routes the " * (GROWTH // 11),  # alternation bait for gate 13's ``.*``
        "internally " * (GROWTH // 11),
        "[insert " * (GROWTH // 8),
        "*a " * (GROWTH // 3),
        "```js\n" + "import a " * (GROWTH // 9) + "\n```",
        "```bash\nnpm i x" + " " * GROWTH + "y\n```",
        "```mermaid\nflowchart TD\n" + "(" * GROWTH + "\n```",
    ]
)


@st.composite
def hostile_posts(draw: st.DrawFn) -> bytes:
    chunks = draw(st.lists(st.one_of(ADVERSARIAL_CHUNKS, BODY_CHUNKS), min_size=1, max_size=4))
    return ("---\ntitle: t\ndate: 2026-01-01\n---\nWe use pytest.\n\n" + " ".join(chunks)).encode()


# markdownlint (gate 12) is left out: the lint layer's own patterns
# (pytest_postgates/tools/lint/) are being made linear with gate 12's work, and lint's batch
# has its own isolation (tests/hostile/test_budgets.py).
LINEAR_GATES = [spec for spec in DETERMINISTIC if spec.id != 12]


@pytest.fixture(scope="module")
def hostile_context(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> GateContext:
    # A budget well above what these inputs take now (well under a second per gate) and far
    # below what the regexes took: an overrun is an ERROR card, so this fails, not hangs.
    # One cache for every example: a diagram mermaid gives up on is waited for once.
    return GateContext.create(
        Settings(repo=repo, offline=True, run_all=True, gate_timeout=30.0),
        tmp_path_factory.mktemp("hostilecache"),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=hostile_posts())
def test_adversarial_lines_never_exhaust_a_gate_budget(
    repo: Path, hostile_context: GateContext, data: bytes
) -> None:
    path = repo / "_posts" / "2026-01-01-hostile.md"
    path.write_bytes(data)
    run = PostRun(path, "_posts/2026-01-01-hostile.md", path.stem, hostile_context, LINEAR_GATES)
    for spec in LINEAR_GATES:
        card = run.evaluate(spec)
        assert "budget_seconds" not in card.detail, (spec.name, card.summary)
        assert card.verdict in ("PASS", "FAIL", "SKIP", "ERROR")
        assert not card.trace, card.trace
