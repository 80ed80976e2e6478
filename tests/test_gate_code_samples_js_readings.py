"""Gate 15 on a function a page calls without importing it where several of the product's
entry points export a function of that name (each driver package's ``defineConfig``): a
key of the options passed that no reading takes is a finding naming them all; one that
some reading takes is not; a name one entry point exports as no function leaves the keys
unjudged, the readings named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged


def _repo(tmp_path: Path, pg: str) -> Path:
    return make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(
                {"name": "orm", "exports": {".": "./src/index.ts", "./pg": "./src/pg.ts"}}
            ),
            "src/index.ts": (
                "export interface Options { dbName: string; extensions: unknown[] }\n"
                "export function defineConfig(options: Options): Options { return options; }\n"
            ),
            "src/pg.ts": pg,
        },
    )


PG = (
    "export interface PgOptions { dbName: string; schema: string }\n"
    "export function defineConfig(options: PgOptions): PgOptions { return options; }\n"
)


def test_a_key_no_reading_takes_is_a_finding(tmp_path: Path) -> None:
    code = "export default defineConfig({\n  extension: [],\n  schema: 'x',\n  dbName: 'a',\n});\n"
    card = sample_card(code, "ts", tmp_path, _repo(tmp_path, PG))
    assert _violations(card) == [("option_key", "extension")]
    (reason,) = [v["reason"] for v in card.detail["violations"]]
    assert "orm/pg" in reason and "src/index.ts" in reason


def test_readings_not_all_functions_leave_the_keys_unjudged(tmp_path: Path) -> None:
    pg = "export const defineConfig = { dbName: 'a' };\n"
    code = "export default defineConfig({\n  extension: [],\n});\n"
    card = sample_card(code, "ts", tmp_path, _repo(tmp_path, pg))
    assert _violations(card) == []
    assert any("not all functions" in reason for reason in _unjudged(card))
