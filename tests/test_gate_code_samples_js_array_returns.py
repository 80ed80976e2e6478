"""Gate 15 on a value a product method declares as an array of a generic class
(``getChangeSets(): ChangeSet<AnyEntity>[]``, mikro-orm's UnitOfWork): the value is an
array, not an instance of the class, so an array's members (``find``) are not judged
against the class; a method returning the generic class itself still types its value."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

ORM = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/cs.ts": "export class ChangeSet<T> { type: string = ''; entity!: T; }\n",
    "src/uow.ts": (
        "import { ChangeSet } from './cs';\n"
        "export type AnyEntity = object;\n"
        "export class UnitOfWork {\n"
        "  getChangeSets(): ChangeSet<AnyEntity>[] { return []; }\n"
        "  getOne(): ChangeSet<AnyEntity> { return new ChangeSet(); }\n"
        "}\n"
        "export interface FlushEventArgs { uow: UnitOfWork }\n"
    ),
    "src/index.ts": "export * from './uow';\nexport * from './cs';\n",
}


def test_an_array_of_a_generic_class_is_no_instance_of_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", ORM)
    code = (
        "import { FlushEventArgs } from 'orm'\n"
        "class Subscriber {\n"
        "  async onFlush(args: FlushEventArgs) {\n"
        "    const changeSets = args.uow.getChangeSets();\n"
        "    changeSets.find((cs) => cs.type === 'create');\n"
        "    args.uow.getChangeSets().find((cs) => cs.type);\n"
        "    args.uow.getOne().type;\n"
        "    args.uow.getOne().kind;\n"
        "  }\n"
        "}\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "args.uow.getOne().kind")]
    reasons = _unjudged(card)
    assert any(reason.startswith("changeSets.find") for reason in reasons), reasons
