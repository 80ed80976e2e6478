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


# ajv's lib/ajv.ts: a class assigned to both `module.exports` and `exports` beside ES
# exports, so `require("ajv")` is the class (with its statics, its base's included) and the
# module's ES exports, `default` among them.
CLASS_SHIM = {
    "package.json": json.dumps({"name": "ajvish", "main": "./lib/ajv.ts"}),
    "lib/core.ts": (
        "export default class AjvCore {\n"
        "  static ValidationError = Error\n"
        "  compile(schema: object): unknown { return schema }\n"
        "}\n"
    ),
    "lib/ajv.ts": (
        'import AjvCore from "./core"\n'
        "class Ajv extends AjvCore {\n"
        "  static MissingRefError = Error\n"
        "}\n"
        "module.exports = exports = Ajv\n"
        'Object.defineProperty(exports, "__esModule", {value: true})\n'
        "export default Ajv\n"
        "export {AjvCore}\n"
    ),
}


def test_a_class_assigned_to_module_exports_and_exports_is_what_require_gives(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "ajvish", CLASS_SHIM)
    code = (
        'const Ajv = require("ajvish").defalt\n'
        'const Default = require("ajvish").default\n'
        'const {ValidationError, MissingRefError, AjvCore} = require("ajvish")\n'
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert sample_violations(card) == [("named_export", "defalt")]
    assert not unjudged_reasons(card)
