"""The run's lint batch: the backend chosen, every post grouped by configuration and linted
once, each post's entry (its violations, or why it could not be linted) keyed by its
resolved path and content digest.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pytest_postgates.post import MAX_POST_BYTES
from pytest_postgates.tools.lint.catalog import ConfigError, LintError
from pytest_postgates.tools.lint.config import config_for_folder, load_config, read_config_file
from pytest_postgates.tools.lint.inline import without_inline_config
from pytest_postgates.tools.lint.markdownlint_cli import (
    MARKDOWNLINT_CLI_PIN,
    SEMVER,
    find_markdownlint_cli,
    run_markdownlint_cli,
)
from pytest_postgates.tools.lint.process import DEFAULT_BUDGET, Backend, program_version
from pytest_postgates.tools.lint.rumdl import RUMDL_VERSION, find_rumdl, run_rumdl

BACKEND_SETTINGS = ("auto", "rumdl", "markdownlint-cli")


def describe_backend(backend: Backend) -> str:
    """What ran, for the terminal header: name, version and the program's path."""
    return f"{backend.name} {backend.version} ({' '.join(backend.command)})"


def backend_header(
    setting: str, root: Path, markdownlint_cli: str | os.PathLike[str] | None = None
) -> str:
    """The header line's words for the linter gate 12 runs for posts under ``root``."""
    try:
        return "linter " + describe_backend(choose_backend(setting, [root], markdownlint_cli))
    except LintError as exc:
        return f"linter: none can run ({exc})"


def choose_backend(
    setting: str = "auto",
    near: Iterable[Path] = (),
    markdownlint_cli: str | os.PathLike[str] | None = None,
) -> Backend:
    """The backend ``setting`` asks for. ``auto``: markdownlint-cli when installed (exact CI
    parity), else rumdl. Raises :class:`LintError` saying how to install one."""
    if setting not in BACKEND_SETTINGS:
        raise LintError(f"lint_backend = {setting!r} is not one of {', '.join(BACKEND_SETTINGS)}")
    near = tuple(near)
    if setting in ("auto", "markdownlint-cli"):
        command = find_markdownlint_cli(near, markdownlint_cli)
        if command is None and setting == "markdownlint-cli" and not markdownlint_cli:
            npx = shutil.which("npx")
            if npx:
                command = (npx, "--no-install", "markdownlint")
        if command is not None:
            version = program_version(command, SEMVER)
            if version is not None:
                return Backend("markdownlint-cli", command, version)
        if setting == "markdownlint-cli":
            where = f" at {markdownlint_cli}" if markdownlint_cli else ""
            raise LintError(
                f"lint_backend is markdownlint-cli but no working markdownlint-cli was "
                f"found{where}; install it with `npm install -g markdownlint-cli@"
                f"{MARKDOWNLINT_CLI_PIN}` (or into the repository's node_modules), or set "
                'lint_backend = "rumdl"'
            )
    rumdl = find_rumdl()
    if rumdl is not None:
        version = program_version((str(rumdl),), RUMDL_VERSION)
        if version is not None:
            return Backend("rumdl", (str(rumdl),), version)
    raise LintError(
        "no markdown linter can run: rumdl (a dependency of pytest-postgates) is missing or "
        "broken; reinstall it with `pip install rumdl`, or install Node and "
        f"`npm install -g markdownlint-cli@{MARKDOWNLINT_CLI_PIN}`"
    )


def _unlintable(path: Path) -> str | None:
    """Why a file is left out of the batch (one missing file would stop the linter for
    all; a file over the post size limit is refused by the post parser anyway)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"cannot read {path.name}: {exc.strerror}"
    if not path.is_file():
        return f"{path.name} is not a file"
    if size > MAX_POST_BYTES:
        return f"{path.name} is over the {MAX_POST_BYTES:,}-byte limit for a post"
    return None


def lint_batch(
    paths: Sequence[Path],
    backend_setting: str = "auto",
    markdownlint_cli: str | os.PathLike[str] | None = None,
    root: Path | None = None,
    config_file: Path | None = None,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """Lint every file in ``paths`` once, grouped by configuration. JSON-serialisable:

    ``{"backend", "version", "error", "files": {abs path: {"config", "violations",
    "error", "sha1"}}}``; ``error`` at the top means no backend could run (every file is
    unjudged); a file's ``error`` means it could not be linted (unreadable, too large,
    its configuration broken).
    ``config_file`` replaces discovery: every file is linted under that configuration.
    ``budget`` (the run's ``gate_timeout``) sets each linter process's time limit
    (:func:`.process.linter_timeout`).
    """
    files: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[Path]] = {}
    configs: dict[str, Path | None] = {}
    by_folder: dict[Path, Path | ConfigError | None] = {}
    for path in dict.fromkeys(Path(p).resolve() for p in paths):
        problem = _unlintable(path)
        if problem:
            files[str(path)] = {"config": None, "violations": [], "error": problem}
            continue
        if config_file is not None:
            by_folder[path.parent] = config_file.resolve()
        elif path.parent not in by_folder:  # posts of one folder share a configuration
            try:
                by_folder[path.parent] = config_for_folder(path.parent, root)
            except ConfigError as exc:
                by_folder[path.parent] = exc
        config = by_folder[path.parent]
        if isinstance(config, ConfigError):
            files[str(path)] = {"config": None, "violations": [], "error": str(config)}
            continue
        key = str(config) if config else ""
        groups.setdefault(key, []).append(path)
        configs[key] = config
    try:
        backend = choose_backend(
            backend_setting,
            {path.parent for group in groups.values() for path in group},
            markdownlint_cli,
        )
    except LintError as exc:
        return {"backend": None, "version": None, "error": str(exc), "files": files}
    # What each file held when linted (read before the linter runs: a file edited during
    # the run is then re-linted by batch_for rather than trusted).
    digests = {path: file_digest(path) for group in groups.values() for path in group}
    for key, group in groups.items():
        config = configs[key]
        with tempfile.TemporaryDirectory(prefix="postgates-lint-") as scratch:
            work = Path(scratch).resolve()
            try:
                if backend.name == "rumdl":
                    found = run_rumdl(backend, group, load_config(config), work, budget)
                else:
                    if config is not None:
                        read_config_file(config)  # a broken file fails its posts, not the run
                    found = run_markdownlint_cli(backend, group, config, work, budget)
            except ConfigError as exc:
                for path in group:
                    files[str(path)] = {"config": key or None, "violations": [], "error": str(exc)}
                continue
            except LintError as exc:
                return {
                    "backend": backend.name,
                    "version": backend.version,
                    "error": str(exc),
                    "files": files,
                }
        for path in group:
            violations = sorted(
                set(found.get(str(path), [])), key=lambda v: (v.line, v.rule, v.message)
            )
            files[str(path)] = {
                "config": key or None,
                "violations": [violation.to_dict() for violation in violations],
                "error": None,
                "sha1": digests.get(path),
            }
    return {"backend": backend.name, "version": backend.version, "error": None, "files": files}


def lint_ignoring_inline_config(
    post_path: Path,
    config: str | None,
    backend_setting: str = "auto",
    markdownlint_cli: str | os.PathLike[str] | None = None,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """The post's batch entry as if its markdownlint inline configuration comments
    (``disable``, ``disable-line``, ``capture``/``restore``, ``configure-file``, ...) were
    not there: a copy with them made inert, linted under the post's own configuration
    file ``config`` (the entry's; None: markdownlint's defaults). For a post that may not
    silence gate 12 (``allow_suppression``)."""
    text = post_path.read_bytes().decode("utf-8", errors="surrogateescape")
    neutral = without_inline_config(text).encode("utf-8", errors="surrogateescape")
    with tempfile.TemporaryDirectory(prefix="postgates-lint-") as scratch:
        folder = Path(scratch).resolve()
        copy = folder / post_path.name
        copy.write_bytes(neutral)
        batch = lint_batch(
            [copy],
            backend_setting,
            markdownlint_cli,
            root=folder,  # no configuration is discovered around the copy
            config_file=Path(config) if config else None,
            budget=budget,
        )
    entry = batch["files"].get(str(copy)) or {}
    error = batch.get("error") or entry.get("error")
    if error:
        raise LintError(str(error).replace(f"{folder}{os.sep}", ""))
    return {**entry, "config": config}


def file_digest(path: Path) -> str | None:
    """SHA-1 of the file's bytes: a batch entry stands for exactly this content."""
    try:
        return hashlib.sha1(path.read_bytes()).hexdigest()
    except OSError:
        return None


def batch_for(
    post_path: Path,
    posts: Sequence[Path],
    get: Callable[[str, Callable[[], Any]], Any],
    backend_setting: str = "auto",
    markdownlint_cli: str | os.PathLike[str] | None = None,
    root: Path | None = None,
    budget: float = DEFAULT_BUDGET,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The run's batch (computed once through ``get``) and this post's entry in it. A post
    outside the run's list (a library call, the CLI), or whose file changed since the
    batch linted it, gets a batch of its own, keyed by its content. ``budget``: the run's
    ``gate_timeout``, which sets the linter's time limits."""
    key = str(post_path.resolve())

    def lint(paths: Sequence[Path]) -> dict[str, Any]:
        return lint_batch(paths, backend_setting, markdownlint_cli, root, budget=budget)

    batch = get("markdownlint", lambda: lint(posts or [post_path]))
    entry = batch["files"].get(key)
    if batch.get("error") is None:
        digest = file_digest(post_path)
        if entry is None or (digest is not None and entry.get("sha1") != digest):
            name = "markdownlint-" + hashlib.sha1(f"{key}\0{digest}".encode()).hexdigest()[:16]
            batch = get(name, lambda: lint([post_path]))
            entry = batch["files"].get(key)
    return batch, entry
