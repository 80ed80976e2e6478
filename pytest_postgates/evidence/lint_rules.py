"""Lint-rule evidence: the custom lint rules a repository really has.

The seeds' drafter wrote about thirteen ESLint rules when the plugin had ten, because the
tree-sitter repo map could not read CommonJS. This module reads the plugin source itself
(CommonJS ``require`` registries and ES module imports alike) into rule names,
descriptions, messageIds and messages, so that ``prefix/rule`` ids ground against real
rule files and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pytest_postgates.evidence.index import RepoIndex

RULE_EXTENSIONS = (".cjs", ".js", ".mjs", ".ts", ".cts", ".mts")
# The key patterns start only where a run of key characters starts (skipping its leading
# ``-``, or the non-ASCII-letter word characters before a name) and read the run
# possessively: every start inside one run shares the run's end, so a long run (a hex
# string in generated source) was re-read from each of its characters. Same groups as
# ``["']?([a-z0-9][a-z0-9-]*)["']?...`` and ``([A-Za-z_]\w*)...`` (tests/test_scan.py).
_REQUIRE_ENTRY = re.compile(
    r"""(?<![a-z0-9-])["']?-*+([a-z0-9][a-z0-9-]*+)["']?\s*:\s*require\(\s*["']\./([^"']+)["']"""
)
_IMPORT = re.compile(r"""import\s+(\w+)\s+from\s+["']\./([^"']+)["']""")
_KEY_TO_IDENT = re.compile(
    r"""(?<![a-z0-9-])["']?-*+([a-z0-9][a-z0-9-]*+)["']?\s*:\s*(\w++)\s*[,}\n]"""
)
_MESSAGES = re.compile(r"messages\s*:\s*\{([\s\S]*?)\n\s*\}")
_MESSAGE = re.compile(r"""(?<!\w)[^\W_A-Za-z]*+([A-Za-z_]\w*+)\s*:\s*(['"`])(.*?)\2""")
_DOC_DESCRIPTION = re.compile(r"""description\s*:\s*(['"`])(.*?)\1""")


@dataclass(frozen=True)
class LintRule:
    name: str
    file: str
    description: str
    message_ids: tuple[str, ...]
    messages: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class LintRules:
    prefix: str
    folder: str
    rules: tuple[LintRule, ...] = ()
    symbols: frozenset[str] = field(default_factory=frozenset)
    note: str = ""

    def rule(self, name: str) -> LintRule | None:
        return next((rule for rule in self.rules if rule.name == name), None)


def _rule_file(index: RepoIndex, folder: str, stem: str) -> str | None:
    stem = re.sub(r"\.(c|m)?[jt]s$", "", stem)
    for extension in RULE_EXTENSIONS:
        candidate = f"{folder}/{stem}{extension}"
        if index.match_path(candidate) == candidate:
            return candidate
    return None


def parse_descriptions(source: str, prefix: str) -> dict[str, str]:
    """``prefix/rule -> text`` lines of a JSDoc-style registry comment (→, ->, - or :)."""
    pattern = re.compile(rf"{re.escape(prefix)}/([a-z0-9-]+)\s*(?:→|->|—|-|:)\s*(.+?)\s*$", re.M)
    return {m.group(1): m.group(2).rstrip(".").strip() for m in pattern.finditer(source)}


def parse_registry(source: str) -> dict[str, str]:
    """Registered rule key -> module path, from ``require`` entries or imported idents."""
    registry = {key: path for key, path in _REQUIRE_ENTRY.findall(source)}
    imported = {ident: path for ident, path in _IMPORT.findall(source)}
    for key, ident in _KEY_TO_IDENT.findall(source):
        if ident in imported and key not in registry:
            registry[key] = imported[ident]
    return registry


def parse_messages(source: str) -> tuple[tuple[str, str], ...]:
    """(messageId, text) pairs from a rule's ``meta.messages`` block."""
    block = _MESSAGES.search(source)
    if not block:
        return ()
    return tuple(
        (m.group(1), m.group(3).strip())
        for m in _MESSAGE.finditer(block.group(1))
        if len(m.group(3).strip()) >= 4
    )


def extract_lint_rules(index: RepoIndex, prefix: str, folder: str) -> LintRules:
    folder = folder.strip("/")
    registry_file = next(
        (
            f"{folder}/index{ext}"
            for ext in RULE_EXTENSIONS
            if index.file_text(f"{folder}/index{ext}")
        ),
        None,
    )
    registry_source = index.file_text(registry_file) if registry_file else ""
    descriptions = parse_descriptions(registry_source or "", prefix)
    registry = parse_registry(registry_source or "")
    names = dict(registry)
    # Rule files on disk count even when the registry cannot be parsed.
    for path in index.paths:
        if path.startswith(folder + "/") and "/" not in path[len(folder) + 1 :]:
            stem = path[len(folder) + 1 :]
            base = re.sub(r"\.(c|m)?[jt]s$", "", stem)
            if base != stem and base != "index":
                names.setdefault(base, stem)
    rules = []
    symbols: set[str] = set()
    for name in sorted(names):
        file = _rule_file(index, folder, names[name])
        if file is None:
            continue
        source = index.file_text(file) or ""
        messages = parse_messages(source)
        description = descriptions.get(name) or next(
            (m.group(2) for m in _DOC_DESCRIPTION.finditer(source)), ""
        )
        rules.append(LintRule(name, file, description, tuple(mid for mid, _ in messages), messages))
        symbols.add(f"{prefix}/{name}")
        symbols.update(mid for mid, _ in messages)
    note = "" if rules else f"no lint rules found under {folder}/"
    return LintRules(prefix, folder, tuple(rules), frozenset(symbols), note)
