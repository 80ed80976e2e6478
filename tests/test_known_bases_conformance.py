"""The JavaScript tables of pytest_postgates/evidence/known_bases.py against the TypeScript
compiler: the built-ins (JS_BASES), the web platform's option dictionaries
(JS_DICTIONARIES) and Node's types (NODE_TYPES) that gates 2 and 15 take as known without
reading anyone's code.

A key or member the table lacks would make gate 15 call a real one a miss, so every
property the compiler gives the type (tests/ts_known_types_oracle.js: TypeScript's ES2022
and DOM libraries with @types/node, at the versions pinned here) must be in the table. A
name the table has and the compiler does not must be in ``KEPT`` with why (a key an older
Node release declares, a member the runtime has that the declarations leave to Object).

The oracle folder is ``POSTGATES_TS_ORACLE_DIR`` (a ``node_modules`` holding typescript and
@types/node at these versions; .ci/run installs them), else the folder .ci/run installs
into; without either, or without Node, the test skips saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_postgates.evidence.known_bases import JS_BASES, JS_DICTIONARIES, NODE_TYPES

ORACLE_ENV = "POSTGATES_TS_ORACLE_DIR"
ORACLE_SCRIPT = Path(__file__).with_name("ts_known_types_oracle.js")
VERSIONS = {"typescript": "5.9.3", "@types/node": "26.6.11"}

# Table entry -> the type expressions whose properties together are its keys. A dictionary
# is the DOM's and undici's (Node's fetch) at once: a product's options extending
# RequestInit take either's keys.
EXPRESSIONS: dict[str, tuple[str, ...]] = {
    "Error": ("Error",),
    "Function": ("Function",),
    "Object": ("Object",),
    "EventEmitter": ("events.EventEmitter",),
    "EventTarget": ("EventTarget",),
    "Promise": ("Promise<number>",),
    "Uint8Array": ("Uint8Array",),
    "RequestInit": ("RequestInit", 'import("undici-types").RequestInit'),
    "ResponseInit": ("ResponseInit", 'import("undici-types").ResponseInit'),
    "URL": ("URL",),
    **{f"{module}.{name}": (f"{module}.{name}",) for module, name in NODE_TYPES},
}
TABLES: dict[str, frozenset[str]] = {
    **JS_BASES,
    **JS_DICTIONARIES,
    **{f"{module}.{name}": keys for (module, name), keys in NODE_TYPES.items()},
}
# (entry, name) -> why the table keeps a name the pinned declarations do not give the type.
KEPT: dict[tuple[str, str], str] = {
    ("Error", "toString"): "Error.prototype.toString at run time; the lib leaves it to Object",
    ("http.IncomingMessage", "asIndexedPairs"): (
        "Readable.asIndexedPairs: declared by @types/node before 22 (removed in Node 22); a "
        "page about an older Node may call it"
    ),
}


def _oracle_dir() -> Path:
    configured = os.environ.get(ORACLE_ENV)
    ci_node = Path(__file__).parents[1] / ".ci-node" / "node_modules"
    if not configured and (ci_node / "typescript").is_dir():
        configured = str(ci_node)
    if not configured:
        wanted = ", ".join(f"{p}@{v}" for p, v in VERSIONS.items())
        pytest.skip(f"{ORACLE_ENV} is not set (a node_modules folder with {wanted}; .ci/run)")
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed: the TypeScript compiler cannot run")
    folder = Path(configured)
    for package, version in VERSIONS.items():  # set but wrong is an error: CI sets it
        manifest = folder / package / "package.json"
        assert manifest.is_file(), f"{ORACLE_ENV}={folder} has no {package}"
        installed = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        assert installed == version, f"{package} is {installed}, the test pins {version}"
    return folder


@pytest.fixture(scope="module")
def compiler_keys() -> dict[str, set[str]]:
    """Each table entry -> the properties the compiler gives its types together."""
    folder = _oracle_dir()
    wanted = {
        f"{entry}#{i}": e for entry, exprs in EXPRESSIONS.items() for i, e in enumerate(exprs)
    }
    done = subprocess.run(
        ["node", str(ORACLE_SCRIPT), str(folder), json.dumps(wanted)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen: dict[str, list[str]] = json.loads(done.stdout)
    return {
        entry: set().union(*(seen[f"{entry}#{i}"] for i in range(len(exprs))))
        for entry, exprs in EXPRESSIONS.items()
    }


def test_every_table_is_compared() -> None:
    assert set(EXPRESSIONS) == set(TABLES)


@pytest.mark.parametrize("entry", sorted(EXPRESSIONS))
def test_a_known_type_has_every_key_the_compiler_gives_it(
    entry: str, compiler_keys: dict[str, set[str]]
) -> None:
    declared = compiler_keys[entry]
    assert declared, f"the compiler gave {entry} no properties"
    assert not declared - TABLES[entry], f"{entry} lacks {sorted(declared - TABLES[entry])}"


@pytest.mark.parametrize("entry", sorted(EXPRESSIONS))
def test_a_known_type_claims_no_key_the_compiler_lacks_unless_kept(
    entry: str, compiler_keys: dict[str, set[str]]
) -> None:
    claimed = {name for name in TABLES[entry] - compiler_keys[entry] if (entry, name) not in KEPT}
    assert not claimed, f"{entry} claims {sorted(claimed)}, which the declarations lack"
    stale = {name for (kept_entry, name) in KEPT if kept_entry == entry} & compiler_keys[entry]
    assert not stale, f"KEPT names {sorted(stale)} of {entry}, which the compiler now gives"
