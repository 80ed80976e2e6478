"""Gate 15 on a TypeScript module that has ES exports and also assigns ``module.exports``
(got's ``export default got; module.exports = got; export * from './types'``): what
``require`` gives is the assigned value, which the tables cannot read, but TypeScript's
declarations of the module hold its ES exports only. A TypeScript fence's import is judged
against those; a JavaScript fence's stays unjudged (the value at run time)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "package.json": json.dumps({"name": "fetchit", "exports": {".": "./src/index.ts"}}),
    "src/create.ts": "export default function create(): any { return () => 1; }\n",
    "src/types.ts": "export interface RequestFunction { (url: string): void }\n",
    "src/index.ts": (
        'import create from "./create";\n'
        "const fetchit = create();\n"
        "export default fetchit;\n"
        "module.exports = fetchit;\n"
        "module.exports.default = fetchit;\n"
        'export * from "./types";\n'
    ),
}


@pytest.fixture(scope="module")
def shim_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("fetchit"), FILES)


def test_a_typescript_import_is_judged_against_the_es_exports(
    tmp_path: Path, shim_repo: Path
) -> None:
    code = 'import {RequestMethod, RequestFunction} from "fetchit";\n'
    card = sample_card(code, "ts", tmp_path, shim_repo)
    assert sample_violations(card) == [("named_export", "RequestMethod")]
    assert card.detail["checked_by_kind"]["export"] == 2


def test_a_javascript_import_reads_the_value_require_gives(tmp_path: Path, shim_repo: Path) -> None:
    code = 'import {RequestMethod} from "fetchit";\nconst f = require("fetchit");\nf.stream();\n'
    card = sample_card(code, "js", tmp_path, shim_repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("RequestMethod: src/index.ts is `export =`" in r for r in reasons), reasons
    # What require() gives is the constant `module.exports` is, typed by its declaration
    # as the default export is (here a factory's `any`: unjudged, with that reason).
    assert any(r.startswith("f.stream: fetchit is made by create()") for r in reasons), reasons
