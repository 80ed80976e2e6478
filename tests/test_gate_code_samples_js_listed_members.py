"""Gate 15 on a fence that lists a class's API as signature lines
(``QueryBuilder.where(...): QueryBuilder;``, mikro-orm's docs): each line declares a member
of the class, instance or static, in the ``Class.member`` notation; it is no call on the
class. The member's name is judged against the class (a name it does not declare either
way stays a finding); what the parentheses hold (``...``, parameter names and types) is no
argument of a call."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations

ORM = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/qb.ts": (
        "export class QueryBuilder {\n"
        "  static create(): QueryBuilder { return new QueryBuilder(); }\n"
        "  where(cond: object): QueryBuilder { return this; }\n"
        "  orWhere(cond: object): QueryBuilder { return this; }\n"
        "  limit(limit: number, offset?: number): QueryBuilder { return this; }\n"
        "}\n"
    ),
    "src/index.ts": "export { QueryBuilder } from './qb';\n",
}


def _card(tmp_path: Path, code: str) -> object:
    repo = make_repo(tmp_path / "repo", ORM)
    return sample_card(code, "ts", tmp_path, repo)


def test_a_listing_of_a_classs_members_declares_them(tmp_path: Path) -> None:
    """Instance members listed as `QueryBuilder.where(...)` are the class's; a static one
    is too; a name the class declares neither way is a finding."""
    code = (
        "QueryBuilder.create(): QueryBuilder;\n"
        "QueryBuilder.where(...): QueryBuilder;\n"
        "QueryBuilder.orWhere(cond: object): QueryBuilder;\n"
        "QueryBuilder.limit(limit: number, offset?: number): QueryBuilder;\n"
        "QueryBuilder.having(...): QueryBuilder;\n"
        "QueryBuilder.orWhere(): Set<[QueryBuilder, (string | number)]>;\n"
        "QueryBuilder.limit(fn: () => void): () => QueryBuilder;\n"
    )
    assert _violations(_card(tmp_path, code)) == [("member", "QueryBuilder.having")]


def test_a_call_on_the_class_is_still_judged_as_static(tmp_path: Path) -> None:
    """Code that calls an instance member on the class (no listing line: an argument, no
    return type) is still a finding."""
    code = "import { QueryBuilder } from 'orm';\nQueryBuilder.where({ id: 1 });\n"
    assert _violations(_card(tmp_path, code)) == [("member", "QueryBuilder.where")]
