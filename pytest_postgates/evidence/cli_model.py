"""The product's command line as the API model knows it: which executables run it, which
commands it has and which long flags each command accepts (declared or derived by its
parser), and the questions gate 2 asks of it.

* :func:`executables`: the console scripts of a Python project (PEP 621
  ``[project.scripts]``, poetry's ``[tool.poetry.scripts]``, PDM's legacy ``[tool.pdm.cli]``,
  setup.cfg's and setup.py's ``console_scripts``), each package.json's ``bin``, and the
  packages ``python -m`` runs (a product package with a ``__main__.py``); a package.json
  script that runs a ``bin`` is one too, keyed ``npm run <script>``; a pytest plugin (a
  ``pytest11`` entry point) makes ``pytest`` one, as the host of its options (:data:`HOST_PREFIX`).
* :func:`derive_js_flags`: what yargs and commander accept beyond the options a file
  declares (yargs: ``--no-x`` for every option, ``--help``, ``--version``; commander:
  ``--help``, and ``--version`` where the program calls ``.version()``; meow and args:
  ``--help`` and ``--version``).
* :func:`js_run_time_commands`: where a JavaScript/TypeScript parser makes commands from
  names it computes (commander's ``program.command(spec.name)``): the table of commands
  the model read there is not closed.
* :func:`package_cli`: the command line of one workspace package of a monorepo (the
  flags, commands and openings its own files declare), for a page that sits in that
  package's folder: another package's parser, one that takes options named at run time
  say, does not open this package's flags, nor do its flags ground this package's.
* :class:`CliModel`: a flag of the whole CLI, or of one command (its own flags and the
  root's), whether a command is one the CLI makes at run time, and whether the flag set
  is open (a parser read only in part, or one that takes any flag): then a flag it does
  not declare is not judged.
"""

from __future__ import annotations

import configparser
import copy
import json
import posixpath
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

import tomllib

from pytest_postgates.evidence.api_lookup import ApiLookup, CliTable, Unknown
from pytest_postgates.evidence.file_table import captured, field_of, node_text
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import ModelFacts, is_product_code, normal_flag
from pytest_postgates.evidence.workspaces import workspace_folders

# The key of a package script that runs the product's bin, among the executables.
SCRIPT_PREFIX = "npm run "
# What an executable runs when the product is a plugin of it (pytest for a pytest11 entry
# point): its command line holds the product's flags beside the host's and other plugins'.
HOST_PREFIX = "a plugin of "
PYTEST_HOSTS = ("pytest", "py.test")
# `name = module:function` in setup.py's console_scripts list.
_SETUP_SCRIPT = re.compile(r"""["']\s*([A-Za-z0-9][\w.-]*)\s*=\s*([\w.]+(?::[\w.]+)?)\s*["']""")


def executables(index: RepoIndex) -> tuple[dict[str, str], list[str]]:
    """(executable -> what it runs, the modules ``python -m`` runs) of the product."""
    found: dict[str, str] = {}
    for path in index.text_paths:
        folder, base = posixpath.split(path)
        if folder and not is_product_code(folder + "/"):
            continue
        if base not in ("pyproject.toml", "setup.cfg", "setup.py", "package.json"):
            continue
        text = index.file_text(path) or ""
        if base == "pyproject.toml":
            found.update(_pyproject_scripts(text))
        elif base == "setup.cfg":
            found.update(_setup_cfg_scripts(text))
        elif base == "setup.py" and "console_scripts" in text:
            tail = text[text.index("console_scripts") :]
            found.update({m.group(1): m.group(2) for m in _SETUP_SCRIPT.finditer(tail[:4000])})
        else:
            found.update(_bins(text, path))
    mains = sorted(
        {
            path[: -len("/__main__.py")].rsplit("/", 1)[-1]
            for path in index.paths
            if path.endswith("/__main__.py") and is_product_code(path)
        }
    )
    return found, mains


def manifest_bins(manifest: dict[str, Any], package: str) -> dict[str, str]:
    """The bins a package.json declares (a string ``bin`` is named after the package)."""
    value = manifest.get("bin")
    if isinstance(value, str):
        return {package.rsplit("/", 1)[-1]: value}
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}
    return {}


def bins_in(folder: str, bins: dict[str, str]) -> dict[str, str]:
    """A workspace package's bins as paths from the repository's top."""
    return {name: posixpath.join(folder, target) for name, target in bins.items()}


def product_bins(
    manifest: dict[str, Any], package: str, scripts: dict[str, str], index: RepoIndex
) -> dict[str, str]:
    """Gate 15's executables of the product: package.json's bins, pyproject.toml's scripts
    (``scripts``) and, with no package.json, setuptools' (setup.cfg, setup.py)."""
    bins = {**manifest_bins(manifest, package), **scripts}
    if not manifest:
        bins.update({k: v for k, v in setup_scripts(index).items() if k not in bins})
    return bins


def setup_scripts(index: RepoIndex) -> dict[str, str]:
    """The console scripts the repository root's setup.cfg and setup.py declare (script ->
    ``module:function``): a package built with setuptools and no PEP 621 table."""
    found: dict[str, str] = {}
    cfg, setup = index.file_text("setup.cfg"), index.file_text("setup.py")
    if cfg:
        found.update(_setup_cfg_scripts(cfg))
    if setup and "console_scripts" in setup:
        tail = setup[setup.index("console_scripts") :]
        found.update({m.group(1): m.group(2) for m in _SETUP_SCRIPT.finditer(tail[:4000])})
    return found


def python_project(text: str) -> tuple[str, dict[str, str]] | None:
    """(name, console scripts) a pyproject.toml declares, in PEP 621's table, poetry's or
    PDM's legacy one (None: no name); a pytest plugin's host is no script of its own."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    tables = (data.get("project"), tool.get("poetry"), tool.get("pdm"))
    names = [t.get("name") for t in tables if isinstance(t, dict)]
    name = next((n for n in names if isinstance(n, str) and n), None)
    if name is None:
        return None
    scripts = _pyproject_scripts(text)
    return name, {k: v for k, v in scripts.items() if not v.startswith(HOST_PREFIX)}


def _pyproject_scripts(text: str) -> dict[str, str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    project = data.get("project")
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    poetry = tool.get("poetry")
    # PDM's metadata before PEP 621 (pdm-pep517 built it) declared console scripts as
    # `[tool.pdm.cli]`: name = "module:function".
    pdm = tool.get("pdm")
    found: dict[str, str] = {}
    points = project.get("entry-points") if isinstance(project, dict) else None
    if isinstance(points, dict) and points.get("pytest11"):
        # A pytest plugin adds its options to pytest's command line.
        found.update({host: f"{HOST_PREFIX}{host}" for host in PYTEST_HOSTS})
    for table in (
        project.get("scripts") if isinstance(project, dict) else None,
        poetry.get("scripts") if isinstance(poetry, dict) else None,
        pdm.get("cli") if isinstance(pdm, dict) else None,
    ):
        if isinstance(table, dict):
            found.update({k: str(v) for k, v in table.items() if isinstance(k, str)})
    return found


def _setup_cfg_scripts(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text)
        lines = parser.get("options.entry_points", "console_scripts", fallback="")
        plugin = parser.get("options.entry_points", "pytest11", fallback="")
    except configparser.Error:
        return {}
    pairs = (line.split("=", 1) for line in lines.splitlines() if "=" in line)
    found = {name.strip(): target.strip() for name, target in pairs}
    if plugin.strip():
        found.update({host: f"{HOST_PREFIX}{host}" for host in PYTEST_HOSTS})
    return found


def _bins(text: str, path: str) -> dict[str, str]:
    try:
        manifest = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(manifest, dict):
        return {}
    value, name = manifest.get("bin"), manifest.get("name")
    found: dict[str, str] = {}
    if isinstance(value, str) and isinstance(name, str):
        found = {name.rsplit("/", 1)[-1]: value}
    elif isinstance(value, dict):
        found = {k: str(v) for k, v in value.items() if isinstance(k, str)}
    # A package script that runs a bin (`"cli": "node dist/cli/index.js"`) runs the product's
    # command line from the repository: `pnpm run cli generate` is `neurolink generate`.
    folder = posixpath.dirname(path)
    targets = {posixpath.normpath(posixpath.join(folder, t)) for t in found.values()}
    scripts = manifest.get("scripts")
    for script, command in scripts.items() if isinstance(scripts, dict) else ():
        words = str(command).split()
        runs = words[1:2] if words[:1] == ["node"] else words[:1]
        ran = posixpath.normpath(posixpath.join(folder, runs[0])) if runs else ""
        if runs and (ran in targets or runs[0] in found):
            found[f"{SCRIPT_PREFIX}{script}"] = str(command)
    return found


def derive_js_flags(facts: ModelFacts, path: str, options: list[str], source: str) -> None:
    """The flags yargs and commander accept beyond the options ``path`` declares."""
    frameworks = facts.cli_frameworks
    derived: list[tuple[str, str]] = []
    if {"yargs", "commander"} & set(frameworks):
        derived.append(("--help", "yargs and commander add --help"))
    if "yargs" in frameworks:
        derived.append(("--version", "yargs adds --version"))
        derived += [(f"--no-{o}", f"yargs negates every option (--{o})") for o in options]
    if "commander" in frameworks and ".version(" in source:
        derived.append(("--version", "commander's .version() adds --version"))
    if "args" in frameworks:  # args adds both unless told not to (`help: false`)
        derived += [("--help", "args adds --help"), ("--version", "args adds --version")]
    if "meow" in frameworks:  # autoHelp and autoVersion, on unless turned off
        derived += [("--help", "meow adds --help"), ("--version", "meow adds --version")]
    for flag, how in derived:
        name = normal_flag(flag)
        if name not in facts.flags:
            facts.derived_flags.setdefault(name, f"{path}: {how}")
        facts.add_command_flags("", [name])


_RUN_TIME_QUERY = "(call_expression) @n"
# A first argument that names the command as written: a string, an array of them, or a
# yargs command module (an object, a variable, a factory's call) the model reads where it
# is declared.
_LITERAL = frozenset({"string", "array", "object"})
_MODULE = frozenset({"identifier", "call_expression", "await_expression"})


def js_run_time_commands(
    root: Any, source: bytes, language: Any, frameworks: Collection[str] = ()
) -> list[int]:
    """The lines where the file's parser makes a command from a name it computes: a
    ``.command()`` whose first argument is no literal (a member, a template with
    substitutions, a concatenation) and, where the file uses yargs, no command module (a
    variable or a call may hold one, read where it is declared); commander's
    ``.command()`` takes only a name, so a variable's is made at run time too."""
    modules = _MODULE if "yargs" in frameworks or "commander" not in frameworks else frozenset()
    found = captured(root, language, _RUN_TIME_QUERY)
    if found is None:
        found, stack = [], [root]
        while stack:
            node = stack.pop()
            if node.type == "call_expression":
                found.append(node)
            stack.extend(node.named_children)
    lines: set[int] = set()
    for node in found:
        function = field_of(node, "function")
        arguments = field_of(node, "arguments")
        if function is None or function.type != "member_expression" or arguments is None:
            continue
        first = arguments.named_children[0] if arguments.named_children else None
        method = node_text(source, field_of(function, "property") or function)
        opened = first is not None and first.type not in modules and not _literal(first)
        if method == "command" and opened:
            lines.add(node.start_point[0] + 1)
    return sorted(lines)


def _literal(node: Any) -> bool:
    if node.type == "template_string":
        return not any(c.type == "template_substitution" for c in node.named_children)
    return node.type in _LITERAL


@dataclass(frozen=True)
class CliModel:
    """Questions about the product's command line (over the model's facts)."""

    facts: ModelFacts
    # The workspace package whose own command line this is (:func:`package_cli`), "" for
    # the whole repository's.
    package: str = ""

    @property
    def present(self) -> bool:
        """Whether the model read a command line of the product (one whose options are
        all made at run time too)."""
        return bool(self.facts.flags or self.facts.commands or self.facts.open_flags)

    def flag(self, flag: str) -> str | None:
        """Where the parser declares or derives ``flag`` for any command (None: nowhere)."""
        name = normal_flag(flag)
        return self.facts.flags.get(name) or self.facts.derived_flags.get(name)

    def accepts(self, command: str, flag: str) -> bool | None:
        """Whether ``command`` takes ``flag`` (its own or the root's); None when the model
        has no flags listed for the command."""
        own = self.facts.command_flags.get(command)
        if own is None:
            return None
        name = normal_flag(flag)
        return name in own or name in self.facts.command_flags.get("", [])

    def flags_of(self, command: str) -> list[str]:
        """The flags ``command`` takes (its own and the root's), sorted."""
        own = {*self.facts.command_flags.get(command, []), *self.facts.command_flags.get("", [])}
        return sorted(own)

    @property
    def open(self) -> bool:
        """Whether the CLI makes commands at run time (its command table is not closed)."""
        return bool(self.facts.open_commands)

    @property
    def open_command(self) -> str | None:
        """Where the CLI makes commands at run time (the first place), None when its table
        of commands is closed."""
        return self.facts.open_commands[0] if self.facts.open_commands else None

    @property
    def open_flags(self) -> str | None:
        """Why the CLI may take flags the model does not list ("path:line: why"), the first
        place; None when its flag set is closed."""
        return self.facts.open_flags[0] if self.facts.open_flags else None

    @property
    def partly_read(self) -> str | None:
        """Where the CLI makes commands at run time or takes flags the model cannot list
        (the first place), so that the model's tables are not the whole CLI; None when
        they are."""
        made = [*self.facts.open_commands, *self.facts.open_flags]
        return made[0] if made else None


class _WithCli(Protocol):
    """What :func:`package_cli` replaces in a model (the API model, which imports this)."""

    facts: ModelFacts
    commands: dict[str, str]
    cli: CliModel


Model = TypeVar("Model", bound=_WithCli)


def page_cli(model: Model, index: RepoIndex, page: Path) -> Model:
    """The model whose command line a page at ``page`` is judged against: the command line
    of the workspace package whose folder holds it (:func:`package_cli`), else the whole
    repository's."""
    try:
        where = page.resolve().relative_to(index.root.resolve()).as_posix()
    except (ValueError, OSError):
        return model
    memo = index.memo("cli_model.workspace_folders")
    if "folders" not in memo:
        memo["folders"] = workspace_folders(index)
    folder = home_folder(where, memo["folders"])
    return package_cli(model, folder) if folder else model


def home_folder(page: str, folders: Sequence[str]) -> str | None:
    """The deepest of the workspace package ``folders`` that holds ``page`` (a path from
    the repository's top), or None."""
    held = [f for f in folders if f and page.startswith(f.rstrip("/") + "/")]
    return max(held, key=len) if held else None


def package_cli(model: Model, folder: str) -> Model:
    """``model`` with the command line of the package in ``folder`` only: the flags,
    commands, derived flags and openings declared by its own files (each fact keeps the
    file it was read from). A package whose files declare no command line of their own
    leaves the model whole (its page may be about the repository's CLI)."""
    memo: dict[str, Model] = model.__dict__.setdefault("_package_cli", {})
    known = memo.get(folder)
    if known is not None:
        return known
    prefix = folder.rstrip("/") + "/"
    facts = model.facts

    def inside(where: str) -> bool:
        return where.startswith(prefix)

    flags = {f: w for f, w in facts.flags.items() if inside(w)}
    # A flag two packages declare is recorded at the first; the declarations say each.
    for decl in facts.decls:
        if decl.kind == "flag" and inside(decl.path):
            flags.setdefault(normal_flag(decl.name), decl.path)
    commands = {c: w for c, w in facts.commands.items() if inside(w)}
    for decl in facts.decls:
        if decl.kind == "command" and inside(decl.path):
            commands.setdefault(decl.name, decl.path)
    open_commands = [w for w in facts.open_commands if inside(w)]
    open_flags = [w for w in facts.open_flags if inside(w)]
    if not (flags or commands or open_commands or open_flags):
        memo[folder] = model
        return model
    derived = {f: how for f, how in facts.derived_flags.items() if inside(how)}
    command_flags = {"": sorted({*flags, *derived})}
    # A command whose flags the parser does not tie to it keeps none listed (any flag).
    command_flags.update(
        {c: list(facts.command_flags[c]) for c in commands if c in facts.command_flags}
    )
    scoped = replace(
        facts,
        flags=flags,
        commands=commands,
        derived_flags=derived,
        command_flags=command_flags,
        open_commands=open_commands,
        open_flags=open_flags,
    )
    scoped._import_views = facts._import_views
    view = copy.copy(model)
    view.facts = scoped
    view.commands = dict(commands)
    view.cli = CliModel(scoped, package=folder)
    memo[folder] = view
    return view


def product_cli_table(lookup: ApiLookup, bins: dict[str, str], python: bool) -> CliTable | Unknown:
    """Gate 15's table of the product's command line: a Python script's module and the
    modules of its package that define commands, else the bin's source file."""
    target = next(iter(bins.values()))
    if python:
        module = target.split(":", 1)[0]
        path = lookup.python_module(module)
        if path is None:
            return Unknown(f"the script's module {module} is not a tracked file")
        # The package's folder: the path up to the module's first part (`src/pkg`,
        # `packages/cli/src/cli`).
        at = re.search(rf"(?:^|/)({re.escape(module.replace('.', '/'))})(?:/|\.py)", path)
        top = path[: at.start(1)] + module.split(".")[0] if at else path.split("/")[0]
        table = lookup.cli(path)
        # A Python CLI's parts are the package's modules that import the framework.
        extra = []
        for other in lookup.tables.files:
            if not other.startswith(top + "/") or not other.endswith(".py") or other in table.read:
                continue
            if not lookup.tables.may_define_cli(other):
                continue
            found = lookup.tables.files.get(other)
            if found is not None and found.cli_frameworks:
                extra.append(other)
        for extra_path in extra:
            more = lookup.cli(extra_path)
            table.read.extend(more.read)
            table.frameworks.extend(f for f in more.frameworks if f not in table.frameworks)
            for name, where in more.commands.items():
                table.commands.setdefault(name, []).extend(where)
            table.options |= more.options
            table.root_options |= more.root_options
            table.passthrough |= more.passthrough
            # A module that keeps the flags its parser does not declare (trl's main parser,
            # `parse_known_args`, handing the rest to each command's own) opens them all.
            table.open_flags += [w for w in more.open_flags if w not in table.open_flags]
            for name, own in more.per_command.items():
                table.per_command.setdefault(name, set()).update(own)
        return table
    # A workspace package's bin is mapped to its source by that package's own layout.
    folders = sorted((s.folder for s in lookup.sites.values() if s.folder), key=len)
    folder = next((f for f in reversed(folders) if target.startswith(f + "/")), "")
    source = lookup.source_for(target[len(folder) + 1 :] if folder else target, folder)
    if source.path is None:
        return Unknown(f"the bin {target} has no source file ({source.missing}); set source_map")
    return lookup.cli(source.path)
