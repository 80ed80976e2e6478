"""What a gate is, what it is given, and the one lifecycle every gate follows.

A gate module declares one :class:`Gate` (its id, test name, defaults, description,
functions and settings dataclass) and ``gates/__init__.py`` lists the declarations in run
order. Every gate lives
the same life, driven by the runner:

1. ``check(post, context)`` reads the post and the evidence and returns a
   :class:`CheckResult`: its findings and the scorecard's detail. A gate that cannot judge
   the post (no judge configured, no repository, a tool that would not run) raises
   :class:`CannotJudge` with SKIP or ERROR and the reason instead.
2. The runner sets the findings the post's inline directives suppress aside (they move to
   the detail's ``suppressed`` list), the same way for every gate.
3. ``decide(result, settings)`` sets the verdict, summary and score from the findings that
   are left (and may recompute the detail: a share, a claim density), as a
   :class:`Decision`; ``settings`` is the gate's own settings dataclass for the run.

A gate's own settings are a frozen dataclass in its module whose fields are declared with
:func:`pytest_postgates.config.option` (key, kind, meaning, bounds); ``check`` reads them as
``context.settings.for_gate(TheGateSettings)``, typed.

Nothing here knows about pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pytest_postgates.batch import RunBatches
from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.cache import EvidenceCache
from pytest_postgates.evidence.repomap import RepoSlice, post_slice
from pytest_postgates.post import PARSED_AHEAD, ParsedAhead
from pytest_postgates.results import ResultCache
from pytest_postgates.scorecard import Finding, Scorecard, Verdict

if TYPE_CHECKING:
    from pytest_postgates.post import Post

GateKind = Literal["hard", "llm", "advisory"]


class PostSource(Protocol):
    """One post as the runner holds it: its path, its bytes (None when refused unread)
    and its parse, made on first use under the gate budget (None when that overran)."""

    path: Path

    @property
    def raw(self) -> bytes | None: ...

    def parsed(self) -> Post | None: ...


@dataclass
class GateContext:
    """What every gate is given besides the post: the settings, the repository evidence,
    the run's batches, the result cache and a per-run memo."""

    settings: Settings
    evidence: EvidenceCache
    batches: RunBatches = field(default_factory=RunBatches)
    results: ResultCache | None = None
    # Per-run answers gates compute once and reuse (for example a folder's lint inputs).
    memo: dict[Any, Any] = field(default_factory=dict)
    # The post whose cache key is being computed, set by the runner around ``cache_inputs``:
    # a gate whose key needs the post's content reads the run's bytes and its one parse.
    current: PostSource | None = None
    # Where a gate doing long work (gate 6 asking every link of the site) says how far it
    # is: the terminal in pytest's main process, None (silent) elsewhere.
    announce: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        if self.results is None:
            self.results = ResultCache(None, self.settings)

    def parsed_ahead(self, path: Path, data: bytes) -> Post | None:
        """The post a gate parsed from ``path`` with these bytes before the runner reached
        it (gate 15's cache key parses its folder's pages: :class:`~pytest_postgates.post.
        ParsedAhead`), handed once; None when none was."""
        ahead = self.memo.get(PARSED_AHEAD)
        return ahead.take(path, data) if isinstance(ahead, ParsedAhead) else None

    def repo_slice(self, post: Post, focus: Sequence[str] = ()) -> RepoSlice:
        """The repository evidence for ``post`` (see :func:`evidence.repomap.post_slice`)
        under the run's settings. Raises GitError when there is no repository."""
        return post_slice(
            post,
            self.evidence.index_for(post.path),
            self.evidence.cache_dir,
            self.settings.repomap_budget,
            self.settings.symbol_allowlist,
            focus,
        )

    @classmethod
    def create(
        cls,
        settings: Settings,
        cache_dir: Path | None = None,
        batches: RunBatches | None = None,
        cache_results: bool = False,
    ) -> GateContext:
        evidence = EvidenceCache(settings, cache_dir)
        results = ResultCache(evidence.cache_dir / "results" if cache_results else None, settings)
        return cls(settings, evidence, batches or RunBatches(), results)


class CannotJudge(Exception):
    """Raised by a gate's ``check`` when it cannot judge the post: ``SKIP`` when the check
    is not configured or does not apply (no judge, no tone), ``ERROR`` when it should run
    and cannot (no repository, an engine that would not start). ``reason`` is the
    scorecard's summary; ``detail`` defaults to ``{"reason": ...}`` for a SKIP and
    ``{"error": ...}`` for an ERROR."""

    def __init__(
        self,
        verdict: Literal["SKIP", "ERROR"],
        reason: str,
        detail: dict[str, Any] | None = None,
        findings: Sequence[Finding] = (),
    ) -> None:
        super().__init__(reason)
        self.verdict: Literal["SKIP", "ERROR"] = verdict
        self.reason = reason
        key = "reason" if verdict == "SKIP" else "error"
        self.detail: dict[str, Any] = {key: reason} if detail is None else detail
        self.findings = list(findings)


@dataclass
class CheckResult:
    """What ``check`` found: the findings, the scorecard's detail, and ``facts`` that
    ``decide`` needs but the scorecard does not report (a linter's version, say)."""

    findings: list[Finding]
    detail: dict[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """What ``decide`` made of the findings left after suppression. ``detail`` replaces
    the checked detail when the gate recomputes it (None: the detail as checked)."""

    verdict: Literal["PASS", "FAIL"]
    summary: str
    score: float | int | None = None
    detail: dict[str, Any] | None = None


@dataclass(frozen=True)
class NoSettings:
    """The settings of a gate that has none of its own."""


Check = Callable[["Post", GateContext], CheckResult]
# The second argument is the gate's own settings (an instance of Gate.settings).
Decide = Callable[[CheckResult, Any], Decision]
CacheInputs = Callable[[Path, GateContext], "str | None"]
AdvisoryReason = Callable[[Path, GateContext], "str | None"]


@dataclass(frozen=True)
class Gate:
    """One gate, declared once in its module."""

    id: int
    name: str  # the test name: item names, scorecard files, suppression directives
    advisory: bool  # the seeds' default; [tool.postgates.gates] may override it
    kind: GateKind  # "llm": decided by LLM judges (hard unless overridden)
    description: str  # one sentence: SARIF rules, the HTML report, the docs' gate table
    check: Check = field(compare=False)
    decide: Decide = field(compare=False)
    # What else the result depends on, as a string for the result-cache key; None from
    # the function means "do not cache this time". Gates without it are never cached.
    cache_inputs: CacheInputs | None = field(default=None, compare=False)
    # Whether a SKIP is cached too: for gates whose cache_inputs answer only when the
    # SKIP follows from them alone (a judge gate with no judge configured), so that an
    # unchanged post is not read again only to be skipped. Other SKIPs are decided anew.
    caches_skip: bool = False
    # Run-wide batches the gate reads (RunBatches.posts_for): each covers only the posts
    # whose item of this gate is selected, so `-k one-post` batches one post.
    batches: tuple[str, ...] = ()
    # Whether a run of the gate costs money or minutes (an LLM judge's calls, a model to
    # load): what short_circuit = "judges" skips once a hard gate of the post failed.
    paid: bool = False
    # Why the gate is advisory for this post although the catalogue makes it hard (the
    # project has not adopted what it enforces), or None; gates.<name>.advisory wins.
    advisory_reason: AdvisoryReason | None = field(default=None, compare=False)
    # The anchor (an HTML id) of the gate's page of the docs site that documents it.
    anchor: str = ""
    # The gate's own settings: a frozen dataclass of config.option() fields (its keys).
    settings: type[Any] = NoSettings

    @property
    def help_anchor(self) -> str:
        return self.anchor or f"gate-{self.id}"

    @property
    def docs_page(self) -> str:
        """The gate's page of the docs site, relative to ``docs/``."""
        return f"gates/{self.id:02d}-{self.name.replace('_', '-')}.md"

    @property
    def default_label(self) -> str:
        """The default severity as the docs' gate table shows it."""
        if self.kind == "llm":
            return "LLM judge (hard)" if not self.advisory else "LLM judge (advisory)"
        return "advisory" if self.advisory else "hard"

    def card(
        self,
        verdict: Verdict,
        detail: dict[str, Any],
        findings: list[Finding] | None = None,
        summary: str = "",
        score: float | int | None = None,
    ) -> Scorecard:
        return Scorecard(
            gate=self.id,
            name=self.name,
            advisory=self.advisory,
            verdict=verdict,
            detail=detail,
            findings=findings or [],
            summary=summary,
            score=score,
        )

    def cannot_judge(self, exc: CannotJudge) -> Scorecard:
        return self.card(exc.verdict, exc.detail, exc.findings, exc.reason)

    def settings_in(self, settings: Settings) -> Any:
        """This gate's own settings in the run's ``settings``."""
        return settings.for_gate(self.settings)

    def decided(
        self, result: CheckResult, settings: Settings, suppressed: bool = False
    ) -> Scorecard:
        """The scorecard of ``result`` (its findings already without suppressed ones)
        under the run's ``settings``: ``decide`` is given the gate's own."""
        decision = self.decide(result, self.settings_in(settings))
        detail = result.detail if decision.detail is None else decision.detail
        summary = f"{decision.summary} (after suppression)" if suppressed else decision.summary
        return self.card(decision.verdict, detail, result.findings, summary, decision.score)

    def evaluate(self, post: Post, context: GateContext) -> Scorecard:
        """The gate's scorecard for ``post`` without inline suppression or the result cache
        (unit tests, library use); a bug in the gate raises."""
        try:
            result = self.check(post, context)
        except CannotJudge as exc:
            return self.cannot_judge(exc)
        return self.decided(result, context.settings)


# The declaration's name before the registry (issue 14): code typed against it still works.
GateSpec = Gate


def commit_inputs(post_path: Path, context: GateContext) -> str | None:
    """``cache_inputs`` for gates that depend on the post and the grounding commit only."""
    try:
        evidence = context.evidence.for_post(post_path)
    except GitError:
        return None
    return f"{evidence.root}@{evidence.commit}"


def without_judges(post_path: Path, context: GateContext) -> str | None:
    """``cache_inputs`` for judge gates: with no judge configured the gate SKIPs whatever
    the post says (cacheable, with ``caches_skip``); with one, never cached."""
    return None if context.settings.judges else "no judges"


def settings_only(post_path: Path, context: GateContext) -> str | None:
    """``cache_inputs`` for gates whose result depends on the post and the settings only."""
    return ""


def fail_on_findings(result: CheckResult, summary: str) -> Decision:
    """FAIL while any finding is left, scored by their number."""
    findings = result.findings
    return Decision("FAIL" if findings else "PASS", summary, len(findings))
