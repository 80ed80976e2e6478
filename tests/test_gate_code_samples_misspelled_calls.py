"""Gate 15 on a bare call of a name the page never binds and the product's code never
writes, one letter off a function the product exports (nitro's docs calling
``definedCachedFunction``, the auto-import ``defineCachedFunction`` misspelt): a finding,
whether an entry point exports the function or only the product file declaring it (a
framework's auto-import names it without an entry point's import). A name the page binds,
a plural, or one no product function is near stays unjudged as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations

FILES = {
    "package.json": json.dumps({"name": "nitrous", "type": "module", "main": "src/index.js"}),
    "src/index.js": "export function defineNitrousConfig(config) { return config }\n",
    "src/runtime/cache.js": (
        "export function defineCachedFunction(fn, opts) { return fn }\n"
        "export const cachedFunction = defineCachedFunction;\n"
    ),
    "src/imports.js": "export const presets = ['defineCachedFunction'];\n",
}


@pytest.fixture(scope="module")
def nitrous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("nitrous"), FILES)


def test_a_misspelt_bare_call_of_an_exported_function_is_a_finding(
    tmp_path: Path, nitrous: Path
) -> None:
    code = (
        "export const cachedStars = definedCachedFunction(async (repo: string) => {\n"
        "  return repo.length\n"
        "}, { maxAge: 60 })\n"
    )
    card = sample_card(code, "ts", tmp_path, nitrous)
    assert sample_violations(card) == [("named_export", "definedCachedFunction")]
    (finding,) = card.detail["violations"]
    assert "defineCachedFunction" in json.dumps(finding)


def test_bound_plural_and_far_names_are_no_finding(tmp_path: Path, nitrous: Path) -> None:
    code = (
        "function definedCachedFunction(fn) { return fn }\n"
        "definedCachedFunction(() => 1)\n"
        "defineCachedFunctions(() => 2)\n"
        "myOwnHelperFunction(() => 3)\n"
    )
    card = sample_card(code, "ts", tmp_path, nitrous)
    assert sample_violations(card) == []
