"""Gate 15 on a package imported from a CDN that serves npm packages by name (h3's docs:
``import { createApp, toWebhandler } from "https://esm.sh/h3"``): the URL names the
package's entry, whose exports are judged as the bare specifier's are; a URL that goes on
to a file of the package is not taken for its entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.helpers.sample_checks import cdn_package
from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

H3 = {
    "package.json": json.dumps({"name": "h3", "main": "./src/index.ts"}),
    "src/index.ts": (
        "export function createApp(): object { return {}; }\n"
        "export function toWebHandler(app: object): object { return app; }\n"
    ),
}


@pytest.mark.parametrize(
    ("spec", "package"),
    [
        ("https://esm.sh/h3", "h3"),
        ("https://esm.sh/h3@1.8.2?target=es2022", "h3"),
        ("https://cdn.jsdelivr.net/npm/h3@1/", "h3"),
        ("https://unpkg.com/@scope/pkg@^2", "@scope/pkg"),
        ("npm:@hono/node-server@1", "@hono/node-server"),
        ("https://esm.sh/h3@1/es2022/h3.mjs", "https://esm.sh/h3@1/es2022/h3.mjs"),
        ("https://example.com/h3", "https://example.com/h3"),
        ("h3/utils", "h3/utils"),
    ],
)
def test_the_package_a_cdn_url_names(spec: str, package: str) -> None:
    assert cdn_package(spec) == package


def test_names_imported_from_a_cdn_url_of_the_product_are_judged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", H3)
    code = (
        'import { createApp, toWebhandler } from "https://esm.sh/h3"\n'
        "const app = createApp()\n"
        'import { toWebHandler } from "https://cdn.jsdelivr.net/npm/h3@1"\n'
        "toWebHandler(app)\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert sample_violations(card) == [("named_export", "toWebhandler")]
    assert not unjudged_reasons(card)
