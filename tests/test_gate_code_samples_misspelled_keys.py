"""Gate 15 on the keys of an object literal a fence shows alone that no function of the
product is known to take (joi's "additional local context properties" listings, `{
knownMisses, unknownMisees }`): such a key is unjudged, unless it is a misspelling of a key
or member the product's code writes (one letter changed, typed in or left out, or one
letter's case, five letters or more) that the code itself never writes: then it is a
finding, as a misspelt member on a value the sample does not type is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "package.json": json.dumps({"name": "checker", "main": "lib/index.js"}),
    "lib/index.js": (
        "exports.includes = function (schema, value) {\n"
        "  const knownMisses = [];\n"
        "  let unknownMisses = 0;\n"
        "  return schema.createError('array.includes', value, { knownMisses, unknownMisses });\n"
        "};\n"
    ),
    "lib/prices.d.ts": 'export interface Prices { "gemini-2.5-flash": number }\n',
}


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("checker"), FILES)


def test_a_misspelt_key_of_an_object_shown_alone_is_a_finding(
    tmp_path: Path, checker: Path
) -> None:
    code = (
        "{\n"
        "    knownMisses: Array<string>, // Labels of all the missing values\n"
        "    unknownMisees: number // Count of missing values that didn't have a label\n"
        "}\n"
    )
    card = sample_card(code, "ts", tmp_path, checker)
    assert sample_violations(card) == [("option_key", "unknownMisees")]
    (finding,) = card.detail["violations"]
    assert "unknownMisses" in json.dumps(finding)


def test_a_key_alone_that_is_no_misspelling_stays_unjudged(tmp_path: Path, checker: Path) -> None:
    code = "{\n    unknownMisses: number,\n    labelCount: number\n}\n"
    card = sample_card(code, "ts", tmp_path, checker)
    assert sample_violations(card) == []
    assert any("shown alone" in r for r in unjudged_reasons(card))


def test_a_key_that_is_no_name_is_no_misspelling(tmp_path: Path, checker: Path) -> None:
    # A model's name one digit off one the product declares: another model, not a typo.
    code = 'const PRICES = {\n  "gemini-2.0-flash": { input: 1 },\n  "gpt-4o": { input: 2 },\n};\n'
    code += "module.exports = { PRICES };\n"
    card = sample_card(code, "js", tmp_path, checker)
    assert sample_violations(card) == []


def test_a_misspelt_key_of_a_literal_the_fence_leaves_unused_is_its_own(
    tmp_path: Path, checker: Path
) -> None:
    """`const myObj = { unknownMisees: 1 };` and nothing else: the variable is never used,
    passed or exported, so its keys reach no code of the product (code a lint rule reads):
    listed unjudged, not a misspelling of the product's key."""
    code = '/*checker includes: "error"*/\n\nconst myObj = { unknownMisees: 1 };\n'
    card = sample_card(code, "js", tmp_path, checker)
    assert sample_violations(card) == []
    assert any("too few" in reason for reason in unjudged_reasons(card)), unjudged_reasons(card)


def test_a_misspelt_key_of_a_literal_the_fence_exports_is_still_a_finding(
    tmp_path: Path, checker: Path
) -> None:
    code = "const config = { unknownMisees: 1 };\nmodule.exports = { config };\n"
    card = sample_card(code, "js", tmp_path, checker)
    assert sample_violations(card) == [("option_key", "unknownMisees")]
