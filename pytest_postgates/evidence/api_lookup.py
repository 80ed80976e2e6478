"""Questions gate 15 asks of the repository's API tables (:mod:`.code_tables`).

* Which source file a build target comes from: ``exports`` resolve a specifier to
  ``./dist/x.js`` (via :func:`pytest_postgates.evidence.resolution.resolve_specifier`);
  the source is found through the ``source_map`` setting, tsconfig ``outDir``/``rootDir``,
  or the common layouts (``dist/`` <- ``src/lib/``, ``src/``, the folder itself).
* What a module exports, following ``export { a as b } from``, ``export * from`` (with
  cycles cut) and ``export =``, and where each name is finally declared.
* The members of a class, interface or object, inherited ones within the repository.
* The CLI of the package's ``bin``: its framework, commands and long options.
* For a Python package: the file a dotted module name names (its CLI's entry).

Every answer that cannot be had says why (an external ``export *``, an unknown base
class, an unreadable framework), so the gate can list it as unjudged instead of guessing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence import build_entries, export_walks, resolution
from pytest_postgates.evidence.code_tables import CodeTables
from pytest_postgates.evidence.file_table import OPEN_COMMANDS, FileTable
from pytest_postgates.evidence.known_bases import JS_BASES, global_base
from pytest_postgates.evidence.model_facts import is_product_code
from pytest_postgates.evidence.model_python import module_names
from pytest_postgates.evidence.specifier_aliases import SpecifierAliases
from pytest_postgates.evidence.tsconfig_paths import (
    folder_prefix,
    tsconfig_include,
    tsconfig_options,
)
from pytest_postgates.evidence.workspaces import PackageSite

SOURCE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
BUILD_EXTENSIONS = (".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx")
DECLARATION_EXTENSIONS = (".d.ts", ".d.mts", ".d.cts")
DEFAULT_LAYOUTS: tuple[tuple[str, str], ...] = (
    ("dist/", "src/lib/"),
    ("dist/", "src/"),
    ("lib/", "src/"),
    ("build/", "src/"),
    ("out/", "src/"),
    ("dist/", ""),
)
MAX_DEPTH = 40
# Members every JavaScript object has.
OBJECT_MEMBERS = frozenset(
    {"constructor", "toString", "valueOf", "hasOwnProperty", "name", "length", "prototype",
     "call", "apply", "bind", "then"}
)  # fmt: skip


# Node's EventEmitter (``events``), the one external base class common enough to table.
EVENT_EMITTER_MEMBERS = frozenset(
    {"on", "once", "off", "emit", "addListener", "removeListener", "removeAllListeners",
     "listeners", "rawListeners", "listenerCount", "setMaxListeners", "getMaxListeners",
     "prependListener", "prependOnceListener", "eventNames"}
)  # fmt: skip
EVENT_EMITTER_STATIC = frozenset(
    {"defaultMaxListeners", "captureRejections", "errorMonitor", "once", "on",
     "listenerCount", "getEventListeners", "setMaxListeners"}
)  # fmt: skip


@dataclass(frozen=True)
class Unknown:
    """An answer the tables cannot give, and why."""

    reason: str


@dataclass
class SourceFile:
    """The source of a build target: ``path`` when found; else ``missing`` says what Node
    would load and why its source is absent (``index`` names a folder index that exists)."""

    target: str
    path: str | None = None
    how: str = ""
    missing: str = ""
    expected: str = ""
    index: str = ""


@dataclass(frozen=True)
class Binding:
    """Where an exported name is declared: its file and local name, and its kind."""

    path: str
    local: str
    kind: str


@dataclass
class ApiLookup:
    tables: CodeTables
    files: resolution.PackageFiles
    manifest: dict[str, Any]
    source_map: tuple[tuple[str, str], ...] = ()
    read: list[str] = field(default_factory=list)  # source files the gate read, in order
    _layouts: tuple[tuple[str, str, str], ...] | None = None
    # Answers shared by every post of a run (the tables do not change within it).
    _names: dict[str, tuple[set[str] | Unknown, tuple[str, ...]]] = field(default_factory=dict)
    _found: dict[tuple[str, str, bool], tuple[Any, tuple[str, ...]]] = field(default_factory=dict)
    # Answers of the run's other readers of the tables (public_functions), by question.
    shared: dict[Any, Any] = field(default_factory=dict)
    # The repository's other packages (a monorepo's workspaces): a module of one that
    # re-exports another (`export * from "@scope/utils"`) is followed into its source.
    sites: Mapping[str, PackageSite] = field(default_factory=dict)
    # :attr:`read` as a set, for :meth:`_mark` (the list it is of, its length, the set).
    _read_set: tuple[list[str], int, set[str]] | None = field(default=None, repr=False)
    # :meth:`relative`'s answers, by the file and the specifier (shared by the views).
    _relatives: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)

    def for_post(self) -> ApiLookup:
        """A view for one post: the shared answers, its own list of files read."""
        view = ApiLookup(self.tables, self.files, self.manifest, self.source_map)
        view.sites = self.sites
        view._layouts = self.layouts()
        view._names = self._names
        view._found = self._found
        view._relatives = self._relatives
        view.shared = self.shared
        return view

    def _mark(self, paths: tuple[str, ...]) -> None:
        if not paths:
            return
        seen = self._seen()
        if all(path in seen for path in paths):
            return  # marked already (most asks): the kept set stands
        for path in paths:
            if path not in seen:
                seen.add(path)
                self.read.append(path)
        self._read_set = (self.read, len(self.read), seen)

    def shared_answer(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, asked once per run (its readers share the answer, in
        :attr:`shared`), the files it read marked read for each reader that asks."""
        kept = self.shared.get(key)
        if kept is None:
            before, self.read = self.read, []
            try:
                answer = compute()
            finally:
                touched, self.read = tuple(self.read), before
            kept = self.shared[key] = (answer, touched)
        self._mark(kept[1])
        return kept[0]

    def _seen(self) -> set[str]:
        """The paths of :attr:`read` as a set, kept while ``read`` is the same list only
        appended to (its callers extend it and swap it for another list, never remove)."""
        kept = self._read_set
        if kept is None or kept[0] is not self.read or kept[1] != len(self.read):
            kept = self._read_set = (self.read, len(self.read), set(self.read))
        return kept[2]

    # -------------------------------------------------------------- build -> source
    def layouts(self, folder: str = "") -> tuple[tuple[str, str, str], ...]:
        """(build prefix, source prefix, how) in the order they are tried, for the package
        in ``folder`` (prefixes relative to it; ``""`` is the repository's top package)."""
        if self._layouts is None:
            self._layouts = self._folder_layouts("")
        if not folder:
            return self._layouts
        key = ("layouts", folder)
        if key not in self.shared:
            self.shared[key] = self._folder_layouts(folder)
        found: tuple[tuple[str, str, str], ...] = self.shared[key]
        return found

    def _folder_layouts(self, folder: str) -> tuple[tuple[str, str, str], ...]:
        found: list[tuple[str, str, str]] = [
            (b, s, f"source_map {b!r} = {s!r}") for b, s in self.source_map
        ]
        for config in ("tsconfig.build.json", "tsconfig.json"):
            text = self.files.read_text(posixpath.join(folder, config) if folder else config)
            if not text:
                continue
            options = tsconfig_options(text)
            out_dir = folder_prefix(options.get("outDir"))
            root_dir = folder_prefix(options.get("rootDir"))
            included = tsconfig_include(text)
            if out_dir and root_dir is None and len(included) == 1:
                # No rootDir: tsc takes the common folder of its inputs, the one folder
                # `include` names (`"include": ["source"]`: dist/index.js <- source/index.ts).
                found.append((out_dir, included[0], f"{config} outDir, include {included[0]}"))
            if out_dir:
                found.append((out_dir, root_dir or "", f"{config} outDir/rootDir"))
        found.extend((b, s, f"layout {b} <- {s or './'}") for b, s in DEFAULT_LAYOUTS)
        return tuple(found)

    def bundled(self, folder: str) -> dict[str, str]:
        """Output name -> source file, as the bundler configs of the package in ``folder``
        declare them (:mod:`.build_entries`); read once per folder."""
        key = ("bundled", folder)
        if key not in self.shared:
            from pytest_postgates.evidence.repomap import load_parsers

            parsers = load_parsers()
            self.shared[key] = (
                {}
                if isinstance(parsers, str)
                else build_entries.config_entries(
                    folder, self.files.read_text, self.tables.files.__contains__, parsers
                )
            )
        entries: dict[str, str] = self.shared[key]
        return entries

    def source_for(self, target: str, folder: str = "") -> SourceFile:
        """The source of ``target`` (a path in the package in ``folder``, as its manifest
        writes it)."""
        relative = posixpath.normpath(target.removeprefix("./"))
        build = posixpath.normpath(posixpath.join(folder, relative)) if folder else relative
        if build in self.tables.files:
            return SourceFile(target, build, "the target is a tracked source file")
        stem = next(
            (relative[: -len(e)] for e in BUILD_EXTENSIONS if relative.endswith(e)), relative
        )
        bundled = self.bundled(folder)
        if bundled:
            # The name the bundler writes the output under: the path itself (rollup's
            # `input: {'dist/chart': 'src/index.ts'}` written to `dir: './'`), the path in
            # the output folder (`dist/node/index.js` -> `node/index`), else the file's own
            # name.
            inner = stem.split("/", 1)[1] if "/" in stem else stem
            for name in (stem, inner, posixpath.basename(stem)):
                if name in bundled:
                    return SourceFile(target, bundled[name], "the bundler config's entry")
        expected = ""
        for build_prefix, source_prefix, how in self.layouts(folder):
            if not relative.startswith(build_prefix):
                continue
            base = posixpath.join(folder, source_prefix + stem[len(build_prefix) :])
            for extension in SOURCE_EXTENSIONS:
                if base + extension in self.tables.files:
                    return SourceFile(target, base + extension, how)
            parent = posixpath.dirname(base)
            if not expected and parent and self.files.is_dir(parent):
                expected = base
        if not expected:
            return SourceFile(target, missing="no source layout maps it to a tracked file")
        index = next(
            (
                expected + "/index" + e
                for e in SOURCE_EXTENSIONS
                if expected + "/index" + e in self.tables.files
            ),
            "",
        )
        return SourceFile(
            target,
            missing=f"its source {expected}.ts does not exist",
            expected=expected + ".ts",
            index=index,
        )

    def package_source(self, spec: str) -> str | None:
        """The source file a bare specifier of one of the repository's packages resolves
        to (its own ``exports`` with its own files, ``import`` conditions), else None."""
        key = ("package_source", spec)
        if key not in self.shared:
            self.shared[key] = self._package_source(spec)
        found: str | None = self.shared[key]
        return found

    def _package_source(self, spec: str) -> str | None:
        site = next(
            (s for n, s in sorted(self.sites.items(), key=lambda i: -len(i[0]))
             if spec == n or spec.startswith(n + "/")),
            None,
        )  # fmt: skip
        if site is None or not isinstance(self.files, resolution.IndexFiles):
            return None
        files = resolution.IndexFiles(self.files.index, site.folder)
        result = resolution.resolve_specifier(site.manifest, spec, "import", False, files)
        targets = [result.target] if result.ok and result.target else []
        if spec == site.name and site.manifest.get("exports") is None:
            # A legacy entry that is a build output absent from the repository does not
            # resolve (Node finds no file): the path written still says what it is built from.
            written = [site.manifest.get(f) for f in ("main", "module", "types", "typings")]
            for target in (w for w in written if isinstance(w, str) and w):
                # A `main` naming a folder (`"main": "dist"`) loads its index.js.
                suffixed = re.search(r"\.[cm]?[jt]sx?$", target)
                targets += [target] if suffixed else [target, target.rstrip("/") + "/index.js"]
        for target in targets:
            found = self.source_for(target, site.folder).path
            if found is not None:
                return found
        return None

    def module_named(self, path: str, spec: str) -> str | None:
        """The source file a specifier written in ``path`` names: a relative one, one
        through an alias (:meth:`aliased`), or a package of the repository's own."""
        if spec.startswith("."):
            return self.relative(path, spec)
        return self.aliased(path, spec) or self.package_source(spec)

    # -------------------------------------------------------------- module exports
    def aliased(self, path: str, spec: str) -> str | None:
        """The source file a bare specifier in ``path`` names through the aliases it is
        built with (:mod:`.specifier_aliases`: the bundler's, the tsconfig ``paths`` and
        ``baseUrl``; the call graph's answer too), or None."""
        key = ("specifier aliases",)
        if key not in self.shared:
            from pytest_postgates.evidence.repomap import load_parsers

            parsers = load_parsers()
            parser = None if isinstance(parsers, str) else parsers.get("typescript")
            self.shared[key] = SpecifierAliases(self.files.read_text, self._source_at, parser)
        aliases: SpecifierAliases = self.shared[key]
        return aliases.locate(path, spec) or None

    def relative(self, path: str, spec: str) -> str | None:
        """The source file a relative specifier in ``path`` names (TypeScript style:
        ``./x.js`` may be ``./x.ts``); asked once per file and specifier in a run (the
        tables do not change within it)."""
        key = (path, spec)
        if key not in self._relatives:
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            self._relatives[key] = self._source_at(joined)
        return self._relatives[key]

    def _source_at(self, base: str) -> str | None:
        stem = next((base[: -len(e)] for e in BUILD_EXTENSIONS if base.endswith(e)), base)
        for candidate in (
            base,
            *(stem + e for e in SOURCE_EXTENSIONS),
            *(base + "/index" + e for e in SOURCE_EXTENSIONS),
            # As TypeScript resolves it: a declaration file (`import D from './dispatcher'`
            # in types/agent.d.ts is types/dispatcher.d.ts).
            *(stem + e for e in DECLARATION_EXTENSIONS),
            *(base + "/index" + e for e in DECLARATION_EXTENSIONS),
        ):
            if candidate in self.tables.files:
                return candidate
        return None

    def table(self, path: str) -> FileTable | None:
        table = self.tables.files.get(path)
        kept = self._read_set  # marked already: no call (asked ~300,000 times a run)
        if table is not None and (kept is None or kept[0] is not self.read
                                  or kept[1] != len(self.read) or path not in kept[2]):  # fmt: skip
            self._mark((path,))
        return table

    def export_names(self, path: str) -> set[str] | Unknown:
        """Every name ``path`` exports, through re-exports; Unknown when an ``export *``
        reaches outside the repository or the module is ``export =`` of an opaque value."""
        cached = self._names.get(path)
        if cached is None:
            names: set[str] = set()
            unknown: list[str] = []
            before = list(self.read)
            self.read = []
            self._collect(path, names, unknown, set(), 0)
            touched = tuple(self.read)
            self.read = before
            answer: set[str] | Unknown = (
                Unknown("; ".join(dict.fromkeys(unknown))) if unknown else names
            )
            cached = self._names[path] = (answer, touched)
        self._mark(cached[1])
        return cached[0]

    def _collect(
        self, path: str, names: set[str], unknown: list[str], seen: set[str], depth: int
    ) -> None:
        if path in seen or depth > MAX_DEPTH:
            return  # an `export *` cycle: the names are already collected
        seen.add(path)
        table = self.table(path)
        if table is None:
            unknown.append(f"{path} could not be read")
            return
        names.update(table.exports)
        names.update(table.reexports)
        handed = self._handed_members(path, table)
        if isinstance(handed, Unknown):
            unknown.append(handed.reason)
        else:
            names.update(handed)
        if table.export_equals is not None:
            members = self._equals_members(path, table)
            if isinstance(members, Unknown):
                unknown.append(members.reason)
            else:
                names.update(members)
        for spec in table.stars:
            target = self.module_named(path, spec)
            if target is None:
                unknown.append(f"{path} re-exports everything of {spec!r}, outside the tables")
                continue
            before = set(names)
            self._collect(target, names, unknown, seen, depth + 1)
            # `export *` never re-exports a default.
            if "default" in names and "default" not in before:
                names.discard("default")

    def _handed_members(self, path: str, table: FileTable) -> set[str] | Unknown:
        """What the functions a factory-made ``module.exports`` is handed to add to it
        (``Trace.setup(root)`` assigning ``root.trace``: FileTable.handed_exports)."""
        members: set[str] = set()
        for spec, function in table.handed_exports:
            target = self.module_named(path, spec)
            other = self.table(target) if target is not None else None
            added = other.parameter_members.get(function) if other is not None else None
            if added is None or "*" in added:
                return Unknown(f"{path}'s exports are handed to {spec}'s {function}(), "
                               "which may add members the tables cannot read")  # fmt: skip
            members.update(added)
        return members

    def _equals_members(self, path: str, table: FileTable) -> set[str] | Unknown:
        local = table.export_equals or ""
        if local and local in table.classes:  # its statics, its bases' too (Ajv's AjvCore)
            names: set[str] = set()
            problems: list[str] = []
            self._members(path, local, True, names, problems, set(), 0)
            why = f"{path} is `export =` of class {local}: {problems[0]}" if problems else ""
            return Unknown(why) if why else {*names, "default"}
        if local and local in table.objects:
            return {*table.objects[local], "default"}
        return Unknown(f"{path} is `export =` of a value the tables cannot read")

    def find_export(
        self, path: str, name: str, depth: int = 0, declared: bool = False
    ) -> Binding | Unknown | None:
        """Where ``name`` exported by ``path`` is declared; None when it is not exported.
        ``declared``: as TypeScript's declarations of the module have it, which leave out
        a ``module.exports =`` beside ES exports (FileTable.commonjs_shim)."""
        cached = self._found.get((path, name, declared))
        if cached is None:
            before = list(self.read)
            self.read = []
            answer = None if self._absent(path, name, depth) else (
                export_walks.find(self, path, name, declared, MAX_DEPTH) if not depth
                else self._find(path, name, set(), depth, declared))  # fmt: skip
            cached = self._found[(path, name, declared)] = (answer, tuple(self.read))
            self.read = before
        self._mark(cached[1])
        found: Binding | Unknown | None = cached[0]
        return found

    def _absent(self, path: str, name: str, depth: int) -> bool:
        """Whether ``path`` exports no ``name`` by :meth:`export_names` (its files marked as
        :meth:`_find`'s same walk marks them); never for a ``default`` nor below the top."""
        if depth or name == "default":
            return False
        names = self.export_names(path)
        if isinstance(names, set) and name not in names:
            return True
        self.read = []  # looked for by :meth:`_find`, which marks what it reads
        return False

    def _find(
        self, path: str, name: str, seen: set[tuple[str, str]], depth: int, declared: bool = False
    ) -> Binding | Unknown | None:
        if (path, name) in seen or depth > MAX_DEPTH:
            return None
        seen.add((path, name))
        table = self.table(path)
        if table is None:
            return Unknown(f"{path} could not be read")
        if name in table.exports:
            local = table.exports[name]
            return self.local_binding(path, local) if local else Binding(path, "", "value")
        if name in table.reexports:
            spec, imported = table.reexports[name]
            return self._imported(path, spec, imported, seen, depth, declared)
        if table.handed_exports:
            handed = self._handed_members(path, table)
            if isinstance(handed, Unknown) or name in handed:
                return handed if isinstance(handed, Unknown) else Binding(path, "", "member")
        if table.export_equals is not None and not (declared and table.commonjs_shim):
            members = self._equals_members(path, table)
            if isinstance(members, Unknown):
                return members
            if name in members:
                return Binding(path, "", "member")
        pending: list[str] = []
        for spec in table.stars:
            target = self.module_named(path, spec)
            if target is None:
                pending.append(spec)
                continue
            if name == "default":
                continue
            found = self._find(target, name, seen, depth + 1, declared)
            if found is not None:
                return found
        if pending:
            return Unknown(f"{path} re-exports everything of {pending[0]!r}, outside the tables")
        return None

    def _imported(
        self,
        path: str,
        spec: str,
        imported: str,
        seen: set[Any],
        depth: int,
        declared: bool = False,
    ) -> Binding | Unknown | None:
        if not spec.startswith("."):
            target = self.package_source(spec)
            if target is None:
                return Unknown(f"{imported!r} comes from the package {spec!r}, outside the tables")
            return Binding(target, "*", "namespace") if imported == "*" else (
                self._find(target, imported, seen, depth + 1, declared))  # fmt: skip
        target = self.relative(path, spec)
        if target is None:
            return Unknown(f"{spec!r} imported by {path} is not a tracked source file")
        if imported == "*":
            return Binding(target, "*", "namespace")
        return self._find(target, imported, seen, depth + 1, declared)

    def local_binding(self, path: str, local: str, depth: int = 0) -> Binding | Unknown | None:
        table = self.table(path)
        if table is None:
            return Unknown(f"{path} could not be read")
        if local in table.imports and local not in table.locals:
            spec, imported = table.imports[local]
            return self._imported(path, spec, imported, set(), depth + 1)
        kind = table.locals.get(local)
        if kind is None:
            return Binding(path, local, "value")
        return Binding(path, local, kind)

    # -------------------------------------------------------------- members
    def members(self, binding: Binding, static: bool) -> tuple[set[str], Unknown | None]:
        """Members declared on the class/interface/object ``binding`` names (static ones
        for ``X.m``, instance ones for ``new X().m``), inherited ones included, and why
        the list may be incomplete (a base class outside the repository)."""
        names: set[str] = set()
        problems: list[str] = []
        self._members(binding.path, binding.local, static, names, problems, set(), 0)
        return names, Unknown("; ".join(dict.fromkeys(problems))) if problems else None

    def _members(
        self,
        path: str,
        local: str,
        static: bool,
        names: set[str],
        problems: list[str],
        seen: set[Any],
        depth: int,
    ) -> None:
        if (path, local) in seen or depth > MAX_DEPTH:
            return
        seen.add((path, local))
        table = self.table(path)
        if table is None:
            problems.append(f"{path} could not be read")
            return
        if local in table.imports and local not in table.locals and local not in table.classes:
            spec, imported = table.imports[local]
            if spec.removeprefix("node:") == "events" and imported in ("EventEmitter", "default"):
                names.update(EVENT_EMITTER_STATIC if static else EVENT_EMITTER_MEMBERS)
                return
            found = self._imported(path, spec, imported, set(), depth)
            if not isinstance(found, Binding):
                problems.append(found.reason if found else f"{local} is not exported by {spec!r}")
                return
            self._members(found.path, found.local, static, names, problems, seen, depth + 1)
            return
        if local in table.classes:
            entry = table.classes[local]
            names.update(entry["static"] if static else entry["members"])
            if static:
                names.update(self.assigned_statics().get((path, local), ()))
            if table.locals.get(local) == "interface":
                names.update(entry["members"])
            for base in entry["extends"]:
                base_name = re.sub(r"<.*", "", base, flags=re.S).strip()
                if not re.fullmatch(r"[A-Za-z_$][\w$]*", base_name):
                    problems.append(f"{local} extends {base}, which the tables cannot follow")
                    continue
                if not static and global_base(table, base_name):
                    names.update(JS_BASES[base_name])
                    continue
                before = len(problems)
                self._members(path, base_name, static, names, problems, seen, depth + 1)
                if len(problems) > before:
                    problems[before:] = [f"{local} extends {base_name}: {problems[before]}"]
            return
        if local in table.objects:
            keys = table.objects[local]
            if "..." in keys:
                problems.append(f"{local} in {path} spreads another object into its keys")
            names.update(k for k in keys if k != "...")
            return
        kind = table.locals.get(local, "an undeclared name")
        problems.append(f"{local} in {path} is {_article(kind)}, whose members are not tabled")

    def assigned_statics(self) -> dict[tuple[str, str], set[str]]:
        """(path, local) of a class -> the statics an entry a bundler config of the product
        builds assigns on it where it imports it (``FileTable.imported_statics``): members
        the product adds at run time, as Chart.js's UMD entry (rollup's input
        src/index.umd.ts) adds ``Chart.helpers``. Read once per run."""
        key = ("assigned statics",)
        if key not in self.shared:
            found: dict[tuple[str, str], set[str]] = {}
            folders = sorted({"", *(site.folder for site in self.sites.values())})
            entries = sorted({p for f in folders for p in self.bundled(f).values()})
            for path in entries:
                table = self.tables.files.get(path)
                if table is None:
                    continue
                for local, added in sorted(table.imported_statics.items()):
                    spec, imported = table.imports[local]
                    bound = self._imported(path, spec, imported, set(), 0)
                    if isinstance(bound, Binding):
                        found.setdefault((bound.path, bound.local), set()).update(added)
            self.shared[key] = found
        assigned: dict[tuple[str, str], set[str]] = self.shared[key]
        return assigned

    # -------------------------------------------------------------- CLI
    def cli(self, entry: str) -> CliTable:
        """The CLI defined by the source ``entry`` and the files it imports."""
        files: list[str] = []
        todo = [entry]
        while todo:
            path = todo.pop()
            if path in files:
                continue
            files.append(path)
            # Imports are scanned, not parsed: only the files that name a framework are.
            for spec in self.tables.imports_of(path):
                target = self.relative(path, spec)
                if target is not None:
                    todo.append(target)
            # A monorepo's own libraries imported by an alias (`@lerna/core`).
            for spec in self.tables.bare_imports_of(path):
                target = self.aliased(path, spec)
                if target is not None:
                    todo.append(target)
        frameworks: list[str] = []
        commands: dict[str, list[str]] = {}
        options: set[str] = set()
        per_command: dict[str, set[str]] = {}
        root: set[str] = set()
        read: list[str] = []
        passthrough: set[str] = set()
        for path in files:
            table = self.tables.files.get(path) if self.tables.may_define_cli(path) else None
            if table is None or not table.cli_frameworks:
                continue
            read.append(path)
            frameworks.extend(f for f in table.cli_frameworks if f not in frameworks)
            for name, nested, line in table.commands:
                kind = "subcommand" if nested else "command"
                commands.setdefault(name, []).append(f"{path}:{line} ({kind})")
            options.update(normal_flag(o) for o in table.options)
            # Options a command's function declares are that command's; the rest (a
            # callback's, argparse's, yargs's, commander's) are not tied to one command.
            tied: set[str] = set()
            for command, own in table.command_options.items():
                if command:
                    per_command.setdefault(command, set()).update(normal_flag(o) for o in own)
                    tied.update(normal_flag(o) for o in own)
            root.update(normal_flag(o) for o in table.options if normal_flag(o) not in tied)
            root.update(normal_flag(o) for o in table.command_options.get("", []))
            passthrough.update(table.passthrough)
        unlisted: list[str] = []
        for path in read:
            for line, why, spec in self.tables.files[path].open_flags:
                # A table spread from a file of the CLI whose options are read is listed.
                target = self.relative(path, spec) if spec else None
                table = self.tables.files.get(target) if target in files else None
                if table is None or not table.options:
                    unlisted.append(f"{path}:{line}: {why}")
        return CliTable(
            entry, frameworks, commands, options, read, per_command, root,
            passthrough=passthrough, open_flags=unlisted,
            exact_flags=any(self.tables.files[path].exact_flags for path in read),
        )  # fmt: skip

    # -------------------------------------------------------------- Python
    def python_module(self, dotted: str) -> str | None:
        """The file of the Python module ``dotted``: under the repository's root or
        ``src/``, else where the package layout puts it (a workspace member's
        ``packages/cli/src/cli/__init__.py``), the product's code before tests' copies."""
        parts = dotted.split(".")
        for root in ("", "src/"):
            base = root + "/".join(parts)
            for candidate in (base + ".py", base + "/__init__.py", base + ".pyi"):
                if candidate in self.tables.files:
                    return candidate
        if "python_modules" not in self.shared:
            by_module: dict[str, list[str]] = {}
            for path, module in module_names(self.tables.files).items():
                by_module.setdefault(module, []).append(path)
            self.shared["python_modules"] = by_module
        found: list[str] = self.shared["python_modules"].get(dotted, [])
        ranked = sorted(found, key=lambda p: (not is_product_code(p), p.count("/"), p))
        return ranked[0] if ranked else None


@dataclass
class CliTable:
    entry: str
    frameworks: list[str]
    commands: dict[str, list[str]]  # name -> where defined
    options: set[str]  # normalised long option names
    read: list[str]
    # command -> the options its own function declares (click/typer), and the options
    # tied to no one command (the root's, or a framework whose options are not attributed).
    per_command: dict[str, set[str]] = field(default_factory=dict)
    root_options: set[str] = field(default_factory=set)
    # The commands that hand what follows their first positional word to another program.
    passthrough: set[str] = field(default_factory=set)
    # Where the parser takes flags the tables do not list (FileTable.open_flags).
    open_flags: list[str] = field(default_factory=list)
    # An argparse parser read takes no prefix of a long option (``allow_abbrev=False``).
    exact_flags: bool = False

    @property
    def has_default_command(self) -> bool:
        return "$0" in self.commands or "*" in self.commands

    @property
    def open_commands(self) -> list[str]:
        """Where the CLI makes commands at run time (its table of commands is not closed)."""
        return self.commands.get(OPEN_COMMANDS, [])


def normal_flag(name: str) -> str:
    """yargs treats ``--maxTokens`` and ``--max-tokens`` as one option: compare kebab."""
    kebab = re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", name).lower()
    return kebab.replace("_", "-")


def _article(kind: str) -> str:
    return kind if kind.startswith("an ") else ("an " if kind[:1] in "aeiou" else "a ") + kind
