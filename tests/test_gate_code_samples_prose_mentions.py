"""Gate 15 on the page's prose: a code span that writes the very name one of the page's
own samples uses and the product lacks (`entitiesDirs` beside `MikroORM.init({
entitiesDirs })`, `orm.schema.createSchema()` beside the fence calling it) is the same
claim, and is reported where the prose writes it. A span the page writes as the product's
past, a name the sample does not write wrong, or a bare name the product declares, is not."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import FRONT_MATTER, make_post, make_repo, repo_context

ORM = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/orm.ts": (
        "export interface Options { entities: string[]; dbName: string }\n"
        "export class Schema {\n"
        "  create(): void {}\n"
        "  update(): void {}\n"
        "}\n"
        "export class Orm {\n"
        "  schema: Schema = new Schema();\n"
        "  static async init(options?: Options): Promise<Orm> {\n"
        "    return new Orm();\n"
        "  }\n"
        "}\n"
        "export function persistAndFlush(): void {}\n"
    ),
    "src/index.ts": "export { Orm, Schema, persistAndFlush } from './orm';\n",
}

SAMPLE = (
    "```ts\n"
    "import { Orm } from 'orm';\n"
    "const orm = await Orm.init({ entitiesDirs: ['./dist'], dbName: 'app' });\n"
    "await orm.schema.createSchema();\n"
    "orm.schema.persistAndFlush();\n"
    "```\n"
)


def _found(tmp_path: Path, body: str) -> list[tuple[int, str, str]]:
    """Gate 15's findings as (line of the body, kind, name)."""
    from pytest_postgates.gates import code_samples

    repo = make_repo(tmp_path / "repo", ORM)
    card = code_samples.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))
    front = FRONT_MATTER.count("\n")
    return sorted((v["line"] - front, v["kind"], v["name"]) for v in card.detail["violations"])


def test_a_prose_span_naming_what_the_sample_writes_wrong_is_reported(tmp_path: Path) -> None:
    body = (
        "Intro.\n\n"
        "Pass the folders in the `entitiesDirs` array.\n\n"  # line 3
        + SAMPLE  # fence at line 5, its lines 6-9
        + "\nThen `orm.schema.createSchema()` makes the tables.\n"  # line 12
    )
    found = _found(tmp_path, body)
    assert (3, "option_key", "entitiesDirs") in found
    assert (12, "member", "orm.schema.createSchema") in found
    assert (7, "option_key", "entitiesDirs") in found  # the sample's own finding stays


def test_spans_that_are_no_such_claim_are_not_reported(tmp_path: Path) -> None:
    body = (
        "Intro.\n\n"
        "The `entitiesDirs` option was removed in v4; use `entities`.\n\n"  # line 3: the past
        + SAMPLE
        + "\nCall `persistAndFlush` and `createSchema` and `dbName`.\n"  # line 12
    )
    found = _found(tmp_path, body)
    lines = {line for line, _kind, _name in found}
    assert 3 not in lines
    # `persistAndFlush` is declared by the product (a function): the sample's member on
    # Schema is wrong, the bare name is not. `createSchema`, declared nowhere, is the
    # sample's wrong member; `dbName` the sample writes right.
    assert [(line, name) for line, _kind, name in found if line == 12] == [(12, "createSchema")]
