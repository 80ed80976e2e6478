"""The API model's JavaScript/TypeScript half, read with tree-sitter.

One parse per product file, read twice: :class:`~.tables_js.JsTables` (exports and
re-exports, classes and interfaces with their members and bases, exported object keys,
yargs/commander commands and options) and :mod:`.type_tables` (the fields of interfaces,
type aliases and classes; every function's and method's parameters, destructured option
keys included). A file tree-sitter cannot read is listed in ``unread``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from pytest_postgates.evidence import (
    bundler_aliases,
    call_flow,
    calls_js,
    calls_nested,
    map_keys,
    shared_parses,
    specifier_aliases,
    tsconfig_paths,
    vue_files,
)
from pytest_postgates.evidence.call_resolution import UnitCalls
from pytest_postgates.evidence.cli_factories import Factory, factories, resolve
from pytest_postgates.evidence.cli_model import derive_js_flags, js_run_time_commands
from pytest_postgates.evidence.file_table import OPEN_COMMANDS, FileTable
from pytest_postgates.evidence.map_keys import map_properties
from pytest_postgates.evidence.model_facts import (
    CallableFacts,
    ClassFacts,
    Decl,
    ImportSite,
    ModelFacts,
    normal_flag,
)
from pytest_postgates.evidence.repomap import source_language
from pytest_postgates.evidence.source_repairs import recovered, repaired
from pytest_postgates.evidence.tables_js import JsTables
from pytest_postgates.evidence.type_tables import Expr, TypeTable, read_type_tree

# the modules this reader relies on besides its own tables (part of the model's key; the
# call graph's flow marks, call_flow, are calls_python's too)
READERS = (bundler_aliases, specifier_aliases, tsconfig_paths, vue_files, call_flow, calls_nested,
           map_keys)  # fmt: skip
_KINDS = {"function": "function", "class": "class", "interface": "interface", "enum": "enum"}


def read_js(
    sources: Mapping[str, str],
    parsers: Mapping[str, Any],
    configs: Mapping[str, str] | None = None,
    shared: bool = False,
) -> ModelFacts:
    """The facts of the JavaScript/TypeScript files in ``sources`` (product code only; a
    ``.vue`` file's text is its script blocks, :mod:`.vue_files`); ``configs``: the
    repository's tsconfig/jsconfig, bundler configs and package.json files by path, whose
    aliases the call graph follows (:mod:`.specifier_aliases`); ``shared``: each file's
    tables kept for gate 15's, which would parse the same texts again (:mod:`.shared_parses`)."""
    facts = ModelFacts()
    tables: dict[str, FileTable] = {}
    units: dict[str, UnitCalls] = {}
    # command-line-args definitions in files that import no parser: the product's options
    # when it parses with command-line-args (a module of option lists its parser reads).
    definitions: list[tuple[str, FileTable]] = []
    made_by: list[Factory] = []
    # What gate 15 may take of the build's reading (shared_parses): each file read as its
    # tables read it alone, by (path, text, parser, table, types); the types only from a
    # tree that needed no repair.
    kept: list[tuple[str, str, Any, FileTable | None, TypeTable | None]] = []
    for path in sorted(sources):
        language = source_language(path, sources[path])
        if path.endswith(vue_files.VUE_SUFFIX):
            language = "typescript"  # reads a JavaScript block as well
        parser = parsers.get(language or "")
        if parser is None:
            facts.unread[path] = f"no {language} parser"
            continue
        source = sources[path].encode("utf-8")
        try:
            tree = parser.parse(source)
            first_error = tree.root_node.has_error
            if tree.root_node.has_error and language == "javascript" and "typescript" in parsers:
                # Flow-typed JavaScript (`const matchers: MatchersObject = {...}`): the
                # TypeScript grammar reads its annotations, the JavaScript one loses the
                # statement they are in.
                typed = parsers["typescript"].parse(source)
                if not typed.root_node.has_error:
                    tree, language = typed, "typescript"
            left_out = False
            if tree.root_node.has_error:  # a misread the grammar is known for, then the rest
                source, tree = repaired(parser, source, tree)
            if tree.root_node.has_error:
                blanked, tree = recovered(parser, source, tree)
                left_out, source = blanked != source, blanked
            declarations = path.endswith((".d.ts", ".d.mts", ".d.cts"))
            builder = JsTables(source, getattr(tree, "language", None), declarations)
            table = builder.build(tree.root_node)
            made: list[int] = []  # where the parser makes commands at run time
            if table.cli_frameworks:
                builder.option_specs(tree.root_node)
                made = js_run_time_commands(
                    tree.root_node, source, getattr(tree, "language", None), table.cli_frameworks
                )
                if made:  # a command named by what the callers of its function pass
                    made_by.extend(
                        factories(
                            path, tree.root_node, source, getattr(tree, "language", None), made
                        )
                    )
            spared = False
            if not table.cli_frameworks and _DEFINITION_HINT.search(source):
                spared = True  # its table may be added to below: not shared
                spare = JsTables(source, getattr(tree, "language", None))
                spare.table.imports = table.imports
                if spare.definitions(tree.root_node):
                    definitions.append((path, spare.table))
            types = read_type_tree(source, tree.root_node)
            unit = calls_js.read_unit(path, source, tree, language or "", table)
            maps = map_properties(source, tree.root_node, getattr(tree, "language", None),
                                  language in ("typescript", "tsx"))  # fmt: skip
        except Exception as exc:  # a grammar failure on one file must not lose the rest
            facts.unread[path] = f"does not parse: {exc.__class__.__name__}"
            continue
        if tree.root_node.has_error:
            # tree-sitter recovers: what it read is kept, and the file is named as partial.
            facts.unread[path] = "parsed with syntax errors (what parsed is kept)"
        elif left_out:
            facts.unread[path] = (
                "statements the grammar misreads were left out (the names they declare kept)"
            )
        facts.files += 1
        tables[path] = table
        if shared and not spared and not path.endswith(vue_files.VUE_SUFFIX):
            same = parser is parsers.get(language or "")  # no other grammar was tried
            kept.append((path, sources[path], parser, table if same else None,
                         types if same and not first_error else None))  # fmt: skip
        for name, line in maps.items():
            facts.maps.setdefault(name, f"{path}:{line}")
        if unit is not None:
            units[path] = unit
        first_class = len(facts.classes)
        _add_table(facts, path, table)
        _add_imports(facts, path, table)
        if table.cli_frameworks:
            derive_js_flags(facts, path, table.options, sources[path])
            facts.open_commands.extend(f"{path}:{line}" for line in made)
        _add_types(facts, path, types, first_class)
    if "command-line-args" in facts.cli_frameworks:
        for path, table in definitions:
            _add_options(facts, path, table)
            tables[path].options += table.options
            tables[path].open_flags += table.open_flags
    known = configs or {}
    aliases = specifier_aliases.SpecifierAliases(
        known.get, lambda base: source_at(base, tables), parsers.get("typescript")
    )

    def named(importer: str, spec: str) -> str | None:  # a product file, relative or aliased
        if spec.startswith("."):
            return resolve_specifier(importer, spec, tables)
        return aliases.locate(importer, spec) or None

    _add_open_flags(facts, tables, named)
    _add_factory_commands(facts, resolve(made_by, sources, parsers, source_language))
    _follow_star_exports(facts, tables, named)
    _add_export_aliases(facts, tables, named)
    _add_namespaces(facts, tables, named)
    facts.functions.extend(
        calls_js.resolve_js(
            units,
            lambda importer, spec: resolve_specifier(importer, spec, tables),
            aliases.locate,
        )
    )
    for unit in units.values():
        facts.values.extend(unit.values)
    if shared:
        shared_parses.keep_all(kept)
    return facts


# A file that may hold command-line-args definitions (`type: Boolean` and a `name`).
_DEFINITION_HINT = re.compile(rb"\btype\s*:\s*\[?\s*(?:Boolean|String|Number)\b|commandLineArgs")


def _add_factory_commands(facts: ModelFacts, made: Mapping[Factory, list[str] | None]) -> None:
    """The commands each factory makes, from the calls of its function: its table is
    closed there (:mod:`.cli_factories`)."""
    for factory, names in made.items():
        if names is None:
            continue
        where = f"{factory.path}:{factory.line}"
        facts.open_commands[:] = [w for w in facts.open_commands if w != where]
        for name in names:
            facts.commands.setdefault(name, factory.path)
            facts.decls.append(Decl(name, "command", factory.path, factory.path, factory.line))


# (importer, specifier) -> the product file it names, or None
_Named = Callable[[str, str], str | None]


def _add_open_flags(facts: ModelFacts, tables: Mapping[str, FileTable], named: _Named) -> None:
    """Where each file's parser takes flags it does not list; a table spread from a
    product module whose options the model read is listed, and closes again."""
    for path, table in tables.items():
        for line, why, spec in table.open_flags:
            target = named(path, spec) if spec else None
            if target is not None and tables[target].options:
                continue
            facts.open_flags.append(f"{path}:{line}: {why}")


# What a relative specifier may name: a TypeScript file for the JavaScript it compiles
# to (`./x.js` is `./x.ts` or its declarations `./x.d.ts`), a folder its index file.
_SCRIPT_SUFFIXES = tuple(".ts .tsx .d.ts .mts .d.mts .cts .d.cts .js .mjs .cjs .jsx".split())
_COMPILED = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}


def resolve_specifier(importer: str, spec: str, paths: Collection[str]) -> str | None:
    """The file among ``paths`` a relative ``spec`` written in ``importer`` names."""
    if not spec.startswith("."):
        return None
    return source_at(posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec)), paths)


def source_at(base: str, paths: Collection[str]) -> str | None:
    """The file among ``paths`` a path written without its suffix names (``src/x``:
    ``src/x.ts``; a folder: its index file)."""
    candidates = [base, *(base + suffix for suffix in _SCRIPT_SUFFIXES)]
    stem, suffix = posixpath.splitext(base)
    candidates += [stem + compiled for compiled in _COMPILED.get(suffix, ())]
    candidates += [f"{base}/index{suffix}" for suffix in _SCRIPT_SUFFIXES]
    return next((c for c in candidates if c in paths), None)


def _follow_star_exports(facts: ModelFacts, tables: Mapping[str, FileTable], named: _Named) -> None:
    """``export * from "./x"`` exports x's names (all but its default): followed across
    the product's files until nothing changes (stars may chain, even in a cycle). A star
    from a package (``export * from "expect"``) exports names the product's model cannot
    list: the file's names hold ``*`` and ``facts.stars`` the package (evidence/reexports)."""
    for path, table in tables.items():
        foreign = [
            spec
            for spec in table.stars
            if not spec.startswith((".", "/", "#")) and named(path, spec) is None
        ]
        if foreign:
            facts.stars[path] = foreign
            facts.modules[path] = sorted({*facts.modules[path], "*"})
    changed = True
    while changed:
        changed = False
        for path, table in tables.items():
            names = set(facts.modules[path])
            stars = list(facts.stars.get(path, []))
            for spec in table.stars:
                target = named(path, spec)
                if target is None:
                    continue
                if not set(facts.modules[target]) <= names:
                    names |= set(facts.modules[target])
                    changed = True
                more = [s for s in facts.stars.get(target, []) if s not in stars]
                stars += more
                changed = changed or bool(more)
            facts.modules[path] = sorted(names)
            if stars:
                facts.stars[path] = stars


def _add_export_aliases(facts: ModelFacts, tables: Mapping[str, FileTable], named: _Named) -> None:
    """A class or interface exported under another name (``export { A as B }``, from this
    file or re-exported from another) is a class of that name too, with A's members."""
    for path, table in tables.items():
        aliased = [(alias, path, local) for alias, local in table.exports.items()]
        for alias, (spec, name) in table.reexports.items():
            target = named(path, spec)
            if target is not None:
                aliased.append((alias, target, name))
        for alias, origin, name in aliased:
            kind = tables[origin].locals.get(name)
            if alias in (name, "default") or kind not in ("class", "interface"):
                continue
            qualname = f"{path}:{alias}"
            if all(entry.qualname != qualname for entry in facts.classes):
                facts.classes.append(ClassFacts(qualname, alias, path, 0, [], [name], kind))


def _add_namespaces(facts: ModelFacts, tables: Mapping[str, FileTable], named: _Named) -> None:
    """``export * as util from "./x"`` (or an ``import * as`` re-exported): the file x of
    the product whose names the namespace holds."""
    for path, table in tables.items():
        for alias, (spec, name) in table.reexports.items():
            target = named(path, spec) if name == "*" else None
            if target is not None:
                facts.namespaces[f"{path}:{alias}"] = target


def _add_imports(facts: ModelFacts, path: str, table: FileTable) -> None:
    """What the file imports or re-exports from a package (a bare specifier: not a file of
    the product, ``./x``, nor a subpath import, ``#x``), with the line."""
    bound = [*table.imports.items(), *table.reexports.items()]
    for local, (spec, name) in sorted(bound):
        if spec.startswith((".", "/", "#")):
            continue
        line = table.import_lines.get(local, 0)
        facts.add_import(ImportSite(local, spec, name, path, line))


def _add_table(facts: ModelFacts, path: str, table: FileTable) -> None:
    exported = {*table.exports, *table.reexports}
    if table.export_equals in table.namespaces:
        exported.update(table.namespaces[table.export_equals])  # `export = ns`
    facts.modules[path] = sorted(exported - {"default"})
    for name, kind in table.locals.items():
        facts.decls.append(Decl(name, _KINDS.get(kind, "constant"), path, path, 0))
    for name in sorted({*table.exports, *table.reexports}):  # sorted: the cache file is stable
        if name != "default" and name not in table.locals:
            facts.decls.append(Decl(name, "constant", path, path, 0))
    for name, entry in table.classes.items():
        members = [*entry["members"], *entry["static"]]
        kind = "interface" if table.locals.get(name) == "interface" else "class"
        facts.classes.append(
            ClassFacts(f"{path}:{name}", name, path, 0, members, list(entry["extends"]), kind)
        )
        for member in members:
            facts.decls.append(Decl(member, "member", f"{path}:{name}", path, 0))
    for name, keys in table.objects.items():
        for key in keys:
            if key != "...":
                facts.decls.append(Decl(key, "key", f"{path}:{name}", path, 0))
    _add_options(facts, path, table)
    for name, _nested, line in table.commands:
        if name == OPEN_COMMANDS:  # a command named at run time: the table is open there
            where = f"{path}:{line}"
            if where not in facts.open_commands:
                facts.open_commands.append(where)
            continue
        command = str(name).split(" ")[0]
        facts.commands.setdefault(command, path)
        facts.decls.append(Decl(command, "command", path, path, int(line)))
    facts.cli_frameworks.extend(f for f in table.cli_frameworks if f not in facts.cli_frameworks)


def _add_options(facts: ModelFacts, path: str, table: FileTable) -> None:
    for option in table.options:
        facts.flags.setdefault(normal_flag(option), path)
        facts.add_command_flags("", [normal_flag(option)])  # not attributed to a command
        facts.decls.append(Decl("--" + option, "flag", path, path, 0))


def _add_types(facts: ModelFacts, path: str, types: TypeTable, first_class: int) -> None:
    """``first_class``: where this file's classes start in ``facts.classes``."""
    known = {c.qualname: c for c in facts.classes[first_class:]}
    for name, declarations in types.types.items():
        for declaration in declarations:
            if declaration.kind == "alias" and _literal_union(declaration.body):
                facts.literal_types.add(name)
            fields = _fields(declaration.body)
            qualname = f"{path}:{name}"
            for field_name, line in fields:
                facts.decls.append(Decl(field_name, "key", qualname, path, line))
            entry = known.get(qualname)
            open_keys = [_ANY_KEY] if _any_key(declaration.body) else []
            if entry is not None:
                entry.line = entry.line or declaration.line
                entry.members.extend(f for f, _ in fields if f not in entry.members)
                entry.bases.extend(b for b in open_keys if b not in entry.bases)
                continue
            bases = [_ref_name(e) for e in declaration.extends] + open_keys
            if declaration.kind == "alias" and not _literal_union(declaration.body):
                bases.extend(_alias_bases(declaration.body))
            facts.classes.append(
                ClassFacts(
                    qualname,
                    name,
                    path,
                    declaration.line,
                    [f for f, _ in fields],
                    [b for b in bases if b],
                    "interface" if declaration.kind != "class" else "class",
                )
            )
            known[qualname] = facts.classes[-1]
    for name, declarations in types.types.items():
        for declaration in declarations:
            _add_field_types(facts, f"{path}:{name}", declaration.body, path)
    for name, written in types.values.items():
        facts.value_types[f"{path}:{name}"] = written
    for container, callables in types.callables.items():
        owner = f"{path}:{container}" if container else path
        for name, signatures in callables.items():
            params: list[str] = []
            var_keyword = False
            for signature in signatures:
                for parameter in signature.params:
                    if parameter.name and parameter.name not in params:
                        params.append(parameter.name)
                    var_keyword = var_keyword or parameter.rest
                    if parameter.type is not None:
                        _add_typed_name(facts, parameter.name, parameter.type)
                        _note_declared(facts, parameter.name, parameter.type)
            line = signatures[0].line if signatures else 0
            qualname = f"{owner}.{name}"
            # One declared return type, when the signatures that declare one agree on it.
            declared = {s.returns for s in signatures if s.returns}
            returns = declared.pop() if len(declared) == 1 else ""
            made = {s.made for s in signatures}
            facts.callables.append(
                CallableFacts(
                    qualname, name, path, line, params, var_keyword, returns,
                    made=made.pop() if len(made) == 1 and not returns else "",
                )
            )  # fmt: skip
            for parameter_name in params:
                facts.decls.append(Decl(parameter_name, "parameter", qualname, path, line))


def _add_typed_names(facts: ModelFacts, body: Expr) -> None:
    """Each field of an object type (nested object types and the members of unions and
    intersections included) with the named types it is declared as."""
    if not body:
        return
    if body[0] in ("union", "inter"):
        for item in body[1]:
            _add_typed_names(facts, item)
    elif body[0] == "obj":
        for field_name, (typed, _line, _text) in body[1].items():
            _add_typed_name(facts, field_name, typed)


def _add_field_types(
    facts: ModelFacts, owner: str, body: Expr, path: str, nested: bool = False
) -> None:
    """Each field of a declared object type with the named types it is declared as
    (:attr:`ModelFacts.field_types`, and as a typed name), and the fields of an object type
    written inline as a field's type (`css?: { modules?: {...} }`): keys of their own."""
    if not body:
        return
    if body[0] in ("union", "inter"):
        for item in body[1]:
            _add_field_types(facts, owner, item, path, nested)
        return
    if body[0] != "obj":
        return
    for field_name, (typed, line, _text) in body[1].items():
        if nested:
            facts.decls.append(Decl(field_name, "key", owner, path, line))
        _note_declared(facts, field_name, typed)
        named = _type_names(typed)
        if named:
            _add_typed_name(facts, field_name, typed)
            known = facts.field_types.setdefault(f"{owner}.{field_name}", [])
            known.extend(n for n in named if n not in known)
        _add_field_types(facts, f"{owner}.{field_name}", typed, path, nested=True)


def _add_typed_name(facts: ModelFacts, name: str, typed: Expr) -> None:
    """Note that the code declares ``name`` (a field, a parameter) as the named types of
    ``typed`` (`hooks: JestHookEmitter`, `server?: ServerOptions | null`), and go on into an
    object type it is written as (a parameter's `{jestHooks?: JestHookEmitter}`)."""
    if typed and typed[0] == "obj":
        _add_typed_names(facts, typed)
        return
    named = _type_names(typed)
    if name and named:
        known = facts.typed_names.setdefault(name, [])
        known.extend(n for n in named if n not in known)


def _note_declared(facts: ModelFacts, name: str, typed: Expr) -> None:
    """Count one declaration of ``name`` with the type ``typed``
    (:attr:`ModelFacts.declared_as`)."""
    if name and _IDENTIFIER.fullmatch(name):
        counts = facts.declared_as.setdefault(name, {})
        one = _one_named_type(typed)
        counts[one] = counts.get(one, 0) + 1


def _one_named_type(typed: Expr) -> str:
    """The one named type a declared type is, as written (`Chart`, `Chart | null`,
    `Readonly<Chart>`, `EntityManager<D>`: its generic arguments left out); "" for any other
    shape (a primitive, a function, an object, several named types, `Pick<A, "x">`)."""
    if not typed:
        return ""
    if typed[0] == "union":
        kept = [t for t in typed[1] if t and not (t[0] == "prim" and t[1] in _NOTHING)]
        return _one_named_type(kept[0]) if len(kept) == 1 else ""
    if typed[0] == "ref" and typed[1] in _WHOLE and typed[2]:
        return _one_named_type(typed[2][0])
    if typed[0] == "ref" and typed[1] in _SAME_MEMBERS:
        return ""  # Pick, Omit: some of a type's members
    return str(typed[1]) if typed[0] == "ref" and typed[1] else ""


def _type_names(typed: Expr) -> list[str]:
    """The named types a declared type is (`A`, `A | null`, `A & B`, `Readonly<A>`): the
    name as written, generic arguments left out; none for any other shape."""
    if not typed:
        return []
    if typed[0] == "ref":
        if typed[1] in _SAME_MEMBERS and typed[2]:
            return _type_names(typed[2][0])
        return [str(typed[1])] if typed[1] else []
    if typed[0] in ("union", "inter"):
        return [name for item in typed[1] for name in _type_names(item)]
    return []


# The base a type with a string index signature (`[key: string]: any`) is given: it takes
# any key, so a member it does not list is not judged (never "not declared").
_ANY_KEY = "an index signature (any key)"


def _any_key(body: Expr) -> bool:
    """Whether an object type (or a member of its intersection) takes any string key."""
    if not body:
        return False
    if body[0] == "obj":
        return body[2] is not None
    if body[0] == "inter":
        return any(_any_key(item) for item in body[1])
    return False


def _literal_union(body: Expr) -> bool:
    """Whether a type is literal values only (`"a" | "b" | null`), no type of a name."""
    items = body[1] if body and body[0] == "union" else (body,)
    literal = [i for i in items if i and (i[0] == "str" or i == ("other", "literal"))]
    empty = [i for i in items if i in (("prim", "null"), ("prim", "undefined"))]
    return bool(literal) and len(literal) + len(empty) == len(items)


def _fields(body: Expr) -> list[tuple[str, int]]:
    """The field names (and lines) of an object type, through unions and intersections."""
    if not body:
        return []
    if body[0] == "obj":
        return [(name, entry[1]) for name, entry in body[1].items()]
    if body[0] in ("union", "inter"):
        return [f for item in body[1] for f in _fields(item)]
    return []


# Utility types whose members are (a subset of) their first argument's.
_SAME_MEMBERS = frozenset({"Partial", "Required", "Readonly", "Pick", "Omit", "NonNullable"})
# Wrappers a value of which has every member of the type wrapped (not Pick or Omit).
_WHOLE = frozenset({"Partial", "Required", "Readonly", "NonNullable"})
_NOTHING = frozenset({"null", "undefined", "void"})
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def _alias_bases(body: Expr) -> list[str]:
    """What an alias's members come from besides its own object fields: the types it
    names (`type A = B & {x}`, `Partial<B>`, `Omit<B, "k">`), and, for a type the model
    does not read (`typeof x.config`, a mapped or conditional type), a base outside the
    product, so a member it lacks is unjudged, never "not declared"."""
    if not body or body[0] in ("obj", "prim", "str"):
        return []
    if body[0] in ("union", "inter"):
        return [base for item in body[1] for base in _alias_bases(item)]
    if body[0] == "ref":
        if body[1] in _SAME_MEMBERS and body[2]:
            return _alias_bases(body[2][0])
        return [str(body[1])] if body[1] else ["an unnamed type"]
    if body[0] == "array":
        return ["Array"]
    if body[1] in ("function_type", "constructor_type"):
        return ["Function"]
    return [f"a type the model does not read ({body[1]})"]


def _ref_name(expr: Expr) -> str:
    return str(expr[1]) if expr and expr[0] == "ref" else ""
