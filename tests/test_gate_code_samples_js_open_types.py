"""Gate 15 on values whose type the sample shows through the product's declarations: what a
class's static method returns (``await Orm.init(config)``, a driver package's subclass whose
override names the core class), a getter typed through a type parameter of its class
(``get schema(): ReturnType<ReturnType<Driver['getPlatform']>['getSchemaGenerator']>``,
the parameter read as its default), and a member of such an open type: missing only when
neither the type nor any product type its value may have (a class, an interface extending
it) declares it."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.gates import code_samples
from tests.helpers import make_post, make_repo, repo_context, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

CORE = {
    "package.json": json.dumps({"name": "orm-root", "private": True, "workspaces": ["packages/*"]}),
    "packages/core/package.json": json.dumps({"name": "@orm/core", "main": "./src/index.ts"}),
    "packages/core/src/typings.ts": (
        "export interface ISchemaGenerator {\n"
        "  create(): Promise<void>;\n  update(): Promise<void>;\n}\n"
        "export interface SchemaOptions { createSchema?: boolean }\n"
    ),
    "packages/core/src/Platform.ts": (
        "import type { ISchemaGenerator } from './typings';\n"
        "export class Platform {\n"
        "  getSchemaGenerator(): ISchemaGenerator { throw new Error(); }\n}\n"
    ),
    "packages/core/src/Driver.ts": (
        "import type { Platform } from './Platform';\n"
        "export interface IDriver {\n  getPlatform(): Platform;\n}\n"
    ),
    "packages/core/src/Orm.ts": (
        "import type { IDriver } from './Driver';\n"
        "export class Orm<Driver extends IDriver = IDriver> {\n"
        "  static async init<D extends IDriver = IDriver>(options: object): Promise<Orm<D>> {\n"
        "    return new this<D>(options);\n  }\n"
        "  constructor(options: object) {}\n"
        "  async close(): Promise<void> {}\n"
        "  get schema(): ReturnType<ReturnType<Driver['getPlatform']>['getSchemaGenerator']> {\n"
        "    throw new Error();\n  }\n}\n"
    ),
    "packages/core/src/index.ts": (
        "export * from './Orm';\nexport * from './Platform';\nexport * from './Driver';\n"
        "export * from './typings';\n"
    ),
    "packages/sql/package.json": json.dumps({"name": "@orm/sql", "main": "./src/index.ts"}),
    "packages/sql/src/SqlSchemaGenerator.ts": (
        "import type { ISchemaGenerator } from '@orm/core';\n"
        "export class SqlSchemaGenerator implements ISchemaGenerator {\n"
        "  async create(): Promise<void> {}\n  async update(): Promise<void> {}\n"
        "  async ensureIndexes(): Promise<void> {}\n}\n"
    ),
    "packages/sql/src/SqlOrm.ts": (
        "import { Orm, type IDriver } from '@orm/core';\n"
        "export class SqlOrm extends Orm<IDriver> {\n"
        "  static override async init<D extends IDriver = IDriver>(options: object):"
        " Promise<Orm<D>> {\n    return super.init(options);\n  }\n}\n"
    ),
    "packages/sql/src/index.ts": (
        "export { SqlOrm as Orm } from './SqlOrm';\nexport * from './SqlSchemaGenerator';\n"
    ),
}


def _card(tmp_path: Path, code: str, package: str = "@orm/core") -> object:
    repo = make_repo(tmp_path / "repo", CORE)
    return sample_card(code, "ts", tmp_path, repo)


def test_a_static_method_s_declared_return_types_the_value(tmp_path: Path) -> None:
    """`await Orm.init(config)` is an Orm: a member Orm lacks is a finding."""
    code = (
        "import { Orm } from '@orm/core';\n"
        "const orm = await Orm.init({});\n"
        "await orm.close();\n"
        "await orm.shutdown();\n"
    )
    assert _violations(_card(tmp_path, code)) == [("member", "orm.shutdown")]


def test_a_getter_typed_through_a_type_parameter_is_open(tmp_path: Path) -> None:
    """`orm.schema` is an ISchemaGenerator or a type extending it (Driver's argument is not
    shown): `create` is declared, `ensureIndexes` is declared by a class that may be it
    (unjudged), `createSchema` by no product type (an option key is no member): a finding."""
    code = (
        "import { Orm } from '@orm/core';\n"
        "const orm = await Orm.init({});\n"
        "await orm.schema.create();\n"
        "await orm.schema.ensureIndexes();\n"
        "await orm.schema.createSchema();\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("member", "orm.schema.createSchema")]
    assert any("SqlSchemaGenerator" in reason for reason in _unjudged(card))


def test_a_subclass_s_static_override_names_the_core_class(tmp_path: Path) -> None:
    """The driver package exports its subclass as `Orm`; its `init` returns the core
    package's `Orm` (imported by the package's name), whose getter types `schema`."""
    code = (
        "import { Orm } from '@orm/sql';\n"
        "const orm = await Orm.init({});\n"
        "const generator = orm.schema;\n"
        "await generator.refreshDatabase();\n"
    )
    assert _violations(_card(tmp_path, code)) == [("member", "generator.refreshDatabase")]


REPOSITORY = {
    **CORE,
    "packages/core/src/EntityManager.ts": (
        "export class EntityManager {\n"
        "  persist(entity: object): this { return this; }\n"
        "  async flush(): Promise<void> {}\n}\n"
    ),
    "packages/core/src/EntityRepository.ts": (
        "import type { EntityManager } from './EntityManager';\n"
        "export class EntityRepository<T extends object> {\n"
        "  constructor(protected readonly em: EntityManager, readonly entityName: string) {}\n"
        "  async findAll(): Promise<T[]> { return []; }\n}\n"
    ),
    "packages/core/src/index.ts": (
        CORE["packages/core/src/index.ts"]
        + "export * from './EntityManager';\nexport * from './EntityRepository';\n"
    ),
}


def test_this_in_a_sample_s_subclass_of_a_product_class(tmp_path: Path) -> None:
    """`this.em` in a class extending the product's EntityRepository is the base's
    protected constructor property, an EntityManager: a member it lacks is a finding;
    what the sample's class declares itself (`this.persistAndFlush`) is its own."""
    code = (
        "import { EntityManager, EntityRepository } from '@orm/core';\n"
        "export class Extended<T extends object> extends EntityRepository<T> {\n"
        "  persist(entity: object): EntityManager {\n"
        "    return this.em.persist(entity);\n  }\n"
        "  async persistAndFlush(entity: object): Promise<void> {\n"
        "    await this.em.persistAndFlush(entity);\n  }\n"
        "  async all(): Promise<T[]> {\n"
        "    await this.persistAndFlush({});\n    this.entityName.trim();\n"
        "    return this.findAll();\n  }\n}\n"
    )
    repo = make_repo(tmp_path / "repo", REPOSITORY)
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "this.em.persistAndFlush")]


def test_a_value_the_page_s_own_function_returns_is_typed_by_its_interface(
    tmp_path: Path,
) -> None:
    """One fence declares `interface Services { orm: Orm }` and `initORM(): Promise<Services>`;
    a later fence imports initORM from the page's own file: `const { orm } = initORM()` and
    `const db = initORM(); db.orm` hold an Orm."""
    declared = (
        "import { Orm } from '@orm/core';\n"
        "export interface Services {\n  orm: Orm;\n  name: string;\n}\n"
        "export async function initORM(): Promise<Services> {\n"
        "  const orm = await Orm.init({});\n  return { orm, name: 'x' };\n}\n"
    )
    used = (
        "import { initORM } from '../src/db.js';\n"
        "const { orm } = await initORM();\n"
        "await orm.schema.createSchema();\n"
        "const db = await initORM();\n"
        "await db.orm.close();\n"
        "await db.orm.closeAll();\n"
    )
    repo = make_repo(tmp_path / "repo", CORE)
    body = f"Intro.\n\n```ts\n{declared}```\n\nThen:\n\n```ts\n{used}```\n"
    card = code_samples.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))
    assert _violations(card) == [
        ("member", "Orm.closeAll"),
        ("member", "orm.schema.createSchema"),
    ]


def test_a_static_call_on_a_class_name_several_packages_export(tmp_path: Path) -> None:
    """`Orm.init()` with no import: the core and the sql package both export a class `Orm`;
    both `init`s return the core `Orm`, so the value is one, read as any other."""
    code = (
        "let orm: Orm;\n\nbeforeAll(async () => {\n  orm = await Orm.init({});\n"
        "  await orm.schema.refreshDatabase();\n});\n"
    )
    assert _violations(_card(tmp_path, code)) == [("member", "orm.schema.refreshDatabase")]
