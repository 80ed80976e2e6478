"""The product's past: the API model of the last release of each earlier major version
(each earlier minor under 1.0).

A name a page writes that the product's code does not declare may be one it declared
before: a migration guide's "`Linter#defineRule()` is no longer available", or a stale
page still naming the old class. The models here say which release last declared it, read
from the code at that release's tag (never from text), so that gate 2 can tell a page
about the past from a page that invents a name, and say in a finding which release
dropped the name it reports.

Releases are the repository's version tags (``v9.39.1``, ``9.39.1``). A release line is a
major, or in a project still under 1.0 a minor (``0.180``: semver lets a 0.x project break
its API at any minor). The current line is the newest one tagged in the history of the
commit gated; for each line below it, its newest tag, whether or not the commit's history
holds it: an old major's last releases are often cut from a maintenance branch that never
merges back (fastify's v2.15.3 on the 2.x branch, while main's v2.15.1 was cut from the v3
work), and they are the past a migration guide writes about. Each model is built from the
product's source files at that tag when first asked, and cached on disk per commit like
the current one.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.evidence.api_model import MODEL_VERSION, ApiModel, build_model
from pytest_postgates.evidence.blobs import regular_files, text_files
from pytest_postgates.evidence.model_facts import ModelFacts, is_product_code
from pytest_postgates.evidence.model_sources import MAX_SOURCE_CHARS
from pytest_postgates.evidence.repo import GitError, git, version_tags
from pytest_postgates.evidence.repomap import LANGUAGES, may_be_script, source_language
from pytest_postgates.fileio import locked, write_atomic

PAST_VERSION = 2  # 2: ModelFacts.import_sites
# The lines looked at, newest first: a migration guide is about the last few majors; older
# ones cost a model build each for little (a 0.x project's minors: see _spread).
MAX_RELEASES = 8


@dataclass(frozen=True)
class Release:
    tag: str
    commit: str


@dataclass(frozen=True)
class PastDeclaration:
    release: str  # the tag of the newest earlier release whose code declares the name
    where: str  # the file there


class PastReleases:
    """The earlier releases of the repository at ``root`` before ``commit``, and their
    models, built when first asked."""

    def __init__(self, root: Path, commit: str, cache_dir: Path) -> None:
        self.root = root
        self.commit = commit
        self.cache_dir = cache_dir
        self._releases: list[Release] | None = None
        self._models: dict[str, ApiModel] = {}
        self._lock = threading.Lock()

    def releases(self) -> list[Release]:
        with self._lock:
            if self._releases is None:
                self._releases = _earlier_lines(self.root, self.commit)
            return self._releases

    def last_declared(self, parts: list[str]) -> PastDeclaration | None:
        """The newest earlier release whose code resolves the chain ``parts``, or None. A
        single name the release's code declares, or writes (an option it reads, a key of
        its objects), counts: a page about that release names what its code used."""
        for release in self.releases():
            model = self._model(release)
            if len(parts) == 1:
                written = _written(parts[0], model)
                if written:
                    return PastDeclaration(release.tag, written)
                continue
            if parts[0] not in model.by_name and parts[0] not in model.modules:
                # As written: a variable named for a class (`McpServer` for `MCPServer`) is
                # how a page may write the product's instance now, not a past name.
                continue
            resolution = model.resolve(parts)
            # Declared in a file, member by member: a member some class of the release had,
            # after a value the model could not type, is no evidence the page names it.
            if resolution.outcome == "found" and Path(resolution.where).suffix in LANGUAGES:
                return PastDeclaration(release.tag, resolution.where)
        return None

    def declared_key(self, owner: str, key: str) -> str | None:
        """The newest earlier release whose declaration files declare ``key`` as a field of
        a type named ``owner`` (``GridLineOptions``, in whatever file), or None: a key
        hand-written declarations leave out now that they declared then was dropped by
        them, not left behind by the code. A release git cannot read declares nothing."""
        try:
            for release in self.releases():
                for decl in self._model(release).declares(key):
                    named = decl.owner.rpartition(":")[2]
                    if decl.kind == "key" and named == owner and _declaration_file(decl.path):
                        return release.tag
        except GitError:
            return None
        return None

    def _model(self, release: Release) -> ApiModel:
        with self._lock:
            model = self._models.get(release.commit)
            if model is None:
                model = _past_model(self.root, release.commit, self.cache_dir)
                self._models[release.commit] = model
            return model


_KNOWN: dict[tuple[Path, str, Path], PastReleases] = {}
_KNOWN_LOCK = threading.Lock()


def past_releases(root: Path, commit: str, cache_dir: Path) -> PastReleases:
    """The one :class:`PastReleases` of this process for the repository at ``commit``
    (its models are loaded once, not per post)."""
    with _KNOWN_LOCK:
        key = (root, commit, cache_dir)
        if key not in _KNOWN:
            _KNOWN[key] = PastReleases(root, commit, cache_dir)
        return _KNOWN[key]


def _earlier_lines(root: Path, commit: str) -> list[Release]:
    merged = _version_tags(root, "--merged", commit)
    if not merged:
        return []
    # Under 1.0 a line is a minor (semver: a 0.x project may break its API at any minor,
    # so 0.180 is a line of its own); from 1.0 on, a major (its 0.x past is one line).
    minors = max(number for number, _release in merged)[0] == 0
    line = (lambda n: (n[0], n[1])) if minors else (lambda n: (n[0], 0))
    current = max(line(number) for number, _release in merged)
    newest: dict[tuple[int, int], tuple[tuple[int, int, int], Release]] = {}
    for number, release in _version_tags(root):
        known = newest.get(line(number))
        if line(number) < current and (known is None or number > known[0]):
            newest[line(number)] = (number, release)
    lines = sorted(newest, reverse=True)
    return [newest[at][1] for at in (_spread(lines) if minors else lines[:MAX_RELEASES])]


def _spread(lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Up to MAX_RELEASES of a 0.x project's earlier minors (newest first): all when few;
    else the newest half and the rest spread evenly over the older ones (hundreds of
    minors, and a name lives over many of them, so a spread sample meets it)."""
    if len(lines) <= MAX_RELEASES:
        return lines
    newest = MAX_RELEASES // 2
    older, wanted = lines[newest:], MAX_RELEASES - newest
    step = (len(older) - 1) / (wanted - 1)
    return lines[:newest] + [older[round(k * step)] for k in range(wanted)]


def _version_tags(root: Path, *only: str) -> list[tuple[tuple[int, int, int], Release]]:
    """The repository's own version tags (a package's ``<package>@`` ones are not the
    product's releases here) with their version numbers."""
    return [
        (tag.number, Release(tag.name, tag.commit))
        for tag in version_tags(root, *only)
        if not tag.package
    ]


def _declaration_file(path: str) -> bool:
    return path.endswith((".d.ts", ".d.mts", ".d.cts"))


def _written(name: str, model: ApiModel) -> str:
    """Where a release's code declares ``name``, or that it writes it ("" when neither)."""
    for decl in model.declares(name):
        if Path(decl.path).suffix in LANGUAGES:
            return decl.where()
    return "written there, not declared" if name in model.facts.identifiers else ""


def _past_model(root: Path, commit: str, cache_dir: Path) -> ApiModel:
    # Keyed by the model's version too: a past model read by older extractors lacks what
    # the model now reads (a parser's flags).
    target = cache_dir / f"pastmodel-v{PAST_VERSION}-m{MODEL_VERSION}-{commit}.json"
    if target.is_file():
        try:
            return ApiModel(commit, ModelFacts.from_json(json.loads(target.read_text("utf-8"))))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # rebuilt below
    cache_dir.mkdir(parents=True, exist_ok=True)
    with locked(cache_dir / f"{target.name}.lock"):
        model = build_model(commit, _sources_at(root, commit))
        write_atomic(target, json.dumps(model.facts.to_json()))
    return model


def _sources_at(root: Path, commit: str) -> dict[str, str]:
    """The product's source files at ``commit``, read from git's objects by the rules the
    index reads the current commit with (regular text files, as ``git grep -I``)."""
    listing = git(root, "ls-tree", "-r", "-z", "--full-tree", commit).stdout.split(b"\0")
    rows: list[tuple[str, str, str, str]] = []
    for entry in listing:
        meta, _, name = entry.partition(b"\t")
        fields = meta.decode().split()
        path = name.decode("utf-8", "surrogateescape")
        if len(fields) == 3 and may_be_script(path) and is_product_code(path):
            rows.append((fields[0], fields[1], fields[2], path))
    texts = {
        path: data.decode("utf-8", "replace")
        for path, data in text_files(root, regular_files(rows))
        if len(data) <= MAX_SOURCE_CHARS
    }
    return {path: text for path, text in texts.items() if source_language(path, text)}
