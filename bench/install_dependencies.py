"""Install the declared dependencies of the held-out docs projects, for gate 2's dependency
models (issue 24): a real user of a project has them installed, the bench's scratch clone
does not.

For each project of bench/docs_precision.py (both halves, or ``--project``), at the commit
its label file pins, the manifests of the product (not of its tests, examples or docs) are
read from the mirror: pyproject.toml (PEP 621 dependencies and optional dependencies, also
through a Hatch metadata hook,
PEP 735 groups, Poetry), setup.cfg (``install_requires``, ``extras_require``),
requirements*.txt, and package.json (dependencies, devDependencies, peerDependencies,
optionalDependencies). Then, under ``$POSTGATES_BENCH_DEPENDENCIES/<owner>+<name>/``:

- ``python/``: ``pip install --target python --no-deps`` of the Python requirements (the
  declared packages only: a transitive one is not the product's declared dependency); a
  requirement that does not install is skipped and named;
- ``js/``: ``npm install --prefix js --ignore-scripts`` of the npm dependencies (no
  install script runs; workspace, file and link specifiers are the project's own and left
  out).

bench/docs_precision.py points gate 2 at those folders (``POSTGATES_DEPENDENCY_PATH``)
when ``$POSTGATES_BENCH_DEPENDENCIES`` is set; without it the bench says the dependencies
are absent. Nothing installed here is committed.

``--bench drift``: the natural-drift projects (bench/drift_projects.py, the half of SPLIT)
instead, for gates 2 and 15 in bench/natural_drift.py. A drift project is gated at many
commits (each case's parent and fix), its dependencies are installed once, at one commit:
the newest fix commit of its cases (by committer date). The manifests then are the latest
the cases see, so a dependency's name a doc of any case uses is there (an older pin would
lack the names that later docs, and their clean controls, rely on); the range a manifest
states is resolved to the newest release matching it, as a user installing then would
get. A drift project that is also a docs project shares the docs install (same folder, the
docs pin) and is not installed again. Two rules of the drift install only:

- heavy compute frameworks (HEAVY: torch, tensorflow, jax and their kind) are skipped and
  named: their wheels are hundreds of megabytes of compiled code, while the gates' models
  read Python sources only; a name rooted in one stays unjudged, never a pass;
- the project's own distribution is never installed (it is the product, read from git).

    POSTGATES_BENCH_DEPENDENCIES=/tmp/bench-deps python bench/install_dependencies.py --half tune
    POSTGATES_BENCH_DEPENDENCIES=/tmp/bench-deps python bench/install_dependencies.py \
        --bench drift --half tune --project huggingface/trl
"""

from __future__ import annotations

import argparse
import configparser
import json
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import tomllib
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import docs_precision as bench  # noqa: E402
import drift_projects  # noqa: E402
import natural_drift  # noqa: E402

from pytest_postgates.evidence.model_facts import is_product_code  # noqa: E402

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*([^;#]*)")
_NPM_FIELDS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
_NPM_ABSENT = re.compile(
    r"(?:No matching version found for |404 Not Found - GET \S+/|Unsupported platform for )"
    r"(@?[^\s@]+)"
)
_LOCAL_SPEC = ("workspace:", "file:", "link:", "portal:")
# Skipped by the drift install (see the docstring): compiled frameworks of hundreds of MB.
HEAVY = frozenset(
    {"torch", "torchvision", "torchaudio", "tensorflow", "tensorflow-cpu", "jax", "jaxlib",
     "vllm", "deepspeed", "flash-attn", "xformers", "bitsandbytes", "triton", "liger-kernel",
     "mlx", "onnxruntime", "onnxruntime-gpu"}
)  # fmt: skip
# pnpm's catalogs: `"chai": "catalog:"` names a version range that pnpm-workspace.yaml keeps
# (`catalog:` or a named group under `catalogs:`); the package is another party's, as
# installed as any other (https://pnpm.io/catalogs).
PNPM_WORKSPACE = "pnpm-workspace.yaml"
_CATALOG = "catalog:"


def _git(mirror: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={mirror}", *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def manifests(mirror: Path, commit: str) -> dict[str, str]:
    """Path -> text of the product's manifests at ``commit``."""
    found: dict[str, str] = {}
    for path in _git(mirror, "ls-tree", "-r", "--name-only", commit).splitlines():
        base = posixpath.basename(path)
        wanted = (
            base in ("pyproject.toml", "setup.cfg", "package.json")
            or path == (PNPM_WORKSPACE)
            or re.fullmatch(r"requirements[\w.-]*\.txt", base)
        )
        if wanted and "node_modules/" not in path and is_product_code(path):
            found[path] = _git(mirror, "show", f"{commit}:{path}")
    return found


def python_requirements(files: dict[str, str]) -> tuple[list[str], set[str]]:
    """The requirement strings the manifests declare, and the project's own package names
    (a workspace's packages require each other)."""
    lines: list[str] = []
    own: set[str] = set()
    for path, text in sorted(files.items()):
        base = posixpath.basename(path)
        if base == "pyproject.toml":
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                continue
            project = data.get("project", {})
            if isinstance(project.get("name"), str):
                own.add(project["name"])
            # Dependencies a Hatch metadata hook fills in (`dynamic = ["dependencies"]`).
            hooks = data.get("tool", {}).get("hatch", {}).get("metadata", {}).get("hooks", {})
            for table in [project, *(h for h in hooks.values() if isinstance(h, dict))]:
                lines += [d for d in table.get("dependencies", []) if isinstance(d, str)]
                for group in table.get("optional-dependencies", {}).values():
                    lines += [d for d in group if isinstance(d, str)]
            for group in data.get("dependency-groups", {}).values():
                lines += [d for d in group if isinstance(d, str)]
            poetry = data.get("tool", {}).get("poetry", {}).get("dependencies", {})
            lines += [name for name in poetry if name != "python"]
        elif base == "setup.cfg":
            parser = configparser.ConfigParser()
            try:
                parser.read_string(text)
            except configparser.Error:
                continue
            lines += parser.get("options", "install_requires", fallback="").splitlines()
            if parser.has_section("options.extras_require"):
                for _extra, value in parser.items("options.extras_require"):
                    lines += value.splitlines()
        elif base.startswith("requirements"):
            lines += [line for line in text.splitlines() if not line.strip().startswith("-")]
    normal = {re.sub(r"[-_.]+", "-", n).lower() for n in own}
    kept: dict[str, str] = {}
    for line in lines:
        match = _REQUIREMENT.match(line)
        if not match:
            continue
        name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
        if name not in normal and name not in kept:
            kept[name] = (match.group(1) + match.group(3).strip()).replace(" ", "")
    return sorted(kept.values()), normal


def pnpm_catalogs(files: dict[str, str]) -> dict[str, dict[str, str]]:
    """pnpm-workspace.yaml's catalogs: group -> name -> range (``default`` for ``catalog``)."""
    try:
        data = yaml.safe_load(files.get(PNPM_WORKSPACE, "")) or {}
    except yaml.YAMLError:
        return {}
    if not isinstance(data, dict):
        return {}
    groups = dict(data.get("catalogs") or {}) if isinstance(data.get("catalogs"), dict) else {}
    if isinstance(data.get("catalog"), dict):
        groups["default"] = data["catalog"]
    return {
        str(group): {str(k): str(v) for k, v in table.items()}
        for group, table in groups.items()
        if isinstance(table, dict)
    }


def npm_specs(files: dict[str, str]) -> list[str]:
    """``name@range`` of every npm dependency the manifests declare (the project's own
    workspace packages and local specifiers left out; a pnpm catalog reference resolved to
    the range its catalog keeps, or left out when no catalog has it)."""
    catalogs = pnpm_catalogs(files)
    own: set[str] = set()
    wanted: dict[str, str] = {}
    for path, text in sorted(files.items()):
        if posixpath.basename(path) != "package.json":
            continue
        try:
            manifest = json.loads(text)
        except ValueError:
            continue
        if not isinstance(manifest, dict):
            continue
        if isinstance(manifest.get("name"), str):
            own.add(manifest["name"])
        for field in _NPM_FIELDS:
            table = manifest.get(field)
            for name, spec in table.items() if isinstance(table, dict) else ():
                if isinstance(spec, str) and spec.startswith(_CATALOG):
                    spec = catalogs.get(spec[len(_CATALOG) :] or "default", {}).get(name, "")
                if isinstance(spec, str) and spec and not spec.startswith(_LOCAL_SPEC):
                    wanted.setdefault(name, spec)
    return [f"{name}@{spec}" for name, spec in sorted(wanted.items()) if name not in own]


def requirement_name(requirement: str) -> str:
    """The normalised distribution name of a requirement string."""
    match = _REQUIREMENT.match(requirement)
    return re.sub(r"[-_.]+", "-", match.group(1) if match else requirement).lower()


def install(
    project: str, mirror: Path, commit: str, target: Path, skip: frozenset[str] = frozenset()
) -> list[str]:
    """Install one project's dependencies under ``target``; the lines to print. A Python
    requirement whose name is in ``skip`` is not installed and is named."""
    files = manifests(mirror, commit)
    requirements, _own = python_requirements(files)
    skipped = [r for r in requirements if requirement_name(r) in skip]
    requirements = [r for r in requirements if r not in skipped]
    specs = npm_specs(files)
    report = [f"{project} at {commit[:12]}: {len(requirements)} Python, {len(specs)} npm"]
    if skipped:
        report.append(f"  skipped (heavy, or the product itself): {', '.join(skipped)}")
    python = target / "python"
    failed: list[str] = []
    if requirements:
        python.mkdir(parents=True, exist_ok=True)
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        pip += ["--no-deps", "--ignore-requires-python", "--upgrade", "--target", str(python)]
        if subprocess.run([*pip, *requirements], capture_output=True, check=False).returncode:
            for requirement in requirements:  # one by one: a bad one must not sink the rest
                done = subprocess.run([*pip, requirement], capture_output=True, check=False)
                if done.returncode:
                    # The newest release may need a newer Python than the bench's and ship
                    # no wheel for it (numpy from source): the newest this Python takes.
                    fits = [part for part in pip if part != "--ignore-requires-python"]
                    done = subprocess.run([*fits, requirement], capture_output=True, check=False)
                if done.returncode:
                    failed.append(requirement)
    if specs:
        js = target / "js"
        js.mkdir(parents=True, exist_ok=True)
        npm = ["npm", "install", "--prefix", str(js), "--ignore-scripts", "--no-audit"]
        npm += ["--no-fund", "--no-package-lock", "--legacy-peer-deps", "--loglevel=error"]
        for _attempt in range(6):
            npm_run = subprocess.run([*npm, *specs], capture_output=True, text=True, check=False)
            # A spec the registry does not have (a test fixture's `foobar@0.0.0`) or that is
            # for another platform (`fsevents`) fails the whole install: drop it, try again.
            found = _NPM_ABSENT.findall(npm_run.stderr) if npm_run.returncode else []
            absent = {name.replace("%2f", "/").replace("%2F", "/") for name in found}
            wrong = [spec for spec in specs if spec.rsplit("@", 1)[0] in absent]
            if not wrong:
                break
            failed += wrong
            specs = [spec for spec in specs if spec not in wrong]
        if npm_run.returncode:
            report.append(f"  npm install failed: {npm_run.stderr.strip()[-500:]}")
    if failed:
        report.append(f"  not installed: {', '.join(failed)}")
    return report


def drift_pins(half: str, mirrors: Path, chosen: list[str] | None = None) -> dict[str, str]:
    """Project -> the commit its drift install reads: the newest fix of its cases (of the
    ``chosen`` projects only, when given: the others' mirrors need not be there)."""
    fixes: dict[str, set[str]] = {}
    for case in natural_drift.load_cases(natural_drift.CASES):
        if case.split == half and (not chosen or case.project in chosen):
            fixes.setdefault(case.project, set()).add(case.fix)
    pins: dict[str, str] = {}
    for project, commits in sorted(fixes.items()):
        mirror = bench.mirror_of(project, mirrors)
        dated = _git(mirror, "show", "-s", "--format=%ct %H", *sorted(commits)).split("\n")
        pins[project] = max(line.split() for line in dated if line.strip())[1]
    return pins


def docs_projects() -> set[str]:
    """Every project bench/docs_precision.py installs for (both halves, gate 15's too)."""
    names = {p.name for half in bench.HALVES.values() for p in half[0]}
    return names | {p.name for p in bench.GATE15_TUNE_EXTRA}


def install_drift(half: str, chosen: list[str] | None, cache: Path, mirrors: Path) -> None:
    """The drift install of one half's projects (the docstring's rules)."""
    shared = docs_projects()
    for project, commit in drift_pins(half, mirrors, chosen).items():
        if chosen and project not in chosen:
            continue
        if drift_projects.SPLIT.get(project) != half:
            continue
        if project in shared:
            print(f"{project}: a docs project, its docs install serves (not installed again)")
            continue
        target = cache / project.replace("/", "+")
        if (target / "python").is_dir() or (target / "js").is_dir():
            print(f"{project}: installed before under {target} (remove it to reinstall)")
            continue
        own = drift_projects.PACKAGES.get(project)
        skip = HEAVY | ({requirement_name(own)} if own else set())
        mirror = bench.mirror_of(project, mirrors)
        print("\n".join(install(project, mirror, commit, target, skip)), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "report", "both"), default="both")
    parser.add_argument("--project", action="append", help="owner/name (repeatable)")
    parser.add_argument("--bench", choices=("docs", "drift"), default="docs")
    args = parser.parse_args(argv)
    cache = os.environ.get(bench.BENCH_DEPENDENCIES_ENV)
    if not cache:
        sys.exit(f"install_dependencies: set ${bench.BENCH_DEPENDENCIES_ENV} to a folder")
    mirrors = Path(os.environ.get(bench.MIRRORS_ENV, bench.DEFAULT_MIRRORS))
    halves = ("tune", "report") if args.half == "both" else (args.half,)
    if args.bench == "drift":
        for half in halves:
            install_drift(half, args.project, Path(cache), mirrors)
        return 0
    for half in halves:
        projects, labels = bench.HALVES[half]
        pins, _labels = bench.load_labels(labels)
        if half == "tune":  # gate 15's wider tune half (its pins in its own label file)
            projects = (*projects, *bench.GATE15_TUNE_EXTRA)
            pins.update(bench.load_labels(bench.GATE15_TUNE_LABELS)[0])
        for project in projects:
            if args.project and project.name not in args.project:
                continue
            mirror = bench.mirror_of(project.name, mirrors)
            target = Path(cache) / project.name.replace("/", "+")
            lines = install(project.name, mirror, pins[project.name], target)
            print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
