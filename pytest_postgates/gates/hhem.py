"""Gate 9, hhem (advisory): Vectara's HHEM-2.1-Open scores each paragraph against the code.

HHEM is an NLI-style hallucination classifier: given a premise and a hypothesis it says,
from 0 to 1, how far the premise supports the hypothesis. Here the premise is the post's
repo-map slice and each prose paragraph is a hypothesis; paragraphs scoring below
``hhem_threshold`` (0.1) are flagged as fabrication candidates. The threshold is low on
purpose: HHEM scores legitimate technical paraphrase conservatively ("calls" for
"delegates to" lands near 0.3), so only flat contradictions should fall under it, and the
gate stays advisory until that false-positive rate is calibrated away.

The model runs through transformers, from ``hhem_model`` (a local folder) or from the
local Hugging Face cache, and is never downloaded during a run: the hub is switched to
offline mode and ``local_files_only`` is passed. Without transformers and torch (the
``hhem`` extra) or without the model on disk the gate SKIPs and says which is missing.
Loading trusts the model's own code (``trust_remote_code``, as HHEM requires), which is
why it is only ever loaded from files already on this machine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import option
from pytest_postgates.evidence import GitError
from pytest_postgates.gates.base import CannotJudge, CheckResult, Decision, Gate, GateContext
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

HHEM_REPO = "vectara/hallucination_evaluation_model"
INSTALL_HINT = (
    "pip install 'pytest-postgates[hhem]', then fetch the model once outside the run "
    f"(huggingface-cli download {HHEM_REPO} and google/flan-t5-base, its tokenizer) or set "
    "hhem_model to a local copy"
)
TEXT_LIMIT = 160

# A scorer takes (premise, hypothesis) pairs and returns one score in [0, 1] per pair.
Scorer = Callable[[Sequence[tuple[str, str]]], Sequence[float]]

_SCORERS: dict[str, Scorer | str] = {}
_LOCK = threading.Lock()


def _importable(name: str) -> bool:
    if name in sys.modules:
        return sys.modules[name] is not None
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@contextlib.contextmanager
def _offline() -> Iterator[None]:
    """The Hugging Face hub in offline mode while the model loads: HHEM's own code loads
    its tokenizer by name, without ``local_files_only``, so the environment has to say it.
    huggingface_hub reads the variable at import, so an already imported hub is told too."""
    names = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    saved = {name: os.environ.get(name) for name in names}
    constants = sys.modules.get("huggingface_hub.constants")
    saved_constant = getattr(constants, "HF_HUB_OFFLINE", None)
    for name in names:
        os.environ[name] = "1"
    if constants is not None:
        constants.HF_HUB_OFFLINE = True  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if constants is not None and saved_constant is not None:
            constants.HF_HUB_OFFLINE = saved_constant  # type: ignore[attr-defined]


def load_scorer(settings: HhemSettings) -> Scorer | str:
    """The HHEM scorer, or the reason it cannot be had (then the gate SKIPs). Loaded once
    per process and model source."""
    source = str(settings.hhem_model) if settings.hhem_model is not None else HHEM_REPO
    with _LOCK:
        if source in _SCORERS:
            return _SCORERS[source]
        result = _load(settings, source)
        _SCORERS[source] = result
        return result


def _load(settings: HhemSettings, source: str) -> Scorer | str:
    missing = [name for name in ("transformers", "torch") if not _importable(name)]
    if missing:
        return f"{' and '.join(missing)} not installed: {INSTALL_HINT}"
    if settings.hhem_model is not None and not settings.hhem_model.is_dir():
        return f"hhem_model folder {settings.hhem_model.name!r} does not exist: {INSTALL_HINT}"
    try:
        with _offline():
            import torch  # type: ignore[import-not-found]  # optional extra, no stubs
            from transformers import (  # type: ignore[import-not-found]
                AutoModelForSequenceClassification,
            )

            model = AutoModelForSequenceClassification.from_pretrained(
                source, trust_remote_code=True, local_files_only=True
            )
            model.eval()
    except Exception as exc:  # OSError (not on disk), ValueError, import errors inside
        where = "hhem_model" if settings.hhem_model is not None else "the Hugging Face cache"
        return f"HHEM-2.1-Open is not available in {where} ({type(exc).__name__}): {INSTALL_HINT}"

    def score(pairs: Sequence[tuple[str, str]]) -> Sequence[float]:
        with torch.no_grad():
            values = model.predict(list(pairs))
        return [float(value) for value in values]

    return score


def evaluate(
    post: Post, premise: str, scorer: Scorer, threshold: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(every paragraph with its score, the flagged ones): flagged means strictly below
    the threshold, so a score of exactly 0.1 passes at the default."""
    found = post.prose.paragraphs
    hypotheses = [paragraph.plain for paragraph in found]
    scores = list(scorer([(premise, hypothesis) for hypothesis in hypotheses])) if found else []
    if len(scores) != len(found):
        raise ValueError(f"HHEM returned {len(scores)} scores for {len(found)} paragraphs")
    rows = []
    for paragraph, hypothesis, value in zip(found, hypotheses, scores, strict=True):
        rows.append(
            {
                "line": paragraph.line,
                "score": round(float(value), 4),
                "flagged": float(value) < threshold,
                "text": hypothesis[:TEXT_LIMIT],
            }
        )
    return rows, [row for row in rows if row["flagged"]]


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings.for_gate(HhemSettings)
    scorer = load_scorer(settings)
    if isinstance(scorer, str):
        raise CannotJudge("SKIP", scorer)
    try:
        piece = context.repo_slice(post)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    threshold = settings.hhem_threshold
    rows, flagged = evaluate(post, piece.text, scorer, threshold)
    detail = {
        "threshold": threshold,
        "model": "HHEM-2.1-Open",
        "premise": piece.to_detail(),
        "paragraphs": [{k: v for k, v in row.items() if k != "text"} for row in rows],
        "flagged": [{"line": r["line"], "score": r["score"], "text": r["text"]} for r in flagged],
    }
    findings = [
        Finding(
            row["line"],
            "HHEM_LOW",
            f"score {row['score']} < {threshold}: {row['text']}",
            "check this paragraph against the code it describes; it reads as unsupported",
        )
        for row in flagged
    ]
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: HhemSettings) -> Decision:
    detail = result.detail
    flagged = sum(finding.code == "HHEM_LOW" for finding in result.findings)
    rows = detail["paragraphs"]
    lowest = min((row["score"] for row in rows), default=None)
    summary = f"{flagged} of {len(rows)} paragraph(s) below {detail['threshold']}" + (
        f" (lowest {lowest})" if lowest is not None else ""
    )
    return Decision("FAIL" if flagged else "PASS", summary, lowest)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """Without a scorer (the extra not installed, no model folder) the gate SKIPs whatever
    the post says: cached under that reason, so installing the extra changes the key.
    With a scorer, never cached."""
    scorer = load_scorer(context.settings.for_gate(HhemSettings))
    return f"unavailable: {scorer}" if isinstance(scorer, str) else None


@dataclass(frozen=True)
class HhemSettings:
    """Gate 9's settings."""

    hhem_model: Path | None = option(
        None, "path", "local folder of the HHEM model", shown_default="the Hugging Face cache"
    )
    hhem_threshold: float = option(
        0.1, "float", "paragraphs scoring below this are flagged", bounds=(0, True, 1)
    )


GATE = Gate(
    id=9,
    name="hhem",
    advisory=True,
    kind="advisory",
    description="No paragraph reads as a hallucination against the repository slice.",
    paid=True,
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    caches_skip=True,
    settings=HhemSettings,
)
