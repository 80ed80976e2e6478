"""Whole package resolution as ``import`` and ``require`` do it, with the package's files:
``exports``/``imports`` through :mod:`pytest_postgates.evidence.exports`, else the legacy
lookup of packages without ``exports`` (``main``, extensions, ``index.*``, folder
package.json files), then Node's final check that a target is a file.

Files come from a :class:`PackageFiles` view; for the gates that is :class:`IndexFiles`,
the repository index at the ref, never the working tree.
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any, Protocol

from pytest_postgates.evidence.exports import (
    IMPORT_CONDITIONS,
    REQUIRE_CONDITIONS,
    TYPES_CONDITION,
    Resolution,
    ResolutionError,
    check_encoded_separators,
    conditions_for,
    module_system,
    normal_subpath,
    resolve,
    resolve_imports,
    split_specifier,
    url_path,
)

LEGACY_EXTENSIONS: tuple[str, ...] = (".js", ".json", ".node")


class PackageFiles(Protocol):
    """The files of one package; paths are relative to its root, without ``./``."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def read_text(self, path: str) -> str | None: ...


def _join(base: str, relative: str) -> str | None:
    """``path.resolve(base, relative)`` inside the package, without ``./``; None when the
    result leaves the package."""
    root = "/package"
    joined = posixpath.normpath(posixpath.join(root, base, relative))
    if joined == root:
        return ""
    return joined[len(root) + 1 :] if joined.startswith(root + "/") else None


def _try_file(files: PackageFiles, path: str | None, looked: list[str]) -> str | None:
    if path is None:
        return None
    looked.append(path)
    return path if path and files.is_file(path) else None


def _try_extensions(files: PackageFiles, base: str | None, looked: list[str]) -> str | None:
    if base is None:
        return None
    for extension in LEGACY_EXTENSIONS:
        found = _try_file(files, base + extension, looked)
        if found:
            return found
    return None


def _main_of(files: PackageFiles, folder: str) -> str | None:
    text = files.read_text(posixpath.join(folder, "package.json") if folder else "package.json")
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    main = data.get("main") if isinstance(data, dict) else None
    return main if isinstance(main, str) and main else None


def _require_package(files: PackageFiles, folder: str, looked: list[str]) -> str | None:
    """CommonJS ``tryPackage``: a folder's package.json ``main``, else its ``index.*``."""
    main = _main_of(files, folder)
    index = posixpath.join(folder, "index") if folder else "index"
    if main is None:
        return _try_extensions(files, index, looked)
    filename = _join(folder, main)
    return (
        _try_file(files, filename, looked)
        or _try_extensions(files, filename, looked)
        or _try_extensions(
            files, _join(filename, "index") if filename is not None else None, looked
        )
        or _try_extensions(files, index, looked)
    )


def _require_legacy(
    files: PackageFiles, expansion: str, package_json: str, request: str
) -> tuple[str | None, list[str]]:
    """CommonJS resolution of ``<package><expansion>`` in a package without exports."""
    looked: list[str] = []
    if expansion == "":
        return _require_package(files, "", looked), looked
    trailing = expansion.endswith("/") or re.search(r"(^|/)\.\.?$", expansion) is not None
    base = _join("", "." + expansion)
    if base is None:
        return None, looked
    found = None
    if not trailing and base:
        found = _try_file(files, base, looked) or _try_extensions(files, base, looked)
    if found is None and (base == "" or files.is_dir(base)):
        found = _require_package(files, base, looked)
    return found, looked


def _esm_main(files: PackageFiles) -> tuple[str | None, list[str]]:
    """Node's ``legacyMainResolve``: main, main + .js/.json/.node, main/index.*, index.*."""
    looked: list[str] = []
    main = _main_of(files, "")
    candidates: list[str | None] = []
    if main is not None:
        root = url_path("./" + main.removeprefix("./"))[2:]
        candidates += [root + suffix for suffix in ("", *LEGACY_EXTENSIONS)]
        candidates += [posixpath.join(root, "index") + ext for ext in LEGACY_EXTENSIONS]
    candidates += ["index" + ext for ext in LEGACY_EXTENSIONS]
    for candidate in candidates:
        if _try_file(files, candidate, looked):
            return candidate, looked
    return None, looked


def _finalize_import(files: PackageFiles, target: str) -> None:
    """ESM ``finalizeResolution``: the target must be a file (a trailing ``/`` always
    makes Node stat a folder)."""
    path = target.removeprefix("./")
    if target.endswith("/") or path == "" or files.is_dir(path):
        raise ResolutionError(
            "ERR_UNSUPPORTED_DIR_IMPORT",
            f"Directory import '{target}' is not supported resolving ES modules",
        )
    if not files.is_file(path):
        raise ResolutionError("ERR_MODULE_NOT_FOUND", f"Cannot find module '{target}'")


def _finalize_require(files: PackageFiles, target: str) -> None:
    path = target.removeprefix("./")
    if target.endswith("/") or not path or not files.is_file(path):
        raise ResolutionError("MODULE_NOT_FOUND", f"Cannot find module '{target}'")


def _finalized(result: Resolution, system: str, files: PackageFiles | None) -> Resolution:
    """A map's target as Node finally checks it: a folder (``/`` at the end) never loads;
    with ``files``, the target must be a file among them."""
    if not result.ok or result.target is None or result.external:
        return result
    if files is None and not result.target.endswith("/"):
        return result
    try:
        if system == "require":
            _finalize_require(files or _NO_FILES, result.target)
        else:
            _finalize_import(files or _NO_FILES, result.target)
    except ResolutionError as exc:
        return Resolution(
            result.subpath,
            result.conditions,
            code=exc.code,
            message=exc.message,
            via=result.via,
            key=result.key,
        )
    return result


def resolve_import_name(
    manifest: dict[str, Any],
    name: str,
    system: str,
    conditions: tuple[str, ...] | None = None,
    files: PackageFiles | None = None,
    package_json: str = "package.json",
) -> Resolution:
    """Resolve a ``#name`` specifier through the package's ``imports`` as ``import`` or
    ``require`` does from inside the package (with ``files``, the target must exist)."""
    if conditions is None:
        conditions = REQUIRE_CONDITIONS if system == "require" else IMPORT_CONDITIONS
    result = resolve_imports(manifest.get("imports"), name, conditions, package_json)
    return _finalized(result, system, files)


def resolve_subpath(
    manifest: dict[str, Any],
    subpath: str,
    system: str,
    conditions: tuple[str, ...] | None = None,
    files: PackageFiles | None = None,
    check_exports_files: bool = False,
    package_json: str = "package.json",
) -> Resolution:
    """Resolve ``subpath`` of a package as ``import`` (``system="import"``) or ``require``
    does: through ``exports`` when the manifest has one (not null), else the legacy way,
    looking files up in ``files``. With ``check_exports_files`` an ``exports`` target must
    also exist as a file in ``files``, as Node checks before loading; without it only the
    map decides (for build outputs that are not in the repository)."""
    if conditions is None:
        conditions = REQUIRE_CONDITIONS if system == "require" else IMPORT_CONDITIONS
    subpath = normal_subpath(subpath)
    exports = manifest.get("exports")
    if exports is not None:
        result = resolve(exports, subpath, conditions, package_json)
        return _finalized(result, system, files if check_exports_files else None)
    if files is None:
        raise ValueError("a package without exports needs its files to resolve")
    expansion = "" if subpath == "." else subpath[1:]
    if system == "require":
        found, looked = _require_legacy(files, expansion, package_json, subpath)
        if found is None:
            return Resolution(
                subpath,
                conditions,
                code="MODULE_NOT_FOUND",
                message=f"Cannot find module '{subpath}' (looked for {', '.join(looked)})",
                via="main" if subpath == "." else "file",
                looked_up=tuple(looked),
            )
        return Resolution(
            subpath,
            conditions,
            target="./" + found,
            via="main" if subpath == "." else "file",
            looked_up=tuple(looked),
        )
    if subpath == ".":
        found, looked = _esm_main(files)
        if found is None:
            return Resolution(
                subpath,
                conditions,
                code="ERR_MODULE_NOT_FOUND",
                message=f"Cannot find package main entry (looked for {', '.join(looked)})",
                via="main",
                looked_up=tuple(looked),
            )
        return Resolution(
            subpath, conditions, target="./" + found, via="main", looked_up=tuple(looked)
        )
    target = url_path(subpath)
    try:
        check_encoded_separators(target)
        _finalize_import(files, target)
    except ResolutionError as exc:
        return Resolution(
            subpath,
            conditions,
            code=exc.code,
            message=exc.message,
            via="file",
            looked_up=(target.removeprefix("./"),),
        )
    return Resolution(subpath, conditions, target=target, via="file", looked_up=(target[2:],))


def resolve_specifier(
    manifest: dict[str, Any],
    specifier: str,
    kind: str,
    type_only: bool = False,
    files: PackageFiles | None = None,
    check_exports_files: bool = False,
    package_json: str | None = None,
) -> Resolution:
    """Resolve a bare specifier of this package (``name`` or ``name/sub``) with the
    conditions of its gate-14 ``kind`` (:func:`conditions_for`)."""
    conditions = conditions_for(kind, type_only)
    try:
        name, subpath = split_specifier(specifier)
    except ResolutionError as exc:
        return Resolution(specifier, conditions, code=exc.code, message=exc.message)
    return resolve_subpath(
        manifest,
        subpath,
        module_system(kind),
        conditions,
        files,
        check_exports_files,
        package_json or f"{name}/package.json",
    )


def types_only_entry(manifest: dict[str, Any], specifier: str) -> bool:
    """Whether the package's ``exports`` entry of the specifier's subpath has ``types`` as
    its only condition (``"./client": {"types": "./client.d.ts"}``): declarations
    TypeScript loads (a side-effect ``import "pkg/client"``, a type import), with no file
    Node would run."""
    exports = manifest.get("exports")
    try:
        _name, subpath = split_specifier(specifier)
    except ResolutionError:
        return False
    if not isinstance(exports, dict):
        return False
    if not any(str(key).startswith(".") for key in exports):
        entry: Any = exports if subpath == "." else None  # the conditions of "." alone
    else:
        entry = exports.get(subpath)
    return isinstance(entry, dict) and list(entry) == [TYPES_CONDITION]


def read_manifest(files: PackageFiles) -> dict[str, Any] | None:
    """The package's package.json as an object (``{}`` when it is JSON but not an object),
    None when there is none; ``ValueError`` when it is not JSON."""
    text = files.read_text("package.json")
    if text is None:
        return None
    loaded = json.loads(text)
    return loaded if isinstance(loaded, dict) else {}


class IndexFiles:
    """A :class:`PackageFiles` view of a package folder in the repository index at the
    ref (``root`` is the package's folder in the repository, ``""`` for the top)."""

    def __init__(self, index: Any, root: str = "") -> None:
        self.index = index
        self.root = root.strip("/")

    def _path(self, path: str) -> str:
        return posixpath.join(self.root, path) if self.root else path

    def is_file(self, path: str) -> bool:
        return bool(self.index.is_file(self._path(path)))

    def is_dir(self, path: str) -> bool:
        return bool(self.index.is_dir(self._path(path)))

    def read_text(self, path: str) -> str | None:
        text: str | None = self.index.file_text(self._path(path))
        return text


class _NoFiles:
    def is_file(self, path: str) -> bool:
        return False

    def is_dir(self, path: str) -> bool:
        return False

    def read_text(self, path: str) -> str | None:
        return None


_NO_FILES = _NoFiles()
