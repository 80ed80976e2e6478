"""The markdownlint configuration of a post, found and read as markdownlint-cli2 finds it:
from the post's folder upward to the repository root, the first folder with
``.markdownlint-cli2.jsonc``/``.yaml`` (its ``config`` key) or
``.markdownlint.jsonc``/``.json``/``.yaml``/``.yml`` wins; ``extends`` resolved relative to
the file; rule ids, aliases and tags resolved to the rules in force (:func:`effective_rules`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from pytest_postgates.tools.lint.catalog import DEFAULT_OPTIONS, RULES, ConfigError

# Where the markdownlint configuration of a post is looked for, in order, in each folder
# from the post's own up to the repository root (markdownlint-cli2's list without the
# JavaScript forms, which only Node can evaluate).
CLI2_CONFIG_NAMES = (".markdownlint-cli2.jsonc", ".markdownlint-cli2.yaml")
CONFIG_NAMES = (
    ".markdownlint.jsonc",
    ".markdownlint.json",
    ".markdownlint.yaml",
    ".markdownlint.yml",
)


# Every file name by which a project adopts a markdownlint configuration (markdownlint-cli's
# rc file and markdownlint-cli2's JavaScript forms included, which only Node evaluates):
# where none is found, the project has not chosen markdownlint's rules (gate 12 advisory).
ADOPTED_CONFIG_NAMES = (
    *CLI2_CONFIG_NAMES,
    ".markdownlint-cli2.cjs",
    ".markdownlint-cli2.mjs",
    *CONFIG_NAMES,
    ".markdownlint.cjs",
    ".markdownlint.mjs",
    ".markdownlintrc",
)


def adopted_config(start: Path) -> Path | None:
    """The first markdownlint configuration file of any name, from the folder ``start``
    (resolved) upward to its repository root (or the filesystem root outside one)."""
    stop = (repo_root_of(start) or Path(start.anchor)).resolve()
    for folder in (start, *start.parents):
        for name in ADOPTED_CONFIG_NAMES:
            if (folder / name).is_file():
                return folder / name
        if folder == stop:
            break
    return None


def repo_root_of(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` holding ``.git`` (a folder or a worktree
    file): where configuration discovery stops, as markdownlint-cli2 stops at its base."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def find_config(post_path: Path, root: Path | None = None) -> Path | None:
    """The markdownlint configuration file markdownlint-cli2 would use for ``post_path``:
    the first found from its folder upward to ``root`` (default: its repository root, or
    the filesystem root outside a repository). A cli2 file counts only when it has a
    ``config`` key; otherwise the plain files of the same folder are tried."""
    return config_for_folder(post_path.resolve().parent, root)


def config_for_folder(start: Path, root: Path | None = None) -> Path | None:
    """:func:`find_config` for every file in the folder ``start`` (resolved)."""
    stop = (root or repo_root_of(start) or Path(start.anchor)).resolve()
    for folder in (start, *start.parents):
        for name in CLI2_CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file() and "config" in read_config_file(_inside(candidate, stop)):
                return candidate
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return _inside(candidate, stop)
        if folder == stop:
            break
    return None


def _inside(path: Path, root: Path) -> Path:
    """``path`` when it (any link followed) lies inside ``root``, the repository: a
    committed link to a file elsewhere (``~/.ssh/config``, ``/etc/passwd``) is never read,
    not even to report its syntax error (which would quote a line of it)."""
    if not path.resolve().is_relative_to(root.resolve()):
        raise ConfigError(
            f"{path.name}: a link to a file outside the repository; a configuration is"
            " never read through one (commit the file itself)"
        )
    return path


def strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas (JSONC, as markdownlint reads it) made plain
    JSON; string contents are left alone."""
    out: list[str] = []
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[index : end + 1])
            index = end + 1
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = length if newline < 0 else newline
        elif text.startswith("/*", index):
            close = text.find("*/", index + 2)
            index = length if close < 0 else close + 2
        else:
            out.append(char)
            index += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def read_config_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path.name}: cannot read: {exc}") from None
    try:
        if path.suffix in (".yaml", ".yml"):
            data = yaml.safe_load(text)
        else:
            data = json.loads(strip_jsonc(text))
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path.name}: not valid {path.suffix[1:].upper()}: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name}: must be an object of rule settings")
    return data


def load_config(
    path: Path | None, _seen: tuple[Path, ...] = (), root: Path | None = None
) -> dict[str, Any]:
    """The markdownlint configuration object in ``path`` with ``extends`` resolved as
    markdownlint resolves it (relative to the file; the file's own keys win, shallowly).
    A cli2 file contributes its ``config`` key. No file: ``{}`` (markdownlint defaults).
    Neither the file nor one it extends is read through a link out of its repository."""
    if path is None:
        return {}
    if root is None:
        root = repo_root_of(path.absolute().parent) or Path(path.absolute().anchor)
    path = _inside(path, root).resolve()
    if path in _seen:
        raise ConfigError(f"{path.name}: 'extends' cycle")
    data = read_config_file(path)
    if path.name.startswith(".markdownlint-cli2."):
        data = data.get("config") or {}
        if not isinstance(data, dict):
            raise ConfigError(f"{path.name}: 'config' must be an object of rule settings")
    data = dict(data)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise ConfigError(f"{path.name}: 'extends' must be a path")
    target = (path.parent / parent).resolve()
    if not target.is_file():
        raise ConfigError(
            f"{path.name}: 'extends' names {parent!r}, which is not a file next to it "
            '(package names need Node: use lint_backend = "markdownlint-cli")'
        )
    return {**load_config(_inside(target, root), (*_seen, path), root), **data}


def _rule_lookup() -> dict[str, list[str]]:
    """Upper-cased rule ids, aliases and tags -> the rules they name (markdownlint's map)."""
    lookup: dict[str, list[str]] = {}
    for rule, (aliases, tags) in RULES.items():
        for name in (rule, *aliases):
            lookup[name.upper()] = [rule]
        for tag in tags:
            lookup.setdefault(tag.upper(), []).append(rule)
    return lookup


LOOKUP = _rule_lookup()


def effective_rules(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Enabled rule -> options, with markdownlint's semantics: ``default`` (any case) sets
    every rule on or off, then each key in order (rule id, alias or tag, any case) sets its
    rules to off (falsy), to default options (``true``) or to exactly the given object
    merged over the defaults; unknown keys are ignored, as markdownlint ignores them."""
    default_keys = [key for key in config if key.upper() == "DEFAULT"]
    rule_default = not default_keys or bool(config[default_keys[0]])
    state: dict[str, dict[str, Any] | None] = {rule: {} if rule_default else None for rule in RULES}
    for key, value in config.items():
        for rule in LOOKUP.get(key.upper(), ()):
            if not value:
                state[rule] = None
            else:
                state[rule] = dict(value) if isinstance(value, Mapping) else {}
    return {
        rule: {**DEFAULT_OPTIONS.get(rule, {}), **options}
        for rule, options in state.items()
        if options is not None
    }
