"""Gates 2, 14 and 7 through pytest: a real git repository, serial and under ``-n 2``,
and the errors a missing repository or ref must give."""

from __future__ import annotations

import json

import pytest

from tests.helpers import git

PACKAGE = {
    "name": "@acme/widgets",
    "exports": {
        ".": "./dist/index.js",
        "./client": "./dist/client.js",
        "./plugins/*": "./dist/p/*.js",
    },
}
REPO_FILES = {
    "package.json": json.dumps(PACKAGE),
    "CHANGELOG.md": "# Changelog\n\n## 2.3.0\n\n- Rendering is 4x faster.\n",
    "src/render.ts": "export function renderWidget() {}\nexport const FRAME_BUDGET_MS = 16;\n",
    "eslint-rules/index.cjs": (
        'module.exports = { rules: { "no-any": require("./no-any.cjs") } };\n'
    ),
    "eslint-rules/no-any.cjs": (
        "module.exports = { meta: { messages: { noAny: 'Avoid any here.' } } };\n"
    ),
}
FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\nanchor_paths:\n  - src/render.ts\n---\n"
GOOD = (
    "Widgets uses `renderWidget` from `src/render.ts` under rule `acme/no-any` (TypeScript).\n\n"
    "Rendering is 4x faster since `2.3.0`, within a 16 ms frame.\n\n"
    "```ts\nimport { renderWidget } from '@acme/widgets/client';\n"
    "import p from '@acme/widgets/plugins/x';\n```\n"
)
BAD_SYMBOL = "Widgets in TypeScript uses `renderGadget` and rule `acme/no-magic`.\n"
BAD_IMPORT = "Widgets in TypeScript.\n\n```js\nconst w = require('@acme/widgets-sdk');\n```\n"
BAD_NUMBER = "Widgets in TypeScript renders 3 times a second in 40 ms.\n"


@pytest.fixture
def widgets(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    for name, content in REPO_FILES.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    pytester.makepyprojecttoml(
        '[tool.postgates]\nlint_rule_prefix = "acme"\nlint_rules_dir = "eslint-rules"\n'
        'known_entities = ["Widgets"]\n'
    )
    posts = pytester.path / "_posts"
    posts.mkdir()
    for name, body in (
        ("good", GOOD),
        ("symbol", BAD_SYMBOL),
        ("imports", BAD_IMPORT),
        ("numbers", BAD_NUMBER),
    ):
        (posts / f"2026-01-01-{name}.md").write_text(FRONT + body)
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", "-A")
    git(pytester.path, "commit", "-qm", "widgets")
    return pytester


def _outcomes(result: pytest.RunResult) -> dict[str, str]:
    """node id -> outcome word, from -rA's short summary."""
    found = {}
    for line in result.outlines:
        for word in ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"):
            if line.startswith(word + " ") and "::" in line:
                found[line.split()[1]] = word
    return found


EXPECTED = {
    "_posts/2026-01-01-good.md::symbol_grounding": "PASSED",
    "_posts/2026-01-01-good.md::import_specifiers": "PASSED",
    "_posts/2026-01-01-good.md::numerical_claims": "PASSED",
    "_posts/2026-01-01-symbol.md::symbol_grounding": "FAILED",
    "_posts/2026-01-01-imports.md::import_specifiers": "FAILED",
    "_posts/2026-01-01-numbers.md::numerical_claims": "FAILED",
}


@pytest.mark.parametrize("workers", [None, "2"])
def test_grounding_gates_serial_and_under_xdist(
    widgets: pytest.Pytester, workers: str | None
) -> None:
    args = ["-rA", "--postgates-only=2,14,7", "--postgates-all"]
    result = widgets.runpytest_subprocess(*args, *(["-n", workers] if workers else []))
    outcomes = _outcomes(result)
    for node, outcome in EXPECTED.items():
        assert outcomes.get(node) == outcome, (node, result.stdout.str()[-3000:])
    # Each finding line, wherever its failure is reported (xdist reorders them).
    for expected in (
        "*_posts/2026-01-01-imports.md:11: BAD_SPECIFIER require '@acme/widgets-sdk'*",
        "*_posts/2026-01-01-numbers.md:8: UNCITED_NUMBER 3 x is not cited*",
        "*_posts/2026-01-01-numbers.md:8: UNCITED_NUMBER 40 ms is not cited*",
        "*_posts/2026-01-01-symbol.md:8: UNGROUNDED `renderGadget` (symbol)*",
        "*_posts/2026-01-01-symbol.md:8: UNGROUNDED `acme/no-magic` (lint-rule)*",
    ):
        result.stdout.fnmatch_lines([expected])


def test_a_missing_ref_is_an_error_for_every_gate_that_needs_the_repository(
    widgets: pytest.Pytester,
) -> None:
    result = widgets.runpytest(
        "-rA", "--postgates-only=2,14,7", "--postgates-all", "--postgates-ref", "nope"
    )
    outcomes = _outcomes(result)
    assert outcomes["_posts/2026-01-01-good.md::symbol_grounding"] == "ERROR"
    assert outcomes["_posts/2026-01-01-good.md::import_specifiers"] == "ERROR"
    assert outcomes["_posts/2026-01-01-good.md::numerical_claims"] == "ERROR"
    result.stdout.fnmatch_lines(
        [f"*ref 'nope' does not name a commit in the repository at {widgets.path}*"]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_posts_outside_any_repository_error_with_the_reason(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(pytester.path.parent))
    (pytester.path / "_posts").mkdir()
    (pytester.path / "_posts" / "a.md").write_text(FRONT + "Uses `renderWidget` in TypeScript.\n")
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.stdout.fnmatch_lines(["*ERROR: cannot find the repository*not inside a git repository*"])
    assert "INTERNALERROR" not in result.stdout.str()
