"""Gate 15 on a typo of a product member written after a call of a global the page never
binds (jest's ``expect(x).toBeinstanceOf(A)``): JavaScript's names are case-sensitive, so
one letter in the other case is a typo too, and the product's members include the methods
of its object literals, Flow-typed files included (read with the TypeScript grammar when
the JavaScript one cannot read them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations

FILES = {
    "package.json": json.dumps({"name": "jestish", "main": "src/index.js"}),
    "src/index.js": (
        "const matchers = require('./matchers');\n"
        "module.exports = function expect(actual) { return matchers; };\n"
    ),
    # Flow annotations: the JavaScript grammar loses the object they are in.
    "src/matchers.js": (
        "// @flow\n"
        "import type {MatchersObject} from './types';\n"
        "const matchers: MatchersObject = {\n"
        "  toEqual(received: any, expected: any) {\n"
        "    const pass = received === expected;\n"
        "    return {pass};\n"
        "  },\n"
        "\n"
        "  toBeInstanceOf(received: any, constructor: Function) {\n"
        "    const pass = received instanceof constructor;\n"
        "    return {pass};\n"
        "  },\n"
        "  toHaveLength(received: any, length: number) { return {pass: true}; },\n"
        "};\n"
        "module.exports = matchers;\n"
    ),
}


@pytest.fixture(scope="module")
def jest_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("jestish"), FILES)


def test_a_typo_after_a_call_of_an_unbound_global_is_a_finding(
    tmp_path: Path, jest_repo: Path
) -> None:
    code = (
        "class A {}\n"
        "expect(new A()).toBeInstanceOf(A);\n"
        "expect(new A()).toBeinstanceOf(A);\n"
        "expect([1]).toHaveLenth(1);\n"
    )
    card = sample_card(code, "js", tmp_path, jest_repo)
    assert sample_violations(card) == [
        ("member", "expect().toBeinstanceOf"),
        ("member", "expect().toHaveLenth"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `toBeInstanceOf`?" in reasons["expect().toBeinstanceOf"]


def test_a_bound_function_or_a_name_the_code_writes_is_not_judged(
    tmp_path: Path, jest_repo: Path
) -> None:
    code = (
        "import {expect} from 'chai';\n"
        "expect(1).toBeinstanceOf(Number);\n"  # chai's expect: another library's value
        "check(1).toBeInstanceOf(Number);\n"  # the product's own name
        "require('x').toHaveLenth;\n"  # what a loader returns is read elsewhere
    )
    card = sample_card(code, "js", tmp_path, jest_repo)
    assert sample_violations(card) == []


def test_a_parameter_of_a_function_the_sample_only_calls_itself_is_the_samples(
    tmp_path: Path, jest_repo: Path
) -> None:
    # jest's own docs: `function cleanUpDatabase(db) { db.cleanUp(); }` called with the
    # page's database is the reader's object; a function handed over by name may be the
    # product's callback, and its parameter is judged as before.
    code = (
        "const expect = require('jestish');\n"
        "function cleanUp(db) {\n  db.toHaveLenth(1);\n}\n"
        "cleanUp(makeDatabase());\n"
        "function plugin(api) {\n  api.toHaveLenth(1);\n}\n"
        "register(plugin);\n"
    )
    card = sample_card(code, "js", tmp_path, jest_repo)
    assert sample_violations(card) == [("member", "api.toHaveLenth")]


PRIVATE = {
    "package.json": json.dumps({"name": "schemer", "main": "lib/index.js"}),
    "lib/base.js": (
        "module.exports = class Base {\n"
        "  $_getRule(name) { return this._rules[name]; }\n"
        "  $_setFlag(name, value) { this._flags[name] = value; return this; }\n"
        "  _addRule(rule) { return this; }\n"
        "  validate(value) { return value; }\n"
        "};\n"
    ),
    "lib/index.js": (
        "const Base = require('./base');\n"
        "exports.extend = function (factory) { return factory(new Base()); };\n"
    ),
}


@pytest.fixture(scope="module")
def private_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("schemer"), PRIVATE)


def test_a_member_the_code_has_only_under_a_private_prefix_is_a_finding(
    tmp_path: Path, private_repo: Path
) -> None:
    # joi's extension docs: `schema.getRule('round')` and `this.setFlag('big', true)` in the
    # methods of an extension, while the code has only `$_getRule` and `$_setFlag`.
    code = (
        "const Schemer = require('schemer');\n"
        "const custom = Schemer.extend((schemer) => ({\n"
        "  coerce(schema, value) {\n"
        "    if (schema.getRule('round')) { return value; }\n"
        "    return schema.frobnicate(value);\n"  # near no product member: anyone's
        "  },\n"
        "  rules: {\n"
        "    big: { method() { return this.setFlag('big', true); } },\n"
        "    round: { method() { return this.addRule('round'); } },\n"
        "  },\n"
        "}));\n"
    )
    card = sample_card(code, "js", tmp_path, private_repo)
    assert sorted(sample_violations(card)) == [
        ("member", "schema.getRule"),
        ("member", "this.addRule"),
        ("member", "this.setFlag"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `$_getRule`?" in reasons["schema.getRule"]


def test_a_member_the_sample_declares_itself_is_the_samples(
    tmp_path: Path, private_repo: Path
) -> None:
    code = (
        "const helper = {\n"
        "  setFlag(name) { return name; },\n"
        "  run() { return this.setFlag('big'); },\n"
        "};\n"
        "class Mine { getRule() { return 1; } check() { return this.getRule(); } }\n"
        "class Other { run() { return this.addRule('x'); } }\n"  # a class's own `this`
    )
    card = sample_card(code, "js", tmp_path, private_repo)
    assert sample_violations(card) == []


def test_a_class_assigned_to_a_member_path_is_the_products(tmp_path: Path) -> None:
    # hapi's style: `internals.Base = class { ... }`, members added on its prototype.
    files = dict(PRIVATE)
    files["lib/base.js"] = (
        "const internals = {};\n"
        "internals.Base = class {\n"
        "  $_getRule(name) { return this._rules[name]; }\n"
        "};\n"
        "internals.Base.prototype.$_setFlag = function (name, value) { return this; };\n"
        "module.exports = new internals.Base();\n"
    )
    repo = make_repo(tmp_path / "hapi", files)
    code = (
        "const custom = require('schemer').extend((schemer) => ({\n"
        "  coerce(schema, value) { return schema.getRule('round') && value; },\n"
        "  rules: { big: { method() { return this.setFlag('big', true); } } },\n"
        "}));\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert sample_violations(card) == [("member", "schema.getRule"), ("member", "this.setFlag")]
