"""Gate 15 on the product's types a TypeScript fence shows declared (issue 26): a fence that
reproduces an interface of the product (``interface TransformOptions { ... }``) is judged
field by field against the product's declaration; the reader's own type of the same name
(few fields in common), one added to in ``declare module``, and one the product declares
twice are not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "package.json": json.dumps({"name": "xform", "main": "index.js", "types": "index.d.ts"}),
    "index.js": "export function transform(options) { return options.config }\n",
    "index.d.ts": (
        "export interface BaseOptions {\n  cacheDir: string;\n}\n"
        "export interface TransformOptions extends BaseOptions {\n  config: object;\n"
        "  instrument: boolean;\n  supportsDynamicImport?: boolean;\n"
        "  transform(source: string): string;\n}\n"
        "export interface User {\n  id: number;\n}\n"
        "export declare function transform(options: TransformOptions): object;\n"
    ),
}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", FILES)


def test_a_field_the_products_type_lacks_is_a_finding(repo: Path, tmp_path: Path) -> None:
    code = (
        "interface TransformOptions {\n  config: object;\n  instrument: boolean;\n"
        "  supportsDynamicImports?: boolean;\n  cacheDir: string;\n"
        "  transform(source: string): string;\n}\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert sample_violations(card) == [("member", "TransformOptions.supportsDynamicImports")]
    reason = card.detail["violations"][0]["reason"]
    assert "did you mean `supportsDynamicImport`?" in reason, reason
    checked = {c["name"] for c in card.detail["checked_names"]}
    assert "TransformOptions.cacheDir" in checked  # inherited from BaseOptions
    assert "TransformOptions.transform" in checked  # a method signature


def test_a_type_alias_of_an_object_is_read_too(repo: Path, tmp_path: Path) -> None:
    code = (
        "type TransformOptions = {\n  config: object;\n  instrumnt: boolean;\n"
        "  cacheDir: string;\n};\n"
    )
    card = sample_card(code, "typescript", tmp_path, repo)
    assert sample_violations(card) == [("member", "TransformOptions.instrumnt")]


def test_a_field_every_function_has_is_no_field_of_a_data_type(repo: Path, tmp_path: Path) -> None:
    code = (
        "interface TransformOptions {\n  name: string;\n  config: object;\n  cacheDir: string;\n}\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert sample_violations(card) == [("member", "TransformOptions.name")]


def test_the_readers_own_type_of_a_products_name_is_listed(repo: Path, tmp_path: Path) -> None:
    card = sample_card("interface User {\n  name: string;\n  email: string;\n}\n", "ts",
                       tmp_path, repo)  # fmt: skip
    assert sample_violations(card) == []
    assert any("the reader's own type, maybe" in r for r in unjudged_reasons(card))


def test_a_type_beside_code_of_the_fences_own_is_the_readers(repo: Path, tmp_path: Path) -> None:
    code = (
        "type TransformOptions = {\n  config: object;\n  instrumnt: boolean;\n};\n\n"
        "class Runner {\n  run(options: TransformOptions) { return options.config; }\n}\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("beside code of its own" in r and "instrumnt" in r for r in reasons), reasons


def test_a_type_the_reader_adds_to_is_not_judged(repo: Path, tmp_path: Path) -> None:
    code = (
        "declare module 'xform' {\n  interface TransformOptions {\n    myFlag: boolean;\n  }\n}\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert sample_violations(card) == []
    assert not any("myFlag" in r for r in unjudged_reasons(card))


def test_a_javascript_fence_is_not_read_for_declarations(repo: Path, tmp_path: Path) -> None:
    card = sample_card("interface TransformOptions {\n  instrumnt: boolean;\n}\n", "js",
                       tmp_path, repo)  # fmt: skip
    assert sample_violations(card) == []
