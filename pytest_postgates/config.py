"""Settings: ``[tool.postgates]`` in the nearest pyproject.toml, ``postgates_*`` ini keys,
command-line flags and the seeds' environment variables, in rising order of precedence.

The key and flag names are the configuration contract of DESIGN.md; they do not change.
Relative paths are taken relative to the file that names them (pyproject.toml or the ini
file) or, for flags, to the directory pytest was invoked from.

:class:`Settings` holds the run-wide settings (repository, outputs, network, judges,
suppression, budgets) and, in ``gate_settings``, one frozen dataclass per gate with the
gate's own keys: each gate module declares its dataclass with :func:`option` fields (kind,
meaning, bounds, environment variable) next to their defaults, as a flake8 plugin declares
its options. This module never imports a gate: the registry hands the dataclasses in
(:meth:`Settings.declare`), and every source (pyproject, ini, flags, environment) is then
parsed and validated against the run-wide keys and the declared gate keys alike.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

DEFAULT_SCORECARDS = Path(".postgates/scorecards")

T = TypeVar("T")


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


# Environment variables a judge's key may be read from: names made for the purpose. Any
# other variable (GITHUB_TOKEN, a cloud secret) would be sent to whatever base_url says.
_KEY_VARIABLE = re.compile(r"(POSTGATES_[A-Z0-9_]+|[A-Z0-9_]*[A-Z0-9]_(API_)?KEY)")
# Secrets a CI runner holds that end in _KEY all the same: never a judge's key.
_NOT_JUDGE_KEYS = re.compile(
    r"(GITHUB|GH|ACTIONS|RUNNER|AWS|AZURE|GCP|NPM|PYPI|TWINE|SSH)_|.*SECRET"
)


def judge_key_variable_problem(name: str) -> str | None:
    """Why ``name`` cannot be a judge's ``api_key_env``, or None when it can: it must start
    with ``POSTGATES_`` or end in ``_KEY``/``_API_KEY`` (upper case), and not be a CI, cloud
    or package-registry secret."""
    if _KEY_VARIABLE.fullmatch(name) and not (
        _NOT_JUDGE_KEYS.match(name) and not name.startswith("POSTGATES_")
    ):
        return None
    return (
        f"judges.api_key_env = {name!r} is not a variable made for a judge's key: name one"
        " that ends in _API_KEY or _KEY or starts with POSTGATES_ (never a CI, cloud or"
        " registry secret such as GITHUB_TOKEN or AWS_SECRET_ACCESS_KEY)"
    )


def _key_variable(name: str) -> str:
    problem = judge_key_variable_problem(name)
    if problem is not None:
        raise SettingsError(problem)
    return name


# A numeric key's range: (lowest, whether the lowest itself is allowed, highest or None).
Bounds = tuple[float, bool, "float | None"]
# The field metadata key under which option() stores a gate setting's declaration.
OPTION = "postgates_option"
# The kinds _convert parses (a key's kind says how TOML, ini strings and flags are read).
KINDS = frozenset(
    {"str", "path", "bool", "int", "float", "backend", "suppression", "ids", "strs", "paths"}
    | {"short_circuit"}
    | {"judges", "prefixes", "repos", "gates", "jobs", "shard"}
)


@dataclass(frozen=True)
class Option:
    """How one key of a gate's settings is read and documented: ``kind`` drives parsing
    from TOML, ini strings and the environment (the kinds of :data:`KEYS`), ``help`` is the
    one line the docs and ``--help`` show, ``default`` how they show the default when the
    field's own value says little (None: "calibrated", say), ``env`` a seed's environment
    variable that wins over every other source."""

    kind: str
    help: str
    bounds: Bounds | None = None
    env: str | None = None
    default: str | None = None


def option(
    default: Any,
    kind: str,
    help: str,
    *,
    bounds: Bounds | None = None,
    env: str | None = None,
    shown_default: str | None = None,
) -> Any:
    """A field of a gate's settings dataclass that is a configuration key of the same name
    (``[tool.postgates]``, ``postgates_<key>`` ini key)."""
    if kind not in KINDS:
        raise TypeError(f"option kind {kind!r} is not one of {', '.join(sorted(KINDS))}")
    return field(default=default, metadata={OPTION: Option(kind, help, bounds, env, shown_default)})


def gate_options(kind: type[Any]) -> dict[str, Option]:
    """The configuration keys a gate's settings dataclass declares, in field order. Fields
    declared without :func:`option` are settings code may set but no source can."""
    params = getattr(kind, "__dataclass_params__", None)
    if not (isinstance(kind, type) and is_dataclass(kind)) or not getattr(params, "frozen", 0):
        raise TypeError(f"{kind!r}: a gate's settings are a frozen dataclass")
    return {f.name: f.metadata[OPTION] for f in fields(kind) if OPTION in f.metadata}


@dataclass(frozen=True)
class Settings:
    """The run-wide settings, and each gate's own (``gate_settings``, see :meth:`for_gate`)."""

    repo: Path | None = None
    ref: str = "HEAD"
    package: str | None = None
    lint_rule_prefix: str | None = None
    lint_rules_dir: str | None = None
    scorecards: Path = DEFAULT_SCORECARDS
    run_all: bool = False
    # After a post's first hard gate that does not PASS: "judges" skips its paid gates
    # (judges, models), "all" every later gate (the seeds'), "none" nothing.
    short_circuit: str = "judges"
    only: frozenset[int | str] | None = None  # gate ids and names
    offline: bool = False
    feedback: Path | None = None
    changed: str | None = None  # collect only posts changed since this git ref
    sarif: Path | None = None
    html: Path | None = None
    snapshot: bool = False
    paths: tuple[Path, ...] = ()
    # The link checker's policy (tools/links.py takes these as they are).
    allow_hosts: tuple[str, ...] = ()
    link_exclude: tuple[str, ...] = ()
    link_timeout: float = 10.0
    link_cache_max_age: int = 86400
    # Gate 2's tokens never checked; the repository slices judges read skip them too.
    symbol_allowlist: tuple[str, ...] = ()
    # LLM judges (gates 4, 9, 13) and the repository slices they are shown.
    judges: tuple[Judge, ...] = ()
    judge_timeout: float = 60.0
    judge_concurrency: int = 4
    judge_retries: int = 3
    judge_cache_max_age: int = 7 * 86400
    repomap_budget: int = 12000
    advisory_overrides: Mapping[str, bool] = field(default_factory=dict)
    repos: tuple[GroundingRepo, ...] = ()
    # Inline suppression: True (every gate), False (none) or the gate names it may silence.
    allow_suppression: bool | tuple[str, ...] = True
    # Seconds one gate may spend on one post (parsing included) before it is an ERROR for
    # that post: generous, far above the slowest gate on a real post (pytest_postgates.budget).
    gate_timeout: float = 60.0
    # Processes that gate posts in a serial run: 1 (no process started), a count, or "auto"
    # (the CPUs this process may use); above 1, look-ahead workers (pytest_postgates.lookahead).
    jobs: int | str = 1
    # Run only shard K of N of the posts (pytest_postgates.shards): (K, N), or None.
    shard: tuple[int, int] | None = None
    # Each declared gate settings dataclass -> its value for this run (see declare()).
    gate_settings: Mapping[type[Any], Any] = field(default_factory=dict)

    @classmethod
    def declare(cls, gate_types: Iterable[type[Any]], **values: Any) -> Settings:
        """Settings that know the gates' settings dataclasses ``gate_types`` (their
        defaults), so that every source may set their keys; ``values`` (already typed, as
        keyword arguments of the dataclasses) set run-wide fields and gate keys alike.
        Two dataclasses declaring one key, or a gate key named like a run-wide one, is a
        programming error (TypeError)."""
        owners: dict[str, type[Any]] = {}
        for kind in dict.fromkeys(gate_types):
            for key in gate_options(kind):
                if key in KEYS or key in owners:
                    other = owners[key].__name__ if key in owners else "Settings"
                    raise TypeError(f"setting {key!r} of {kind.__name__} is also {other}'s")
                owners[key] = kind
        run_wide: dict[str, Any] = {}
        per_gate: dict[type[Any], dict[str, Any]] = {}
        for key, value in values.items():
            if key in owners:
                per_gate.setdefault(owners[key], {})[key] = value
            elif key in cls.__dataclass_fields__ and key != "gate_settings":
                run_wide[key] = value
            else:
                raise TypeError(f"unknown settings {key}")
        gate_settings = {kind: kind(**per_gate.get(kind, {})) for kind in dict.fromkeys(gate_types)}
        return cls(**run_wide, gate_settings=gate_settings)

    def for_gate(self, kind: type[T]) -> T:
        """This run's settings of the gate whose settings dataclass is ``kind`` (its
        defaults when ``kind`` was not declared: library use with bare ``Settings()``)."""
        value = self.gate_settings.get(kind)
        if value is None:
            return kind()
        assert isinstance(value, kind)
        return value

    def with_gate(self, value: Any) -> Settings:
        """These settings with one gate's settings replaced by ``value``."""
        gate_settings = dict(self.gate_settings)
        gate_settings[type(value)] = value
        return replace(self, gate_settings=gate_settings)

    def gate_keys(self) -> dict[str, tuple[type[Any], Option]]:
        """Every declared gate key -> (its dataclass, its declaration)."""
        return {
            key: (kind, declared)
            for kind in self.gate_settings
            for key, declared in gate_options(kind).items()
        }

    def keys(self) -> dict[str, str]:
        """Every key a source may set -> its kind: the run-wide keys and the gates'."""
        return {**KEYS, **{key: o.kind for key, (_, o) in self.gate_keys().items()}}

    def is_advisory(self, name: str, default: bool) -> bool:
        return self.advisory_overrides.get(name, default)

    def short_circuits(self, paid: bool) -> bool:
        """Whether a gate (``paid``: a judge's or a model's) is skipped after its post's
        first hard gate that did not PASS; ``--postgates-all`` skips nothing."""
        mode = "none" if self.run_all else self.short_circuit
        return mode == "all" or (mode == "judges" and paid)


# Run-wide key -> (kind); kinds drive parsing from TOML, ini strings and flags alike. The
# gates' own keys are declared in their settings dataclasses (Settings.keys() has both).
KEYS: dict[str, str] = {
    "repo": "path",
    "ref": "str",
    "package": "str",
    "lint_rule_prefix": "str",
    "lint_rules_dir": "str",
    "scorecards": "path",
    "only": "ids",
    "offline": "bool",
    "short_circuit": "short_circuit",
    "snapshot": "bool",
    "paths": "paths",
    "allow_hosts": "strs",
    "link_exclude": "strs",
    "symbol_allowlist": "strs",
    "link_timeout": "float",
    "link_cache_max_age": "int",
    "judges": "judges",
    "judge_timeout": "float",
    "judge_concurrency": "int",
    "judge_retries": "int",
    "judge_cache_max_age": "int",
    "repomap_budget": "int",
    "gates": "gates",
    "repos": "repos",
    "allow_suppression": "suppression",
    "gate_timeout": "float",
    "jobs": "jobs",
    "shard": "shard",
}
# Run-wide numeric keys with a range (a gate's are declared with its option()). Every number
# must also be finite: NaN compares false with everything, so a NaN floor would pass or
# fail every post silently.
BOUNDS: dict[str, Bounds] = {
    "link_timeout": (0, False, None),
    "judge_timeout": (0, False, None),
    "judge_concurrency": (1, True, None),
    "judge_retries": (0, True, None),
    "judge_cache_max_age": (0, True, None),
    "link_cache_max_age": (0, True, None),
    "repomap_budget": (1, True, None),
    "judges.weight": (0, True, None),
    "gate_timeout": (0, False, None),
}
FIELD_FOR_KEY = {"gates": "advisory_overrides"}
SHORT_CIRCUIT_MODES = ("judges", "all", "none")


_GATE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_ids(value: Any, key: str = "only") -> frozenset[int | str] | None:
    """Gate ids and gate names (``2,14``, ``symbol_grounding 14``): separated by commas
    and whitespace alike. Names are resolved against the registry by the session."""
    if value is None or value == "":
        return None
    items: Sequence[Any]
    items = split_list(value) if isinstance(value, str) else value
    ids: set[int | str] = set()
    for item in items:
        text = str(item).strip()
        if isinstance(item, int) and not isinstance(item, bool):
            ids.add(item)
        elif text.isdigit():
            ids.add(int(text))
        elif _GATE_NAME.fullmatch(text):
            ids.add(text)
        elif text:
            raise SettingsError(
                f"{key}: expected gate ids or names such as 2,symbol_grounding but got {value!r}"
            )
    return frozenset(ids) or None


def split_list(value: str) -> list[str]:
    """A list written as one string (an ini value, a flag): items separated by commas,
    whitespace or both."""
    return [item for item in re.split(r"[,\s]+", value) if item]


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


def _convert(key: str, kind: str, value: Any, base: Path, bounds: Bounds | None = None) -> Any:
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
            return _in_bounds(key, int(value), fail, bounds)
        except (TypeError, ValueError, OverflowError):
            raise fail("an integer") from None
    if kind == "backend":
        if value not in ("auto", "rumdl", "markdownlint-cli"):
            raise fail('"auto", "rumdl" or "markdownlint-cli"')
        return value
    if kind == "short_circuit":
        if value not in SHORT_CIRCUIT_MODES:
            raise fail('"judges", "all" or "none"')
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
        return _in_bounds(key, number, fail, bounds)
    if kind == "suppression":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        return _convert(key, "strs", value, base)
    if kind == "ids":
        return parse_ids(value, key)
    if kind == "jobs":
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise fail('"auto" or a number of processes')
        try:
            jobs = int(value)
        except (TypeError, ValueError, OverflowError):
            raise fail('"auto" or a number of processes') from None
        if jobs < 1:
            raise fail('"auto" or a number of processes >= 1')
        return jobs
    if kind == "shard":
        from pytest_postgates.shards import parse_shard

        try:
            shard = parse_shard(value)
        except ValueError as exc:
            raise fail(str(exc)) from None
        return (shard.index, shard.count)
    if kind == "paths" and isinstance(value, str):
        value = split_list(value)  # no folder name of a posts tree is written with a space
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
                        _key_variable(
                            _convert("judges.api_key_env", "str", entry["api_key_env"], base)
                        )
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


def _in_bounds(key: str, number: Any, fail: Any, declared: Bounds | None = None) -> Any:
    bounds = declared or BOUNDS.get(key)
    if bounds is None:
        return number
    lowest, inclusive, highest = bounds
    if number < lowest or (number == lowest and not inclusive):
        raise fail(f"a number {'>=' if inclusive else '>'} {lowest:g}")
    if highest is not None and number > highest:
        raise fail(f"a number from {lowest:g} to {highest:g}")
    return number


def apply(settings: Settings, values: Mapping[str, Any], base: Path, source: str) -> Settings:
    """Return ``settings`` updated with ``values`` from one source: run-wide keys and the
    keys of the gate settings ``settings`` declares."""
    gate_keys = settings.gate_keys()
    unknown = sorted(set(values) - set(KEYS) - set(gate_keys))
    if unknown:
        raise SettingsError(
            f"{source}: unknown postgates setting(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(settings.keys()))}"
        )
    changes: dict[str, Any] = {}
    gate_changes: dict[type[Any], dict[str, Any]] = {}
    for key, value in values.items():
        if key in gate_keys:
            kind, declared = gate_keys[key]
            converted = _convert(key, declared.kind, value, base, declared.bounds)
            gate_changes.setdefault(kind, {})[key] = converted
            continue
        converted = _convert(key, KEYS[key], value, base)
        if key == "gates":
            merged = dict(settings.advisory_overrides)
            merged.update(converted)
            converted = merged
        changes[FIELD_FOR_KEY.get(key, key)] = converted
    if gate_changes:
        gate_settings = dict(settings.gate_settings)
        for kind, values_of_gate in gate_changes.items():
            gate_settings[kind] = replace(gate_settings[kind], **values_of_gate)
        changes["gate_settings"] = gate_settings
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
    """The seeds' environment variables (declared with ``env=`` on a gate's option): they
    win over every other source."""
    values: dict[str, Any] = {}
    for key, (_, declared) in settings.gate_keys().items():
        raw = environ.get(declared.env) if declared.env else None
        if raw is None or raw.strip() == "":
            continue
        number_type = int if declared.kind == "int" else float
        try:
            number = number_type(raw)
        except ValueError:
            raise SettingsError(f"{declared.env}={raw!r} is not a number") from None
        if not math.isfinite(number):
            raise SettingsError(f"{declared.env}={raw!r} is not a finite number")
        values[key] = number
    return apply(settings, values, Path(), "environment") if values else settings
