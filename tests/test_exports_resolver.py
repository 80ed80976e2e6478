"""evidence/exports.py and evidence/resolution.py without Node: the rules that are easy
to state, and fuzzing.

What Node itself answers is asserted case by case in tests/test_exports_conformance.py.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence import exports, resolution

IMPORT = exports.IMPORT_CONDITIONS
REQUIRE = exports.REQUIRE_CONDITIONS


def test_pattern_keys_sort_by_prefix_length_then_key_length() -> None:
    keys = ["./*", "./a/*", "./a/*.js", "./a/b*", "./a/b", "./ab*"]
    ordered = sorted(keys, key=functools.cmp_to_key(exports.pattern_key_compare))
    assert ordered == ["./a/b*", "./a/*.js", "./a/*", "./ab*", "./a/b", "./*"]
    # Longest part before "*" first; for the same part, the longer key; a plain key
    # sorts after the patterns whose part before "*" is as long as it.
    assert exports.pattern_key_compare("./a/b*", "./a/*") < 0
    assert exports.pattern_key_compare("./a/*.js", "./a/*") < 0
    assert exports.pattern_key_compare("./a/b", "./a/b*") > 0
    assert exports.pattern_key_compare("./a/*", "./a/*") == 0


@pytest.mark.parametrize(
    ("kind", "type_only", "expected"),
    [
        ("import", False, IMPORT),
        ("export", False, IMPORT),
        ("side-effect", False, IMPORT),
        ("dynamic", False, IMPORT),
        ("import", True, ("types", *IMPORT)),
        ("export", True, ("types", *IMPORT)),
        ("require", False, REQUIRE),
    ],
)
def test_conditions_by_kind(kind: str, type_only: bool, expected: tuple[str, ...]) -> None:
    assert exports.conditions_for(kind, type_only) == expected
    assert "default" in expected and ("require" in expected) is (kind == "require")


def test_the_most_specific_pattern_wins_whatever_the_key_order() -> None:
    forward = {"./*": "./any/*.js", "./lib/*": "./lib/*.js", "./lib/x": "./exact.js"}
    backward = dict(reversed(list(forward.items())))
    for mapping in (forward, backward):
        assert exports.resolve(mapping, "lib/y", IMPORT).target == "./lib/y.js"
        assert exports.resolve(mapping, "lib/x", IMPORT).target == "./exact.js"
        assert exports.resolve(mapping, "other", IMPORT).target == "./any/other.js"
        result = exports.resolve(mapping, "lib/y", IMPORT)
        assert result.key == "./lib/*"


def test_condition_order_is_the_objects_own() -> None:
    mapping = {".": {"default": "./d.js", "import": "./i.js"}}
    assert exports.resolve(mapping, ".", IMPORT).target == "./d.js"
    mapping = {".": {"import": "./i.js", "require": "./r.cjs", "default": "./d.js"}}
    assert exports.resolve(mapping, ".", IMPORT).target == "./i.js"
    assert exports.resolve(mapping, ".", REQUIRE).target == "./r.cjs"


def test_errors_carry_nodes_codes_and_words() -> None:
    result = exports.resolve({"./a": "./a.js"}, "b", IMPORT, "pkg/package.json")
    assert result.code == "ERR_PACKAGE_PATH_NOT_EXPORTED"
    assert (
        result.message == "Package subpath './b' is not defined by \"exports\" in pkg/package.json"
    )
    assert exports.resolve({"./a": "./a.js"}, ".", IMPORT).message.startswith(
        'No "exports" main defined'
    )
    bad = exports.resolve({"./a": "./x/../a.js"}, "a", IMPORT)
    assert bad.code == "ERR_INVALID_PACKAGE_TARGET" and "'./a'" in bad.message
    segment = exports.resolve({"./*": "./lib/*.js"}, "x/../y", IMPORT)
    assert segment.code == "ERR_INVALID_MODULE_SPECIFIER"
    mixed = exports.resolve({".": "./a.js", "node": "./b.js"}, ".", IMPORT)
    assert mixed.code == "ERR_INVALID_PACKAGE_CONFIG"


def test_imports_targets_may_name_other_packages() -> None:
    # Node's documentation example for "imports".
    imports = {"#dep": {"node": "dep-node-native", "default": "./dep-polyfill.js"}}
    result = exports.resolve_imports(imports, "#dep", IMPORT)
    assert result.ok and result.external and result.target == "dep-node-native"
    assert exports.resolve_imports(imports, "#dep", ("browser",)).target == "./dep-polyfill.js"
    assert exports.resolve_imports(imports, "#other", IMPORT).code == (
        "ERR_PACKAGE_IMPORT_NOT_DEFINED"
    )
    assert exports.resolve_imports(imports, "#", IMPORT).code == "ERR_INVALID_MODULE_SPECIFIER"
    # An "exports" target may not.
    assert exports.resolve({".": "dep"}, ".", IMPORT).code == "ERR_INVALID_PACKAGE_TARGET"


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        ("pkg", ("pkg", ".")),
        ("pkg/a/b", ("pkg", "./a/b")),
        ("@s/pkg", ("@s/pkg", ".")),
        ("@s/pkg/a", ("@s/pkg", "./a")),
        ("pkg/", ("pkg", "./")),
    ],
)
def test_split_specifier(specifier: str, expected: tuple[str, str]) -> None:
    assert exports.split_specifier(specifier) == expected


@pytest.mark.parametrize("specifier", ["@s", ".pkg", "p%20kg", "p\\kg"])
def test_invalid_package_names(specifier: str) -> None:
    with pytest.raises(exports.ResolutionError) as caught:
        exports.split_specifier(specifier)
    assert caught.value.code == "ERR_INVALID_MODULE_SPECIFIER"


KEYS = st.sampled_from(
    [".", "./a", "./a/*", "./*", "./*.js", "./a/", "import", "require", "node", "default",
     "types", "0", "1.5", "", "./x*y", "./**"]
)  # fmt: skip
TARGETS = st.sampled_from(
    ["./a.js", "./*.js", "./lib/*", "./", "a.js", "../a", "./a/../b", "./node_modules/x",
     "http://x", "./%2e/a", "./a%2Fb", "./a//b.js", "./a?x", "#x"]
)  # fmt: skip
EXPORTS_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), TARGETS),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=12,
)
SUBPATHS = st.one_of(
    st.sampled_from(["", ".", "a", "a/b", "a/", "x.js", "a/../b", "./a", "%2e", "a\\b", "*"]),
    st.text(alphabet="a/.*%2e\\", max_size=8),
)


@settings(max_examples=400, deadline=None)
@given(EXPORTS_VALUES, SUBPATHS, st.sampled_from([IMPORT, REQUIRE, ("types", *IMPORT)]))
def test_resolve_always_answers_a_target_or_a_node_error(
    value: Any, subpath: str, conditions: tuple[str, ...]
) -> None:
    result = exports.resolve(value, subpath, conditions)
    assert result.ok != (result.code is not None)
    if result.ok:
        assert result.target is not None and result.target.startswith("./")
        assert "/../" not in result.target and "node_modules" not in result.target.lower()
    else:
        assert (
            result.code
            in {
                "ERR_PACKAGE_PATH_NOT_EXPORTED",
                "ERR_INVALID_PACKAGE_TARGET",
                "ERR_INVALID_PACKAGE_CONFIG",
                "ERR_INVALID_MODULE_SPECIFIER",
            }
            and result.message
        )


class _Files:
    def __init__(self, paths: set[str]) -> None:
        self.paths = paths

    def is_file(self, path: str) -> bool:
        return path in self.paths

    def is_dir(self, path: str) -> bool:
        return any(p.startswith(path.rstrip("/") + "/") for p in self.paths)

    def read_text(self, path: str) -> str | None:
        return '{"main": "lib"}' if path in self.paths and path.endswith("package.json") else None


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.sampled_from(["index.js", "a.js", "a/index.json", "lib/index.js", "b.node",
                             "a/package.json", "lib.js", "c"]), max_size=6),
    SUBPATHS,
    st.sampled_from(["import", "require"]),
)  # fmt: skip
def test_legacy_resolution_finds_only_files_that_exist(
    paths: set[str], subpath: str, system: str
) -> None:
    files = _Files(paths)
    result = resolution.resolve_subpath({}, subpath, system, files=files)
    if result.ok:
        assert result.target is not None and files.is_file(result.target.removeprefix("./"))
    else:
        assert result.code in {
            "MODULE_NOT_FOUND",
            "ERR_MODULE_NOT_FOUND",
            "ERR_UNSUPPORTED_DIR_IMPORT",
            "ERR_INVALID_MODULE_SPECIFIER",
        }
