"""The project's postgates settings for the pre-commit hook, without the rest of its pytest setup.

The hook runs in an environment of its own (pre-commit's), which lacks the plugins a
project's own pytest configuration may load: ``-p trio`` in ``addopts``, a ``conftest.py``
that imports trio, ``required_plugins``, a ``filterwarnings`` category from a module that is
not installed. So the hook does not run pytest under that configuration. It runs it under an
empty one of its own (``-c``), with the project's rootdir (``--rootdir``), no
``conftest.py`` (``--noconftest``) and no ``PYTEST_ADDOPTS``, and carries over only the
project's postgates settings:

- ``[tool.postgates]`` in pyproject.toml is found from the rootdir, as in any run;
- the ``postgates_*`` keys of the project's pytest configuration file (pytest.ini,
  .pytest.ini, pytest.toml, pyproject.toml, tox.ini or setup.cfg, found as pytest finds it)
  are passed as ``-o`` overrides, their relative paths made absolute (an override has no
  file to be relative to).

The same settings decide which staged files are posts (:func:`ProjectSetup.is_post`).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import iniconfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from pytest_postgates import config as settings_module
from pytest_postgates.config import Settings, SettingsError
from pytest_postgates.gates import SETTINGS_TYPES

PREFIX = "postgates_"
# The files pytest reads its configuration from, in the order it tries them in a folder.
CONFIG_FILES = (
    "pytest.toml",
    ".pytest.toml",
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
)
POSTS_FOLDER = "_posts"


def pytest_section(path: Path) -> dict[str, Any] | None:
    """The pytest configuration in ``path``, or None when the file holds none (then pytest
    looks further). pytest.ini and .pytest.ini count even when empty, as for pytest."""
    try:
        if path.suffix == ".toml":
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            if path.name != "pyproject.toml":
                table = data.get("pytest", {})
                return dict(table) if isinstance(table, dict) else {}
            tool = data.get("tool", {})
            table = tool.get("pytest") if isinstance(tool, dict) else None
            if not isinstance(table, dict):
                return None
            ini_options = table.get("ini_options")
            return dict(ini_options) if isinstance(ini_options, dict) else dict(table)
        parsed = iniconfig.IniConfig(str(path))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, iniconfig.ParseError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from None
    section = "tool:pytest" if path.name == "setup.cfg" else "pytest"
    if section in parsed:
        return dict(parsed[section].items())
    return {} if path.name in ("pytest.ini", ".pytest.ini") else None


def find_pytest_config(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The project's pytest configuration file from ``start`` upward, and its values."""
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file():
                values = pytest_section(candidate)
                if values is not None:
                    return candidate, values
    return None


def _rootdir(start: Path, config_file: Path | None, cwd: Path) -> Path:
    """pytest's rootdir: the configuration file's folder; without one, the nearest folder
    with a pyproject.toml, else with a setup.py, else the common ancestor of the working
    folder and ``start`` (``start`` itself when that is the file system's root)."""
    if config_file is not None:
        return config_file.parent
    for marker in ("pyproject.toml", "setup.py"):
        for folder in (start, *start.parents):
            if (folder / marker).is_file():
                return folder
    common = Path(os.path.commonpath([cwd, start]))
    return start if common == Path(common.anchor) else common


def _items(value: Any) -> list[str]:
    """A list-valued key as its items: pytest splits an ini string on whitespace (quotes
    keep a space), the settings then on commas."""
    raw = shlex.split(value) if isinstance(value, str) else [str(v) for v in value]
    return [part for item in raw for part in settings_module.split_list(item)]


def _text(value: Any) -> str:
    """A TOML value as the string an ini file would hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return str(value)


@dataclass(frozen=True)
class ProjectSetup:
    """What the hook needs of the project: its rootdir, its pytest configuration file (if
    any), the ``postgates_*`` values there (key without the prefix) and the settings."""

    rootdir: Path
    config_file: Path | None
    ini_values: Mapping[str, Any] = field(default_factory=dict)
    settings: Settings = field(default_factory=lambda: Settings.declare(SETTINGS_TYPES))

    def is_post(self, name: str) -> bool:
        """Whether the staged file ``name`` is a post by the plugin's folder rule (under a
        ``_posts`` folder or a ``paths`` entry): a staged README is not."""
        absolute = Path(os.path.abspath(name))
        return POSTS_FOLDER in absolute.parts[:-1] or any(
            settings_module.in_folder(absolute, folder) for folder in self.settings.paths
        )

    def overrides(self) -> list[str]:
        """``-o postgates_<key>=<value>`` for every key of the project's configuration
        file, relative paths made absolute against that file's folder."""
        base = self.config_file.parent if self.config_file is not None else self.rootdir
        kinds = self.settings.keys()
        arguments = []
        for key, value in self.ini_values.items():
            kind = kinds.get(key)
            if kind == "path":
                text = str(base / _text(value))  # an absolute value stays as it is
            elif kind == "paths":
                text = shlex.join(str(base / item) for item in _items(value))
            elif kind == "ids":
                text = " ".join(_items(value))
            else:
                text = _text(value)
            arguments += ["-o", f"{PREFIX}{key}={text}"]
        return arguments

    def pytest_arguments(self, empty_config: Path) -> list[str]:
        """pytest's options for the hook's run: the empty configuration ``empty_config``,
        the project's rootdir, no conftest.py, no cache folder, the postgates keys."""
        return [
            "-c",
            str(empty_config),
            "--rootdir",
            str(self.rootdir),
            "--noconftest",
            "-p",
            "no:cacheprovider",
            *self.overrides(),
        ]


def project_setup(files: Sequence[str], cwd: Path) -> ProjectSetup:
    """The project the staged ``files`` belong to, as pytest run on them would see it.
    Raises SettingsError for a configuration that cannot be read or holds a bad value."""
    cwd = Path(os.path.abspath(cwd))
    folders = [os.path.dirname(os.path.abspath(cwd / name)) for name in files]
    start = Path(os.path.commonpath(folders)) if folders else cwd
    found = find_pytest_config(start)
    config_file, values = found if found is not None else (None, {})
    rootdir = _rootdir(start, config_file, cwd)
    settings = Settings.declare(SETTINGS_TYPES)
    pyproject = settings_module.find_pyproject(rootdir)
    if pyproject is not None:
        settings = settings_module.from_pyproject(settings, pyproject)
    kinds = settings.keys()
    # An unknown postgates_* key is pytest's "unknown config option" warning in the
    # project's own runs, not an error: it is left out here too.
    ini_values = {
        key[len(PREFIX) :]: value
        for key, value in values.items()
        if key.startswith(PREFIX) and kinds.get(key[len(PREFIX) :], "gates") != "gates"
    }
    base = config_file.parent if config_file is not None else rootdir
    for key, value in ini_values.items():
        raw = _items(value) if kinds.get(key) in ("paths", "ids") else value
        if raw in ("", []):
            continue
        settings = settings_module.apply(settings, {key: raw}, base, f"ini key {PREFIX}{key}")
    return ProjectSetup(rootdir, config_file, ini_values, settings)


@contextlib.contextmanager
def without_pytest_addopts() -> Iterator[None]:
    """PYTEST_ADDOPTS is meant for the project's own test runs (``-p trio`` there would
    stop a run of the gates): the gates' pytest options go after ``--``."""
    saved = os.environ.pop("PYTEST_ADDOPTS", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["PYTEST_ADDOPTS"] = saved
