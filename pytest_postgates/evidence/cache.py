"""Repository evidence per process: which repository a post grounds against, its evidence
at the configured ref, its index and its lint rules, each loaded once.

Plain arguments only (settings and paths): nothing here knows about gates.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

from pytest_postgates.config import GroundingRepo, Settings
from pytest_postgates.evidence.dependency_models import DependencyModels
from pytest_postgates.evidence.grounding import (
    Dependencies,
    NamedIndex,
    dependencies_of,
    open_extra_repos,
)
from pytest_postgates.evidence.index import RepoIndex, open_index
from pytest_postgates.evidence.lint_rules import LintRules, extract_lint_rules
from pytest_postgates.evidence.repo import (
    GitError,
    RepoEvidence,
    find_repo_root,
    load_repo_evidence,
)


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
        self._dep_models: dict[tuple[Path, str], DependencyModels] = {}

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
            raise _anew(root)
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
            raise _anew(cached)
        return cached

    def index_for(self, post_path: Path) -> RepoIndex:
        """The repository index at the configured ref: loaded once per process, built once
        per commit and cache folder (shared by xdist workers and later runs)."""
        evidence = self.for_post(post_path)
        index = self._indexes.get(evidence.root)
        if index is None:
            index = self._open(evidence.root, evidence.commit, self._excluded(evidence.root))
            self._indexes[evidence.root] = index
        return index

    def _open(self, root: Path, commit: str, excluded: tuple[str, ...]) -> RepoIndex:
        try:
            return open_index(root, commit, self.cache_dir, excluded)
        except OSError as exc:
            # A full or read-only cache folder costs the on-disk index, not the gates:
            # built once more in a private scratch folder for this process.
            warnings.warn(
                f"postgates: cannot keep the repository index in {self.cache_dir} "
                f"({exc.strerror or type(exc).__name__}); building it for this run only",
                UserWarning,
                stacklevel=3,
            )
            scratch = Path(tempfile.mkdtemp(prefix="postgates-index-"))
            atexit.register(shutil.rmtree, scratch, ignore_errors=True)
            return open_index(root, commit, scratch, excluded)

    def _excluded(self, root: Path) -> tuple[str, ...]:
        """Configured post folders inside the repository, relative to its root, and the
        scorecards folder: the plugin's own output quotes the tokens it judged, and a
        committed scorecard must never ground the name it reports."""
        folders = []
        for folder in (*self.settings.paths, self.settings.scorecards):
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
                    NamedIndex(name, self._open(root, commit, ()))
                    for name, root, commit in open_extra_repos(repos, primary, post_path)
                ]
            except GitError as exc:
                cached = exc
            self._extra[(primary, folder)] = cached
        if isinstance(cached, GitError):
            raise _anew(cached)
        return cached

    def unavailable_repos_for(self, post_path: Path) -> list[GroundingRepo]:
        """``repos`` entries without a path while the post is in no git repository: the
        codebase they name cannot be read by this run (gate 2 lists their tokens as
        unjudged)."""
        entries = [r for r in self.settings.repos if r.path is None]
        if not entries:
            return []
        try:
            find_repo_root(post_path.resolve().parent)
        except GitError:
            return entries
        return []

    def dependencies_for(self, index: RepoIndex) -> Dependencies:
        """Package names the repository declares or locks (read once per commit)."""
        key = (index.root, index.commit)
        if key not in self._deps:
            self._deps[key] = dependencies_of(index)
        return self._deps[key]

    def dependency_models_for(
        self, index: RepoIndex, python_product: Callable[[], bool]
    ) -> DependencyModels:
        """The models of the repository's declared dependencies (each built on first use);
        ``python_product`` says whether the standard library is Python's (asked once)."""
        key = (index.root, index.commit)
        if key not in self._dep_models:
            declared = self.dependencies_for(index)
            self._dep_models[key] = DependencyModels(
                declared, index.root, self.cache_dir, python_product=python_product()
            )
        return self._dep_models[key]

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


def _anew(error: GitError) -> GitError:
    """A remembered error as a new exception to raise. Raising the remembered one itself
    would grow its traceback by the frames of every raise, and those frames hold the posts
    that asked: every post of a run with a missing repository stayed in memory."""
    return GitError(*error.args)
