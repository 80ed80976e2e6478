"""The rumdl backend: markdownlint's configuration translated into an explicit rumdl TOML
file, rumdl found and run over the batch (one process per distinct configuration), its
findings filtered to what markdownlint reports, and the native rules evaluated where rumdl
(as a detector) or a text test says they may fire. See the package docstring.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pytest_postgates.tools.lint.candidates import odd_list_start
from pytest_postgates.tools.lint.catalog import ALIAS, LintError, Violation
from pytest_postgates.tools.lint.config import effective_rules
from pytest_postgates.tools.lint.document import (
    LINE_BREAK,
    markdownlint_lines,
    without_front_matter,
)
from pytest_postgates.tools.lint.inline import enabled_per_line, file_config
from pytest_postgates.tools.lint.process import (
    DEFAULT_BUDGET,
    Backend,
    argument_chunks,
    linter_failure,
    linter_timeout,
    result_key,
    run_linter,
)
from pytest_postgates.tools.lint.reconcile import (
    gfm_table_lines,
    keep_rumdl_finding,
    native_violations,
)
from pytest_postgates.tools.lint.rules import ALWAYS_NATIVE, NATIVE_RULES

# rumdl settings that make a rule behave as markdownlint 0.36.1's does where rumdl's own
# default differs or where rumdl has an extension markdownlint lacks.
RUMDL_FIXED: dict[str, dict[str, Any]] = {
    # markdownlint counts nesting levels times ``indent``; rumdl aligns with the parent's text.
    "MD007": {"style": "fixed"},
    # markdownlint 0.36.1's MD001 does not treat a front matter title as a level-1 heading.
    "MD001": {"front-matter-title": False},
    # markdownlint compares heading text only; link targets do not make headings different.
    "MD024": {"allow-different-link-anchors": False},
}

# markdownlint options rumdl has no equivalent for (it would warn about them on every run).
# MD040 language_only (an info string of the language alone) stays a known difference.
RUMDL_UNKNOWN_OPTIONS = frozenset({("MD040", "language_only")})

RUMDL_VERSION = re.compile(r"rumdl\s+(\S+)")


def _front_matter_key(pattern: Any) -> str:
    """rumdl names the front matter key ('title'); markdownlint takes a regex such as
    ``^\\s*"?title"?\\s*[:=]``. The key is the regex's identifier; empty disables it."""
    if not isinstance(pattern, str) or not pattern.strip():
        return ""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", re.sub(r"\\[sSdDwWbB]", " ", pattern))
    return words[0] if words else "title"


def rumdl_options(rule: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """markdownlint options of one rule in rumdl's spelling, with rumdl-only settings that
    keep rumdl to markdownlint's behaviour."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if (rule, key) in RUMDL_UNKNOWN_OPTIONS:
            continue
        if key == "front_matter_title":
            out["front-matter-title"] = _front_matter_key(value)
        elif key == "style" and isinstance(value, str) and rule == "MD029":
            # rumdl only detects MD029 (markdownlint's algorithm decides); it has no "all
            # zeros" style, and "one" flags every item of such a list anyway.
            out["style"] = {"one_or_ordered": "one-or-ordered", "zero": "one"}.get(value, value)
        elif isinstance(value, (bool, int, float, str)) or (
            isinstance(value, list) and all(isinstance(item, (str, int)) for item in value)
        ):
            out[key.replace("_", "-")] = value
    out.update(RUMDL_FIXED.get(rule, {}))
    if rule == "MD013":
        # Over-report on purpose; _markdownlint_long_line keeps what markdownlint reports.
        out.update(
            {"strict": True, "stern": False, "length-mode": "bytes", "ignore-link-urls": False}
        )
    return out


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def rumdl_config_text(rules: Mapping[str, Mapping[str, Any]]) -> str:
    """A complete rumdl TOML configuration running exactly ``rules`` as markdownlint would.

    ``enable`` lists every rule (an explicit list is rumdl's "only these"), so rumdl's own
    rules (MD057, MD059 and later) and anything rumdl would read from other files never run.
    """
    enabled = sorted(rules)
    lines = [
        "[global]",
        f"enable = {_toml_value(enabled)}",
        'flavor = "standard"',
        "respect-gitignore = false",
        "",
    ]
    for rule in enabled:
        options = rumdl_options(rule, rules[rule])
        if not options:
            continue
        lines.append(f"[{rule}]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in sorted(options.items()))
        lines.append("")
    return "\n".join(lines)


_BARE_CR = re.compile(rb"\r(?!\n)")


def find_rumdl() -> Path | None:
    """The rumdl executable of this Python environment (next to the interpreter, where a
    wheel installs it), else the one on PATH."""
    names = ("rumdl.exe", "rumdl") if os.name == "nt" else ("rumdl",)
    folders = [Path(sys.executable).parent, Path(sys.prefix) / "bin", Path(sys.prefix) / "Scripts"]
    for folder in folders:
        for name in names:
            candidate = folder / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    found = shutil.which("rumdl")
    return Path(found) if found else None


# rumdl honours markdownlint's (and its own) inline comments, with its own semantics; the
# copy rumdl lints has them renamed (same length, so columns and lengths stay), and
# markdownlint's state, computed here, filters rumdl's findings instead.
_RUMDL_INLINE = re.compile(
    r"(<!--\s*)(markdownlint|rumdl|prettier)(-(?:disable|enable|capture|restore|configure|ignore))",
    re.IGNORECASE,
)


def _neutral_copy(data: bytes) -> bytes | None:
    """The bytes rumdl lints instead of ``data``, or None when ``data`` itself will do:
    bare CR line ends as LF (markdownlint splits lines there, rumdl does not) and inline
    configuration comments renamed."""
    changed = data
    if _BARE_CR.search(changed):
        changed = _BARE_CR.sub(b"\n", changed)
    if b"<!--" in changed:
        text = changed.decode("utf-8", errors="surrogateescape")
        renamed = _RUMDL_INLINE.sub(lambda m: m.group(1) + "x" * len(m.group(2)) + m.group(3), text)
        changed = renamed.encode("utf-8", errors="surrogateescape")
    return None if changed == data else changed


def run_rumdl(
    backend: Backend,
    paths: Sequence[Path],
    config: Mapping[str, Any],
    work: Path,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, list[Violation]]:
    """rumdl over ``paths`` with ``config`` (a markdownlint configuration object)
    translated, then :data:`NATIVE_RULES` evaluated here where needed: file -> violations.

    Each file is linted under ``config`` extended by its own ``configure-file`` comments
    (one rumdl process per distinct result), and every finding is kept only where
    markdownlint's inline ``disable``/``enable``/``capture``/``restore`` state has its rule
    on at that line.

    rumdl runs the native rules too, as a cheap detector: whether it reports a rule in a
    file selects the files where markdownlint's algorithm is evaluated (its own findings
    for those rules are dropped). That is sound because for each of them rumdl reports
    something in every file where markdownlint does (checked on the corpora of
    bench/markdownlint_parity.py and by differential tests), except where a text test
    stands in: lists that start at a number other than 1 (MD029), emphasis paragraphs
    (MD036, which rumdl does not run) and the styles rumdl cannot detect (MD029 "zero",
    MD004 "sublist"). Files with inline configuration comments are always evaluated here.
    """
    texts: dict[str, tuple[bytes, str]] = {}
    groups: dict[str, tuple[dict[str, Any], list[Path]]] = {}
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise LintError(f"cannot read {path.name}: {exc.strerror}") from None
        text = data.decode("utf-8", errors="replace")
        texts[str(path)] = (data, text)  # lint_batch hands over resolved paths
        own = file_config(text, config)
        if "markdownlint-" in text:
            # A rule the configuration switches off but an inline comment switches on
            # somewhere runs, with its default options, as markdownlint runs it.
            body, offset = markdownlint_lines(text)
            options, per_line, _ = enabled_per_line(body, offset, config)
            somewhere = {rule for state in per_line.values() for rule, on in state.items() if on}
            for rule in sorted(somewhere - set(options)):
                own = {key: value for key, value in own.items() if key != rule}
                own[rule] = True
        # Files whose rumdl runs are the same share one process, however their own
        # configure-file comments differ in the rules computed here.
        key = _rumdl_group_key(effective_rules(own))
        groups.setdefault(key, (own, []))[1].append(path)
    found: dict[str, list[Violation]] = {}
    folders = []
    for number in range(len(groups)):
        folders.append(work / f"g{number}")
        folders[-1].mkdir()
    # Distinct configure-file comments can make many groups (markdownlint's suite: 78 of
    # 336 files): their rumdl processes run side by side while this process reads results.
    workers = max(1, min(len(groups), os.cpu_count() or 1, 4))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(_run_rumdl_group, backend, group, texts, config, own, folder, budget)
            for (own, group), folder in zip(groups.values(), folders, strict=True)
        ]
        for future in futures:
            found.update(future.result())
    return found


def _rumdl_group_key(rules: Mapping[str, dict[str, Any]]) -> str:
    """What decides a rumdl run and how its findings are read: the TOML of the rules rumdl
    runs, MD024's siblings_only and the styles that make a native rule always evaluated."""
    delegated = {rule: options for rule, options in rules.items() if rule not in ALWAYS_NATIVE}
    return json.dumps(
        [
            rumdl_config_text(delegated),
            bool(rules.get("MD024", {}).get("siblings_only")),
            rules.get("MD029", {}).get("style") == "zero",
            rules.get("MD004", {}).get("style") == "sublist",
        ]
    )


def _run_rumdl_group(
    backend: Backend,
    paths: Sequence[Path],
    texts: Mapping[str, tuple[bytes, str]],
    base_config: Mapping[str, Any],
    config: Mapping[str, Any],
    work: Path,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, list[Violation]]:
    """:func:`run_rumdl` for files that share one configuration (``config``: the base
    configuration with their configure-file comments applied)."""
    rules = effective_rules(config)
    delegated = {rule: options for rule, options in rules.items() if rule not in ALWAYS_NATIVE}
    # Without siblings_only rumdl's MD024 is markdownlint's (5,984 of 5,984 findings on the
    # NeuroLink docs): its findings stand, and MD024 is no native rule for these files.
    siblings_only = bool(rules.get("MD024", {}).get("siblings_only"))
    # Rules rumdl cannot detect for these settings are evaluated wherever their text test
    # passes: MD036 (rumdl does not run it), MD029 "zero" and MD004 "sublist".
    always = set(ALWAYS_NATIVE)
    if rules.get("MD029", {}).get("style") == "zero":
        always.add("MD029")
    if rules.get("MD004", {}).get("style") == "sublist":
        always.add("MD004")
    base_rules = effective_rules(base_config)
    toml = work / "rumdl.toml"
    toml.write_text(rumdl_config_text(delegated), encoding="utf-8")
    targets: list[Path] = []
    original: dict[str, str] = {}  # linted copy -> file
    for path in paths:
        key = str(path)
        target = path
        copy = _neutral_copy(texts[key][0])
        if copy is not None:
            target = work / "copy" / str(len(original)) / path.name
            target.parent.mkdir(parents=True)
            target.write_bytes(copy)
            original[result_key(target, work)] = key
        targets.append(target)
    items = _rumdl_chunks(backend, targets, toml, work, budget) if delegated else []
    keys = {str(target): str(target) for target in targets}  # rumdl prints these
    file_texts = {str(path): texts[str(path)][1] for path in paths}
    lines = {key: LINE_BREAK.split(text.removeprefix("\ufeff")) for key, text in file_texts.items()}
    states = {}
    for key, text in file_texts.items():
        if "markdownlint-" in text:
            body, offset = without_front_matter(lines[key])
            _, per_line, base = enabled_per_line(body, offset, base_config, rules)
            states[key] = (per_line, base)
    found: dict[str, list[Violation]] = {key: [] for key in file_texts}
    detected: dict[str, set[str]] = {key: set() for key in file_texts}
    table_cache: dict[str, list[bool]] = {}

    def _tables_of(key: str) -> Callable[[], list[bool]]:
        def compute() -> list[bool]:
            if key not in table_cache:
                table_cache[key] = gfm_table_lines(lines.get(key, []))
            return table_cache[key]

        return compute

    for item in items:
        rule = str(item.get("rule", ""))
        message = str(item.get("message", ""))
        key = keys.get(item["file"]) or result_key(item["file"], work)
        key = original.get(key, key)
        number = int(item["line"])
        if rule in NATIVE_RULES and not (rule == "MD024" and not siblings_only):
            detected.setdefault(key, set()).add(rule)
            continue
        # A rule markdownlint does not have or that is switched off never counts.
        if rule not in delegated or not keep_rumdl_finding(
            rule, message, number, lines.get(key, []), rules[rule], _tables_of(key)
        ):
            continue
        if key in states:
            per_line, base = states[key]
            if not per_line.get(number, base).get(rule):
                continue  # switched off at this line by an inline comment
        found.setdefault(key, []).append(Violation(number, rule, ALIAS[rule], message))
    for key, text in file_texts.items():
        if key in states:
            # Inline configuration: markdownlint's own state decides, for every native rule.
            only = set(NATIVE_RULES)
        else:
            only = detected.get(key, set()) | always
            if "MD029" not in only and odd_list_start(lines[key]):
                only.add("MD029")
        if not siblings_only:
            only.discard("MD024")
        # (a file with inline comments gets its own rules from them; the rest the base's)
        native = native_violations(text, base_config, only, lines[key], base_rules)
        if native:
            found[key] = found[key] + native
    return found


def _rumdl_chunks(
    backend: Backend, paths: Sequence[Path], toml: Path, work: Path, budget: float
) -> list[dict[str, Any]]:
    """rumdl's JSON findings over ``paths``, in as few processes as
    :func:`.process.argument_chunks` allows, each within :func:`.process.linter_timeout`."""
    items: list[dict[str, Any]] = []
    for chunk in argument_chunks(paths):
        command = [
            *backend.command,
            "check",
            "--config",
            str(toml),
            "--no-cache",
            "--no-exclude",
            "--output-format",
            "json",
            "--fail-on",
            "never",
            "--color",
            "never",
            "--show-full-path",
            "--",
            *map(str, chunk),
        ]
        result = run_linter(command, work, linter_timeout(len(chunk), budget))
        if result.returncode != 0:
            raise linter_failure("rumdl", result, work)
        try:
            items.extend(json.loads(result.stdout or "[]"))
        except json.JSONDecodeError:
            raise LintError(f"rumdl printed no JSON: {result.stdout[:200]!r}") from None
    return items
