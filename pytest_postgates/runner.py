"""Running the gates of one post: parse once, evaluate each gate once, short-circuit.

This module knows nothing about pytest; the plugin's items call into a :class:`PostRun`
(one per post per process) and turn its scorecards into test outcomes. Keeping it free of
pytest is what lets the CLI, the tests and future report formats share one behaviour.
"""

from __future__ import annotations

import sys
import traceback
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from pytest_postgates import budget, suppression
from pytest_postgates.gates import BY_NAME, GATES
from pytest_postgates.gates.base import CannotJudge, CheckResult, Gate, GateContext
from pytest_postgates.post import (
    FRONT_MATTER_ONLY,
    FrontMatterBlock,
    InputProblem,
    Post,
    PostRefused,
    find_front_matter,
    parse_post,
    read_front_matter,
    read_post_bytes,
)
from pytest_postgates.results import CacheWriteError
from pytest_postgates.scorecard import Finding, Scorecard

EXPECT_KEY = "postgates"


class CacheWarning(UserWarning):
    """The on-disk cache stopped working mid-run (full disk, read-only folder)."""


class ExpectationError(ValueError):
    """The post's ``postgates: expect:`` front matter is malformed."""


@dataclass(frozen=True)
class Expectation:
    """A known, declared outcome of one gate on one post (front matter
    ``postgates: {expect: {gate_name: FAIL}}`` or ``{verdict: FAIL, findings: 3}``)."""

    verdict: str
    findings: int | None = None

    def describe(self) -> str:
        extra = f" with {self.findings} finding(s)" if self.findings is not None else ""
        return f"{self.verdict}{extra}"


def advisory_reason(spec: Gate, path: Path, context: GateContext) -> str | None:
    """Why a gate the catalogue makes hard is advisory for the post at ``path`` (gate 12
    where the project adopted no markdownlint configuration); None when it is not."""
    if spec.advisory or spec.advisory_reason is None:
        return None
    if spec.name in context.settings.advisory_overrides:
        return None  # gates.<name>.advisory decides
    return spec.advisory_reason(path, context)


def is_advisory(spec: Gate, path: Path, context: GateContext) -> bool:
    """Whether a FAIL of ``spec`` on the post at ``path`` is an expected failure:
    ``gates.<name>.advisory`` where set, else the catalogue or the gate's reason."""
    overrides = context.settings.advisory_overrides
    if spec.name in overrides:
        return overrides[spec.name]
    return spec.advisory or advisory_reason(spec, path, context) is not None


@dataclass(frozen=True)
class ReadyCard:
    """A scorecard a look-ahead worker computed (lookahead.py), with what the gate printed
    and the warnings it raised there (category, message, file, line): given again where the
    gate would have run in this process, so that pytest captures them at its item."""

    card: Scorecard
    stdout: str = ""
    stderr: str = ""
    warned: tuple[tuple[type[Warning], str, str, int], ...] = ()

    def replay(self) -> Scorecard:
        sys.stdout.write(self.stdout)
        sys.stderr.write(self.stderr)
        for category, message, filename, lineno in self.warned:
            warnings.warn_explicit(message, category, filename, lineno)
        return self.card


class PostRun:
    """One post's gates in one process."""

    def __init__(
        self,
        path: Path,
        display: str,
        stem: str,
        context: GateContext,
        selected: Sequence[Gate] = (),
        roots: Sequence[Path] = (),
        refusal: InputProblem | None = None,
    ) -> None:
        self.path = path
        # A symlink resolving outside these folders (rootdir, repository) is never read.
        self.roots = tuple(roots)
        # Set when the file is refused before any read (a file name that is not UTF-8).
        self.refusal = refusal
        self.display = display  # path relative to the rootdir, used in output and files
        self.stem = stem
        self.context = context
        self.selected: list[Gate] = list(selected)
        self.cards: dict[int, Scorecard] = {}
        self.short_circuited_at: int | None = None
        self._parse_overrun: str | None = None  # what overran when the parse did
        self._keys: dict[int, str | None] = {}  # gate id -> its result-cache key (cache_key)
        self._prefetched = False  # the post's cached entries were read ahead (_prefetch)
        # Scorecards a look-ahead worker computed, by gate id: used in place of gating, after
        # this process's own short-circuit (a gate a worker leaves to it may fail here).
        self.ready: dict[int, ReadyCard] = {}

    @cached_property
    def raw(self) -> bytes | None:
        """The post's bytes, read once (the cache key needs them; parsing may not). None
        when the file is refused unread (see :attr:`refusal`)."""
        if self.refusal is not None:
            return None
        try:
            return read_post_bytes(self.path, self.roots)
        except PostRefused as refused:
            self.refusal = refused.problem
            return None

    @cached_property
    def post(self) -> Post:
        raw = self.raw
        if raw is None:
            post = Post(path=self.path)
            assert self.refusal is not None
            post.problems.append(self.refusal)
        else:
            post = self.context.parsed_ahead(self.path, raw) or parse_post(self.path, raw)
        post.stem = self.stem  # the run's scorecard stem (hashed when two posts share a name)
        return post

    def parsed(self) -> Post | None:
        """The post, parsed on first use under the gate budget, for a gate's cache key
        that needs its content; None when the parse overran (every gate then says so)."""
        if "post" in self.__dict__:
            return self.post
        if self._parse_overrun is not None:
            return None
        try:
            with budget.limit(self.context.settings.gate_timeout, f"reading {self.display}"):
                return self.post
        except budget.BudgetExceeded:
            self._parse_overrun = f"reading {self.display}"
            return None

    @cached_property
    def front_matter(self) -> dict[str, Any]:
        """The front matter, without a full parse when the post has not been parsed."""
        if "post" in self.__dict__ or self.raw is None:
            return self.post.front_matter or {}
        return read_front_matter(self.raw) or {}

    @cached_property
    def may_expect(self) -> bool:
        """Whether the front matter may declare expectations, told without loading it when
        the results came from the cache: the key is written in it, or a backslash is (a
        key spelt with escapes); otherwise loading the YAML of every post is the largest
        cost of a fully cached run after pytest's own."""
        if "post" in self.__dict__ or self.raw is None:
            return True
        try:
            text = self.raw.decode("utf-8")
        except UnicodeDecodeError:
            return False  # read_front_matter reads no front matter either
        found = find_front_matter(text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n"))
        if not isinstance(found, FrontMatterBlock):
            return False
        return EXPECT_KEY in found.text or "\\" in found.text

    @cached_property
    def suppressions(self) -> suppression.Suppressions:
        names = {gate.name: gate.name for gate in GATES}
        names.update({str(gate.id): gate.name for gate in GATES})
        return suppression.parse(self.post, names, self.context.settings.allow_suppression)

    def is_advisory(self, spec: Gate) -> bool:
        return is_advisory(spec, self.path, self.context)

    def advisory_reason(self, spec: Gate) -> str | None:
        return advisory_reason(spec, self.path, self.context)

    def _as_run(self, card: Scorecard, spec: Gate) -> Scorecard:
        """The card with this post's severity, and the reason when it is not the gate's."""
        reason = self.advisory_reason(spec)
        if reason is None:
            return replace(card, advisory=self.is_advisory(spec))
        detail = {**card.detail, "advisory_reason": reason}
        summary = f"{card.summary} (advisory: {reason})" if card.summary else f"advisory: {reason}"
        return replace(card, advisory=True, detail=detail, summary=summary)

    def cached(self, spec: Gate) -> bool:
        """Whether the result of ``spec`` for this post is in the result cache."""
        key = self._cache_key(spec)
        results = self.context.results
        return bool(key and results and results.load(key, spec.id, spec.name, spec.caches_skip))

    def evaluate(self, spec: Gate) -> Scorecard:
        """The scorecard of ``spec`` for this post, computed at most once."""
        card = self.cards.get(spec.id)
        if card is None:
            card = self._evaluate(spec)
            self.cards[spec.id] = card
            if all(gate.id in self.cards for gate in self.selected):
                self._release_parse()
        return card

    def _release_parse(self) -> None:
        # Once every selected gate has its card nothing reads the parse again (the cards,
        # keys, front matter and suppressions are kept). Kept for the whole session, the
        # markdown-it tokens of every post were half of the objects each full garbage
        # collection walked: 775,000 objects at the end of a 1,000-post run, 413,000 with
        # this. A later use would parse the post again, never see a stale one.
        self.__dict__.pop("post", None)

    def _evaluate(self, spec: Gate) -> Scorecard:
        settings = self.context.settings
        blocker = self._blocking_gate(spec) if settings.short_circuits(spec.paid) else None
        if blocker is not None:
            self.short_circuited_at = blocker
            reason = f"short-circuited at gate {blocker}"
            return self._as_run(
                spec.card(
                    "SKIP", {"reason": reason, "short_circuited_at": blocker}, summary=reason
                ),
                spec,
            )
        ready = self.ready.pop(spec.id, None)
        if ready is not None:
            return ready.replay()
        key = self.cache_key(spec)
        results, skip = self.context.results, spec.caches_skip
        assert results is not None  # GateContext always has one
        if not self._prefetched:
            self._prefetch(spec)
        cached = results.load(key, spec.id, spec.name, skip) if key else None
        if cached is not None:
            return self._as_run(cached, spec)
        card = self._budgeted(spec)
        if key and "budget_seconds" not in card.detail:  # an overrun depends on the machine
            try:
                results.store(key, card, skip)
            except CacheWriteError as exc:
                warnings.warn(
                    f"postgates: result cache disabled for the rest of the run, cannot write "
                    f"to it: {exc.strerror}",
                    CacheWarning,
                    stacklevel=2,
                )
        return self._as_run(card, spec)

    def _budgeted(self, spec: Gate) -> Scorecard:
        """The gate's scorecard, or an ERROR when it (with the post's parse, the first time)
        overran ``gate_timeout`` on this post."""
        seconds = self.context.settings.gate_timeout
        if self._parse_overrun is not None:
            return self._overrun(spec, self._parse_overrun, seconds)
        try:
            with budget.limit(seconds, f"gate {spec.name}"):
                post = self.post
                if post.fatal_problems:
                    return self._input_error(spec, post)
                if post.front_matter_only:
                    return spec.card(
                        "SKIP", {"reason": FRONT_MATTER_ONLY}, summary=FRONT_MATTER_ONLY
                    )
                return self._run_check(spec, post)
        except budget.BudgetExceeded:
            if "post" not in self.__dict__:  # the parse itself overran: every gate would
                self._parse_overrun = f"reading {self.display}"
                return self._overrun(spec, self._parse_overrun, seconds)
            return self._overrun(spec, f"gate {spec.name} on {self.display}", seconds)

    def _overrun(self, spec: Gate, what: str, seconds: float) -> Scorecard:
        message = f"{what} took longer than gate_timeout ({seconds:g} s); stopped"
        detail = {"error": message, "budget_seconds": seconds}
        return spec.card("ERROR", detail, summary=message)

    def _prefetch(self, spec: Gate) -> None:
        """At the post's first gate that may be served from the cache: its key and those of
        the selected gates after it, read in one query (a cached post then costs one
        query, not one per gate). Keys are computed at most once (see cache_key)."""
        self._prefetched = True
        results = self.context.results
        assert results is not None  # GateContext always has one
        later = self.selected[self.selected.index(spec) :] if spec in self.selected else [spec]
        keys = [self.cache_key(gate) for gate in later]
        results.prefetch(key for key in keys if key)

    def cache_key(self, spec: Gate) -> str | None:
        """The result-cache key of this post and gate, or None when it must be gated anew;
        computed once (the look-ahead asks before the gate runs)."""
        if spec.id not in self._keys:
            self._keys[spec.id] = self._cache_key(spec)
        return self._keys[spec.id]

    def _cache_key(self, spec: Gate) -> str | None:
        if self.raw is None or spec.cache_inputs is None:
            return None
        self.context.current = self
        try:
            inputs = spec.cache_inputs(self.path, self.context)
        except Exception:  # a bug (or another post's bad data) costs the cache, never the run
            return None
        finally:
            self.context.current = None
        results = self.context.results
        assert results is not None  # GateContext always has one
        if inputs is None:
            return None
        return results.key(spec.id, self.raw, inputs, spec.settings_in(self.context.settings))

    def _blocking_gate(self, spec: Gate) -> int | None:
        """The first selected hard gate before ``spec`` that failed or errored, if any.

        Gates deselected with -k/-m are not in ``selected`` and never block anything.
        """
        for earlier in self.selected:
            if earlier.id == spec.id:
                return None
            if self.is_advisory(earlier):
                continue
            # FAIL and ERROR block; a SKIP (a judge not configured, say) blocks nothing and
            # is listed among the overall file's unverified gates instead.
            if self.evaluate(earlier).verdict in ("FAIL", "ERROR"):
                return earlier.id
        return None

    def _input_error(self, spec: Gate, post: Post) -> Scorecard:
        problems = post.fatal_problems
        message = "; ".join(problem.message for problem in problems)
        detail = {"error": message, "input_problems": [_problem_dict(p) for p in post.problems]}
        findings = [Finding(p.line, p.code, p.message) for p in post.problems]
        return spec.card(
            "ERROR", detail, findings, summary=f"cannot check {self.display}: {message}"
        )

    def _run_check(self, gate: Gate, post: Post) -> Scorecard:
        """The gate's lifecycle: check, set suppressed findings aside, decide."""
        try:
            try:
                result = gate.check(post, self.context)
            except CannotJudge as exc:
                card = gate.cannot_judge(exc)
            else:
                kept, suppressed = suppression.split(result.findings, self.suppressions, gate.name)
                if suppressed:
                    detail = dict(result.detail)
                    detail["suppressed"] = suppression.as_detail(suppressed)
                    result = CheckResult(kept, detail, result.facts)
                card = gate.decided(result, self.context.settings, suppressed=bool(suppressed))
        except Exception as exc:  # a bug in a gate must not stop the corpus
            message = f"internal error in gate {gate.name}: {type(exc).__name__}: {exc}"
            return replace(
                gate.card("ERROR", {"error": message}, summary=message),
                trace=traceback.format_exc(),
            )
        defects = post.defects + self.suppressions.problems
        if defects:
            card = _with_defects(card, defects)
        return card

    def expectation(self, spec: Gate) -> Expectation | None:
        """The expected outcome the post declares for ``spec``, if any, and if the run
        lets the post silence that gate: an expectation is a suppression (a declared FAIL
        turns a failing gate into an xfail), so ``allow_suppression`` governs it too."""
        declared = self.declared_expectation(spec)
        if declared is None or not suppression.allows(
            self.context.settings.allow_suppression, spec.name
        ):
            return None
        return declared

    def refused_expectation(self, spec: Gate) -> str | None:
        """Why a declared expectation for ``spec`` is not honoured, if it is not."""
        declared = self.declared_expectation(spec)
        if declared is None or self.expectation(spec) is not None:
            return None
        return (
            f"front matter declares {spec.name}: {declared.describe()}, but "
            f"allow_suppression does not let a post silence {spec.name}; the declaration "
            "is ignored"
        )

    def declared_expectation(self, spec: Gate) -> Expectation | None:
        """The expected outcome the post declares for ``spec``, whatever the policy."""
        if not self.may_expect:
            return None
        block = self.front_matter.get(EXPECT_KEY)
        if block is None:
            return None
        if not isinstance(block, dict) or not isinstance(block.get("expect", {}), dict):
            raise ExpectationError(
                f"front matter '{EXPECT_KEY}: expect:' must be a mapping of gate names"
            )
        expect = block.get("expect", {})
        unknown = set(expect) - {s.name for s in self.selected} - set(BY_NAME)
        if unknown:
            raise ExpectationError(
                f"front matter '{EXPECT_KEY}: expect:' names unknown gate(s): "
                + ", ".join(sorted(map(str, unknown)))
            )
        value: Any = expect.get(spec.name)
        if value is None:
            return None
        if isinstance(value, str):
            value = {"verdict": value}
        if not isinstance(value, dict) or str(value.get("verdict", "")).upper() not in (
            "FAIL",
            "PASS",
            "ERROR",
        ):
            raise ExpectationError(
                f"front matter expectation for {spec.name} must be FAIL, PASS or ERROR, "
                "or a mapping {verdict: FAIL, findings: N}"
            )
        findings = value.get("findings")
        if findings is not None and (isinstance(findings, bool) or not isinstance(findings, int)):
            raise ExpectationError(
                f"front matter expectation for {spec.name}: findings must be an integer"
            )
        return Expectation(str(value["verdict"]).upper(), findings)


def _problem_dict(problem: Any) -> dict[str, Any]:
    return {"code": problem.code, "line": problem.line, "message": problem.message}


def _with_defects(card: Scorecard, defects: list[InputProblem]) -> Scorecard:
    """Repairable input defects (CRLF, BOM, a directive naming no gate) fail the gate until
    the file is fixed, but the gate's own findings are still reported."""
    detail = dict(card.detail)
    detail["input_problems"] = [_problem_dict(p) for p in defects]
    findings = [Finding(p.line, p.code, p.message) for p in defects] + card.findings
    verdict = "FAIL" if card.verdict == "PASS" else card.verdict
    summary = "; ".join([*(p.message for p in defects), card.summary])
    return replace(card, verdict=verdict, detail=detail, findings=findings, summary=summary)
