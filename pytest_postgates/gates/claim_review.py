"""Gate 10, claim_review (advisory): a judge checks each claim against the repo map.

Symbol grounding proves that names exist and call_graph_claims counts sentences that
assert wiring; neither says whether a sentence is true. This gate, the seeds' Yama-style
review, asks: every sentence that carries inline code or a call-graph shape (the
patterns of gate 13) is a claim, and the judge (the first configured) reviews each one
against the repo-map slice, with the files that define the claim's own code tokens first.

Per claim the judge answers supported, contradicted or unverifiable, with evidence and a
reason; the findings go to ``<scorecards>/reviews/<post-stem>.json``, the artifact a
human reads before merging. The gate FAILs (an expected failure: it is advisory) when a
claim is contradicted.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence import GitError
from pytest_postgates.fileio import write_atomic
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    NoSettings,
    without_judges,
)
from pytest_postgates.helpers.claims import PATTERNS
from pytest_postgates.judges import (
    NO_JUDGE_SUMMARY,
    ChatRequest,
    InvalidReply,
    client_for,
    no_judge_detail,
    parse_object,
    shorten,
    text,
)
from pytest_postgates.scorecard import Finding, dumps, safe_stem

if TYPE_CHECKING:
    from pytest_postgates.post import Post
    from pytest_postgates.prose import Sentence

VERDICTS = ("supported", "contradicted", "unverifiable")
MAX_CLAIMS = 80  # a post with more claims than this needs a human, not 80 more requests
CLAIM_LIMIT = 600


def find_claims(post: Post) -> list[tuple[Sentence, list[str], list[str]]]:
    """(sentence, its inline-code tokens, the call-graph codes it matches) per claim."""
    claims = []
    for sentence in post.prose.sentences():
        codes = [code for code, pattern in PATTERNS if pattern.search(sentence.text)]
        if sentence.has_code or codes:
            claims.append((sentence, sentence.code_texts, codes))
    return claims


def review_path(folder: Path, post: Post) -> Path:
    """``<scorecards>/reviews/<stem>.json``; the name is made safe and cannot leave the
    reviews folder."""
    reviews = folder / "reviews"
    target = reviews / f"{safe_stem(post.stem)}.json"
    if target.resolve().parent != reviews.resolve():
        raise ValueError(f"review file name for {post.path.name!r} would leave {reviews}")
    return target


def _messages(claim: str, evidence: str) -> tuple[tuple[str, str], ...]:
    system = (
        "You review one claim from a technical blog post against a map of the repository "
        "it describes: file paths, and per file the definitions (functions, classes, "
        "methods, constants) with line numbers and signatures, or raw file text.\n"
        'Answer "supported" only when the map shows what the claim says, "contradicted" '
        "when the map shows otherwise (a name defined elsewhere or not at all, a different "
        'signature or kind), and "unverifiable" when the map cannot settle it.\n'
        'Reply with only a JSON object: {"verdict": "supported|contradicted|unverifiable", '
        '"evidence": "<path:line you relied on, or empty>", "reason": "<one sentence>"}'
    )
    user = f"Repository map:\n{evidence or '(empty)'}\n\nClaim:\n{claim}"
    return (("system", system), ("user", user))


def _review(content: str | None, error: str | None) -> dict[str, str]:
    if content is None:
        return {"verdict": "error", "evidence": "", "reason": error or "no reply"}
    try:
        data = parse_object(content)
        verdict = data.get("verdict")
        if not isinstance(verdict, str) or verdict.strip().lower() not in VERDICTS:
            raise InvalidReply(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    except InvalidReply as exc:
        return {"verdict": "invalid", "evidence": "", "reason": shorten(str(exc), 200)}
    return {
        "verdict": verdict.strip().lower(),
        "evidence": text(data, "evidence", 200),
        "reason": text(data, "reason", 300),
    }


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    if not settings.judges:
        raise CannotJudge("SKIP", NO_JUDGE_SUMMARY, no_judge_detail())
    judge = settings.judges[0]
    found = find_claims(post)
    claims = found[:MAX_CLAIMS]
    try:
        overall = context.repo_slice(post)
        slices = [context.repo_slice(post, focus=tokens) for _, tokens, _ in claims]
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    requests = [
        ChatRequest(judge, _messages(sentence.text[:CLAIM_LIMIT], piece.text))
        for (sentence, _, _), piece in zip(claims, slices, strict=True)
    ]
    with client_for(context.settings, context.evidence.cache_dir) as client:
        replies = client.complete_all(requests)
    reviewed = []
    for (sentence, tokens, codes), reply in zip(claims, replies, strict=True):
        row: dict[str, Any] = {"claim": shorten(sentence.text, CLAIM_LIMIT), "line": sentence.line}
        row.update(_review(reply.content, reply.error))
        row["tokens"] = tokens
        row["shapes"] = codes
        reviewed.append(row)
    counts = {name: 0 for name in (*VERDICTS, "invalid", "error")}
    for row in reviewed:
        counts[row["verdict"]] += 1
    report = {
        "gate": 10,
        "post": post.path.name,
        "judge": judge.name,
        "model": judge.model,
        "commit": overall.commit,
        "evidence": overall.to_detail(),
        "claims": reviewed,
        "counts": counts,
        "claims_found": len(found),
        "claims_reviewed": len(claims),
    }
    target = review_path(settings.scorecards, post)
    write_atomic(target, dumps(report))
    detail = {
        "review_file": f"reviews/{target.name}",
        "counts": counts,
        "claims_found": len(found),
        "claims_reviewed": len(claims),
        "evidence": overall.to_detail(),
        "contradicted": [
            {
                "line": r["line"],
                "claim": r["claim"],
                "evidence": r["evidence"],
                "reason": r["reason"],
            }
            for r in reviewed
            if r["verdict"] == "contradicted"
        ],
    }
    if claims and counts["error"] == len(claims):
        summary = "the judge did not answer: " + "; ".join(sorted({r["reason"] for r in reviewed}))
        detail["error"] = summary
        raise CannotJudge("ERROR", summary, detail)
    findings = [
        Finding(
            row["line"],
            row["verdict"].upper(),
            f"{row['claim']} ({row['reason']}"
            + (f"; evidence {row['evidence']})" if row["evidence"] else ")"),
            "check the claim against the source and correct or de-specify it"
            if row["verdict"] == "contradicted"
            else "",
        )
        for row in reviewed
        if row["verdict"] != "supported"
    ]
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: NoSettings) -> Decision:
    """FAIL while a contradicted claim is left."""
    detail, counts = result.detail, result.detail["counts"]
    contradicted = sum(finding.code == "CONTRADICTED" for finding in result.findings)
    reviewed, found = detail["claims_reviewed"], detail["claims_found"]
    summary = (
        f"{reviewed} claim(s) reviewed: {counts['supported']} supported, "
        f"{counts['contradicted']} contradicted, {counts['unverifiable']} unverifiable"
        + (
            f", {counts['invalid'] + counts['error']} without a valid review"
            if counts["invalid"] + counts["error"]
            else ""
        )
        + (f" (first {MAX_CLAIMS} of {found})" if found > reviewed else "")
    )
    return Decision("FAIL" if contradicted else "PASS", summary, contradicted)


GATE = Gate(
    id=10,
    name="claim_review",
    advisory=True,
    kind="advisory",
    description="A judge reviews each code claim against the repository slice.",
    paid=True,
    check=check,
    decide=decide,
    cache_inputs=without_judges,
    caches_skip=True,
)
