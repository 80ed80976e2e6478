"""Gate 13, call_graph_claims (advisory): flag sentences and diagrams that assert wiring.

Symbol grounding proves a name exists, not that a sentence about it is true. This gate
cannot verify a call graph either; it measures how dense a post is with claims of the
shapes an audit found fabricated (nine line patterns plus function-flow mermaid diagrams)
so that a human checks each one against source. The patterns are the seeds' own, compiled
with ``re.ASCII`` so that ``\\b`` and ``\\w`` mean what they mean in JavaScript.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pytest_postgates.config import option
from pytest_postgates.gates.base import CheckResult, Decision, Gate, GateContext, settings_only
from pytest_postgates.helpers.claim_scan import (
    Claim,
    MermaidFlow,
    mermaid_function_flow,
    scan_claims,
    scan_mermaid,
)
from pytest_postgates.helpers.claims import CODES, PATTERNS
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

MERMAID_WEIGHT = 3

NOTE_PASS = "Behaviour-altitude: few specific call-graph assertions."
NOTE_FAIL = (
    "Call-graph-dense. Each claim below must be verified against source or de-specified "
    "before publishing (esp. for Deep Dive posts)."
)


def check(post: Post, context: GateContext) -> CheckResult:
    threshold = context.settings.for_gate(CallGraphClaimsSettings).call_graph_threshold
    claims = scan_claims(post)
    flows = scan_mermaid(post)
    score = len(claims) + MERMAID_WEIGHT * len(flows)
    by_code = dict(sorted(Counter(claim.code for claim in claims).items()))
    detail = {
        "threshold": threshold,
        "claim_score": score,
        "claim_count": len(claims),
        "mermaid_function_flows": len(flows),
        "mermaid_blocks": [flow.to_dict() for flow in flows],
        "by_code": by_code,
        "note": NOTE_PASS if score <= threshold else NOTE_FAIL,
        "claims": [claim.to_dict() for claim in claims],
    }
    claim_fix = (
        "check this claim against the source; keep it only if it holds, otherwise describe "
        "what the component is for rather than how it is wired"
    )
    findings = [
        Finding(
            claim.line, claim.code, ("[in code] " if claim.in_code else "") + claim.text, claim_fix
        )
        for claim in claims
    ]
    for flow in flows:
        shown = ", ".join(flow.fn_labels or flow.camel_nodes)
        findings.append(
            Finding(
                flow.line,
                "MERMAID_FUNCTION_FLOW",
                f"diagram chains function names: {shown} (weight {MERMAID_WEIGHT})",
                "label the diagram's nodes with stages or responsibilities, not function calls",
            )
        )
    findings.sort(key=lambda finding: (finding.line or 0, finding.code))
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: CallGraphClaimsSettings) -> Decision:
    """The claim score of the findings left: suppressed claims and diagrams leave it."""
    kept = result.findings
    claims = [f for f in kept if f.code in CODES]
    flows = [f for f in kept if f.code == "MERMAID_FUNCTION_FLOW"]
    threshold = result.detail["threshold"]
    score = len(claims) + MERMAID_WEIGHT * len(flows)
    verdict: Literal["PASS", "FAIL"] = "PASS" if score <= threshold else "FAIL"
    kept_keys = {(f.line, f.code) for f in claims}
    flow_lines = {f.line for f in flows}
    detail = dict(result.detail)
    detail.update(
        claim_score=score,
        claim_count=len(claims),
        mermaid_function_flows=len(flows),
        mermaid_blocks=[b for b in detail["mermaid_blocks"] if b["line"] in flow_lines],
        by_code=dict(sorted(Counter(f.code for f in claims).items())),
        claims=[c for c in detail["claims"] if (c["line"], c["code"]) in kept_keys],
        note=NOTE_PASS if verdict == "PASS" else NOTE_FAIL,
    )
    comparison = "<=" if verdict == "PASS" else ">"
    summary = f"claim score {score} {comparison} threshold {threshold}"
    return Decision(verdict, summary, score, detail)


@dataclass(frozen=True)
class CallGraphClaimsSettings:
    """Gate 13's settings."""

    call_graph_threshold: int = option(
        6, "int", "the highest claim score that passes", env="CALL_GRAPH_CLAIM_THRESHOLD"
    )


GATE = Gate(
    id=13,
    name="call_graph_claims",
    advisory=True,
    kind="advisory",
    description="Few unverified call-graph claims (X calls Y, function-flow diagrams).",
    check=check,
    decide=decide,
    # The result depends on the post and the settings only.
    cache_inputs=settings_only,
    settings=CallGraphClaimsSettings,
)


# The scan lives in helpers/claim_scan.py (gate 16 reads it too); its names stay reachable here.
__all__ = [
    "GATE",
    "PATTERNS",
    "CallGraphClaimsSettings",
    "Claim",
    "MermaidFlow",
    "check",
    "decide",
    "mermaid_function_flow",
    "scan_claims",
    "scan_mermaid",
]
