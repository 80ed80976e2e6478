"""Settings: ``[tool.postgates]`` in the nearest pyproject.toml, ``postgates_*`` ini keys,
command-line flags and the seeds' environment variables, in rising order of precedence.

The key and flag names are the configuration contract of DESIGN.md; they do not change.
Relative paths are taken relative to the file that names them (pyproject.toml or the ini
file) or, for flags, to the directory pytest was invoked from.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

DEFAULT_SCORECARDS = Path(".postgates/scorecards")

# Seeds' environment variables: they win over every other source.
ENV_CALL_GRAPH_THRESHOLD = "CALL_GRAPH_CLAIM_THRESHOLD"
ENV_SYMBOL_GROUNDING_THRESHOLD = "SYMBOL_GROUNDING_THRESHOLD"


@dataclass(frozen=True)
class Judge:
    """One OpenAI-compatible chat-completions provider. The key is read from the
    environment variable ``api_key_env`` at request time and never stored."""

    name: str
    base_url: str
    model: str
    api_key_env: str | None = None
    weight: float = 1.0


_GLOB = re.compile(r"[*?\[]")


def in_folder(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies under ``folder``, a ``paths`` entry: a folder, or a glob
    (``docs/*``, ``content/**/posts``, ``site/*/docs/**/*.md``: ``**`` spans folders, ``*``
    and ``?`` one name) that the file or one of its folders matches."""
    if not _GLOB.search(str(folder)):
        return path.is_relative_to(folder)
    pattern = _glob_regex(folder.as_posix())
    candidate = Path(os.path.abspath(path))
    return any(pattern.fullmatch(p.as_posix()) for p in (candidate, *candidate.parents))


@lru_cache(maxsize=64)
def _glob_regex(glob: str) -> re.Pattern[str]:
    out = ""
    index = 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out += "(?:[^/]+/)*"
            index += 3
        elif glob.startswith("**", index):
            out += ".*"
            index += 2
        elif glob[index] == "*":
            out += "[^/]*"
            index += 1
        elif glob[index] == "?":
            out += "[^/]"
            index += 1
        elif glob[index] == "[":
            end = glob.find("]", index + 1)
            if end < 0:
                out += re.escape("[")
                index += 1
            else:
                out += "[" + glob[index + 1 : end].replace("\\", "\\\\") + "]"
                index = end + 1
        else:
            out += re.escape(glob[index])
            index += 1
    return re.compile(out)


@dataclass(frozen=True)
class GroundingRepo:
    """One more repository gate 2 grounds tokens against (``repos``): a token it holds is
    ``external`` to the configured repository, with this name in the scorecard.

    ``path`` may be left out: the entry is then the git repository holding the posts when
    there is one, and otherwise a codebase this run cannot read. ``posts`` (globs of post
    files that describe its code), ``tags`` (front-matter tags of such posts) and
    ``prefixes`` (path prefixes of its files) say which tokens name it: while it is not
    available they are listed as ``unjudged`` with its name, never grounded."""

    name: str
    path: Path | None = None
    ref: str = "HEAD"
    posts: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()


class SettingsError(ValueError):
    """A setting has the wrong type or an unknown name; pytest shows it as a usage error."""


@dataclass(frozen=True)
class Settings:
    repo: Path | None = None
    ref: str = "HEAD"
    package: str | None = None
    product_pattern: str | None = None
    lint_rule_prefix: str | None = None
    lint_rules_dir: str | None = None
    scorecards: Path = DEFAULT_SCORECARDS
    run_all: bool = False
    only: frozenset[int] | None = None
    offline: bool = False
    feedback: Path | None = None
    changed: str | None = None  # collect only posts changed since this git ref
    sarif: Path | None = None
    html: Path | None = None
    snapshot: bool = False
    paths: tuple[Path, ...] = ()
    allow_hosts: tuple[str, ...] = ()
    link_exclude: tuple[str, ...] = ()
    known_entities: tuple[str, ...] = ()
    symbol_allowlist: tuple[str, ...] = ()
    banned_phrases: tuple[str, ...] = ()
    body_line_floor: int | None = None
    required_front_matter: tuple[str, ...] = ("layout", "title", "date")
    # None: required under a ``_posts`` folder only (see front_matter_required).
    require_front_matter: bool | None = None
    audit_commands: tuple[str, ...] = ()
    flesch_floor: float | None = None
    post_flesch_floor: float | None = None
    max_hard_prose_share: float | None = None
    max_paragraph_sentences: int = 8
    lint_backend: str = "auto"
    markdownlint_cli: str | None = None  # command or path of markdownlint-cli
    link_timeout: float = 10.0
    link_cache_max_age: int = 86400
    unverified_links_fail: bool = False
    # LLM-judged and model gates (3, 4, 9, 10).
    judges: tuple[Judge, ...] = ()
    judge_timeout: float = 60.0
    judge_concurrency: int = 4
    judge_retries: int = 3
    judge_cache_max_age: int = 7 * 86400
    rubric_runs: int = 3
    rubric_mean_floor: float = 9.0
    rubric_provider_floor: float = 6.0
    rubric_valid_runs: int = 15  # of 21 (7 providers x 3 runs); scaled to the panel size
    tone_runs: int = 5
    tone_floor: float = 7.0
    tone_assignments: Path | None = None
    hhem_model: Path | None = None
    hhem_threshold: float = 0.1
    repomap_budget: int = 12000
    advisory_overrides: Mapping[str, bool] = field(default_factory=dict)
    call_graph_threshold: int = 6
    symbol_grounding_threshold: float = 95.0
    # Gate 15: build-output prefix -> source prefix ({"dist/" = "src/lib/"}), in order.
    source_map: tuple[tuple[str, str], ...] = ()
    repos: tuple[GroundingRepo, ...] = ()
    # Inline suppression: True (every gate), False (none) or the gate names it may silence.
    allow_suppression: bool | tuple[str, ...] = True
    # Seconds one gate may spend on one post (parsing included) before it is an ERROR for
    # that post: generous, far above the slowest gate on a real post (pytest_postgates.budget).
    gate_timeout: float = 60.0

    def is_advisory(self, name: str, default: bool) -> bool:
        return self.advisory_overrides.get(name, default)

    def front_matter_required(self, path: Path) -> bool:
        """Whether a file without front matter is a gate-1 finding: the setting where it is
        given, else only for Jekyll posts (a ``_posts`` folder on the path)."""
        if self.require_front_matter is not None:
            return self.require_front_matter
        return "_posts" in path.parts


# key -> (kind); kinds drive parsing from TOML, ini strings and flags alike.
KEYS: dict[str, str] = {
    "repo": "path",
    "ref": "str",
    "package": "str",
    "product_pattern": "str",
    "lint_rule_prefix": "str",
    "lint_rules_dir": "str",
    "scorecards": "path",
    "only": "ids",
    "offline": "bool",
    "snapshot": "bool",
    "paths": "paths",
    "allow_hosts": "strs",
    "link_exclude": "strs",
    "known_entities": "strs",
    "symbol_allowlist": "strs",
    "banned_phrases": "strs",
    "body_line_floor": "int",
    "required_front_matter": "strs",
    "require_front_matter": "bool",
    "audit_commands": "strs",
    "flesch_floor": "float",
    "post_flesch_floor": "float",
    "max_hard_prose_share": "float",
    "max_paragraph_sentences": "int",
    "lint_backend": "backend",
    "markdownlint_cli": "str",
    "link_timeout": "float",
    "link_cache_max_age": "int",
    "unverified_links_fail": "bool",
    "judges": "judges",
    "judge_timeout": "float",
    "judge_concurrency": "int",
    "judge_retries": "int",
    "judge_cache_max_age": "int",
    "rubric_runs": "int",
    "rubric_mean_floor": "float",
    "rubric_provider_floor": "float",
    "rubric_valid_runs": "int",
    "tone_runs": "int",
    "tone_floor": "float",
    "tone_assignments": "path",
    "hhem_model": "path",
    "hhem_threshold": "float",
    "repomap_budget": "int",
    "source_map": "prefixes",
    "gates": "gates",
    "repos": "repos",
    "allow_suppression": "suppression",
    "gate_timeout": "float",
}
# Numeric keys with a range: (lowest, whether the lowest itself is allowed, highest or None).
# Every number must also be finite: NaN compares false with everything, so a NaN floor
# would pass or fail every post silently.
BOUNDS: dict[str, tuple[float, bool, float | None]] = {
    "link_timeout": (0, False, None),
    "judge_timeout": (0, False, None),
    "judge_concurrency": (1, True, None),
    "judge_retries": (0, True, None),
    "judge_cache_max_age": (0, True, None),
    "link_cache_max_age": (0, True, None),
    "rubric_runs": (1, True, None),
    "tone_runs": (1, True, None),
    "rubric_valid_runs": (0, True, None),
    "max_paragraph_sentences": (1, True, None),
    "body_line_floor": (0, True, None),
    "repomap_budget": (1, True, None),
    "hhem_threshold": (0, True, 1),
    "judges.weight": (0, True, None),
    "gate_timeout": (0, False, None),
}
FIELD_FOR_KEY = {"gates": "advisory_overrides"}


def parse_ids(value: Any, key: str = "only") -> frozenset[int] | None:
    if value is None or value == "":
        return None
    items: Sequence[Any]
    items = value.replace(" ", "").split(",") if isinstance(value, str) else value
    try:
        ids = frozenset(int(item) for item in items if str(item) != "")
    except (TypeError, ValueError):
        raise SettingsError(f"{key}: expected gate ids such as 2,14 but got {value!r}") from None
    return ids or None


def _check_table_keys(
    what: str, entry: Mapping[str, Any], allowed: set[str], required: set[str]
) -> None:
    """One table of an array setting (a judge, a repos entry) names only known keys and
    every required one."""
    extra = set(entry) - allowed
    missing = required - set(entry)
    if extra or missing:
        raise SettingsError(
            f"postgates {what} {entry.get('name', '?')!r}: "
            + (f"unknown keys {sorted(extra)} " if extra else "")
            + (f"missing keys {sorted(missing)}" if missing else "")
        )


def _convert(key: str, kind: str, value: Any, base: Path) -> Any:
    def fail(expected: str) -> SettingsError:
        return SettingsError(f"postgates setting {key!r}: expected {expected}, got {value!r}")

    if kind == "str":
        if not isinstance(value, str):
            raise fail("a string")
        return value
    if kind == "path":
        if not isinstance(value, (str, os.PathLike)):
            raise fail("a path")
        return (base / Path(value)).resolve() if not Path(value).is_absolute() else Path(value)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off", ""):
            return False
        raise fail("true or false")
    if kind == "int":
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise fail("an integer")
        try:
            return _in_bounds(key, int(value), fail)
        except (TypeError, ValueError, OverflowError):
            raise fail("an integer") from None
    if kind == "backend":
        if value not in ("auto", "rumdl", "markdownlint-cli"):
            raise fail('"auto", "rumdl" or "markdownlint-cli"')
        return value
    if kind == "float":
        if isinstance(value, bool):
            raise fail("a number")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise fail("a number") from None
        if not math.isfinite(number):
            raise fail("a finite number")
        return _in_bounds(key, number, fail)
    if kind == "suppression":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        return _convert(key, "strs", value, base)
    if kind == "ids":
        return parse_ids(value, key)
    if kind in ("strs", "paths"):
        if isinstance(value, str):
            value = [line.strip() for line in value.replace(",", "\n").splitlines()]
            value = [item for item in value if item]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise fail("a list of strings")
        if kind == "paths":
            return tuple(_convert(key, "path", item, base) for item in value)
        return tuple(value)
    if kind == "judges":
        if not isinstance(value, (list, tuple)):
            raise fail("an array of tables [[tool.postgates.judges]]")
        judges = []
        for entry in value:
            if not isinstance(entry, Mapping):
                raise fail("tables with name, base_url and model")
            _check_table_keys(
                "judge",
                entry,
                {"name", "base_url", "model", "api_key_env", "weight"},
                {"name", "base_url", "model"},
            )
            judges.append(
                Judge(
                    name=_convert("judges.name", "str", entry["name"], base),
                    base_url=_convert("judges.base_url", "str", entry["base_url"], base),
                    model=_convert("judges.model", "str", entry["model"], base),
                    api_key_env=(
                        _convert("judges.api_key_env", "str", entry["api_key_env"], base)
                        if "api_key_env" in entry
                        else None
                    ),
                    weight=_convert("judges.weight", "float", entry.get("weight", 1.0), base),
                )
            )
        return tuple(judges)
    if kind == "prefixes":
        # A TOML table, or "dist/=src/lib/, out/=src/" from an ini file or the environment.
        if isinstance(value, str):
            pairs = [item.split("=", 1) for item in value.replace(",", "\n").splitlines()]
            value = {pair[0].strip(): pair[1].strip() for pair in pairs if len(pair) == 2}
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise fail('a table of prefixes such as {"dist/" = "src/lib/"}')
        return tuple((str(k), str(v)) for k, v in value.items())
    if kind == "repos":
        if not isinstance(value, (list, tuple)):
            raise fail(
                "an array of tables [[tool.postgates.repos]]"
                " with name, path, ref, posts, tags, prefixes"
            )
        repos = []
        for entry in value:
            if not isinstance(entry, Mapping):
                raise fail("tables with a name and (optionally) path, ref, posts, tags, prefixes")
            _check_table_keys(
                "repos entry", entry, {"name", "path", "ref", "posts", "tags", "prefixes"}, {"name"}
            )
            repos.append(
                GroundingRepo(
                    name=_convert("repos.name", "str", entry["name"], base),
                    path=(
                        _convert("repos.path", "path", entry["path"], base)
                        if "path" in entry
                        else None
                    ),
                    ref=_convert("repos.ref", "str", entry.get("ref", "HEAD"), base),
                    posts=tuple(_convert("repos.posts", "strs", entry.get("posts", []), base)),
                    tags=tuple(_convert("repos.tags", "strs", entry.get("tags", []), base)),
                    prefixes=tuple(
                        _convert("repos.prefixes", "strs", entry.get("prefixes", []), base)
                    ),
                )
            )
        names = [repo.name for repo in repos]
        if len(set(names)) != len(names):
            raise fail("repositories with distinct names")
        return tuple(repos)
    if kind == "gates":
        if not isinstance(value, Mapping):
            raise fail("a table of gate names")
        overrides: dict[str, bool] = {}
        for name, table in value.items():
            if not isinstance(table, Mapping) or set(table) - {"advisory"}:
                raise SettingsError(
                    f"postgates setting gates.{name}: only 'advisory' can be set, got {table!r}"
                )
            if "advisory" in table:
                overrides[name] = _convert(
                    f"gates.{name}.advisory", "bool", table["advisory"], base
                )
        return overrides
    raise AssertionError(kind)


def _in_bounds(key: str, number: Any, fail: Any) -> Any:
    bounds = BOUNDS.get(key)
    if bounds is None:
        return number
    lowest, inclusive, highest = bounds
    if number < lowest or (number == lowest and not inclusive):
        raise fail(f"a number {'>=' if inclusive else '>'} {lowest:g}")
    if highest is not None and number > highest:
        raise fail(f"a number from {lowest:g} to {highest:g}")
    return number


def apply(settings: Settings, values: Mapping[str, Any], base: Path, source: str) -> Settings:
    """Return ``settings`` updated with ``values`` from one source."""
    unknown = sorted(set(values) - set(KEYS))
    if unknown:
        raise SettingsError(
            f"{source}: unknown postgates setting(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(KEYS))}"
        )
    changes: dict[str, Any] = {}
    for key, value in values.items():
        converted = _convert(key, KEYS[key], value, base)
        if key == "gates":
            merged = dict(settings.advisory_overrides)
            merged.update(converted)
            converted = merged
        changes[FIELD_FOR_KEY.get(key, key)] = converted
    return replace(settings, **changes)


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml, from ``start`` upward, that has a [tool.postgates] table."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise SettingsError(f"{candidate}: cannot read: {exc}") from None
            if isinstance(data.get("tool"), dict) and "postgates" in data["tool"]:
                return candidate
    return None


def from_pyproject(settings: Settings, pyproject: Path) -> Settings:
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    table = data["tool"]["postgates"]
    if not isinstance(table, dict):
        raise SettingsError(f"{pyproject}: [tool.postgates] must be a table")
    return apply(settings, table, pyproject.parent, f"{pyproject} [tool.postgates]")


def from_environment(settings: Settings, environ: Mapping[str, str]) -> Settings:
    changes: dict[str, Any] = {}
    for variable, field_name, kind in (
        (ENV_CALL_GRAPH_THRESHOLD, "call_graph_threshold", int),
        (ENV_SYMBOL_GROUNDING_THRESHOLD, "symbol_grounding_threshold", float),
    ):
        raw = environ.get(variable)
        if raw is None or raw.strip() == "":
            continue
        try:
            number = kind(raw)
        except ValueError:
            raise SettingsError(f"{variable}={raw!r} is not a number") from None
        if not math.isfinite(number):
            raise SettingsError(f"{variable}={raw!r} is not a finite number")
        changes[field_name] = number
    return replace(settings, **changes) if changes else settings
