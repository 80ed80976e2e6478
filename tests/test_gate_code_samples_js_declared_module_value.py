"""Gate 15 on a chain that starts at a JavaScript module whose value its sibling declaration
file types (joi: ``lib/index.js`` makes ``module.exports`` with a function call the tables
cannot read; ``lib/index.d.ts`` says ``declare const Joi: Joi.Root; export = Joi;``). As
TypeScript reads the module through that file, ``Joi.string()`` returns what ``Root``
declares ``string()`` returns, so ``Joi.string().email({...})``'s keys and the members of
the chain are judged. A module no declaration file types leaves the chain listed
unjudged with the reason."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

FILES = {
    "package.json": json.dumps({"name": "joy", "main": "lib/index.js"}),
    "lib/index.js": (
        "'use strict';\n"
        "const internals = {};\n"
        "internals.root = function () {\n"
        "  const root = {};\n"
        "  root.string = function () { return 1; };\n"
        "  return root;\n"
        "};\n"
        "module.exports = internals.root();\n"
    ),
    "lib/index.d.ts": (
        "declare namespace Joi {\n"
        "  interface EmailOptions { minDomainSegments?: number; tlds?: boolean }\n"
        "  interface AnySchema { required(): this; strip(): this }\n"
        "  interface StringSchema extends AnySchema {\n"
        "    email(options?: EmailOptions): this;\n"
        "    min(limit: number): this;\n"
        "  }\n"
        "  interface Root { string(): StringSchema; any(): AnySchema }\n"
        "}\n"
        "declare const Joi: Joi.Root;\n"
        "export = Joi;\n"
    ),
}

SAMPLE = (
    "const Joi = require('joy');\n"
    "const email = Joi.string().email({ minDomainAtoms: 2 });\n"
    "const name = Joi.string().min(1).requird();\n"
)


def test_a_chain_from_a_module_its_declaration_file_types_is_judged(tmp_path: Path) -> None:
    card = sample_card(SAMPLE, "js", tmp_path, make_repo(tmp_path / "repo", FILES))
    assert _violations(card) == [
        ("member", "Joi.string().min(1).requird"),
        ("option_key", "minDomainAtoms"),
    ], _unjudged(card)
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "`minDomainSegments`" in reasons["minDomainAtoms"], reasons


def test_without_a_declaration_file_the_chain_stays_unjudged(tmp_path: Path) -> None:
    files = {k: v for k, v in FILES.items() if not k.endswith(".d.ts")}
    card = sample_card(SAMPLE, "js", tmp_path, make_repo(tmp_path / "repo", files))
    assert _violations(card) == []
    assert any("minDomainAtoms" in r or "Joi.string()" in r for r in _unjudged(card))
