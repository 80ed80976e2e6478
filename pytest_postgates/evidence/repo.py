"""Facts read from the configured git repository at the configured ref.

Every git call goes through :func:`git`, which passes an argument list (never a shell
string) and separates options from data with ``--end-of-options``/``--``; content is read
by resolved commit id, so nothing from a post or a setting is ever parsed as an option.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

GIT_TIMEOUT_SECONDS = 60


class GitError(RuntimeError):
    """git could not answer: not a repository, unknown ref, git missing."""


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    try:
        result = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} timed out after {GIT_TIMEOUT_SECONDS}s") from None
    if check and result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {args[0]} failed")
    return result


def find_repo_root(path: Path) -> Path:
    """The top of the git work tree that contains ``path``."""
    # Messages name no absolute path: they end up in scorecards, which must be stable.
    folder = path if path.is_dir() else path.parent
    if not folder.exists():
        raise GitError(f"the folder {folder.name!r} does not exist")
    result = git(folder, "rev-parse", "--show-toplevel", check=False)
    if result.returncode != 0:
        raise GitError(f"the folder {folder.name!r} is not inside a git repository")
    return Path(result.stdout.decode().strip())


def resolve_commit(repo: Path, ref: str) -> str:
    result = git(
        repo,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{ref}^{{commit}}",
        check=False,
    )
    if result.returncode != 0:
        # Name the repository: a run may ground against several (`repos`, the posts' own).
        raise GitError(f"ref {ref!r} does not name a commit in the repository at {repo}")
    return result.stdout.decode().strip()


def read_blob(repo: Path, commit: str, path: str) -> bytes | None:
    """Contents of ``path`` at ``commit`` (a resolved id), or None when it is not there."""
    result = git(repo, "cat-file", "blob", f"{commit}:{path}", check=False)
    return result.stdout if result.returncode == 0 else None


@dataclass(frozen=True)
class RepoEvidence:
    """What the gates of this layer need from the repository."""

    root: Path
    commit: str
    package_name: str | None
    product_names: tuple[str, ...] = field(default_factory=tuple)


def package_name_at(repo: Path, commit: str) -> str | None:
    """``name`` from package.json, else ``[project].name`` from pyproject.toml, at commit."""
    raw = read_blob(repo, commit, "package.json")
    if raw is not None:
        try:
            name = json.loads(raw).get("name")
        except (ValueError, AttributeError):
            name = None
        if isinstance(name, str) and name:
            return name
    raw = read_blob(repo, commit, "pyproject.toml")
    if raw is not None:
        try:
            project = tomllib.loads(raw.decode("utf-8")).get("project", {})
        except (ValueError, UnicodeDecodeError):
            project = {}
        name = project.get("name") if isinstance(project, dict) else None
        if isinstance(name, str) and name:
            return name
    return None


def product_names_for(package: str | None) -> tuple[str, ...]:
    """Names a post may use for the product: the package name, its unscoped part, and the
    distinctive part of a plugin-style name (``pytest-postgates`` -> ``postgates``)."""
    names: list[str] = []
    if package:
        names.append(package)
        bare = package.rsplit("/", 1)[-1]
        names.append(bare)
        for prefix in ("pytest-", "python-", "py-", "node-", "eslint-plugin-", "vite-plugin-"):
            if bare.startswith(prefix) and len(bare) > len(prefix) + 2:
                names.append(bare[len(prefix) :])
    unique: list[str] = []
    for name in names:
        if (
            name
            and re.search(r"[A-Za-z]", name)
            and name.lower() not in {n.lower() for n in unique}
        ):
            unique.append(name)
    return tuple(unique)


def load_repo_evidence(root: Path, ref: str, package: str | None) -> RepoEvidence:
    commit = resolve_commit(root, ref)
    name = package or package_name_at(root, commit)
    return RepoEvidence(
        root=root, commit=commit, package_name=name, product_names=product_names_for(name)
    )


_VERSION_TAG = re.compile(r"^(?:(?P<package>.+)@)?v?(\d+)\.(\d+)\.(\d+)$")


@dataclass(frozen=True)
class VersionTag:
    """A release tag: ``v1.2.3``, ``1.2.3`` or a monorepo package's ``<package>@1.2.3``
    (``package`` "" for the first two); ``commit`` is what it stands for."""

    number: tuple[int, int, int]
    package: str
    name: str
    commit: str


def version_tags(root: Path, *only: str) -> list[VersionTag]:
    """The repository's release tags (``only``: git's filter, e.g. ``--merged <commit>``);
    an annotated tag stands for its commit, a pre-release (``1.2.3-rc.1``) is none."""
    try:
        listed = git(root, "tag", *only, "--format=%(refname:strip=2) %(objectname) %(*objectname)")
    except GitError:
        return []
    found: list[VersionTag] = []
    for line in listed.stdout.decode("utf-8", "replace").splitlines():
        fields = line.split()
        tag = _VERSION_TAG.match(fields[0]) if len(fields) >= 2 else None
        if tag is None:
            continue
        number = (int(tag.group(2)), int(tag.group(3)), int(tag.group(4)))
        commit = fields[2] if len(fields) > 2 else fields[1]
        found.append(VersionTag(number, tag.group("package") or "", fields[0], commit))
    return found
