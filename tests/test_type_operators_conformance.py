"""The type model's mapped types, indexed access and object-test conditionals against the
TypeScript compiler (issue 26's conformance point): for each type expression below, the
keys gate 15 takes in an object literal passed to a parameter of that type are exactly the
properties the compiler gives the type. Checked by passing every property the compiler
lists (none may be a finding) and one it does not (it must be one).

The oracle is tests/ts_known_types_oracle.js with the TypeScript compiler from
``POSTGATES_TS_ORACLE_DIR`` (see tests/test_known_bases_conformance.py); without it, or
without Node, the test skips saying so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged
from tests.test_known_bases_conformance import ORACLE_SCRIPT, _oracle_dir

# Each written with no declaration of its own (the oracle reads type expressions).
EXPRESSIONS = {
    "mapped over literal keys": "{ readonly [K in 'verbose' | 'quiet']?: boolean }",
    "mapped over keyof": (
        "{ [P in keyof { retry: number; timeout: number }]?: "
        "{ retry: number; timeout: number }[P] | string }"
    ),
    "indexed access": "({ retry: { limit: number; methods: string[] }; other: 1 })['retry']",
    "object-test conditional, object": (
        "({ a: 1 } extends Record<string, any> ? { chosen: 1; also: 2 } : { other: 1 })"
    ),
    "object-test conditional, primitive": (
        "(string extends object ? { chosen: 1 } : { fallback: 1; second: 2 })"
    ),
    # An array is an object and takes `Record<string, any>` (DeepPartial over an array
    # field), but has no index signature for `Record<string, unknown>`.
    "object-test conditional, array": (
        "(string[] extends Record<string, any> ? { chosen: 1; also: 2 } : { other: 1 })"
    ),
    "unknown-record conditional, array": (
        "(string[] extends Record<string, unknown> ? { chosen: 1 } : { fallback: 1; second: 2 })"
    ),
    "mapped over an Omit": (
        "{ [P in keyof Omit<{ keep: 1; drop: 2; also: 3 }, 'drop'>]?: number }"
    ),
    # A method signature is a property of a function type (issue 26: a callback written
    # there is typed by its parameters); its key is taken like any other.
    "a method signature beside a property": (
        "{ external?(context: { chart: number }): void; enabled?: boolean }"
    ),
}
INVENTED = "zzInvented"


@pytest.fixture(scope="module")
def compiler_keys() -> dict[str, list[str]]:
    folder = _oracle_dir()
    done = subprocess.run(
        ["node", str(ORACLE_SCRIPT), str(folder), json.dumps(EXPRESSIONS)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    keys: dict[str, list[str]] = json.loads(done.stdout)
    return keys


@pytest.mark.parametrize("label", sorted(EXPRESSIONS))
def test_the_model_takes_exactly_the_compiler_s_properties(
    label: str, compiler_keys: dict[str, list[str]], tmp_path: Path
) -> None:
    properties = compiler_keys[label]
    assert properties, f"the compiler gave {label} no properties"
    assert INVENTED not in properties
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "probe", "exports": {".": "./src/index.ts"}}),
            "src/index.ts": f"export function probe(options: {EXPRESSIONS[label]}): void {{}}\n",
        },
    )
    written = ", ".join(f"{name}: 1" for name in [*properties, INVENTED])
    card = sample_card(f"import {{ probe }} from 'probe';\nprobe({{ {written} }});\n", "ts",
                       tmp_path, repo)  # fmt: skip
    assert _violations(card) == [("option_key", INVENTED)], _unjudged(card)
