"""Maps keyed by the names the user gives (evidence/map_keys.py, issue 26): a property the
product's code iterates, reads by a computed name or declares ``Record<string, X>`` holds
the page's own names, so a key written under it is listed unjudged with why, never judged
as a near miss of a fixed key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.map_keys import map_properties
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context


def _maps(code: str, language: str = "javascript") -> dict[str, int]:
    parsers = load_parsers()
    assert not isinstance(parsers, str), parsers
    source = code.encode()
    tree = parsers[language].parse(source)
    return map_properties(source, tree.root_node, tree.language, language == "typescript")


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("for (const id of Object.keys(plugin.rules)) {}", "rules"),
        ("Object.entries(config.env).forEach(f)", "env"),
        ("for (const k in options.headers) {}", "headers"),
        ("const rule = plugin.rules[ruleName]", "rules"),
        ("const { globals } = languageOptions\nfunction check(globals) {\n"
         "  for (const key of Object.keys(globals)) {}\n}", "globals"),
        ("const { aliases: table } = opts\ntable[name]", "aliases"),
    ],
)  # fmt: skip
def test_a_property_the_code_iterates_or_indexes_is_a_map(code: str, name: str) -> None:
    assert name in _maps(code)


@pytest.mark.parametrize(
    "code",
    [
        "interface P { rules?: Record<string, Rule> }",
        "interface P { rules: { [id: string]: Rule } }",
        "interface P { rules?: Partial<Map<string, Rule>> | undefined }",
        "class P { rules: Readonly<Record<string, Rule>> = {} }",
    ],
)
def test_a_property_declared_a_map_of_names_is_a_map(code: str) -> None:
    assert "rules" in _maps(code, "typescript")


@pytest.mark.parametrize(
    "code",
    [
        "for (const rule of plugin.rules) {}",  # an array's items
        "const copy = { ...plugin.rules }",  # an options object is spread as often
        "plugin.rules[0]; plugin.rules['strict']; plugin.rules.strict",
        "const { rules } = plugin\nrules.strict",
        "Object.assign(plugin.rules, defaults)",
    ],
)
def test_a_property_read_by_fixed_names_is_no_map(code: str) -> None:
    assert "rules" not in _maps(code)


def test_a_declared_object_type_is_no_map() -> None:
    assert _maps("interface P { rules?: { strict: boolean }; names: Record<number, string> }",
                 "typescript") == {}  # fmt: skip


# A plugin host whose code iterates a plugin's `rules`; the page exports its own plugin,
# whose rule names (`rule1`) are one letter off the `rules` the code writes.
PAGE = "```js\nmodule.exports = {\n  rules: {\n    rule1: {},\n    rule2: {}\n  }\n};\n```"
HOST = (
    "function load (plugin) {\n  for (const name of Object.keys(plugin.rules)) {\n"
    "    register(name, plugin.rules[name])\n  }\n}\n"
    "function register (name, rule) { return rule }\nmodule.exports = { load, register }\n"
)
# The same product reading `rules` by fixed names only: no map.
FIXED = "function load (options) {\n  return options.rules.strict\n}\nmodule.exports = { load }\n"
DECLARED = "export interface Plugin { rules?: Record<string, object> }\n"


def _repo(tmp_path: Path, code: str, extra: dict[str, str] | None = None) -> Path:
    files = {"package.json": json.dumps({"name": "hostlib", "main": "index.js"}),
             "index.js": code, **(extra or {})}  # fmt: skip
    return make_repo(tmp_path / "repo", files)


def _card(tmp_path: Path, repo: Path) -> Scorecard:
    post = make_post(f"Intro.\n\n{PAGE}\n", tmp_path, "2026-06-03-a.md")
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def _found(card: Scorecard) -> list[str]:
    return [str(v["name"]) for v in card.detail["violations"]]


def _reasons(card: Scorecard, name: str) -> list[Any]:
    return [u["reason"] for u in card.detail["unjudged"] if u.get("name") == name]


def test_a_key_of_a_map_the_code_iterates_is_the_pages_own(tmp_path: Path) -> None:
    card = _card(tmp_path, _repo(tmp_path, HOST))
    assert _found(card) == [], card.detail
    reasons = _reasons(card, "rules.rule1")
    assert reasons and "holds as a map keyed by the names its user gives" in reasons[0]
    assert "index.js:2" in reasons[0], reasons


def test_a_key_of_a_property_read_by_fixed_names_is_still_judged(tmp_path: Path) -> None:
    card = _card(tmp_path, _repo(tmp_path, FIXED))
    assert _found(card) == ["rule1", "rule2"], card.detail


def test_a_key_of_a_map_the_declarations_type_is_the_pages_own(tmp_path: Path) -> None:
    card = _card(tmp_path, _repo(tmp_path, FIXED, {"index.d.ts": DECLARED}))
    assert _found(card) == [], card.detail
    assert any("index.d.ts:1" in reason for reason in _reasons(card, "rules.rule1")), card.detail
