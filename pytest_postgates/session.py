"""Per-run state shared by the hooks: settings, which files are posts, stems, overall files.

One :class:`PostgatesState` exists per pytest process (controller and each xdist worker
build identical ones from identical collections). The :class:`OverallRecorder` runs only
where every report arrives (the xdist controller, or the only process) and writes each
post's ``-overall.json`` once, at the end of the session.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import config as settings_module
from pytest_postgates import reports
from pytest_postgates.batch import RUN_DIR_KEY, RunBatches
from pytest_postgates.config import Settings, SettingsError
from pytest_postgates.evidence.cache import default_cache_dir
from pytest_postgates.evidence.repo import GitError, find_repo_root, git, resolve_commit
from pytest_postgates.fileio import write_atomic
from pytest_postgates.gates import BY_ID, GATES, POSITION
from pytest_postgates.gates.base import Gate, GateContext
from pytest_postgates.scorecard import Scorecard, dumps, overall_path, overall_report

STATE_KEY = pytest.StashKey["PostgatesState"]()


def changed_files(folder: Path, ref: str) -> frozenset[Path]:
    """Files of the repository holding ``folder`` that differ from ``ref`` (committed,
    staged or not) or are new and not ignored: what ``--postgates-changed`` collects."""
    try:
        root = find_repo_root(folder)
        commit = resolve_commit(root, ref)
        diff = git(root, "diff", "--name-only", "-z", "--no-renames", commit, "--").stdout
        new = git(root, "ls-files", "--others", "--exclude-standard", "-z").stdout
    except GitError as exc:
        raise SettingsError(f"--postgates-changed {ref}: {exc}") from None
    names = [name for name in (diff + new).split(b"\0") if name]
    return frozenset((root / name.decode("utf-8", "surrogateescape")).resolve() for name in names)


def load_settings(config: pytest.Config) -> Settings:
    """Defaults < [tool.postgates] < postgates_* ini keys < flags < seeds' env variables."""
    settings = Settings()
    pyproject = settings_module.find_pyproject(config.rootpath)
    if pyproject is not None:
        settings = settings_module.from_pyproject(settings, pyproject)
    ini_base = config.inipath.parent if config.inipath else config.rootpath
    for key, kind in settings_module.KEYS.items():
        if kind == "gates":
            continue
        raw = config.getini(f"postgates_{key}")
        if raw not in ("", [], None):
            settings = settings_module.apply(
                settings, {key: raw}, ini_base, f"ini key postgates_{key}"
            )
    cwd = config.invocation_params.dir
    for key in ("repo", "ref", "package", "scorecards", "only"):
        value = config.getoption(f"postgates_{key}")
        if value is not None:
            settings = settings_module.apply(settings, {key: value}, cwd, f"--postgates-{key}")
    for key in ("run_all", "offline", "snapshot"):
        if config.getoption(f"postgates_{key}"):
            settings = replace(settings, **{key: True})
    changed = config.getoption("postgates_changed")
    if changed:
        settings = replace(settings, changed=changed)
    for key in ("feedback", "sarif", "html"):
        value = config.getoption(f"postgates_{key}")
        if value:
            settings = replace(settings, **{key: cwd / value})
    settings = settings_module.from_environment(settings, os.environ)
    if not settings.scorecards.is_absolute():
        settings = replace(settings, scorecards=config.rootpath / settings.scorecards)
    return settings


class PostgatesState:
    def __init__(
        self,
        settings: Settings,
        rootpath: Path,
        cache_dir: Path | None = None,
        run_dir: Path | None = None,
    ) -> None:
        self.settings = settings
        self.rootpath = rootpath
        self.context = GateContext.create(
            settings, cache_dir, RunBatches(run_dir), cache_results=cache_dir is not None
        )
        unknown_gates = sorted(set(settings.advisory_overrides) - {gate.name for gate in GATES})
        if unknown_gates:
            names = ", ".join(gate.name for gate in GATES)
            raise SettingsError(
                f"[tool.postgates.gates] names no gate: {', '.join(unknown_gates)}; "
                f"gates are {names}"
            )
        only = settings.only
        if only is not None:
            unknown = sorted(only - set(BY_ID))
            if unknown:
                known = ", ".join(str(gate.id) for gate in GATES)
                raise SettingsError(
                    f"--postgates-only: no gate with id {unknown}; gate ids are {known}"
                )
        self.gates: tuple[Gate, ...] = tuple(
            gate for gate in GATES if only is None or gate.id in only
        )
        self._posts: dict[Path, None] = {}
        self.changed = (
            changed_files(rootpath, settings.changed) if settings.changed else None
        )  # ordered set: a path named twice counts once
        self._stem_counts: Counter[str] | None = None

    @classmethod
    def from_config(cls, config: pytest.Config) -> PostgatesState:
        # Indexes and results live in pytest's cache folder (so --cache-clear clears them),
        # or in the user's cache folder when the cache plugin is disabled.
        cache = getattr(config, "cache", None)
        cache_dir = cache.mkdir("postgates") if cache is not None else default_cache_dir()
        # One scratch folder per run for batch results: made by the controller (or the only
        # process) and handed to xdist workers through workerinput.
        workerinput = getattr(config, "workerinput", None)
        if workerinput is not None:
            run_dir = Path(workerinput[RUN_DIR_KEY])
        else:
            run_dir = RunBatches.create_run_dir()
        return cls(load_settings(config), config.rootpath, Path(cache_dir), run_dir)

    # ------------------------------------------------------------------ which files
    def is_post(self, path: Path, named_on_command_line: bool) -> bool:
        if self.changed is not None and path.resolve() not in self.changed:
            return False
        if named_on_command_line:
            return True
        try:
            parts = path.relative_to(self.rootpath).parts
        except ValueError:
            parts = path.parts
        if "_posts" in parts[:-1]:
            return True
        return any(path.is_relative_to(folder) for folder in self.settings.paths)

    def register_post(self, path: Path) -> None:
        self._posts[path] = None
        self._stem_counts = None

    def display(self, path: Path) -> str:
        try:
            return path.relative_to(self.rootpath).as_posix()
        except ValueError:
            return Path(os.path.relpath(path, self.rootpath)).as_posix()

    def stem(self, path: Path) -> str:
        """The post's scorecard stem; posts that share a file stem get a short path hash."""
        if self._stem_counts is None:
            self._stem_counts = Counter(post.stem for post in self._posts)
        if self._stem_counts[path.stem] > 1:
            digest = hashlib.sha1(self.display(path).encode("utf-8")).hexdigest()[:8]
            return f"{path.stem}~{digest}"
        return path.stem

    def set_selection(self, selected: Mapping[Path, Sequence[Gate]]) -> None:
        """The gates of each post left after -k/-m/--deselect (the plugin hands them over in
        collection order). Each batch a gate declares covers only the posts whose item of
        that gate is selected: ``-k one-post`` lints and link-checks one post."""
        scopes: dict[str, list[Path]] = {name: [] for gate in self.gates for name in gate.batches}
        for path, gates in selected.items():
            for name in dict.fromkeys(name for gate in gates for name in gate.batches):
                scopes.setdefault(name, []).append(path)
        batches = self.context.batches
        # The site model (internal links, reference posts) still sees every collected post.
        batches.posts = tuple(self._posts)
        batches.selected = {name: tuple(paths) for name, paths in scopes.items()}

    def header(self) -> str:
        gates = ", ".join(f"{spec.id} {spec.name}" for spec in self.gates) or "none"
        scorecards = self.display(self.settings.scorecards)
        mode = (
            "all gates (no short-circuit)"
            if self.settings.run_all
            else "short-circuit on first hard failure"
        )
        return f"postgates: gates {gates}; {mode}; scorecards in {scorecards}"


class OverallRecorder:
    """Collects every gate record from the reports and writes the overall files."""

    def __init__(self, state: PostgatesState) -> None:
        self.state = state
        self.records: dict[str, dict[int, dict[str, Any]]] = {}
        self.stems: dict[str, str] = {}
        self.overall: dict[str, dict[str, Any]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = getattr(report, "postgates", None)
        if report.when == "setup" and isinstance(record, dict):
            self.records.setdefault(record["post"], {})[record["gate"]] = record
            self.stems[record["post"]] = record["stem"]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        folder = self.state.settings.scorecards
        for post, gates in sorted(self.records.items()):
            cards = [
                Scorecard(r["gate"], r["name"], r["advisory"], r["verdict"]) for r in gates.values()
            ]
            blockers = [
                r["short_circuited_at"] for r in gates.values() if r.get("short_circuited_at")
            ]
            report = overall_report(
                post, cards, min(blockers, key=_run_position) if blockers else None
            )
            # Gates not run at all (deselected, --postgates-only) are listed, never passed.
            report["not_run"] = [spec.id for spec in self.state.gates if spec.id not in gates]
            self.overall[post] = report
            write_atomic(overall_path(folder, self.stems[post]), dumps(report))
        settings = self.state.settings
        if settings.feedback is not None:
            write_atomic(settings.feedback, self.feedback_text())
        if settings.sarif is not None:
            write_atomic(settings.sarif, reports.dumps_sarif(self.records))
        if settings.html is not None:
            write_atomic(settings.html, reports.html_report(self.records, self.overall))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        # Under GitHub Actions, findings become annotations on the pull request's files.
        if os.environ.get("GITHUB_ACTIONS") == "true":
            for line in reports.github_annotations(self.records):
                terminalreporter.write_line(line)

    def feedback_text(self) -> str:
        """What a drafter needs to fix, per failing post, one actionable line per finding."""
        lines: list[str] = []
        for post, gates in sorted(self.records.items()):
            failing = [
                r
                for r in sorted(gates.values(), key=lambda r: _run_position(r["gate"]))
                if r["verdict"] in ("FAIL", "ERROR")
            ]
            if not failing:
                continue
            lines.append(f"# {post}")
            for record in failing:
                lines.append(f"## {describe_record(record)}")
                if record.get("note"):
                    lines.append(f"  {record['note']}")
                for line, code, message, fix in record["findings"]:
                    advice = f"; {fix}" if fix else ""
                    lines.append(f"  - line {line or 1}: {code} {message}{advice}")
            lines.append("")
        return "\n".join(lines) + ("\n" if lines else "")


def describe_record(record: dict[str, Any]) -> str:
    """``gate 11 narrative_opening (hard) FAIL: summary`` for one gate record."""
    kind = "advisory" if record["advisory"] else "hard"
    head = f"gate {record['gate']} {record['name']} ({kind}) {record['verdict']}"
    return f"{head}: {record['summary']}" if record["summary"] else head


def _run_position(gate_id: int) -> int:
    return POSITION[gate_id]
