"""Gate 2's ``other-repository`` rule (helpers/other_repositories.py): a sentence that
places its names in a repository that is not the product's."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.other_repositories import other_repository
from tests.helpers import make_post, make_repo, repo_context, token_outcome

PRODUCT = ("eslint",)


@pytest.mark.parametrize(
    ("sentence", "slug"),
    [
        (
            "In the `eslint/eslint.org` repository, set `x` in `tools/release-data.js`.",
            "eslint/eslint.org",
        ),
        ("Open a PR in the eslint/website repo to edit `src/a.md`.", "eslint/website"),
        # "that repo", once the sentence has named one (a file path is no repository).
        (
            "The harness (`acme/harness` `docs/index.md`) says so (see `a.md` in that repo).",
            "acme/harness",
        ),
        # The product's own repository places nothing elsewhere.
        ("In the `eslint/eslint` repository, edit `tools/release.js`.", None),
        ("Edit `docs/index.md` in that repo.", None),
        ("See `src/app.py` in the repository.", None),
    ],
)
def test_the_repository_a_sentence_names(sentence: str, slug: str | None) -> None:
    assert other_repository(sentence, PRODUCT) == slug


def test_a_path_placed_in_another_repository_is_unjudged_even_in_the_products_tree(
    tmp_path: Path,
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "eslint", "main": "lib/api.js"}',
            "lib/api.js": "module.exports = {};\n",
            "tools/release.js": "module.exports = {};\n",
        },
    )
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    body = "In the `eslint/eslint.org` repository, edit `tools/release-data.js`.\n"
    entry = token_outcome(
        gate.GATE.evaluate(make_post(body, tmp_path), ctx), "tools/release-data.js"
    )
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "other-repository")
    # The same path in the product's own repository is a claim about it.
    body = "In the `eslint/eslint` repository, edit `tools/release-data.js`.\n"
    entry = token_outcome(
        gate.GATE.evaluate(make_post(body, tmp_path), ctx), "tools/release-data.js"
    )
    assert entry["outcome"] == "ungrounded"
