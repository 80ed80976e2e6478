"""Whether a pytest run asks for posts at all, as pytest-mypy collects only with ``--mypy``.

A run asks when the project configures the plugin (a ``[tool.postgates]`` table, or
``postgates_*`` ini keys), when it passes ``--postgates``, or when it names Markdown files
or folders of posts on the command line. Any other run is left untouched: no items, no
header, no scorecards, no worker processes.

A folder named on the command line is a folder of posts when it holds Markdown files and
no test modules: every Markdown file under it is then a post (``pytest docs/``). A folder
that holds ``_posts`` folders is a site: its ``_posts`` hold the posts. A folder that holds
tests as well as Markdown (a test tree with fixture posts, a project root) is neither: its
Markdown is not gated by accident, and a run that asked for nothing else says in one line
what to set.
"""

from __future__ import annotations

import fnmatch
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_postgates.config import find_pyproject
from pytest_postgates.post import is_markdown

# The key under which the controller hands its decision to xdist workers: a worker's own
# command line is not the user's, so it must not decide again.
WORKERINPUT_KEY = "postgates_activation"
POSTS_FOLDER = "_posts"


@dataclass(frozen=True)
class Activation:
    """What the run asked for: whether posts are collected, which named folders are
    folders of posts, and the one line that says what to set when nothing was asked."""

    active: bool
    post_folders: tuple[Path, ...] = ()
    hint: str | None = None

    def to_workerinput(self) -> str:
        return json.dumps(
            {"active": self.active, "post_folders": [str(p) for p in self.post_folders]}
        )

    @classmethod
    def from_workerinput(cls, text: str) -> Activation:
        data = json.loads(text)
        return cls(bool(data["active"]), tuple(Path(p) for p in data["post_folders"]))


@dataclass(frozen=True)
class FolderContents:
    """What a named folder holds, as far as deciding what it is needs to know."""

    markdown: bool = False
    tests: bool = False
    posts_folder: bool = False


def has_configuration(config: pytest.Config, ini_keys: Iterable[str]) -> bool:
    """The project configures the plugin: a [tool.postgates] table in the nearest
    pyproject.toml, or one of the ``postgates_*`` ini keys ``ini_keys`` set."""
    if find_pyproject(config.rootpath) is not None:
        return True
    return any(config.getini(key) not in ("", [], None) for key in ini_keys)


def named_paths(config: pytest.Config) -> list[Path]:
    """The paths the user named on the command line (testpaths and the invocation
    folder, pytest's defaults when none is named, do not count)."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return []
    base = config.invocation_params.dir
    return [(base / arg.split("::", 1)[0]).resolve() for arg in config.args]


def scan_folder(folder: Path, test_patterns: list[str], skipped: list[str]) -> FolderContents:
    """Walk ``folder`` as pytest would (hidden folders and ``norecursedirs`` left out),
    stopping as soon as the answer cannot change."""
    markdown = tests = posts_folder = False
    for _current, folders, files in os.walk(folder):
        folders[:] = [
            name
            for name in folders
            if not name.startswith(".") and not any(fnmatch.fnmatch(name, p) for p in skipped)
        ]
        posts_folder = posts_folder or POSTS_FOLDER in folders
        for name in files:
            if is_markdown(Path(name)):
                markdown = True
            elif name.endswith(".py") and any(fnmatch.fnmatch(name, p) for p in test_patterns):
                tests = True
        if markdown and tests:
            break
    return FolderContents(markdown, tests, posts_folder)


def decide(config: pytest.Config, ini_keys: Iterable[str]) -> Activation:
    """Whether this run collects posts, and from which named folders."""
    asked = bool(config.getoption("postgates_activate")) or has_configuration(config, ini_keys)
    test_patterns = [str(p) for p in config.getini("python_files")]
    skipped = [str(p) for p in config.getini("norecursedirs")]
    post_folders: list[Path] = []
    undecided: list[Path] = []
    for path in named_paths(config):
        if path.is_file():
            asked = asked or is_markdown(path)
            continue
        if not path.is_dir():
            continue
        if POSTS_FOLDER in path.parts:
            asked = True
            continue
        contents = scan_folder(path, test_patterns, skipped)
        if not contents.markdown:
            continue
        if contents.tests:
            undecided.append(path)
        elif contents.posts_folder:
            asked = True  # a site: its _posts folders hold the posts
        else:
            asked = True
            post_folders.append(path)
    hint = None
    if not asked and undecided:
        hint = (
            f"postgates: {_shown(undecided[0], config.rootpath)} holds tests as well as "
            "Markdown files, so no post is gated; name the folder of posts instead, "
            'or set paths = ["<folder of posts>"] under [tool.postgates] (or pass --postgates)'
        )
    return Activation(asked, tuple(post_folders), hint)


def _shown(path: Path, rootpath: Path) -> str:
    try:
        return path.relative_to(rootpath).as_posix() or "."
    except ValueError:
        return str(path)
