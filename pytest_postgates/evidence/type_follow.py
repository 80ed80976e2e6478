"""Where :class:`~pytest_postgates.evidence.type_model.TypeModel` follows a type name beyond
the file that writes it (issue 26): a type of a namespace another file declares, reached
through the name that file's class or namespace is imported by (undici's
``Dispatcher.DispatchOptions`` in ``agent.d.ts``, with ``import Dispatcher from
'./dispatcher'``), or a type a module exports, reached through a namespace import
(``import * as Errors from './errors'``; ``Errors.UndiciError``); and a signature's type
parameters, read as their constraints; a type an installed package declares, read in its
declaration files (``import { Config } from 'find-my-way'``; a file of a package is named
by its absolute path, the product's by their path in the repository)."""

from __future__ import annotations

import json
import posixpath
import re
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
from pytest_postgates.evidence.code_tables import tables_for_source
from pytest_postgates.evidence.dependency_models import search_path
from pytest_postgates.evidence.file_table import FileTable
from pytest_postgates.evidence.known_bases import JS_BASES, JS_DICTIONARIES, NODE_TYPES
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.evidence.type_shapes import MAX_DEPTH, TypeRef
from pytest_postgates.evidence.type_tables import Declaration, Signature, TypeTable


class TypeModel(Protocol):
    """What this module asks of :class:`~.type_model.TypeModel` (named here by what it
    does, so this module does not import the one that imports it)."""

    lookup: ApiLookup

    def table(self, path: str) -> TypeTable | None: ...

    def declarations(self, path: str, name: str) -> tuple[str, list[Declaration]] | None: ...

    def global_name(self, path: str, name: str) -> bool: ...


def qualified_declarations(
    model: TypeModel, path: str, space: str, last: str
) -> tuple[str, list[Declaration]] | None:
    """The declarations ``space.last`` means in ``path`` when ``space`` is imported: a type
    of the namespace the imported name is declared with in its own file, or (``space`` a
    namespace import of a module) the type ``last`` that module declares or imports; None
    when it is neither."""
    binding = model.lookup.local_binding(path, space)
    if not isinstance(binding, Binding) or binding.path == path:
        return None
    if binding.local == "*":
        return model.declarations(binding.path, last)
    where = typed_file(model, binding.path)
    target = model.table(where)
    if target is None or binding.local not in target.namespaces:
        return None
    if "." in last:
        # `Shared.Plugin.Options`: a namespace's namespaces are read as its file's.
        return model.declarations(where, f"{binding.local}.{last}")
    return (where, target.types[last]) if last in target.types else None


def declared_import(model: TypeModel, path: str, name: str) -> tuple[str, list[Declaration]] | None:
    """The declarations of a type ``path`` imports by a relative path from a JavaScript
    module, which declares it only in its declaration file (``import { Options } from
    "./options.js"``: the model's lookup finds no such export in options.js; TypeScript
    reads options.d.ts), through declaration files that import it so in turn. None when
    ``name`` is no such import."""
    for _ in range(MAX_DEPTH):
        table = model.lookup.table(path)
        imported = table.imports.get(name) if table is not None else None
        if imported is None or not imported[0].startswith(".") or imported[1] == "*":
            return None
        target = model.lookup.relative(path, imported[0])
        where = typed_file(model, target) if target is not None else path
        if where in (target, path):
            return None
        declared = model.table(where)
        if declared is not None and imported[1] in declared.types:
            return where, declared.types[imported[1]]
        path, name = where, imported[1]
    return None


def typed_file(model: TypeModel, path: str) -> str:
    """The file TypeScript reads a module's types from: a JavaScript file's declaration
    file beside it (``./document/public.js`` imported in a ``.d.ts`` is ``public.d.ts``)."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or suffix not in ("js", "mjs", "cjs"):
        return path
    twin = f"{stem}.d.{'ts' if suffix == 'js' else suffix[0] + 'ts'}"
    return twin if model.table(twin) is not None else path


def constraints(signature: Signature, path: str) -> tuple[tuple[str, TypeRef], ...]:
    """A signature's type parameters bound to their constraints (``<S extends
    ReadonlyStoreApi<unknown>>(api: S)``: an object passed as ``api`` is read against the
    constraint, as the compiler's base constraint of ``S`` is)."""
    return tuple((name, TypeRef(bound, path)) for name, bound in signature.bounds)


# ------------------------------------------------------------ installed dependencies
# A file of an installed package is named by its absolute path (the product's are relative
# to the repository); read at most this much of one.
_MAX_CHARS = 2 * 1024 * 1024
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")
# Packages whose types the model reads by name, not in their files: type-fest's wrappers
# (type_model: their conditional types are past what it expands, their keys are not).
KNOWN_PACKAGES = frozenset({"type-fest"})


def source_text(model: TypeModel, path: str) -> str | None:
    """The text of a file the types are read from: the product's (from the commit), or an
    installed dependency's declaration file (from disk)."""
    if path.startswith("/"):
        return _disk_text(path)
    text = model.lookup.tables.text
    return text(path) if text is not None else None


@lru_cache(maxsize=256)
def _disk_text(path: str) -> str | None:
    try:
        file = Path(path)
        if not file.is_file() or file.stat().st_size > _MAX_CHARS:
            return None
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def package_declarations(
    model: TypeModel, path: str, name: str
) -> tuple[str, list[Declaration]] | None:
    """The declarations of ``name`` written in ``path`` when it comes (through the
    product's imports and re-exports) from an installed package: read in that package's
    declaration files (``import { Config as FindMyWayConfig } from 'find-my-way'``), its
    own imports and ``export *`` followed there. None when no installed package declares
    it (not installed, no declarations, a default import, Node's built-in modules)."""
    return _imported_from(model, path, name, 0)


def _imported_from(
    model: TypeModel, path: str, name: str, depth: int
) -> tuple[str, list[Declaration]] | None:
    if depth > MAX_DEPTH:
        return None
    outside = path.startswith("/")
    table = _disk_table(path) if outside else model.lookup.tables.files.get(path)
    if table is None:
        return None
    local = table.exports.get(name) or (table.export_equals if name == "default" else None)
    if local and local != name:  # `export default CacheableLookup`, `export = Router`
        return _declared_in(model, path, local, depth + 1)
    found = table.imports.get(name) or table.reexports.get(name)
    if found and len(found) == 2 and found[1] != "*":
        spec, imported = found
        if spec.startswith("."):
            target = _relative(path, spec) if outside else model.lookup.relative(path, spec)
            if target is not None and not outside:
                target = typed_file(model, target)  # `./index.js` in a .d.ts: index.d.ts
            return _declared_in(model, target, imported, depth + 1) if target else None
        entry = _package_entry(spec) if spec not in KNOWN_PACKAGES else None
        return _declared_in(model, entry, imported, depth + 1) if entry else None
    for spec in table.stars if outside else ():
        target = _relative(path, spec) if spec.startswith(".") else _package_entry(spec)
        held = _declared_in(model, target, name, depth + 1) if target else None
        if held is not None:
            return held
    return None


def _declared_in(
    model: TypeModel, path: str, name: str, depth: int
) -> tuple[str, list[Declaration]] | None:
    """``name`` declared in ``path`` (a file of the product or of a package), or imported
    or re-exported there."""
    types = model.table(path)
    if types is not None and name in types.types:
        return path, types.types[name]
    return _imported_from(model, path, name, depth)


@lru_cache(maxsize=256)
def _disk_table(path: str) -> FileTable | None:
    text = _disk_text(path)
    parsers = load_parsers()
    if text is None or isinstance(parsers, str):
        return None
    try:
        return tables_for_source(path, text, parsers)
    except RecursionError:  # nested past the reader's depth: not read
        return None


def _relative(path: str, spec: str) -> str | None:
    """The declaration file a relative specifier in a package's file names."""
    base = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    stem = re.sub(r"\.([mc]?js|d\.[mc]?ts|[mc]?ts)$", "", base)
    candidates = [base] if base.endswith(_DECLARATIONS) else []
    candidates += [stem + suffix for suffix in _DECLARATIONS]
    candidates += [f"{base}/index{suffix}" for suffix in _DECLARATIONS]
    return next((c for c in candidates if Path(c).is_file()), None)


def _package_entry(spec: str) -> str | None:
    return _entry_in(spec, tuple(search_path()))


@lru_cache(maxsize=128)
def _entry_in(spec: str, search: tuple[Path, ...]) -> str | None:
    """The declaration file a bare specifier of an installed package resolves to for
    TypeScript: its manifest's ``types`` (or ``typings``, or the ``types`` condition of its
    ``exports`` for ``.``), else its ``index.d.ts``; its DefinitelyTyped package's when it
    ships none. Subpaths and Node's built-in modules are not followed (None)."""
    parts = spec.split("/")
    root = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
    if root != spec or spec.startswith("node:"):
        return None
    typed = root[1:].replace("/", "__") if root.startswith("@") else root
    for name in (root, f"@types/{typed}"):
        for folders in search:
            for base in (folders / "node_modules", folders):
                folder = base / name
                if base.name == "node_modules" and (folder / "package.json").is_file():
                    entry = _manifest_types(folder)
                    if entry is not None:
                        return entry
    return None


def _manifest_types(folder: Path) -> str | None:
    try:
        manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    written = [manifest.get("types"), manifest.get("typings")] if isinstance(manifest, dict) else []
    exports = manifest.get("exports") if isinstance(manifest, dict) else None
    root = exports.get(".") if isinstance(exports, dict) else None
    while isinstance(root, dict) and "types" not in root:
        root = next((v for v in root.values() if isinstance(v, dict)), None)
    if isinstance(root, dict):
        written.append(root.get("types"))
    for target in [*written, "index.d.ts"]:
        if isinstance(target, str) and target.endswith(_DECLARATIONS):
            file = (folder / target).resolve()
            if file.is_file():
                return str(file)
    return None


# ------------------------------------------------------------ known outside types
# The classes of JS_BASES a type names where it means the global one (Function and Object
# are read otherwise: a function's members, any object).
_GLOBAL_BASES = ("Error", "EventTarget", "Promise", "Uint8Array")


def known_keys(model: TypeModel, path: str, name: str) -> frozenset[str] | None:
    """The keys of one of Node's or the web platform's types (known_bases: NODE_TYPES,
    JS_DICTIONARIES, JS_BASES' global classes) a name written in ``path`` means,
    known without reading @types/node or TypeScript's lib: ``https.RequestOptions``, or
    ``RequestOptions`` imported from ``https``; ``Readable`` from ``stream``; a global
    ``URL``, ``Buffer`` or ``Error``. None when it is none of them."""
    imported = _module_import(model, path, name)
    if imported is None:
        return None if "." in name else _global_keys(model, path, name)
    spec, member = imported
    if (spec, member) == ("events", "EventEmitter"):
        return JS_BASES["EventEmitter"]
    return NODE_TYPES.get((spec, member))


def node_declarations(
    model: TypeModel, path: str, name: str
) -> tuple[str, list[Declaration]] | None:
    """The declarations of a type of one of Node's built-in modules a name written in
    ``path`` means (``TcpNetConnectOpts`` imported from ``net``, ``net.TcpNetConnectOpts``),
    read in the installed @types/node (its ``net.d.ts`` declares ``module "net"``), as
    TypeScript reads them; None when it is no such name or @types/node is not installed."""
    imported = _module_import(model, path, name)
    if imported is None:
        return None
    spec, member = imported
    file = _node_module_file(spec, tuple(search_path()))
    return _declared_in(model, file, member, 1) if file is not None else None


def _module_import(model: TypeModel, path: str, name: str) -> tuple[str, str] | None:
    """The module (``node:`` taken off) and the member a name written in ``path`` is
    imported as: ``RequestOptions`` imported from ``https``, or ``https.RequestOptions``
    with ``https`` a namespace or default import (or ``import https = require(...)``)."""
    module, dot, member = name.rpartition(".")
    table = _disk_table(path) if path.startswith("/") else model.lookup.tables.files.get(path)
    found = table.imports.get(module if dot else name) if table is not None else None
    types = model.table(path) if dot else None
    if types is not None and module in types.required:
        found = [types.required[module], "*"]
    if not found or len(found) != 2 or (dot and found[1] not in ("*", "default")):
        return None
    return found[0].removeprefix("node:"), member if dot else found[1]


@lru_cache(maxsize=128)
def _node_module_file(spec: str, search: tuple[Path, ...]) -> str | None:
    """@types/node's declaration file of the built-in module ``spec`` (``net.d.ts``,
    ``fs/promises.d.ts``), in the first folder of ``search`` that has one."""
    if not re.fullmatch(r"[a-z_]+(?:/[a-z_]+)?", spec):
        return None
    for folder in search:
        file = folder / "node_modules" / "@types" / "node" / f"{spec}.d.ts"
        if file.is_file():
            return str(file)
    return None


def _global_keys(model: TypeModel, path: str, name: str) -> frozenset[str] | None:
    if not model.global_name(path, name):
        return None
    if name in _GLOBAL_BASES:
        return JS_BASES[name]
    return JS_DICTIONARIES.get(name) or NODE_TYPES.get(("buffer", name))
