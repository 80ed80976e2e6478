"""Ask the real Node how it resolves package specifiers, and ask our resolver the same.

One temporary folder holds one ``node_modules/<name>`` per fixture of
:mod:`tests.exports_cases` (its package.json and the files its map can name, so that only
the map decides); one ``node`` process answers every case (``require.resolve`` for
require; ``import.meta.resolve`` plus a dynamic ``import()``, whose not-found errors
``import.meta.resolve`` does not raise, for import), and a worker thread started with
``--conditions=types`` answers the ``import type`` cases. Used by
tests/test_exports_conformance.py and bench/exports_conformance.py.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_postgates.evidence import exports, resolution
from tests import exports_cases

NODE_TIMEOUT_SECONDS = 120

ASK = r"""
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
// import.meta.resolve returns the URL of a missing file or a folder; import() does not.
const NOT_LOADABLE = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);
const firstLine = (error) => String(error && error.message).split('\n')[0];

export async function ask(query) {
  if (query.probe && !import.meta.url.endsWith('__probe__.mjs')) {
    // "#name" specifiers resolve from inside their package: ask its probe module.
    const probe = await import(pathToFileURL(query.probe).href);
    return probe.ask(query);
  }
  if (query.system === 'require') {
    try {
      return { id: query.id, path: require.resolve(query.specifier) };
    } catch (error) {
      return { id: query.id, code: error.code || 'ERROR', message: firstLine(error) };
    }
  }
  let url;
  try {
    url = import.meta.resolve(query.specifier);
  } catch (error) {
    return { id: query.id, code: error.code || 'ERROR', message: firstLine(error) };
  }
  try {
    await import(query.specifier);
  } catch (error) {
    if (NOT_LOADABLE.has(error.code)) {
      return { id: query.id, code: error.code, message: firstLine(error) };
    }
  }
  return { id: query.id, path: url.startsWith('file:') ? fileURLToPath(url) : url };
}
"""

RUNNER = (
    ASK
    + r"""
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';

async function askAll(queries) {
  const answers = [];
  for (const query of queries) answers.push(await ask(query));
  return answers;
}

if (isMainThread) {
  const queries = JSON.parse(readFileSync(0, 'utf8'));
  const plain = queries.filter((query) => !query.types);
  const typed = queries.filter((query) => query.types);
  const typedAnswers = typed.length === 0 ? Promise.resolve([]) : new Promise((done, fail) => {
    const worker = new Worker(new URL(import.meta.url), {
      execArgv: ['--conditions=types', '--no-deprecation'],
      workerData: typed,
    });
    worker.once('message', done);
    worker.once('error', fail);
  });
  const answers = [...await askAll(plain), ...await typedAnswers];
  process.stdout.write(JSON.stringify({
    version: process.version,
    require_module: Boolean(process.features && process.features.require_module),
    answers,
  }));
} else {
  parentPort.postMessage(await askAll(workerData));
}
"""
)
PROBE = "__probe__.mjs"


def find_node() -> str | None:
    """The node binary: ``POSTGATES_NODE`` if set, else ``node`` on PATH."""
    return os.environ.get("POSTGATES_NODE") or shutil.which("node")


@dataclass(frozen=True)
class Case:
    number: int  # fixture number
    subpath: str
    kind: str  # "import" or "require"
    type_only: bool
    name: str
    fixture: exports_cases.Fixture = field(compare=False, hash=False, repr=False)

    @property
    def internal(self) -> bool:
        """A ``#name`` of the package's ``imports``, asked from inside the package."""
        return self.subpath.startswith("#")

    @property
    def specifier(self) -> str:
        return self.subpath if self.internal else exports_cases.specifier(self.name, self.subpath)

    @property
    def label(self) -> str:
        kind = "import type" if self.type_only else self.kind
        return f"#{self.number} {kind} {self.specifier}"


@dataclass(frozen=True)
class Outcome:
    """A target (package-relative, ``./x``) or an error code."""

    target: str | None
    code: str | None

    def same_as(self, other: Outcome) -> bool:
        if self.code or other.code:
            return self.code == other.code
        return self.target == other.target

    def __str__(self) -> str:
        return self.code or str(self.target)


class FixtureFiles:
    """The files written for one fixture, as :class:`resolution.PackageFiles`."""

    def __init__(self, contents: dict[str, str]) -> None:
        self.contents = contents
        self.dirs = {
            "/".join(path.split("/")[:depth])
            for path in contents
            for depth in range(1, path.count("/") + 1)
        }

    def is_file(self, path: str) -> bool:
        return path in self.contents

    def is_dir(self, path: str) -> bool:
        return path.rstrip("/") in self.dirs

    def read_text(self, path: str) -> str | None:
        return self.contents.get(path)


def _string_targets(target: Any) -> list[str]:
    if isinstance(target, str):
        return [target]
    if isinstance(target, list):
        return [found for item in target for found in _string_targets(item)]
    if isinstance(target, dict):
        return [found for item in target.values() for found in _string_targets(item)]
    return []


def _file_for(target: str) -> str | None:
    """Where a target points inside the package, or None (not a plain file path)."""
    if not target.startswith("./") or "%" in target or "://" in target:
        return None
    path = re.split(r"[?#]", target, maxsplit=1)[0].replace("\\", "/")
    if path.endswith("/"):
        return None
    normal = posixpath.normpath(path)
    parts = normal.split("/")
    if normal.startswith("..") or normal == "." or any(p.lower() == "node_modules" for p in parts):
        return None
    return normal


def _map_files(fixture: exports_cases.Fixture) -> set[str]:
    """Every file the fixture's maps can name for the specifiers asked of it."""
    found: set[str] = set()
    imports = fixture.get("imports")
    if isinstance(imports, dict):
        found |= _files_of(imports, fixture.get("imports_asked", []))
    raw = fixture.get("exports", "absent")
    if raw == "absent" or raw is None:
        return found
    mapping: dict[str, Any]
    if isinstance(raw, dict) and raw and all(k.startswith("./") or k == "." for k in raw):
        mapping = raw
    else:
        mapping = {".": raw}
    requests = ["." if subpath == "" else "./" + subpath for subpath in fixture["subpaths"]]
    return found | _files_of(mapping, requests)


def _files_of(mapping: dict[str, Any], requests: list[str]) -> set[str]:
    found: set[str] = set()
    for key, target in mapping.items():
        if "*" not in key:
            found.update(f for t in _string_targets(target) if (f := _file_for(t)))
            continue
        star = key.index("*")
        prefix, trailer = key[:star], key[star + 1 :]
        for request in requests:
            if not (
                request.startswith(prefix)
                and request.endswith(trailer)
                and len(request) >= len(key)
            ):
                continue
            matched = request[star : len(request) - len(trailer)]
            for pattern_target in _string_targets(target):
                file = _file_for(pattern_target.replace("*", matched))
                if file:
                    found.add(file)
    return found


def write_fixtures(
    root: Path, fixtures: list[exports_cases.Fixture] | None = None
) -> dict[int, FixtureFiles]:
    """Write every fixture under ``root/node_modules``; its files by fixture number."""
    files_by_number: dict[int, FixtureFiles] = {}
    for number, fixture in enumerate(exports_cases.FIXTURES if fixtures is None else fixtures):
        name = exports_cases.package_name(number, fixture)
        folder = root / "node_modules" / name
        wanted = _map_files(fixture) | set(fixture.get("files", []))
        wanted.discard("package.json")
        folders = {"/".join(p.split("/")[:d]) for p in wanted for d in range(1, p.count("/") + 1)}
        contents: dict[str, str] = {}
        for path in sorted(wanted - folders):  # a path that is also a folder stays a folder
            contents[path] = fixture.get("file_contents", {}).get(
                path, "{}" if path.endswith(".json") else ""
            )
        contents["package.json"] = json.dumps(exports_cases.manifest(number, fixture))
        written = dict(contents)
        if fixture.get("imports_asked"):
            written[PROBE] = ASK
        for path, text in written.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        for other, other_files in fixture.get("other_packages", {}).items():
            for path in ["package.json", *other_files]:
                target = root / "node_modules" / other / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("{}" if path.endswith(".json") else "", encoding="utf-8")
        files_by_number[number] = FixtureFiles(contents)
    return files_by_number


def all_cases(fixtures: list[exports_cases.Fixture] | None = None) -> list[Case]:
    chosen = exports_cases.FIXTURES if fixtures is None else fixtures
    return [
        Case(
            number,
            subpath,
            kind,
            type_only,
            exports_cases.package_name(number, chosen[number]),
            chosen[number],
        )
        for number, subpath, kind, type_only in exports_cases.cases(chosen)
    ]


@dataclass(frozen=True)
class NodeAnswers:
    version: str
    require_module: bool
    outcomes: dict[Case, Outcome]
    messages: dict[Case, str]


def ask_node(node: str, root: Path, cases: list[Case]) -> NodeAnswers:
    """One node process answers every case."""
    runner = root / "runner.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    queries = [
        {
            "id": i,
            "specifier": case.specifier,
            "system": exports.module_system(case.kind),
            "types": case.type_only,
            "probe": str(root / "node_modules" / case.name / PROBE) if case.internal else None,
        }
        for i, case in enumerate(cases)
    ]
    completed = subprocess.run(
        [node, "--no-deprecation", str(runner)],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        cwd=root,
        timeout=NODE_TIMEOUT_SECONDS,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"node failed: {completed.stderr[-2000:]}")
    report = json.loads(completed.stdout)
    real_root = Path(os.path.realpath(root))
    outcomes: dict[Case, Outcome] = {}
    messages: dict[Case, str] = {}
    for answer in report["answers"]:
        case = cases[answer["id"]]
        if "path" in answer:
            package_dir = real_root / "node_modules" / case.name
            path = Path(answer["path"])
            try:
                relative = path.relative_to(package_dir).as_posix()
                target = "./" + ("" if relative == "." else relative)
            except ValueError:
                target = _external(path, real_root / "node_modules") or answer["path"]
            if answer["path"].endswith("/") and not target.endswith("/"):
                target += "/"
            outcomes[case] = Outcome(_squash(target), None)
        else:
            outcomes[case] = Outcome(None, answer["code"])
            messages[case] = answer.get("message", "")
    return NodeAnswers(report["version"], report["require_module"], outcomes, messages)


def _external(path: Path, node_modules: Path) -> str | None:
    """``external:<package>`` for a file of another package of the fixture folder."""
    try:
        parts = path.relative_to(node_modules).parts
    except ValueError:
        return None
    name = "/".join(parts[:2]) if parts and parts[0].startswith("@") else parts[0]
    return f"external:{name}"


def _squash(target: str) -> str:
    # "a//b" and "a/b" name the same file; Node's URL keeps the doubled slash.
    return re.sub(r"/{2,}", "/", target)


def node_conditions(kind: str, type_only: bool, require_module: bool) -> tuple[str, ...]:
    """The conditions of the Node that answered: without require(esm) (Node < 20.19)
    there is no "module-sync"."""
    conditions = exports.conditions_for(kind, type_only)
    return conditions if require_module else tuple(c for c in conditions if c != "module-sync")


def ours(case: Case, files: FixtureFiles, require_module: bool) -> Outcome:
    """Our resolver's answer, given the files Node saw."""
    manifest = exports_cases.manifest(case.number, case.fixture)
    conditions = node_conditions(case.kind, case.type_only, require_module)
    system = exports.module_system(case.kind)
    if case.internal:
        found = resolution.resolve_import_name(manifest, case.subpath, system, conditions, files)
        if found.ok and found.external and found.target:
            return Outcome("external:" + exports.split_specifier(found.target)[0], None)
        return Outcome(_squash(found.target) if found.ok and found.target else None, found.code)
    _name, subpath = exports.split_specifier(case.specifier)
    result = resolution.resolve_subpath(
        manifest,
        subpath,
        exports.module_system(case.kind),
        node_conditions(case.kind, case.type_only, require_module),
        files,
        check_exports_files=True,
    )
    return Outcome(_squash(result.target) if result.ok and result.target else None, result.code)


def old_verdict(case: Case, files: FixtureFiles) -> bool:
    """Today's gate 14 (bc781c7, ``resolves``/the legacy file test) on the same case:
    whether it let the specifier pass. It has one answer for every kind."""
    manifest = exports_cases.manifest(case.number, case.fixture)
    if case.internal:
        return False  # "#name" specifiers were not resolved at all
    if case.subpath == "":
        return True  # the bare name always passed
    if "exports" in manifest:
        return _old_resolves(case.subpath, manifest["exports"])
    subpath = case.subpath
    return any(
        files.is_file(candidate)
        for candidate in (
            subpath,
            *(subpath + e for e in (".js", ".json", ".mjs", ".cjs", "/index.js")),
        )
    )


def _old_resolves(subpath: str, exports_value: Any) -> bool:
    # bc781c7's gates/import_specifiers.resolves, kept here as the "before" measurement.
    def exported(target: Any) -> bool:
        if target is None:
            return False
        if isinstance(target, list):
            return any(exported(item) for item in target)
        if isinstance(target, dict):
            return any(exported(value) for value in target.values())
        return isinstance(target, str)

    if isinstance(exports_value, (str, list)):
        mapping: dict[str, Any] = {".": exports_value}
    elif isinstance(exports_value, dict):
        if exports_value and all(not key.startswith(".") for key in exports_value):
            mapping = {".": exports_value}
        else:
            mapping = {k: v for k, v in exports_value.items() if k.startswith(".")}
    else:
        mapping = {}
    request = "./" + subpath
    if request in mapping and "*" not in request:
        return exported(mapping[request])
    for key in sorted(
        (k for k in mapping if k.count("*") == 1), key=lambda k: (-(k.index("*") + 1), -len(k))
    ):
        prefix, suffix = key.split("*")
        if request.startswith(prefix) and request.endswith(suffix) and len(request) >= len(key) - 1:
            return exported(mapping[key])
    for key in sorted((k for k in mapping if k.endswith("/")), key=len, reverse=True):
        if request.startswith(key):
            return exported(mapping[key])
    return False


@dataclass
class Agreement:
    cases: int
    by_kind: dict[str, tuple[int, int]]  # kind -> (agreeing, total)
    disagreements: dict[str, list[str]]  # kind -> one line per case
    before_by_kind: dict[str, tuple[int, int]]
    version: str
    node_codes: dict[str | None, int]  # how often Node answered each error code (None: a file)

    @property
    def agreeing(self) -> int:
        return sum(a for a, _ in self.by_kind.values())


def measure(
    node: str,
    root: Path,
    fixtures: list[exports_cases.Fixture] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Agreement:
    """Write the fixtures, ask node and our resolver, count agreement per kind (and what
    bc781c7's gate 14 would have said, as a pass/fail verdict)."""
    files = write_fixtures(root, fixtures)
    cases = all_cases(fixtures)
    answers = ask_node(node, root, cases)
    by_kind: dict[str, list[int]] = {}
    before: dict[str, list[int]] = {}
    disagreements: dict[str, list[str]] = {}
    for case in cases:
        kind = "import type" if case.type_only else case.kind
        node_outcome = answers.outcomes[case]
        our_outcome = ours(case, files[case.number], answers.require_module)
        tally = by_kind.setdefault(kind, [0, 0])
        tally[1] += 1
        if our_outcome.same_as(node_outcome):
            tally[0] += 1
        else:
            why = answers.messages.get(case, "")[:120]
            disagreements.setdefault(kind, []).append(
                f"{case.label}: node {node_outcome} ({why}), ours {our_outcome}"
            )
        old = before.setdefault(kind, [0, 0])
        old[1] += 1
        if old_verdict(case, files[case.number]) == (node_outcome.code is None):
            old[0] += 1
    if progress:
        progress(f"node {answers.version}, {len(cases)} cases")
    return Agreement(
        len(cases),
        {k: (v[0], v[1]) for k, v in by_kind.items()},
        disagreements,
        {k: (v[0], v[1]) for k, v in before.items()},
        answers.version,
        dict(Counter(outcome.code for outcome in answers.outcomes.values())),
    )
