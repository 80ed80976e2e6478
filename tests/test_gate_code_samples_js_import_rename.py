"""Gate 15 on a named import written in destructuring's rename syntax
(``import { create: actualCreate } from 'zustand'``, zustand's docs): the name imported
from the product is the one before the colon, and the one after it is the sample's own
local; the product's name is judged (a name the package does not export stays a finding),
never the local, and the local holds what the product's name gives."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations

STORE = {
    "package.json": json.dumps({"name": "store", "main": "./src/index.ts"}),
    "src/index.ts": (
        "export class Store { getState(): object { return {}; } }\n"
        "export function create(): Store { return new Store(); }\n"
    ),
}


def _card(tmp_path: Path, code: str) -> object:
    repo = make_repo(tmp_path / "repo", STORE)
    return sample_card(code, "ts", tmp_path, repo)


def test_the_name_before_the_colon_is_the_products(tmp_path: Path) -> None:
    code = (
        "import { create: actualCreate } from 'store'\n"
        "const store = actualCreate()\n"
        "store.getState()\n"
        "store.getStat()\n"
    )
    assert _violations(_card(tmp_path, code)) == [("member", "store.getStat")]


def test_a_missing_name_before_the_colon_is_a_finding(tmp_path: Path) -> None:
    code = "import { make: actualCreate } from 'store'\nactualCreate()\n"
    assert _violations(_card(tmp_path, code)) == [("named_export", "make")]
