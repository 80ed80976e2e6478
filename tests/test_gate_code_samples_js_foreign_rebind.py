"""Gate 15 on a name a later fence of the page imports from another package: the import
rebinds it there, so what an earlier fence bound it to (the product's ``defineConfig``) no
longer types its uses (``import { defineConfig } from '@adonisjs/core/app'``: its options
are that package's, never judged against the product's)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.gates import code_samples
from tests.helpers import make_post, make_repo, repo_context
from tests.helpers import sample_violations as _violations

FILES = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/index.ts": (
        "export interface Options {\n  dbName: string;\n  debug?: boolean;\n}\n"
        "export function defineConfig(options: Options): Options {\n  return options;\n}\n"
    ),
}
OURS = "import { defineConfig } from 'orm';\n\nexport default defineConfig({ dbName: 'app' });\n"


def _card(tmp_path: Path, second: str) -> object:
    repo = make_repo(tmp_path / "repo", FILES)
    body = f"Intro.\n\n```ts\n{OURS}```\n\nThen:\n\n```ts\n{second}```\n"
    post = make_post(body, tmp_path)
    return code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def test_a_name_a_later_fence_imports_from_another_package_is_that_packages(
    tmp_path: Path,
) -> None:
    second = (
        "import { defineConfig } from '@other/app';\n\n"
        "export default defineConfig({ preloads: [] });\n"
    )
    assert _violations(_card(tmp_path, second)) == []


def test_a_name_the_later_fence_uses_as_bound_before_is_still_judged(tmp_path: Path) -> None:
    second = "export default defineConfig({ preloads: [] });\n"
    assert _violations(_card(tmp_path, second)) == [("option_key", "preloads")]
