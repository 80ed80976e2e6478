"""Per-run state shared by the hooks: settings, which files are posts, stems, overall files.

One :class:`PostgatesState` exists per pytest process (controller and each xdist worker
build identical ones from identical collections). The :class:`OverallRecorder` runs only
where every report arrives (the xdist controller, or the only process) and writes each
post's ``-overall.json`` once, at the end of the session.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import config as settings_module
from pytest_postgates import junit, reports
from pytest_postgates.batch import PARTS_PER_WORKER, RUN_DIR_KEY, RunBatches
from pytest_postgates.config import Settings, SettingsError
from pytest_postgates.escaping import one_line
from pytest_postgates.evidence.cache import default_cache_dir
from pytest_postgates.evidence.repo import GitError, find_repo_root, git, resolve_commit
from pytest_postgates.fileio import write_atomic
from pytest_postgates.gates import BY_ID, BY_NAME, GATES, POSITION, SETTINGS_TYPES
from pytest_postgates.gates.base import Gate, GateContext
from pytest_postgates.post import InputProblem, admission_problem
from pytest_postgates.scorecard import Scorecard, dumps, overall_path, overall_report, safe_stem

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
    """Defaults < [tool.postgates] < postgates_* ini keys < flags < seeds' env variables;
    the gates' own keys are those their settings dataclasses declare."""
    settings = Settings.declare(SETTINGS_TYPES)
    pyproject = settings_module.find_pyproject(config.rootpath)
    if pyproject is not None:
        settings = settings_module.from_pyproject(settings, pyproject)
    ini_base = config.inipath.parent if config.inipath else config.rootpath
    for key, kind in settings.keys().items():
        if kind == "gates":
            continue
        raw = config.getini(f"postgates_{key}")
        if isinstance(raw, list) and kind in ("paths", "ids"):
            raw = [part for item in raw for part in settings_module.split_list(str(item))]
        if raw not in ("", [], None):
            settings = settings_module.apply(
                settings, {key: raw}, ini_base, f"ini key postgates_{key}"
            )
    cwd = config.invocation_params.dir
    for key in ("repo", "ref", "package", "scorecards", "only", "jobs", "shard"):
        value = config.getoption(f"postgates_{key}")
        if value is not None:
            settings = settings_module.apply(settings, {key: value}, cwd, f"--postgates-{key}")
    for key in ("run_all", "offline", "snapshot"):
        if config.getoption(f"postgates_{key}"):
            settings = replace(settings, **{key: True})  # type: ignore[arg-type]  # a bool field
    changed = config.getoption("postgates_changed")
    if changed:
        settings = replace(settings, changed=changed)
    for key in ("feedback", "sarif", "html"):
        value = config.getoption(f"postgates_{key}")
        if value:
            settings = replace(settings, **{key: cwd / value})
    settings = settings_module.from_environment(settings, os.environ)
    if os.environ.get("POSTGATES_JOBS", "").strip():
        settings = settings_module.apply(
            settings, {"jobs": os.environ["POSTGATES_JOBS"]}, cwd, "POSTGATES_JOBS"
        )
    if os.environ.get("POSTGATES_SHARD", "").strip():
        settings = settings_module.apply(
            settings, {"shard": os.environ["POSTGATES_SHARD"]}, cwd, "POSTGATES_SHARD"
        )
    if not settings.scorecards.is_absolute():
        settings = replace(settings, scorecards=config.rootpath / settings.scorecards)
    check_output_paths(settings)
    return settings


def announce(config: pytest.Config, line: str) -> None:
    """``line`` on the terminal now, in the middle of an item (a gate's progress): pytest's
    output capture is lifted for it, as for live logging. Nothing without a terminal
    reporter (``-p no:terminal``, the ``postgates run`` command)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    capture = config.pluginmanager.get_plugin("capturemanager")
    lifted = capture.global_and_fixture_disabled() if capture is not None else nullcontext()
    with lifted:
        reporter.write_line(one_line(line))
    # The item's result then starts a line of its own with its path, not a bare "F".
    reporter.currentfspath = None


def check_output_paths(settings: Settings) -> None:
    """Output paths that cannot work are usage errors before the run, not tracebacks at
    its end: a report path that is a folder (or below a file), a scorecards folder that is
    a file (or below one). What only the write can tell (a full disk) is reported then."""
    scorecards = settings.scorecards
    for folder in (scorecards, *scorecards.parents):
        if folder.exists():
            if not folder.is_dir():
                raise SettingsError(
                    f"--postgates-scorecards {scorecards}: {folder} is a file, not a folder"
                )
            break
    for flag, path in (
        ("--postgates-feedback", settings.feedback),
        ("--postgates-sarif", settings.sarif),
        ("--postgates-html", settings.html),
    ):
        if path is None:
            continue
        if path.is_dir():
            raise SettingsError(f"{flag} {path}: is a folder; name the file to write")
        for folder in path.parents:
            if folder.exists():
                if not folder.is_dir():
                    raise SettingsError(f"{flag} {path}: {folder} is a file, not a folder")
                break


def usable_cache_dir(folder: Path) -> bool:
    """Whether gate results and indexes can be written under ``folder`` (created if
    missing): a read-only or misplaced cache folder must not break a run."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".postgates-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True


def resolve_only(only: frozenset[int | str] | None) -> frozenset[int] | None:
    """``--postgates-only``'s gate ids and names as gate ids (names as -k and suppression
    take them)."""
    if only is None:
        return None
    ids = {BY_NAME[item].id if isinstance(item, str) and item in BY_NAME else item for item in only}
    unknown = sorted(str(item) for item in ids if item not in BY_ID)
    if unknown:
        known = ", ".join(f"{gate.id} {gate.name}" for gate in GATES)
        raise SettingsError(
            f"--postgates-only: no gate with id or name {', '.join(unknown)}; "
            f"gate ids and names are {known}"
        )
    return frozenset(item for item in ids if isinstance(item, int))


# A file name holding one of these would break the line it is printed on (a CI runner acts
# on a log line starting with "::"), and one starting with "::" is such a line itself.
_NAME_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_NAME_COMMAND = re.compile(r"[ \t]*(?:::|##\[)")


def file_name_problem(path: Path) -> str | None:
    """Why a post's file name cannot be shown or reported as it is (not UTF-8, a line
    break or control character, a workflow-command start), or None."""
    refusal = file_name_refusal(path)
    return refusal.message if refusal is not None else None


def file_name_refusal(path: Path) -> InputProblem | None:
    """The problem (code and message) of a file name :func:`file_name_problem` refuses."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return InputProblem(
            "NAME_NOT_UTF8",
            "the file name is not valid UTF-8 (shown with \\x escapes); rename it so that "
            "reports, JUnit and xdist can name it",
        )
    if _NAME_CONTROL.search(str(path)):
        return InputProblem(
            "NAME_UNPRINTABLE",
            "the file name holds a line break or control character (shown escaped); rename "
            "it so that logs and reports can name it on one line",
        )
    if _NAME_COMMAND.match(path.name):
        return InputProblem(
            "NAME_UNPRINTABLE",
            "the file name starts like a GitHub workflow command ('::'); rename it so that a "
            "CI log never reads it as one",
        )
    return None


class PostgatesState:
    def __init__(
        self,
        settings: Settings,
        rootpath: Path,
        cache_dir: Path | None = None,
        run_dir: Path | None = None,
        cache_results: bool = True,
        parts: int = 1,
    ) -> None:
        self.settings = settings
        self.rootpath = rootpath
        # A post that is a symlink resolving outside these folders is refused unread.
        self.roots: tuple[Path, ...] = tuple(
            dict.fromkeys(folder for folder in (rootpath, settings.repo, *settings.paths) if folder)
        )
        self.context = GateContext.create(
            settings,
            cache_dir,
            RunBatches(run_dir, parts=parts),
            cache_results=cache_results and cache_dir is not None,
        )
        unknown_gates = sorted(set(settings.advisory_overrides) - {gate.name for gate in GATES})
        if unknown_gates:
            names = ", ".join(gate.name for gate in GATES)
            raise SettingsError(
                f"[tool.postgates.gates] names no gate: {', '.join(unknown_gates)}; "
                f"gates are {names}"
            )
        allowed = settings.allow_suppression
        unknown_allowed = (
            sorted(set(allowed) - {gate.name for gate in GATES})
            if not isinstance(allowed, bool)
            else []
        )
        if unknown_allowed:
            raise SettingsError(
                f"allow_suppression names no gate: {', '.join(unknown_allowed)}; gates are "
                + ", ".join(gate.name for gate in GATES)
            )
        only = resolve_only(settings.only)
        self.gates: tuple[Gate, ...] = tuple(
            gate for gate in GATES if only is None or gate.id in only
        )
        self._posts: dict[Path, None] = {}
        self.changed = (
            changed_files(rootpath, settings.changed) if settings.changed else None
        )  # ordered set: a path named twice counts once
        self._stem_counts: Counter[str] | None = None
        # Folders named on the command line whose every Markdown file is a post (activation).
        self.post_folders: tuple[Path, ...] = ()

    @classmethod
    def from_config(
        cls, config: pytest.Config, post_folders: Sequence[Path] = ()
    ) -> PostgatesState:
        state = cls._from_config(config)
        state.post_folders = tuple(post_folders)
        if not hasattr(config, "workerinput"):  # an xdist worker's terminal is nobody's
            state.context.announce = partial(announce, config)
        return state

    @classmethod
    def _from_config(cls, config: pytest.Config) -> PostgatesState:
        # Indexes and results live in pytest's cache folder (so --cache-clear clears them),
        # or in the user's cache folder when the cache plugin is disabled.
        cache = getattr(config, "cache", None)
        usable = True
        if cache is not None:
            try:
                cache_dir = Path(cache.mkdir("postgates"))
            except OSError:
                cache_dir, usable = Path(getattr(cache, "_cachedir", ".pytest_cache")), False
        else:
            cache_dir = default_cache_dir()
        # One scratch folder per run for batch results: made by the controller (or the only
        # process) and handed to xdist workers through workerinput.
        workerinput = getattr(config, "workerinput", None)
        parts = 1
        if workerinput is not None:
            run_dir = Path(workerinput[RUN_DIR_KEY])
            # Workers compute the run-wide batches in parts, side by side (batch.py).
            parts = PARTS_PER_WORKER * int(workerinput.get("workercount", 1))
        else:
            run_dir = RunBatches.create_run_dir()
        if not (usable and usable_cache_dir(cache_dir)):
            if workerinput is None:  # one warning per run, not one per worker
                config.issue_config_time_warning(
                    pytest.PytestCacheWarning(
                        f"postgates: cache folder {cache_dir} is not writable; running without "
                        "the result cache (indexes are built in the run's scratch folder)"
                    ),
                    stacklevel=2,
                )
            return cls(
                load_settings(config), config.rootpath, run_dir / "cache", run_dir, False, parts
            )
        return cls(load_settings(config), config.rootpath, cache_dir, run_dir, parts=parts)

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
        if any(path.is_relative_to(folder) for folder in self.post_folders):
            return True
        return any(settings_module.in_folder(path, folder) for folder in self.settings.paths)

    def register_post(self, path: Path) -> None:
        self._posts[path] = None
        self._stem_counts = None

    def display(self, path: Path) -> str:
        """The post's path relative to the rootdir, printable (a file name that is not
        UTF-8 shows its bytes as ``\\xNN``)."""
        try:
            shown = path.relative_to(self.rootpath).as_posix()
        except ValueError:
            shown = Path(os.path.relpath(path, self.rootpath)).as_posix()
        shown = shown.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        # One line, no control character, never a workflow command: it starts log lines.
        return one_line(shown)

    def stem(self, path: Path) -> str:
        """The post's scorecard stem, unique in the run: posts whose stems come out alike
        once made safe for a file name (``a b``/``a_b``, cut at the length limit, equal but
        for case) get a short hash of their path."""
        if self._stem_counts is None:
            self._stem_counts = Counter(_stem_key(post.stem) for post in self._posts)
        if self._stem_counts[_stem_key(path.stem)] > 1:
            digest = hashlib.sha1(self.display(path).encode("utf-8")).hexdigest()[:8]
            return f"{safe_stem(path.stem)[:STEM_ROOM]}~{digest}"
        # A name that is not UTF-8 keeps its bytes visible (and crosses to xdist's controller).
        return path.stem.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")

    def set_selection(self, selected: Mapping[Path, Sequence[Gate]]) -> None:
        """The gates of each post left after -k/-m/--deselect (the plugin hands them over in
        collection order). Each batch a gate declares covers only the posts whose item of
        that gate is selected: ``-k one-post`` lints and link-checks one post.

        Batches read only posts the parser would read: a refused file (a symlink out of the
        tree, not a regular file, too large, an unprintable name) gets its own ERROR items
        and is read by no batch, nor by the site model."""
        readable = {
            post: None
            for post in self._posts
            if file_name_problem(post) is None and admission_problem(post, self.roots) is None
        }
        scopes: dict[str, list[Path]] = {name: [] for gate in self.gates for name in gate.batches}
        for path, gates in selected.items():
            if path not in readable:
                continue
            for name in dict.fromkeys(name for gate in gates for name in gate.batches):
                scopes.setdefault(name, []).append(path)
        batches = self.context.batches
        # The site model (internal links, reference posts) still sees every collected post.
        batches.posts = tuple(readable)
        batches.selected = {name: tuple(paths) for name, paths in scopes.items()}

    def header(self) -> str:
        gates = ", ".join(f"{spec.id} {spec.name}" for spec in self.gates) or "none"
        scorecards = self.display(self.settings.scorecards)
        mode = {
            "none": "all gates (no short-circuit)",
            "all": "short-circuit on first hard failure",
            "judges": "short-circuit of judge gates on first hard failure",
        }["none" if self.settings.run_all else self.settings.short_circuit]
        allowed = self.settings.allow_suppression
        if allowed is True:
            suppression = "inline suppression allowed for every gate"
        elif not allowed:
            suppression = "inline suppression not allowed"
        else:
            suppression = "inline suppression allowed for " + ", ".join(allowed)
        header = f"postgates: gates {gates}; {mode}; scorecards in {scorecards}"
        if any(spec.id == 12 for spec in self.gates):
            # Which linter program gate 12 will run (issue 16: never one found by accident).
            from pytest_postgates.gates.markdownlint import MarkdownlintSettings
            from pytest_postgates.tools import lint

            lint_settings = self.settings.for_gate(MarkdownlintSettings)
            header += "; " + lint.backend_header(
                lint_settings.lint_backend, self.rootpath, lint_settings.markdownlint_cli
            )
        return f"{header}\npostgates: {suppression}"


# Room for the stem in a hashed scorecard name: safe_stem's limit less "~" and 8 hex digits.
STEM_ROOM = 141


def _stem_key(stem: str) -> str:
    """What two stems must differ in to get distinct scorecard files everywhere: their
    safe form, cut to the room a hashed name leaves, regardless of case."""
    return safe_stem(stem)[:STEM_ROOM].casefold()


class OverallRecorder:
    """Collects every gate record from the reports and writes the overall files."""

    def __init__(self, state: PostgatesState) -> None:
        self.state = state
        self.records: dict[str, dict[int, dict[str, Any]]] = {}
        self.stems: dict[str, str] = {}
        self.overall: dict[str, dict[str, Any]] = {}
        self.write_errors: list[str] = []
        self._writer: threading.Thread | None = None
        self._written: list[tuple[Path, str]] = []  # overall files written: stamps to record

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = getattr(report, "postgates", None)
        if report.when == "setup" and isinstance(record, dict):
            self.records.setdefault(record["post"], {})[record["gate"]] = record
            self.stems[record["post"]] = record["stem"]

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Decide every overall verdict and write the output files. Under xdist the
        controller's next step is to wait for its workers to exit (each frees what it built,
        seconds on a large corpus), so the files are rendered and written in a thread
        meanwhile and joined when the hook ends (:meth:`pytest_sessionfinish_joined`)."""
        # Before pytest's junitxml plugin writes its file in its own sessionfinish.
        junit.add_suite_properties(session.config, self.records)
        writes = self._planned_writes()
        if session.config.pluginmanager.get_plugin("dsession") is not None and writes:
            self._writer = threading.Thread(
                target=self._write_all, args=(writes,), name="postgates-outputs", daemon=True
            )
            self._writer.start()
        else:
            self._write_all(writes)
            self._finish(session)

    @pytest.hookimpl(trylast=True, specname="pytest_sessionfinish")
    def pytest_sessionfinish_joined(self, session: pytest.Session) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.join()
            self._finish(session)

    def _planned_writes(self) -> list[tuple[Path, Any, str | None]]:
        """(path, render, digest) of every output file to write: an overall file whose
        content is unchanged (told by its stamp in the result database, as the items'
        scorecards are) is left alone, since the indented form is made by json's
        pure-Python encoder, about 2 ms a post. Database work stays in this thread."""
        folder = self.state.settings.scorecards
        results = self.state.context.results
        writes: list[tuple[Path, Any, str | None]] = []
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
            # A reviewer sees how much was switched off inline, per gate.
            report["suppressed"] = {
                r["name"]: r["suppressed"] for r in gates.values() if r.get("suppressed")
            }
            self.overall[post] = report
            path = overall_path(folder, self.stems[post])
            digest = hashlib.sha1(
                json.dumps(report, sort_keys=True, ensure_ascii=False).encode(
                    "utf-8", "surrogatepass"
                )
            ).hexdigest()
            if results is None or not results.written_unchanged(path, digest):
                writes.append((path, partial(dumps, report), digest))
        settings = self.state.settings
        for output, render in (
            (settings.feedback, self.feedback_text),
            (settings.sarif, lambda: reports.dumps_sarif(self.records, self.source_root())),
            (settings.html, lambda: reports.html_report(self.records, self.overall)),
        ):
            if output is not None:
                writes.append((output, render, None))
        return writes

    def source_root(self) -> reports.SourceRoot:
        """Where SARIF locations are relative to: the git top level of the rootdir (the
        posts' repository, whichever of its folders pytest ran from), else the rootdir."""
        rootdir = self.state.rootpath.resolve()
        try:
            return reports.SourceRoot(find_repo_root(rootdir).resolve(), rootdir)
        except GitError:
            return reports.SourceRoot(rootdir, rootdir, in_repository=False)

    def _write_all(self, writes: list[tuple[Path, Any, str | None]]) -> None:
        for path, render, digest in writes:
            before = len(self.write_errors)
            self._write(path, render)
            if digest is not None and len(self.write_errors) == before:
                self._written.append((path, digest))

    def _finish(self, session: pytest.Session) -> None:
        results = self.state.context.results
        if results is not None:
            for path, digest in self._written:
                results.record_written(path, digest)
        self._written.clear()
        if self.write_errors and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _write(self, path: Path, render: Any) -> None:
        """Write one output file; a failure (full disk, read-only folder) is one clear
        line in the summary and a failing exit status, never a traceback."""
        try:
            write_atomic(path, render())
        except OSError as exc:
            self.write_errors.append(
                f"postgates: cannot write {self.state.display(path)}: "
                f"{exc.strerror or type(exc).__name__}"
            )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        suppressed, posts = reports.suppression_total(self.records)
        if suppressed:
            terminalreporter.write_line(
                f"postgates: {suppressed} finding(s) suppressed inline in {posts} post(s)"
            )
        for line in self.write_errors:
            terminalreporter.write_line(line, red=True, bold=True)
        # Under GitHub Actions, findings become annotations on the pull request's files.
        if os.environ.get("GITHUB_ACTIONS") == "true":
            annotations = reports.github_annotations(self.records)
            for line in reports.capped_annotations(annotations, self.full_report()):
                terminalreporter.write_line(line)

    def full_report(self) -> str:
        """Where every finding of the run can be read, for a line that shows only some."""
        settings = self.state.settings
        places = [] if settings.sarif is None else [self.state.display(settings.sarif)]
        places.append(f"the scorecards in {self.state.display(settings.scorecards)}")
        return ", ".join(places) + " and the failure report above"

    def feedback_text(self) -> str:
        """What a drafter needs to fix, per failing post, one actionable line per finding."""
        return feedback_text(self.records)


def feedback_text(records: Mapping[str, Mapping[int, Mapping[str, Any]]]) -> str:
    """What a drafter needs to fix, per failing post, one actionable line per finding."""
    lines: list[str] = []
    for post, gates in sorted(records.items()):
        failing = [
            r
            for r in sorted(gates.values(), key=lambda r: _run_position(r["gate"]))
            if r["verdict"] in ("FAIL", "ERROR")
        ]
        if not failing:
            continue
        # One line per item: what the post wrote never starts a line of its own.
        lines.append(f"# {one_line(post)}")
        for record in failing:
            lines.append(f"## {describe_record(record)}")
            if record.get("note"):
                lines.append(f"  {one_line(record['note'])}")
            for line, code, message, fix in record["findings"]:
                advice = f"; {one_line(fix)}" if fix else ""
                lines.append(f"  - line {line or 1}: {one_line(code)} {one_line(message)}{advice}")
        lines.append("")
    return "\n".join(lines) + ("\n" if lines else "")


def describe_record(record: Mapping[str, Any]) -> str:
    """``gate 11 narrative_opening (hard) FAIL: summary`` for one gate record."""
    kind = "advisory" if record["advisory"] else "hard"
    head = f"gate {record['gate']} {record['name']} ({kind}) {record['verdict']}"
    return f"{head}: {one_line(record['summary'])}" if record["summary"] else head


def _run_position(gate_id: int) -> int:
    return POSITION[gate_id]
