"""Gate 15 on a class's static side: the option keys passed to a static method
(``MikroORM.init({...})``) are judged against that method's declared parameters; a fence
that reads a static member of a class it never imports (the import the reader adds) is
read when one class the product's entry points export goes by that name. And an ``Omit``
or ``Pick`` whose keys the model cannot list (``Exclude<keyof T, keyof typeof C.DEFAULTS>``)
is bounded by ``T``'s keys: a key ``T`` does not have is none of its either."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

ORM = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/options.ts": (
        "export interface OrmOptions { entities: string[]; dbName: string; debug: boolean }\n"
        "export class Configuration {\n"
        "  static readonly DEFAULTS = { debug: false };\n"
        "  get(key: string): unknown { return key; }\n"
        "}\n"
        "export type Options = Pick<OrmOptions, Exclude<keyof OrmOptions,"
        " keyof typeof Configuration.DEFAULTS>> | OrmOptions;\n"
    ),
    "src/orm.ts": (
        "import { Options, Configuration } from './options';\n"
        "export class Orm {\n"
        "  static async init(options?: Options | Configuration): Promise<Orm> {\n"
        "    return new Orm();\n"
        "  }\n"
        "  close(force: { wait: boolean }): void {}\n"
        "}\n"
    ),
    "src/index.ts": "export { Orm } from './orm';\nexport * from './options';\n",
}


def _card(tmp_path: Path, code: str) -> object:
    repo = make_repo(tmp_path / "repo", ORM)
    return sample_card(code, "ts", tmp_path, repo)


def test_the_keys_a_static_method_takes_are_judged(tmp_path: Path) -> None:
    """`Orm.init({...})`: init is static, declared with `Options | Configuration`; a key
    neither declares is a finding, the ones OrmOptions declares are not."""
    code = (
        "import { Orm } from 'orm';\n"
        "const orm = await Orm.init({ entities: ['./dist'], dbName: 'app', entitiesDirs: [] });\n"
    )
    assert _violations(_card(tmp_path, code)) == [("option_key", "entitiesDirs")]


def test_an_omit_whose_keys_the_model_cannot_list_is_bounded_by_its_type(tmp_path: Path) -> None:
    """The `Pick<OrmOptions, Exclude<keyof OrmOptions, keyof typeof ...>>` member alone:
    which keys it keeps is not listed, but none outside OrmOptions."""
    code = (
        "import { Orm, Options } from 'orm';\n"
        "const options: Options = { dbName: 'app' };\n"
        "await Orm.init({ dbName: 'app', debug: true, highlight: false });\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "highlight")]
    assert not any("cannot be followed" in reason for reason in _unjudged(card))


def test_a_static_member_of_a_class_the_fence_never_imports_is_read(tmp_path: Path) -> None:
    """The page leaves the import out (`Orm.init(...)` alone): the one class the entry
    points export as `Orm` is the one meant. A capitalised name the product exports no
    class under stays unread."""
    code = "Orm.init({\n  entitiesDirs: ['./dist'],\n  dbName: 'app',\n});\n"
    assert _violations(_card(tmp_path, code)) == [("option_key", "entitiesDirs")]
    other = "Sequelize.init({\n  entitiesDirs: ['./dist'],\n});\n"
    assert _violations(_card(tmp_path / "other", other)) == []
