"""Gate 15 on a CommonJS package whose export is an object its own factory makes
(joi's ``module.exports = internals.root()``): the members the factory's body adds, in
loops over values the file writes as literals and through a required module's function it
hands the object to, are the module's exports; a member outside them is a finding. Where
the body adds members the file does not show, every member stays unjudged with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

INDEX = """'use strict';
const Trace = require('./trace');

const internals = {
    types: { any: require('./any'), string: require('./string') },
    aliases: { str: 'string' }
};

if (Buffer) {
    internals.types.binary = require('./any');
}

internals.root = function () {
    const root = { _types: new Set(Object.keys(internals.types)) };
    for (const type of root._types) {
        root[type] = function (...args) { return internals.types[type](args); };
    }
    for (const method of ['allow', 'valid', 'when']) {
        root[method] = function (...args) { return this.any()[method](...args); };
    }
    Object.assign(root, internals.methods);
    for (const alias in internals.aliases) {
        root[alias] = root[internals.aliases[alias]];
    }
    root.x = root.expression;
    Trace.setup(root);
    return root;
};

internals.methods = {
    version: '1.0.0',
    expression(...args) { return args; },
    compile(schema) { return schema; }
};

module.exports = internals.root();
"""
TRACE = """'use strict';
exports.setup = function (root) {
    root.trace = () => root;
    root[Symbol.for('coverage')] = root.trace;
};
"""
FILES = {
    "package.json": json.dumps({"name": "checkit", "main": "lib/index.js"}),
    "lib/index.js": INDEX,
    "lib/trace.js": TRACE,
    "lib/any.js": "module.exports = function any() { return {}; };\n",
    "lib/string.js": "module.exports = function string() { return {}; };\n",
}


@pytest.fixture(scope="module")
def made_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("checkit"), FILES)


def test_a_member_the_factory_never_adds_is_a_finding(tmp_path: Path, made_repo: Path) -> None:
    code = (
        "const Checkit = require('checkit');\n"
        "const schema = Checkit.string();\n"  # a type of the loop over Object.keys
        "Checkit.binary();\n"  # added to the types by a top-level assignment
        "Checkit.when('a', {});\n"  # the loop over a literal list
        "Checkit.str();\n"  # the for-in over the aliases
        "Checkit.compile(schema);\n"  # Object.assign of the methods
        "Checkit.x('{#a}');\n"  # assigned on the object
        "Checkit.trace();\n"  # what the required module's setup() adds
        "Checkit.template('{#a}');\n"  # nowhere: the finding
        "Checkit.conditional('a', {});\n"  # nowhere: the finding
    )
    card = sample_card(code, "js", tmp_path, made_repo)
    assert sorted(sample_violations(card)) == [
        ("named_export", "conditional"),
        ("named_export", "template"),
    ]
    assert card.detail["checked_by_kind"]["export"] >= 9


def test_a_factory_that_adds_members_the_file_does_not_show_leaves_them_unjudged(
    tmp_path: Path,
) -> None:
    files = dict(FILES)
    files["lib/index.js"] = INDEX.replace(
        "Trace.setup(root);", "Trace.setup(root);\n    root[internals.pick()] = 1;"
    )
    repo = make_repo(tmp_path / "open", files)
    card = sample_card("const C = require('checkit');\nC.template('x');\n", "js", tmp_path, repo)
    assert sample_violations(card) == []
    assert any("`export =`" in r for r in unjudged_reasons(card)), unjudged_reasons(card)


def test_a_setup_that_may_add_any_member_leaves_them_unjudged(tmp_path: Path) -> None:
    files = dict(FILES)
    files["lib/trace.js"] = TRACE.replace("root.trace = () => root;", "root[name()] = 1;")
    repo = make_repo(tmp_path / "setup", files)
    card = sample_card("const C = require('checkit');\nC.template('x');\n", "js", tmp_path, repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("handed to ./trace's setup()" in r for r in reasons), reasons
