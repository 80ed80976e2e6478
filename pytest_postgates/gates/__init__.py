"""The gate registry: every gate, in run order (which is also short-circuit order).

Each gate module declares its own :class:`~pytest_postgates.gates.base.Gate` as ``GATE``;
this tuple is the only list of them (as markdownlint's ``lib/rules.mjs``). Adding a gate is
one module and one line here. The gates' settings dataclasses reach config from here
(``SETTINGS_TYPES``), so that config never imports a gate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pytest_postgates.config import Settings
from pytest_postgates.gates import (
    blog_quality,
    call_graph_claims,
    claim_review,
    code_samples,
    hhem,
    import_specifiers,
    markdownlint,
    multi_llm_rubric,
    narrative_opening,
    numerical_claims,
    readability_links,
    symbol_grounding,
    tone_fit,
    wiring_claims,
)
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    GateSpec,
)

GATES: tuple[Gate, ...] = (
    blog_quality.GATE,
    symbol_grounding.GATE,
    import_specifiers.GATE,
    code_samples.GATE,
    numerical_claims.GATE,
    readability_links.GATE,
    markdownlint.GATE,
    narrative_opening.GATE,
    # Gate 16 judges what gate 13 only flags; deterministic, it runs before the judges
    # (DESIGN.md's run order 9), so short-circuit never skips it.
    wiring_claims.GATE,
    tone_fit.GATE,
    multi_llm_rubric.GATE,
    hhem.GATE,
    claim_review.GATE,
    call_graph_claims.GATE,
)

BY_ID: dict[int, Gate] = {gate.id: gate for gate in GATES}
BY_NAME: dict[str, Gate] = {gate.name: gate for gate in GATES}
POSITION: dict[int, int] = {gate.id: index for index, gate in enumerate(GATES)}
# Every gate's settings dataclass, handed to config (which never imports a gate).
SETTINGS_TYPES: tuple[type[Any], ...] = tuple(dict.fromkeys(gate.settings for gate in GATES))


def default_settings(**values: Any) -> Settings:
    """Settings that know every gate's keys, with their defaults; ``values`` set run-wide
    fields and gate keys alike (tests, benches, library use)."""
    return Settings.declare(SETTINGS_TYPES, **values)


def in_run_order(gates: Iterable[Gate]) -> list[Gate]:
    return sorted(gates, key=lambda gate: POSITION[gate.id])


__all__ = [
    "BY_ID",
    "BY_NAME",
    "GATES",
    "POSITION",
    "SETTINGS_TYPES",
    "CannotJudge",
    "CheckResult",
    "Decision",
    "Gate",
    "GateContext",
    "GateSpec",
    "default_settings",
    "in_run_order",
]
