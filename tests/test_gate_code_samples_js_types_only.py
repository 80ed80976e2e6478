"""Gate 15 on a package.json ``exports`` subpath whose only condition is ``types``
(``"./client": {"types": "./client.d.ts"}``): Node resolves no file for it, TypeScript reads
its declarations. A side-effect import (``import "pkg/client"``, how a TypeScript project
loads ambient declarations) or a type import of it is modelled from that .d.ts; a value
import still does not resolve (gate 14's finding, unjudged here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_repo, sample_card
from tests.helpers import unjudged_reasons as _unjudged

FILES = {
    "package.json": json.dumps(
        {
            "name": "webkit",
            "exports": {
                ".": {"types": "./src/index.d.ts", "import": "./src/index.js"},
                "./client": {"types": "./client.d.ts"},
            },
        }
    ),
    "src/index.js": "export function start() {}\n",
    "src/index.d.ts": "export declare function start(): void;\n",
    "client.d.ts": (
        "export interface ImportMetaHot { accept(): void }\n"
        "export interface ClientEnv { MODE: string }\n"
        "declare module '*.svg' { const src: string; export default src }\n"
    ),
}


@pytest.fixture(scope="module")
def web_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("webkit"), FILES)


def _check(code: str, tmp_path: Path, repo: Path, lang: str = "ts") -> Scorecard:
    card: Scorecard = sample_card(code, lang, tmp_path, repo)
    return card


def test_a_side_effect_import_of_a_types_only_subpath_resolves_to_its_declarations(
    tmp_path: Path, web_repo: Path
) -> None:
    card = _check('import "webkit/client";\nimport { start } from "webkit";\nstart();', tmp_path,
                  web_repo)  # fmt: skip
    assert card.detail["violations"] == []
    assert _unjudged(card) == []
    assert card.detail["resolved"]["webkit/client"] == "client.d.ts"


def test_a_type_import_of_a_types_only_subpath_is_judged_against_its_declarations(
    tmp_path: Path, web_repo: Path
) -> None:
    card = _check('import type { ClientEnv, ClientEnvs } from "webkit/client";', tmp_path, web_repo)
    assert [(v["kind"], v["name"]) for v in card.detail["violations"]] == [
        ("named_export", "ClientEnvs")
    ]
    assert card.detail["checked"] >= 2


def test_a_value_import_of_a_types_only_subpath_does_not_resolve(
    tmp_path: Path, web_repo: Path
) -> None:
    card = _check('import { ClientEnv } from "webkit/client";', tmp_path, web_repo)
    assert card.detail["violations"] == []
    assert any("does not resolve" in reason for reason in _unjudged(card))
