"""One post that breaks the linter (a timeout, a crash) must not ERROR every other post.

The lint layer lints the whole run in one linter process per configuration; when that
process fails, :func:`pytest_postgates.tools.lint.batch.lint_batch` reports one error for
the whole batch. :func:`isolating_get` wraps the run's batch lookup so that a failed batch is linted
again in chunks of :data:`CHUNK` posts, and the posts of a failing chunk one by one: every
post the linter can handle gets its real result, and only the post that breaks it gets an
ERROR naming what happened (linted alone). When every chunk fails the same way, the fault
is the linter's, not a post's, and the batch error stands (no run per post).

Cost on a failure: one more linter run per chunk, plus one per post of each failing chunk.
Every run's time limit follows the run's ``gate_timeout`` (:func:`.process.linter_timeout`:
the budget plus half a second per file, at most three budgets), so a post that makes the
linter hang costs the batch's limit, its chunk's and its own: at most five budgets and a
few seconds (``tests/hostile/test_lint_timeouts.py``), not a fixed ten minutes per level.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pytest_postgates.tools.lint import batch as lint_run
from pytest_postgates.tools.lint.process import DEFAULT_BUDGET

CHUNK = 16
BATCH_NAME = "markdownlint"  # the run batch lint_run.batch_for computes over every post

Get = Callable[[str, Callable[[], Any]], Any]


def isolating_get(
    get: Get,
    posts: Sequence[Path],
    backend_setting: str,
    markdownlint_cli: str | os.PathLike[str] | None,
    budget: float = DEFAULT_BUDGET,
) -> Get:
    """``get`` for :func:`lint_run.batch_for`: the run's lint batch is computed by
    :func:`lint_isolating` over the same posts, every re-lint under ``budget`` (the run's
    ``gate_timeout``); every other batch name passes through."""

    def isolating(name: str, compute: Callable[[], Any]) -> Any:
        if name != BATCH_NAME or not posts:
            return get(name, compute)

        def run(paths: Sequence[Path]) -> dict[str, Any]:
            return lint_run.lint_batch(paths, backend_setting, markdownlint_cli, budget=budget)

        return get(name, lambda: lint_isolating(list(posts), run, first=compute))

    return isolating


def lint_isolating(
    paths: list[Path],
    run: Callable[[Sequence[Path]], dict[str, Any]],
    first: Callable[[], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``run(paths)``; when the whole batch fails although a linter ran, again in chunks
    and then per post, so that the failure stays with the posts that cause it."""
    result = first() if first is not None else run(paths)
    if not _failed(result) or len(paths) <= 1:
        return _per_post(result, paths) if _failed(result) else result
    chunks = [paths[start : start + CHUNK] for start in range(0, len(paths), CHUNK)]
    if len(chunks) == 1:
        chunks = [[path] for path in paths]
    results = [run(chunk) for chunk in chunks]
    if len(chunks) > 1 and all(_failed(r) for r in results) and len(paths) > CHUNK:
        return result  # every chunk fails: the linter's fault, not one post's
    merged: dict[str, Any] = {
        "backend": result.get("backend"),
        "version": result.get("version"),
        "error": None,
        "files": dict(result.get("files") or {}),
    }
    for chunk, chunk_result in zip(chunks, results, strict=True):
        if _failed(chunk_result):
            chunk_result = lint_isolating(chunk, run, first=_returning(chunk_result))
        merged["files"].update(chunk_result.get("files") or {})
        merged["backend"] = merged["backend"] or chunk_result.get("backend")
        merged["version"] = merged["version"] or chunk_result.get("version")
    return merged


def _returning(result: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    """A ``first`` for :func:`lint_isolating`: a run already made."""
    return lambda: result


def _failed(result: dict[str, Any]) -> bool:
    # No backend at all (nothing installed) is not a post's fault: no retry.
    return bool(result.get("error")) and result.get("backend") is not None


def _per_post(result: dict[str, Any], paths: Sequence[Path]) -> dict[str, Any]:
    """A failed run over one post: that post's error, the batch itself fine."""
    files = dict(result.get("files") or {})
    for path in paths:
        key = str(Path(path).resolve())
        files.setdefault(
            key,
            {
                "config": None,
                "violations": [],
                "error": f"{result['error']} (this post, linted alone)",
                # The post's content: batch_for then trusts this entry instead of linting
                # the post again on its own (and paying the same failure twice).
                "sha1": lint_run.file_digest(Path(path)),
            },
        )
    return {**result, "error": None, "files": files}
