"""Gate 14's resolver against the real Node, case by case (tests/exports_cases.py).

Every (package, subpath, kind) case, and those of random package shapes drawn with a fixed
seed, is asked of one ``node`` process and of :mod:`pytest_postgates.evidence.resolution`,
given the same files; the answers must be the same target or the same Node error code,
for ``import``, ``require`` and ``import type`` alike.
``bench/exports_conformance.py`` prints the figure (and what bc781c7's gate 14 scored).
Skips with a reason where Node is absent (``POSTGATES_NODE`` names another binary).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests import exports_cases
from tests import node_resolution_oracle as oracle

NODE = oracle.find_node()
needs_node = pytest.mark.skipif(
    NODE is None, reason="node is not on PATH (and POSTGATES_NODE is not set): no oracle to ask"
)


# Beyond the written cases, the same node process answers random shapes (a fixed seed):
# RANDOM exports maps and as many packages without exports.
RANDOM = 25


@pytest.fixture(scope="module")
def agreement(tmp_path_factory: pytest.TempPathFactory) -> oracle.Agreement:
    assert NODE is not None
    fixtures = exports_cases.FIXTURES + exports_cases.random_fixtures(seed=1, count=RANDOM)
    return oracle.measure(NODE, tmp_path_factory.mktemp("node-resolution"), fixtures)


def test_the_suite_is_large_and_draws_on_every_source() -> None:
    cases = oracle.all_cases()
    assert len(cases) >= 250
    kinds = Counter("import type" if c.type_only else c.kind for c in cases)
    assert kinds["import"] >= 250 and kinds["require"] >= 250 and kinds["import type"] >= 5
    sources = Counter(exports_cases.FIXTURES[c.number]["source"] for c in cases)
    assert set(sources) == {"resolve.exports", "resolve-pkg-maps", "node-docs", "own"}
    assert min(sources.values()) >= 30
    assert sum(c.internal for c in cases) >= 60  # "#name" specifiers of "imports" maps
    # Exports absent or null are asked too (the legacy resolution).
    legacy = [f for f in exports_cases.FIXTURES if f.get("exports", "absent") in ("absent", None)]
    assert len(legacy) >= 8


@needs_node
@pytest.mark.parametrize("kind", ["import", "require", "import type"])
def test_every_case_resolves_as_node_resolves_it(agreement: oracle.Agreement, kind: str) -> None:
    agreeing, total = agreement.by_kind[kind]
    lines = agreement.disagreements.get(kind, [])
    assert agreeing == total, f"node {agreement.version}: {agreeing}/{total}\n" + "\n".join(lines)


@needs_node
def test_node_answers_with_every_kind_of_outcome(agreement: oracle.Agreement) -> None:
    """The suite exercises each error Node has for package resolution, not just success."""
    for code in (
        None,
        "ERR_PACKAGE_PATH_NOT_EXPORTED",
        "ERR_INVALID_PACKAGE_TARGET",
        "ERR_INVALID_PACKAGE_CONFIG",
        "ERR_INVALID_MODULE_SPECIFIER",
        "ERR_MODULE_NOT_FOUND",
        "ERR_UNSUPPORTED_DIR_IMPORT",
        "MODULE_NOT_FOUND",
        "ERR_PACKAGE_IMPORT_NOT_DEFINED",
    ):
        assert agreement.node_codes.get(code, 0) >= 5, (code, agreement.node_codes)
