"""Gate 15's checks of one post's code samples against the repository's API (the
lookup of :mod:`pytest_postgates.evidence.api_lookup`): a module a product specifier
names, a name it exports, a member of a class or object, a CLI line's command and flags
(Python fences: :mod:`.python_samples`). Each check counts what it judged and reports a
violation (with close real names) or an unjudged line (with the reason) into the post's
:class:`SampleReport`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence import resolution
from pytest_postgates.evidence.api_lookup import (
    OBJECT_MEMBERS,
    ApiLookup,
    Binding,
    CliTable,
    Unknown,
    normal_flag,
)
from pytest_postgates.evidence.public_functions import PublicFunctions, Reached
from pytest_postgates.evidence.workspaces import PackageSite
from pytest_postgates.helpers.script_runs import flag_line

# Flags every CLI of a framework has without declaring them.
BUILTIN_FLAGS = {
    "yargs": {"help", "version"},
    "commander": {"help", "version"},
    "argparse": {"help"},
    "click": {"help"},
    "rich_click": {"help"},
    "typer": {"help", "install-completion", "show-completion"},
}
# A package imported from a CDN that serves npm packages by name (``https://esm.sh/h3``,
# ``https://cdn.jsdelivr.net/npm/h3@1``, Deno's ``npm:h3``): the package, any version. A
# URL that goes on to a file of the package (esm.sh's own builds, ``/dist/x.mjs``) is left
# as it is: its names need not be the package entry's.
_CDN_PACKAGE = re.compile(
    r"(?:https?://(?:esm\.sh|esm\.run|unpkg\.com|cdn\.skypack\.dev|cdn\.jsdelivr\.net/npm)/"
    r"|npm:)(?P<name>(?:@[\w.-]+/)?[\w.-]+?)(?:@[\w.^~<>=*-]*)?/?(?:\?[^#]*)?"
)


def cdn_package(spec: str) -> str:
    """The npm specifier a CDN URL of a package's entry names (see _CDN_PACKAGE), else
    ``spec`` as written."""
    found = _CDN_PACKAGE.fullmatch(spec)
    return found["name"] if found else spec


PLACEHOLDER = re.compile(r"^[<\[{].*[>\]}]$|^\.\.\.$|\$")
# A word naming a file or module of the reader's where a command would stand: a path
# (``./app``, ``src/main.py``), a script file, or a dotted module (``my_pkg.main``).
READER_PROGRAM = re.compile(
    r"[/\\]|\.(?:py|pyw|js|mjs|cjs|jsx|ts|mts|cts|tsx|sh|rb)$|^[a-z_]\w*(?:\.[a-z_]\w*)+$"
)

# The origin of a value whose type is assumed from its name (and of the chain after it).
ASSUMED_FROM_NAME = "a type assumed from the name"
# The origin of a value typed by how the product's code declares its name.
CODE_NAMED = "typed as the product's code declares the name"
# Such a name (ModelFacts.declared_as) has at least this many typed declarations, of which
# more than this share are of one product type (or, in JS/TS, types extending it). A name
# most of the code's own declarations type so is what a sample's reader takes it for; a
# member it lacks is a finding only where the code never writes the member's name.
CODE_NAMED_LEAST, CODE_NAMED_SHARE = 3, 0.8


def code_declared(counts: dict[str, int] | None) -> tuple[int, dict[str, int]] | None:
    """A name's typed declarations (its ``ModelFacts.declared_as`` counts): how many, and
    how many of each named type (by its last dotted part); None below CODE_NAMED_LEAST."""
    total = sum((counts or {}).values())
    if total < CODE_NAMED_LEAST:
        return None
    named: dict[str, int] = {}
    for written, count in (counts or {}).items():
        if written:
            short = written.rsplit(".", 1)[-1]
            named[short] = named.get(short, 0) + count
    return total, named


# A value typed through a type parameter read as its default: its type may extend that.
OPEN_TYPE = "a type parameter's default, which the value's type may extend"


@dataclass
class SampleReport:
    checked: int = 0
    checked_by_kind: dict[str, int] = field(default_factory=dict)
    unjudged: list[dict[str, Any]] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)
    resolved: dict[str, str] = field(default_factory=dict)  # specifier -> source file
    suggestions: dict[int, list[str]] = field(default_factory=dict)
    # What was checked, by line and name (a violation among them is in ``violations``).
    checked_names: list[dict[str, Any]] = field(default_factory=list)

    def count(self, kind: str, line: int = 0, name: str = "") -> None:
        self.checked += 1
        self.checked_by_kind[kind] = self.checked_by_kind.get(kind, 0) + 1
        if name:
            self.checked_names.append({"line": line, "name": name, "kind": kind})

    def skip(self, line: int, text: str, reason: str, name: str = "") -> None:
        """``name``: the one name the entry leaves unjudged, when its text holds more."""
        entry = {"line": line, "text": text.strip()[:160], "reason": one_line(reason)}
        if name:
            entry["name"] = name
        if entry not in self.unjudged:
            self.unjudged.append(entry)

    def violation(
        self, line: int, kind: str, name: str, where: str, reason: str, close: list[str]
    ) -> None:
        self.suggestions[len(self.violations)] = close
        self.violations.append(
            {"line": line, "kind": kind, "name": name, "where_looked": where,
             "reason": one_line(reason)}
        )  # fmt: skip


def one_line(reason: str) -> str:
    """A reason as the card says it: on one line. A reason quotes code (a chain, a
    callee, a declared type) that may span lines of the fence or the product's source;
    its line breaks and indentation would split one entry across lines of a report."""
    return " ".join(reason.split())


def close_names(name: str, candidates: Iterable[str]) -> list[str]:
    # Only names of about the same length can be close; difflib over thousands is slow.
    slack = max(2, len(name) // 3)
    lower = name.lower()
    head = lower[:4] if len(name) >= 3 else None  # a shared prefix counts from 3 letters
    # One pass: about the same length, or the same first four letters.
    pool = sorted(
        {
            c
            for c in candidates
            if c
            and (
                (abs(len(c) - len(name)) <= slack and c != name and not c.startswith("_"))
                or (head is not None and c.lower().startswith(head))
            )
        }
    )
    if len(pool) > 200:
        pool = [c for c in pool if c[:1].lower() == name[:1].lower()]
    prefix = [c for c in pool if len(lower) >= 3 and c.lower().startswith(lower[:4])]
    spelled = difflib.get_close_matches(name, pool, n=3, cutoff=0.7)
    return list(dict.fromkeys([*spelled, *prefix]))[:3]


def did_you_mean(close: list[str]) -> str:
    """A finding's pointer to the nearest real names ("" when there are none)."""
    return "; did you mean " + " or ".join(f"`{c}`" for c in close[:3]) + "?" if close else ""


@dataclass
class SampleValue:
    """What a sample name holds: an export of a product module (``binding`` is where it
    is declared), an instance of one, or a value of a type the sample does not show."""

    kind: str  # "namespace" | "export" | "instance" | "typed" | "unknown"
    module: str = ""  # the source file of the imported module
    name: str = ""  # the imported name ("typed": the model's class of the instance)
    binding: Binding | Unknown | None = None
    origin: str = ""  # for "unknown": what the value came from


class SampleChecker:
    """One post's check: the package, its manifest, the lookup and the report."""

    def __init__(
        self,
        package: str,
        manifest: dict[str, Any],
        lookup: ApiLookup,
        parsers: Mapping[str, Any],
        ref: str,
        model_entry: Callable[[str], str | None] = lambda spec: None,
        sites: Mapping[str, PackageSite] | None = None,
    ) -> None:
        self.package = package
        self.manifest = manifest
        # Every package of the product a sample may import (a monorepo's workspace
        # packages), each resolved through its own manifest and files; the one package
        # at the repository's top otherwise.
        self.sites: dict[str, PackageSite] = dict(
            sites or {package: PackageSite(package, "", manifest)}
        )
        self.packages = tuple(sorted(self.sites, key=len, reverse=True))
        self.lookup = lookup
        self.parsers = parsers
        self.ref = ref
        # The API model's entry file of a package name (model_packages): where a build
        # output absent from the repository (`main: dist/index.js`) is built from.
        self.model_entry = model_entry
        self.report = SampleReport()
        # The workspace package whose folder holds the page (its README), if any: a class
        # the page uses without importing it is that package's.
        self.home: str | None = None
        self._modules: dict[tuple[str, bool], str | Unknown | None] = {}

    # -------------------------------------------------------------- modules
    def site_of(self, spec: str | None) -> PackageSite | None:
        """The product package a specifier names (``vitest/config``: ``vitest``), None
        when it names none."""
        if not spec:
            return None
        spec = cdn_package(spec)
        for name in self.packages:  # longest first: `@x/a-b` before `@x/a`
            if spec == name or spec.startswith(name + "/"):
                return self.sites[name]
        return None

    def module_for(
        self, spec: str, type_only: bool, line: int, text: str, side_effect: bool = False
    ) -> str | None:
        """The source file a product specifier's module is read from; None after reporting
        why it cannot be (unjudged, or a missing_target violation). A side-effect import
        of a subpath whose only condition is ``types`` reads its declarations, as a type
        import does (:func:`~pytest_postgates.evidence.resolution.types_only_entry`)."""
        spec = cdn_package(spec)
        site = self.site_of(spec)
        if side_effect and site and resolution.types_only_entry(site.manifest, spec):
            type_only = True
        key = (spec, type_only)
        if key not in self._modules:
            self._modules[key] = self._resolve(spec, type_only, line, text)
        found = self._modules[key]
        if isinstance(found, Unknown):
            self.report.skip(line, text, found.reason)
            return None
        return found

    def public_functions(self, name: str) -> list[Reached]:
        """The functions the package's entry points reach under ``name`` (its main entry
        and each ``exports`` subpath without a pattern: a pattern opens every file, which
        says nothing of what the package hands the reader); the files walked to each are
        marked read."""
        key = ("public_functions", self.package)
        if key not in self.lookup.shared:
            self.lookup.shared[key] = PublicFunctions.of(self.lookup, self.entries())
        found: list[Reached] = self.lookup.shared[key].functions(name, self.lookup)
        for reached in found:
            self.lookup.read.extend(p for p in reached.files if p not in self.lookup.read)
        return found

    def entries(self, type_only: bool = False) -> list[tuple[str, str]]:
        """The package's entry points, resolved quietly: (specifier, module) of its main
        entry and of each ``exports`` subpath without a pattern, per product package
        (``type_only``: the declarations TypeScript reads for them, its ``types``)."""
        # The same for every reader of the run's posts (the lookup's shared answers).
        key = ("entries", self.package, tuple((s.name, s.folder) for s in self.sites.values()),
               type_only)  # fmt: skip
        # The files resolving them read are marked read for each asker, as for the first.
        return list(self.lookup.shared_answer(key, lambda: self._entries(type_only)))

    def _entries(self, type_only: bool) -> tuple[tuple[str, str], ...]:
        specs: list[str] = []
        for site in self.sites.values():
            exports = site.manifest.get("exports")
            keys = list(exports) if isinstance(exports, dict) else []
            subpaths = [k for k in keys if k.startswith("./") and "*" not in k]
            specs += [site.name, *(site.name + k[1:] for k in subpaths)]
        entries: list[tuple[str, str]] = []
        report, self.report = self.report, SampleReport()  # entries resolved quietly
        try:
            for spec in dict.fromkeys(specs):
                # Resolved afresh: what resolving it read is this answer's, every asker's.
                module = self._resolve(spec, type_only, 0, "")
                if isinstance(module, str):
                    entries.append((spec, module))
        finally:
            self.report = report
        return tuple(entries)

    def _resolve(self, spec: str, type_only: bool, line: int, text: str) -> str | Unknown | None:
        site = self.site_of(spec) or PackageSite(self.package, "", self.manifest)
        files = (
            resolution.IndexFiles(self.lookup.files.index, site.folder)
            if site.folder and isinstance(self.lookup.files, resolution.IndexFiles)
            else self.lookup.files
        )
        result = resolution.resolve_specifier(site.manifest, spec, "import", type_only, files)
        entry = self.model_entry(spec) if spec == site.name else None
        if not result.ok or result.target is None:
            # A legacy `main` that is a build output absent from the repository (got's
            # `"main": "dist"`): the source it is built from, as the layouts map it.
            entry = entry or (self.lookup.package_source(spec) if spec == site.name else None)
            if entry:
                self.report.resolved[spec] = entry
                return entry
            return Unknown(f"{spec} does not resolve ({result.code}); gate 14 reports it")
        source = self.lookup.source_for(result.target, site.folder)
        if source.path is None and not source.expected and entry:
            source.path = entry
        if source.path is not None:
            self.report.resolved[spec] = source.path
            return source.path
        if source.expected:
            self.report.count("target", 0, spec)
            where = f"exports {result.key or '.'} -> {result.target} -> {source.expected}"
            reason = f"{spec} resolves to {result.target}, but {source.missing}"
            if source.index:
                built = result.target.rsplit(".", 1)[0] + "/index.js"
                reason += f" ({source.index} exists; it builds to {built}, not {result.target})"
            self.report.violation(line, "missing_target", spec, where, reason, [])
            return None
        return Unknown(f"{spec} resolves to {result.target}: {source.missing}; set source_map")

    def check_export(
        self, module: str, name: str, line: int, text: str, declared: bool = False
    ) -> Binding | None:
        """``declared``: the name as TypeScript imports it (ApiLookup.find_export)."""
        found = self.lookup.find_export(module, name, declared=declared)
        if isinstance(found, Unknown):
            self.report.skip(line, text, f"{name}: {found.reason}")
            return None
        self.report.count("export", line, name)
        if found is not None:
            return found
        exported = self.lookup.export_names(module)
        names = exported if isinstance(exported, set) else set()
        if name == "default":
            self.report.violation(
                line,
                "default_export",
                "default",
                module,
                f"{module} has no default export; import the names it exports by name",
                close_names("", []),
            )
        else:
            close = close_names(name, names)
            self.report.violation(
                line,
                "named_export",
                name,
                module,
                f"{name} is not exported by {module} (nor by what it re-exports)"
                + did_you_mean(close),
                close,
            )
        return None

    def check_member(
        self,
        held: SampleValue,
        name: str,
        line: int,
        text: str,
        types: Any = None,
        listed: bool = False,
    ) -> None:
        """``types`` (gate 15's JavaScript types): a class of JavaScript code whose code
        names ``name`` may get it at run time (``Chart.plugins = pluginsCore`` in the UMD
        entry), which is not judged missing. ``listed``: the line declares the member in
        an API listing's ``Class.member(...): R`` notation, which names an instance member
        as well as a static one."""
        binding = held.binding
        static = held.kind == "export"
        if not isinstance(binding, Binding):
            reason = binding.reason if isinstance(binding, Unknown) else "not declared"
            self.report.skip(line, text, f"{held.name}.{name}: {reason}")
            return
        if binding.kind in ("function", "value", "const", "namespace", "type", "member"):
            what = {"const": "a constant", "value": "a value", "type": "a type"}.get(
                binding.kind, f"a {binding.kind}"
            )
            self.report.skip(
                line,
                text,
                f"{held.name}.{name}: {held.name} is {what}, whose members are not tabled",
            )
            return
        if name in OBJECT_MEMBERS:
            self.report.count("member", line, name)
            return
        members, incomplete = self.lookup.members(binding, static)
        if listed and static and binding.kind == "class":
            members |= self.lookup.members(binding, False)[0]
        if name in members:
            self.report.count("member", line, name)
            return
        if incomplete is not None:
            self.report.skip(line, text, f"{held.name}.{name}: {incomplete.reason}")
            return
        runtime = types.named_by_code((binding.local, binding.path), name) if types else None
        if runtime:
            self.report.skip(line, text, f"{held.name}.{name}: {runtime}")
            return
        self.report.count("member", line, name)
        which = "static member" if static and binding.kind == "class" else "member"
        other, _ = self.lookup.members(binding, not static)
        note = ""
        if name in other:
            note = (
                " (it is an instance member: call it on `new " + held.name + "()`)"
                if static
                else " (it is a static member of the class)"
            )
        close = close_names(name, members)
        self.report.violation(
            line,
            "member",
            f"{held.name}.{name}",
            f"{binding.path} ({binding.local})",
            f"{held.name} declares no {which} {name}{note}{did_you_mean(close)}",
            close,
        )

    # -------------------------------------------------------------- CLI
    def check_cli_line(
        self,
        line: int,
        text: str,
        words: list[str],
        cli: CliTable | Unknown,
        bin_name: str,
        lines: Sequence[str] = (),
    ) -> None:
        """The command and flags of a line running ``bin_name`` against its parser
        ``cli``; ``lines``: the command's physical lines, to place each flag on its own."""
        if isinstance(cli, Unknown):
            self.report.skip(line, text, cli.reason)
            return
        frameworks = [f for f in cli.frameworks if f in BUILTIN_FLAGS]
        if not frameworks:
            self.report.skip(
                line,
                text,
                f"the CLI source ({cli.entry}) uses no framework the "
                "gate reads (yargs, commander, argparse, click, typer)",
            )
            return
        options = cli.options | {o for f in frameworks for o in BUILTIN_FLAGS[f]}
        args = list(words)
        if "--" in args:
            args = args[: args.index("--")]
        positional = next((w for w in args if not w.startswith("-")), None)
        if cli.commands and positional is not None and READER_PROGRAM.search(positional):
            # `typer main.py run --name X`: the tool runs a program of the reader's, and
            # what follows is that program's commands and options, not the tool's parser.
            reason = f"{positional} is a program the reader runs with {bin_name}"
            self.report.skip(line, text, f"{reason}; what follows is its interface, not the tool's")
            return
        if args and not args[0].startswith("-"):
            command = args[0]
            if PLACEHOLDER.search(command):
                self.report.skip(line, text, f"{command} is a placeholder, not a command")
            elif not cli.commands:
                self.report.skip(line, text, f"{cli.entry} defines no commands the gate reads")
            elif command in cli.commands:
                self.report.count("command", line, command)
            elif cli.open_commands:
                where = cli.open_commands[0].split(" ")[0]
                self.report.skip(line, text, f"{command}: the CLI adds commands at run time "
                                 f"({where}), so its commands are not all written")  # fmt: skip
                return  # the options of a command the gate cannot see are not judged either
            elif cli.has_default_command:
                self.report.skip(
                    line,
                    text,
                    f"{command}: the CLI has a default command, so this may be its argument",
                )
            else:
                self.report.count("command", line, command)
                close = close_names(command, cli.commands)
                self.report.violation(
                    line,
                    "cli_command",
                    command,
                    ", ".join(cli.read[:4]),
                    f"{bin_name} defines no command {command}{did_you_mean(close)}",
                    close,
                )
        # The command the flags belong to: the deepest known command the words name
        # (`tool utils docs --output`), when the parser ties options to commands.
        named = [w for w in args if not w.startswith("-")]
        depth = 0
        while depth < len(named) and named[depth] in cli.commands:
            depth += 1
        owner = named[depth - 1] if depth else ""
        own = cli.per_command.get(owner) if owner else None
        if own is not None:  # what every command takes: the root's and the framework's
            own = own | cli.root_options | (options - cli.options)
        handed = _handed_on(args, owner, cli)
        for index, word in enumerate(args):
            if not word.startswith("--") or len(word) < 3:
                continue
            at = flag_line(line, lines, word)
            if handed is not None and index > handed:
                self.report.skip(
                    at,
                    text,
                    f"{word}: {' '.join(filter(None, (bin_name, owner)))} hands what follows "
                    f"{args[handed]} to it "
                    "(the parser passes the rest of the line through)",
                )
                continue
            flag = word[2:].split("=", 1)[0]
            if PLACEHOLDER.search(flag) or not re.fullmatch(r"[A-Za-z0-9][\w.-]*", flag):
                self.report.skip(at, text, f"--{flag} is a placeholder, not a flag")
                continue
            self.report.count("flag", at, f"--{flag}")
            normal = normal_flag(flag)
            negated = normal[3:] if normal.startswith("no-") else None
            names = {normal} | ({negated} if negated is not None else set())
            if own is not None and names & own:
                continue
            if own is not None and names & options:
                elsewhere = sorted(c for c, o in cli.per_command.items() if names & o)
                close = [f"--{c}" for c in close_names(normal, own)]
                self.report.violation(
                    at,
                    "cli_flag",
                    f"--{flag}",
                    ", ".join(cli.read[:4]),
                    f"{bin_name} {owner} has no option --{flag} (an option of "
                    f"{', '.join(elsewhere) or 'another command'}){did_you_mean(close)}",
                    close,
                )
                continue
            if normal in options or (negated is not None and negated in options):
                continue
            begun = _abbreviated(normal, own if own is not None else options, cli)
            if len(begun) == 1:
                continue  # argparse takes the one option it begins for it
            if cli.open_flags:
                where = cli.open_flags[0].split(": ", 1)[0]
                self.report.skip(at, text, f"--{flag}: the CLI takes flags it does not list "
                                 f"({where}), so its flags are not all written")  # fmt: skip
                continue
            close = [f"--{c}" for c in close_names(normal, options)]
            why = f"{bin_name} defines no option --{flag} (for any command){did_you_mean(close)}"
            if begun:
                close = [f"--{c}" for c in begun]
                why = (f"--{flag} is ambiguous: argparse takes a prefix for the one option it "
                       f"begins, and it begins {' and '.join(close)}")  # fmt: skip
            self.report.violation(at, "cli_flag", f"--{flag}", ", ".join(cli.read[:4]), why, close)


def _abbreviated(normal: str, options: set[str], cli: CliTable) -> list[str]:
    """The options an argparse parser would take ``normal`` for, as a prefix of theirs
    (``allow_abbrev``, argparse's default: one is taken, more are an error); none when the
    CLI is not argparse's or a parser of it turns abbreviations off."""
    if "argparse" not in cli.frameworks or cli.exact_flags:
        return []
    return sorted(option for option in options if option.startswith(normal))


def _handed_on(args: list[str], owner: str, cli: CliTable) -> int | None:
    """The index of the word whose program what follows belongs to, for a command that
    passes the rest of its line through (None: none does). A pass-through the reader could
    not tie to a command (``""`` in a CLI with commands: a command module's parser given as
    a parameter) is taken as the named command's: the gate cannot tell it is not."""
    positions = [i for i, word in enumerate(args) if not word.startswith("-")]
    if owner and owner in cli.passthrough:
        after = args.index(owner)
    elif "" in cli.passthrough and cli.commands and positions:
        after = positions[0]  # the command word, whichever command it names
    elif "" in cli.passthrough and not cli.commands:
        return positions[0] if positions else None  # the root runs the program it names
    else:
        return None
    return next((i for i in positions if i > after), None)
