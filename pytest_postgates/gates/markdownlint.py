"""Gate 12, markdownlint (hard): the post passes the markdownlint run the blog's CI makes.

The seeds added this gate after a post that passed every local check failed on GitHub over
MD022, MD031 and MD040: the CI runs markdownlint-cli 0.43.0 with the repository's
``.markdownlint.json``, and nothing local did. So the gate FAILs on any lint error under
the configuration markdownlint would use for the file, and its verdict must agree with
markdownlint-cli's (``bench/markdownlint_parity.py`` measures how often it does).

The lint layer (:mod:`pytest_postgates.tools.lint`) runs once per test run over every collected
post, one linter process per configuration, and this gate only reads its post's entry.
When no linter can run the gate is an ERROR that says how to install one: a post is never
passed without being linted.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates import suppression
from pytest_postgates.config import option
from pytest_postgates.gates.base import CannotJudge, CheckResult, Decision, Gate, GateContext
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import lint
from pytest_postgates.tools.lint.isolation import isolating_get, lint_isolating

if TYPE_CHECKING:
    from pytest_postgates.post import Post

BATCH_NAME = "markdownlint"  # lint.batch_for's run-wide batch
RULE_DOCS = "https://github.com/DavidAnson/markdownlint/blob/v0.36.1/doc/{rule}.md"

# What a drafter should do about the rules that catch drafts most often.
FIXES: dict[str, str] = {
    "MD001": "step heading levels down one at a time (## then ###, never ## then ####)",
    "MD003": "write every heading in the same style as the first (ATX '## Title')",
    "MD004": "use the same bullet character for every item of a list",
    "MD005": "indent items of the same list level by the same amount",
    "MD007": "indent nested bullets by the configured step (2 spaces by default)",
    "MD009": "delete the spaces at the end of the line",
    "MD010": "replace hard tabs with spaces",
    "MD011": "write links as [text](url), not (text)[url]",
    "MD012": "leave at most one blank line between blocks",
    "MD013": "wrap the line at the configured length (or move a long URL into a reference)",
    "MD014": "drop the '$ ' prompts, or show the commands' output",
    "MD018": "put a space after the '#' characters of the heading",
    "MD019": "leave exactly one space after the '#' characters of the heading",
    "MD022": "put a blank line before and after the heading",
    "MD023": "start the heading at the beginning of the line",
    "MD024": "make the heading text unique (among its siblings, if so configured)",
    "MD025": "keep one top-level heading; the front matter title already is one",
    "MD026": "remove the punctuation at the end of the heading",
    "MD027": "leave one space after the '>' of the blockquote",
    "MD028": "remove the blank line inside the blockquote, or separate the quotes with text",
    "MD029": "number the list 1, 2, 3 (or 1, 1, 1) starting at 1",
    "MD030": "leave one space after the list marker",
    "MD031": "put a blank line before and after the fenced code block",
    "MD032": "put a blank line before and after the list",
    "MD033": "replace the raw HTML with Markdown (or allow the element in the config)",
    "MD034": "wrap the bare URL in <...> or make it a [text](url) link",
    "MD035": "use the same horizontal rule style throughout",
    "MD036": "make the emphasised line a real heading",
    "MD037": "remove the spaces just inside the emphasis markers",
    "MD038": "remove the spaces just inside the code span's backticks",
    "MD039": "remove the spaces just inside the link text's brackets",
    "MD040": "declare the language after the opening fence, e.g. ```python (```text for output)",
    "MD041": "start the file with a top-level heading (or a title in the front matter)",
    "MD042": "give the link a destination",
    "MD045": "give the image alternate text: ![what it shows](path)",
    "MD046": "write every code block in the same style as the first (fenced)",
    "MD047": "end the file with exactly one newline",
    "MD048": "use the same fence characters (``` or ~~~) for every code block",
    "MD049": "use the same emphasis markers (*text* or _text_) throughout",
    "MD050": "use the same strong markers (**text** or __text__) throughout",
    "MD051": "point the #fragment at a heading that exists in this post",
    "MD052": "define the reference label, or write the link inline",
    "MD053": "delete the unused link reference definition",
    "MD055": "use the same leading and trailing pipe style in every table row",
    "MD056": "give every table row the same number of cells as the header",
    "MD058": "put a blank line before and after the table",
}


def fix_for(rule: str) -> str:
    advice = FIXES.get(rule)
    docs = RULE_DOCS.format(rule=rule.lower())
    return f"{advice} ({docs})" if advice else f"see {docs}"


def _config_display(config: str | None, post_path: Path) -> str | None:
    """The configuration file relative to the post's repository (or, outside one, to the
    post's folder): scorecards hold no absolute paths."""
    if not config:
        return None
    folder = post_path.resolve().parent
    base = lint.repo_root_of(folder) or folder
    return Path(os.path.relpath(config, base)).as_posix()


def _message(violation: dict[str, Any]) -> str:
    """markdownlint's words for the rule, then what the backend said in particular."""
    description = lint.DESCRIPTIONS.get(violation["rule"], "")
    said = str(violation.get("message", "")).strip()
    if not description or said.startswith(description):
        return said or description
    return f"{description} [{said}]" if said else description


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings.for_gate(MarkdownlintSettings)
    batches = context.batches
    # The part of the run's batch that covers this post (the whole batch in one process).
    part, posts = batches.scope(BATCH_NAME, post.path)
    if not posts:
        part, posts = BATCH_NAME, batches.posts_for(BATCH_NAME)
    cli = settings.markdownlint_cli
    budget = context.settings.gate_timeout  # the linter's time limits follow it (issue 16)

    def lint_paths(paths: Sequence[Path]) -> dict[str, Any]:
        return lint.lint_batch(paths, settings.lint_backend, cli, budget=budget)

    def part_get(name: str, compute: Callable[[], Any]) -> Any:
        return batches.get(part if name == BATCH_NAME else name, compute)

    # Any part is computed as isolating_get computes this one, so that a worker waiting on
    # a lock can lint a part it needs later (batch.py).
    batches.offer(BATCH_NAME, lambda paths: lint_isolating(list(paths), lint_paths))
    batch, entry = lint.batch_for(
        post.path,
        posts,
        # A post that breaks the linter gets the ERROR, not the whole run (issue 16).
        isolating_get(part_get, posts, settings.lint_backend, cli, budget),
        settings.lint_backend,
        cli,
        budget=budget,
    )
    backend = batch.get("backend")
    version = batch.get("version")
    ran = f"{backend} {version}" if backend else "no linter"
    error = batch.get("error") or (entry or {}).get("error")
    if entry is None and not error:
        error = "the linter returned no result for this file"
    if error:
        folder = post.path.resolve().parent
        for base in (lint.repo_root_of(folder), folder):  # no absolute paths in scorecards
            if base is not None:
                error = error.replace(f"{base}{os.sep}", "")
        raise CannotJudge(
            "ERROR",
            f"markdownlint could not run: {error}",
            {"backend": backend, "config": None, "error": error},
        )
    assert entry is not None
    ignored = _ignored_inline_config(post, context)
    if ignored:
        # The post may not silence this gate: lint it as if its comments were not there,
        # and count what they would have hidden.
        lines, _ = ignored
        try:
            unsilenced = lint.lint_ignoring_inline_config(
                post.path, entry.get("config"), settings.lint_backend, cli, budget
            )
        except (lint.LintError, OSError) as exc:
            raise CannotJudge("ERROR", f"markdownlint could not run: {exc}") from None
        hidden = Counter((v["line"], v["rule"]) for v in unsilenced["violations"])
        hidden.subtract((v["line"], v["rule"]) for v in entry["violations"])
        ignored = (lines, sum(count for count in hidden.values() if count > 0))
        entry = unsilenced

    violations = [
        {"line": v["line"], "rule": v["rule"], "message": lint.DESCRIPTIONS.get(v["rule"], "")}
        for v in entry["violations"]
    ]
    counts = Counter(v["rule"] for v in violations)
    # Worked out once per (configuration, folder) per run: a resolve and a walk up to the
    # repository root for every post cost more than the rest of this function.
    display_key = ("markdownlint.config_display", entry.get("config"), post.path.parent)
    if display_key not in context.memo:
        context.memo[display_key] = _config_display(entry.get("config"), post.path)
    config = context.memo[display_key]
    findings = [
        Finding(v["line"], v["rule"], f"{v['alias']}: {_message(v)}", fix=fix_for(v["rule"]))
        for v in entry["violations"]
    ]
    detail: dict[str, Any] = {
        "backend": backend,
        "config": config,
        "violation_count": len(violations),
        "counts": dict(sorted(counts.items())),
        "violations": violations,
    }
    under = f"under {config}" if config else "under markdownlint's defaults (no config file)"
    if ignored:
        lines, hidden_count = ignored
        detail["inline_config_ignored"] = {"lines": lines, "would_suppress": hidden_count}
        under += (
            f"; {len(lines)} markdownlint inline comment(s) ignored (allow_suppression), "
            f"{hidden_count} error(s) they would have hidden counted"
        )
    return CheckResult(findings, detail, {"under": under, "ran": ran})


def _ignored_inline_config(post: Post, context: GateContext) -> tuple[list[int], int] | None:
    """(lines of markdownlint inline comments, 0) when the post has some and
    ``allow_suppression`` does not let it silence this gate; None otherwise."""
    if suppression.allows(context.settings.allow_suppression, GATE.name):
        return None
    if "markdownlint" not in post.text.lower():
        return None
    lines = lint.inline_comment_lines(post.text)  # the whole file's text: file lines
    return (lines, 0) if lines else None


def decide(result: CheckResult, settings: MarkdownlintSettings) -> Decision:
    under, ran = result.facts["under"], result.facts["ran"]
    findings = result.findings
    if findings:
        counts = Counter(finding.code for finding in findings)
        rules = ", ".join(f"{rule} x{count}" for rule, count in sorted(counts.items()))
        summary = f"{len(findings)} markdownlint error(s) ({rules}) {under}; linted by {ran}"
        return Decision("FAIL", summary, len(findings))
    return Decision("PASS", f"no markdownlint errors {under}; linted by {ran}", 0)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """Besides the post's bytes and the settings, the findings depend on the configuration
    markdownlint would use for the post's folder (its effective rules, ``extends``
    resolved) and on the linter that runs (backend and version). Worked out once per
    folder per run; None (gate anew) when either cannot be settled without linting."""
    folder = post_path.resolve().parent
    key = ("markdownlint.inputs", folder)
    if key not in context.memo:
        context.memo[key] = _lint_inputs(folder, context)
    inputs: str | None = context.memo[key]
    return inputs


def _lint_inputs(folder: Path, context: GateContext) -> str | None:
    settings = context.settings.for_gate(MarkdownlintSettings)
    try:
        config = lint.config_for_folder(folder)
        rules = lint.load_config(config)
        backend = lint.choose_backend(settings.lint_backend, [folder], settings.markdownlint_cli)
    except lint.LintError:  # a broken configuration or no linter: reported by the gate
        return None
    return json.dumps(
        {
            "folder": str(folder),
            "config": str(config) if config else None,
            "rules": rules,
            "backend": [backend.name, *backend.command, backend.version],
        },
        sort_keys=True,
        default=str,
    )


NOT_ADOPTED = (
    "the project has no markdownlint configuration (.markdownlint.json, .yaml, "
    ".markdownlintrc, .markdownlint-cli2.*), so markdownlint's default style is advice; "
    "add one to enforce it, or set gates.markdownlint.advisory = false"
)


def advisory_reason(post_path: Path, context: GateContext) -> str | None:
    """Gate 12 enforces the configuration a project has adopted: a post with none from
    its folder up to the repository root gets the default rules as advice."""
    key = ("markdownlint.adopted", post_path.parent)
    if key not in context.memo:
        context.memo[key] = lint.adopted_config(post_path.resolve().parent)
    return None if context.memo[key] is not None else NOT_ADOPTED


@dataclass(frozen=True)
class MarkdownlintSettings:
    """Gate 12's settings."""

    lint_backend: str = option(
        "auto",
        "backend",
        "`auto` (markdownlint-cli when installed, else rumdl), `rumdl` or `markdownlint-cli`",
    )
    markdownlint_cli: str | None = option(
        None,
        "str",
        "command or path of markdownlint-cli",
        shown_default="found near the posts or on PATH",
    )


GATE = Gate(
    id=12,
    name="markdownlint",
    advisory=False,
    kind="hard",
    description="The post passes markdownlint under the blog's configuration.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    advisory_reason=advisory_reason,
    batches=(BATCH_NAME,),
    settings=MarkdownlintSettings,
)
