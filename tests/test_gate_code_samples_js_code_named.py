"""Gate 15 on a name a page uses without binding it, where neither the docs' convention
nor their other pages type it, but the product's own code does: mikro-orm's code declares
``em: EntityManager`` in most of its typed parameters and fields, so a sample's bare
``em.removeEntity(book)`` is judged against EntityManager (js_unbound.code_named). Too few
declarations, too many of another type, types of no one common base, a global, a member a
type below the base declares or the code writes: never a finding."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.evidence.api_model import build_model
from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

EM = "export class EntityManager {\n  flush(): void {}\n  find(where: object): void {}\n}\n"
SQL = (
    "import { EntityManager } from './em';\n"
    "export class SqlEntityManager extends EntityManager {\n"
    "  getKnex(): unknown { return null; }\n"
    "}\n"
)


def _orm(users: str) -> dict[str, str]:
    """A product whose src/users.ts (``users``) declares the names the tests ask about."""
    return {
        "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
        "src/em.ts": EM,
        "src/sql.ts": SQL,
        "src/users.ts": "import { EntityManager } from './em';\n"
        "import { SqlEntityManager } from './sql';\n" + users,
        "src/index.ts": (
            "export { EntityManager } from './em';\nexport { SqlEntityManager } from './sql';\n"
        ),
    }


THREE = (
    "export function load(em: EntityManager): void {}\n"
    "export function save(em: EntityManager | null): void {}\n"
    "export interface Context { em: Readonly<EntityManager> }\n"
)


def _card(tmp_path: Path, users: str, code: str) -> object:
    repo = make_repo(tmp_path / "repo", _orm(users))
    return sample_card(code, "ts", tmp_path, repo)


def test_a_name_the_code_declares_as_one_product_type_is_typed_so(tmp_path: Path) -> None:
    card = _card(tmp_path, THREE, "em.removeEntity(book);\nem.flush();\n")
    assert _violations(card) == [("member", "em.removeEntity")]
    (reason,) = [v["reason"] for v in card.detail["violations"]]
    assert "EntityManager declares no member removeEntity" in reason
    assert "product's code declares the name" in reason and "EntityManager 3" in reason


def test_types_below_one_base_type_the_name_as_the_base(tmp_path: Path) -> None:
    """`em: SqlEntityManager` beside `em: EntityManager`: their common base. getKnex, which
    the subclass declares, is unjudged; a member neither declares is a finding."""
    users = THREE + "export function raw(em: SqlEntityManager): void {}\n"
    card = _card(tmp_path, users, "em.getKnex();\nem.getKnexx();\n")
    assert _violations(card) == [("member", "em.getKnexx")]
    assert any("SqlEntityManager" in r and "getKnex" in r for r in _unjudged(card))


def test_too_few_declarations_leave_the_name_untyped(tmp_path: Path) -> None:
    users = "export function load(em: EntityManager): void {}\n"
    users += "export function save(em: EntityManager): void {}\n"
    card = _card(tmp_path, users, "em.removeEntity(book);\n")
    assert _violations(card) == []
    assert any("never bound" in r for r in _unjudged(card))


def test_a_name_declared_otherwise_too_often_stays_untyped(tmp_path: Path) -> None:
    """Three of five declarations an EntityManager, two a string: not most enough."""
    users = THREE + "export function a(em: string): void {}\nexport function b(em: string) {}\n"
    card = _card(tmp_path, users, "em.removeEntity(book);\n")
    assert _violations(card) == []


def test_types_of_no_common_base_leave_the_name_untyped(tmp_path: Path) -> None:
    users = (
        "export class Other { run(): void {} }\n"
        "export function a(em: EntityManager): void {}\nexport function b(em: EntityManager) {}\n"
        "export function c(em: Other): void {}\nexport function d(em: Other): void {}\n"
    )
    card = _card(tmp_path, users, "em.removeEntity(book);\n")
    assert _violations(card) == []


def test_a_few_declarations_of_another_type_do_not_stop_the_typing(tmp_path: Path) -> None:
    """Five of six declarations an EntityManager, one another product type (Chart.js
    declares `chart: Chart` 67 times and `chart: UnionToIntersection<...>` once): more
    than four in five, so the name is an EntityManager; a member the other type declares
    is written in the code, so it is listed, not reported."""
    users = (
        THREE + "export class Other { run(): void {} }\nexport function c(em: Other): void {}\n"
        "export function d(em: EntityManager): void {}\n"
        "export function e(em?: EntityManager): void {}\n"
    )
    card = _card(tmp_path, users, "em.removeEntity(book);\nem.run();\n")
    assert _violations(card) == [("member", "em.removeEntity")]
    assert any("run" in r for r in _unjudged(card))


def test_a_type_parameter_leaves_the_name_untyped(tmp_path: Path) -> None:
    users = "export function a<T>(em: T): void {}\n" * 1 + THREE.replace("EntityManager", "T")
    card = _card(tmp_path, "export type T = unknown;\n" + users, "em.removeEntity(book);\n")
    assert _violations(card) == []


def test_a_global_is_never_typed_by_the_code(tmp_path: Path) -> None:
    """`process: EntityManager` in the code says nothing of a sample's `process.env`."""
    users = THREE.replace("em", "process").replace("EntityManager", "SqlEntityManager")
    card = _card(tmp_path, users, "process.removeEntity();\n")
    assert _violations(card) == []


def test_a_member_the_code_writes_is_unjudged(tmp_path: Path) -> None:
    """The type is the code's guess for the name: a member the code writes somewhere
    (`persistLater` in another file) may be the value's, so it is listed, not reported."""
    users = THREE + "export const persistLater = 1;\n"
    card = _card(tmp_path, users, "em.persistLater(book);\n")
    assert _violations(card) == []
    assert any("how the product's code declares the name" in r for r in _unjudged(card))


def test_option_keys_of_a_code_typed_value_are_not_judged(tmp_path: Path) -> None:
    card = _card(tmp_path, THREE, "em.find({ whereFoo: 1 });\n")
    assert _violations(card) == []
    assert any("how the product's code" in r and "not judged" in r for r in _unjudged(card))


def test_the_model_counts_each_typed_declaration_of_a_name() -> None:
    """ModelFacts.declared_as, TypeScript and Python: one named type as written (null,
    undefined, None and Readonly/Optional left out), "" for any other shape."""
    sources = {
        "src/a.ts": (
            "export function f(chart: Chart | null, other: string): void {}\n"
            "export interface I { chart: Readonly<Chart>; part: Pick<Chart, 'x'> }\n"
            "export function g(chart: Chart | Scale): void {}\n"
        ),
        "pkg/b.py": (
            "def f(client: Client | None, name: str, other: 'Client') -> None: ...\n"
            "class C:\n    client: Optional[Client]\n"
        ),
    }
    facts = build_model("c0ffee", sources).facts
    assert facts.declared_as["chart"] == {"Chart": 2, "": 1}
    assert facts.declared_as["part"] == {"": 1}
    assert facts.declared_as["other"] == {"": 1, "Client": 1}
    assert facts.declared_as["client"] == {"Client": 2}
    assert facts.declared_as["name"] == {"": 1}
