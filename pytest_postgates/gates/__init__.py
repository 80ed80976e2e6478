"""The gate catalogue: ids, names, order and hard/advisory defaults, as in the seeds.

The list order is run order, which is also short-circuit order. A gate is a plain
function ``check(post, context) -> Scorecard``; only gates with a ``check`` are collected.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates.batch import RunBatches
from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError, RepoEvidence, find_repo_root, load_repo_evidence
from pytest_postgates.evidence.grounding import (
    Dependencies,
    NamedIndex,
    dependencies_of,
    open_extra_repos,
)
from pytest_postgates.evidence.index import RepoIndex, open_index
from pytest_postgates.evidence.lint_rules import LintRules, extract_lint_rules
from pytest_postgates.results import ResultCache
from pytest_postgates.scorecard import Finding, Scorecard, Verdict

if TYPE_CHECKING:
    from pytest_postgates.post import Post


class EvidenceCache:
    """Repository evidence, loaded once per (repository, ref, package) in a process."""

    def __init__(self, settings: Settings, cache_dir: Path | None = None) -> None:
        self.settings = settings
        self.cache_dir = cache_dir or default_cache_dir()
        self._root_by_folder: dict[Path, Path | GitError] = {}
        self._by_root: dict[Path, RepoEvidence | GitError] = {}
        self._indexes: dict[Path, RepoIndex] = {}
        self._lint: dict[Path, LintRules | None] = {}
        self._extra: dict[tuple[Path, Path], list[NamedIndex] | GitError] = {}
        self._deps: dict[tuple[Path, str], Dependencies] = {}

    def root_for(self, post_path: Path) -> Path:
        """The repository a post is grounded against: the configured one, else the git
        work tree holding the post (asked of git once per folder, not once per post)."""
        folder = self.settings.repo or post_path.resolve().parent
        root = self._root_by_folder.get(folder)
        if root is None:
            try:
                root = find_repo_root(folder)
            except GitError as exc:
                root = GitError(f"cannot find the repository to ground against: {exc}")
            self._root_by_folder[folder] = root
        if isinstance(root, GitError):
            raise root
        return root

    def for_post(self, post_path: Path) -> RepoEvidence:
        root = self.root_for(post_path)
        cached = self._by_root.get(root)
        if cached is None:
            try:
                cached = load_repo_evidence(root, self.settings.ref, self.settings.package)
            except GitError as exc:
                cached = exc
            self._by_root[root] = cached
        if isinstance(cached, GitError):
            raise cached
        return cached

    def index_for(self, post_path: Path) -> RepoIndex:
        """The repository index at the configured ref: loaded once per process, built once
        per commit and cache folder (shared by xdist workers and later runs)."""
        evidence = self.for_post(post_path)
        index = self._indexes.get(evidence.root)
        if index is None:
            index = open_index(
                evidence.root, evidence.commit, self.cache_dir, self._excluded(evidence.root)
            )
            self._indexes[evidence.root] = index
        return index

    def _excluded(self, root: Path) -> tuple[str, ...]:
        """Configured post folders inside the repository, relative to its root."""
        folders = []
        for folder in self.settings.paths:
            try:
                folders.append(folder.resolve().relative_to(root.resolve()).as_posix())
            except ValueError:
                continue
        return tuple(folders)

    def extra_indexes_for(self, post_path: Path) -> list[NamedIndex]:
        """Gate 2's more repositories (``repos``, then the one holding the post when it is
        not the configured one), each indexed at its ref."""
        primary = self.for_post(post_path).root
        folder = post_path.resolve().parent
        cached = self._extra.get((primary, folder))
        if cached is None:
            try:
                repos = [(r.name, r.path, r.ref) for r in self.settings.repos]
                cached = [
                    NamedIndex(name, open_index(root, commit, self.cache_dir, ()))
                    for name, root, commit in open_extra_repos(repos, primary, post_path, None)
                ]
            except GitError as exc:
                cached = exc
            self._extra[(primary, folder)] = cached
        if isinstance(cached, GitError):
            raise cached
        return cached

    def dependencies_for(self, index: RepoIndex) -> Dependencies:
        key = (index.root, index.commit)
        if key not in self._deps:
            self._deps[key] = dependencies_of(index)
        return self._deps[key]

    def lint_rules_for(self, post_path: Path) -> LintRules | None:
        """Lint-rule evidence when ``lint_rule_prefix`` and ``lint_rules_dir`` are set."""
        prefix, folder = self.settings.lint_rule_prefix, self.settings.lint_rules_dir
        if not prefix or not folder:
            return None
        index = self.index_for(post_path)
        if index.root not in self._lint:
            self._lint[index.root] = extract_lint_rules(index, prefix, folder)
        return self._lint[index.root]


def default_cache_dir() -> Path:
    """Where indexes live when no pytest cache folder is given: the user cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-postgates"


def commit_inputs(post_path: Path, context: GateContext) -> str | None:
    """``cache_inputs`` for gates that depend on the post and the grounding commit only."""
    try:
        evidence = context.evidence.for_post(post_path)
    except GitError:
        return None
    return f"{evidence.root}@{evidence.commit}"


@dataclass
class GateContext:
    settings: Settings
    evidence: EvidenceCache
    batches: RunBatches = field(default_factory=RunBatches)
    results: ResultCache | None = None
    # Per-run answers gates compute once and reuse (for example a folder's lint inputs).
    memo: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.results is None:
            self.results = ResultCache(None, self.settings)

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


@dataclass(frozen=True)
class GateSpec:
    id: int
    name: str
    advisory: bool
    kind: str
    check: Callable[[Post, GateContext], Scorecard] | None = field(default=None, compare=False)
    # Recomputes the verdict once suppressed findings are set aside (None: FAIL while any
    # finding remains).
    rescore: Callable[[Scorecard, list[Finding]], Scorecard] | None = field(
        default=None, compare=False
    )
    # What else the result depends on, as a string for the result-cache key; None from
    # the function means "do not cache this time". Gates without it are never cached.
    cache_inputs: Callable[[Path, GateContext], str | None] | None = field(
        default=None, compare=False
    )

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


def _catalogue() -> tuple[GateSpec, ...]:
    """The seeds' gates in run order. A gate is implemented when the module
    ``pytest_postgates.gates.<name>`` exists; its ``check`` function is the gate."""
    rows = [
        (1, "blog_quality", False, "hard"),
        (2, "symbol_grounding", False, "hard"),
        (14, "import_specifiers", False, "hard"),
        (7, "numerical_claims", False, "hard"),
        (6, "readability_links", False, "hard"),
        (12, "markdownlint", False, "hard"),
        (11, "narrative_opening", False, "hard"),
        (4, "tone_fit", False, "llm"),
        (3, "multi_llm_rubric", False, "llm"),
        (9, "hhem", True, "advisory"),
        (10, "claim_review", True, "advisory"),
        (13, "call_graph_claims", True, "advisory"),
    ]
    specs = []
    for gate_id, name, advisory, kind in rows:
        module_name = f"{__name__}.{name}"
        check = rescore = cache_inputs = None
        if importlib.util.find_spec(module_name) is not None:
            module = importlib.import_module(module_name)
            check = module.check
            rescore = getattr(module, "rescore", None)
            cache_inputs = getattr(module, "cache_inputs", None)
        specs.append(GateSpec(gate_id, name, advisory, kind, check, rescore, cache_inputs))
    return tuple(specs)


CATALOGUE: tuple[GateSpec, ...] = _catalogue()
BY_ID = {spec.id: spec for spec in CATALOGUE}
BY_NAME = {spec.name: spec for spec in CATALOGUE}


def implemented() -> tuple[GateSpec, ...]:
    return tuple(spec for spec in CATALOGUE if spec.check is not None)


def spec_for(gate_id: int) -> GateSpec:
    return BY_ID[gate_id]
