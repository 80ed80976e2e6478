"""Node's package entry-point resolution, as a pure module: ``exports``, ``imports`` and the
legacy ``main``/file lookup of packages without ``exports``.

This follows the algorithm of Node's ESM resolution documentation (PACKAGE_EXPORTS_RESOLVE,
PACKAGE_IMPORTS_RESOLVE, PACKAGE_IMPORTS_EXPORTS_RESOLVE, PACKAGE_TARGET_RESOLVE,
PATTERN_KEY_COMPARE) where Node 20 implements it that way, and Node 20's implementation
where the two differ (both are checked against the real ``node`` by
``tests/test_exports_conformance.py``):

- a ``*`` pattern matches at least one character (``subpath`` must be at least as long as
  the key), and a key with a second ``*`` never matches;
- keys ending in ``/`` (subpath folder mappings, removed in Node 17) never match;
- empty segments in a target or a pattern match (``a//b``) are only deprecated (DEP0166;
  the documentation calls them invalid), while ``.``, ``..`` and ``node_modules``
  segments fail;
- a subpath ending in ``/`` still matches a pattern (DEP0155; the documentation would
  reject it), and then names a folder, which no module system loads;
- an array tries its items in order, passing over invalid targets
  (``ERR_INVALID_PACKAGE_TARGET``), items that match no condition and ``null`` items;
  when none resolves, the last invalid or ``null`` item decides (that error, or not
  exported);
- in a conditions object, the first matching key decides: its ``null`` excludes;
- ``require`` resolution of exports is the same algorithm with the ``require`` conditions;
  files found through ``exports`` must exist as files (``MODULE_NOT_FOUND`` for
  ``require``; ``ERR_MODULE_NOT_FOUND``/``ERR_UNSUPPORTED_DIR_IMPORT`` for ``import``).

Results are package-relative paths (``./dist/index.js``): :func:`resolve` answers the
``exports`` question alone; :func:`resolve_subpath` adds the legacy resolution of packages
without ``exports`` and the final file checks, given a :class:`PackageFiles` view of the
package (for the gates: the repository index at the ref, never the working tree).
"""

from __future__ import annotations

import json
import math
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

# Bumped whenever a rule below changes what resolves (cached gate results are keyed on it).
RESOLUTION_VERSION = 2
# Node 20.19+ (and 22.12+) resolve with require(esm) on, which adds "module-sync";
# "node-addons" is on unless --no-addons. "default" always matches; it is listed so that a
# message names every key that could have matched.
IMPORT_CONDITIONS: tuple[str, ...] = ("node", "import", "module-sync", "node-addons", "default")
REQUIRE_CONDITIONS: tuple[str, ...] = ("require", "node", "module-sync", "node-addons", "default")
TYPES_CONDITION = "types"
LEGACY_EXTENSIONS: tuple[str, ...] = (".js", ".json", ".node")

# Node's segment check (internal/modules/esm/resolve): ".", ".." or "node_modules",
# percent-encoded too, in any case. (Node's wider check also matches empty segments, which
# only earn a deprecation warning.)
_ERROR_SEGMENT = re.compile(
    r"(^|\\|/)((\.|%2e)(\.|%2e)?|(n|%6e|%4e)(o|%6f|%4f)(d|%64|%44)(e|%65|%45)(_|%5f)"
    r"(m|%6d|%4d)(o|%6f|%4f)(d|%64|%44)(u|%75|%55)(l|%6c|%4c)(e|%65|%45)(s|%73|%53))(\\|/|$)",
    re.IGNORECASE,
)
_ENCODED_SEPARATOR = re.compile(r"%2F|%5C", re.IGNORECASE)
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_DOT = frozenset({".", "%2e"})
_DOT_DOT = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})


def conditions_for(kind: str, type_only: bool = False) -> tuple[str, ...]:
    """The conditions Node resolves a specifier of this gate-14 kind with: ``require()``
    the require set, every other form the import set; ``import type``/``export type`` add
    ``types`` (what TypeScript reads)."""
    base = REQUIRE_CONDITIONS if kind == "require" else IMPORT_CONDITIONS
    return (TYPES_CONDITION, *base) if type_only else base


def module_system(kind: str) -> str:
    """``"require"`` for ``require()``, ``"import"`` for every ESM form."""
    return "require" if kind == "require" else "import"


class ResolutionError(Exception):
    """Node refused the specifier: ``code`` is Node's error code, ``message`` its words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Resolution:
    """The answer for one subpath: a package-relative ``target`` (``./dist/x.js``), or a
    Node error ``code`` with Node's ``message``.

    ``via`` says how: ``exports``, ``imports``, ``main`` (legacy main entry) or ``file``
    (legacy subpath). ``key`` is the ``exports``/``imports`` key that matched. ``external``
    marks an ``imports`` target that is another package's specifier (not resolved here).
    """

    subpath: str
    conditions: tuple[str, ...]
    target: str | None = None
    code: str | None = None
    message: str = ""
    via: str = "exports"
    key: str | None = None
    external: bool = False
    looked_up: tuple[str, ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        return self.code is None and self.target is not None


class PackageFiles(Protocol):
    """The files of one package; paths are relative to its root, without ``./``."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def read_text(self, path: str) -> str | None: ...


# ------------------------------------------------------------------- helpers


def _js_string(value: Any) -> str:
    """``JSON.stringify`` of a package.json value, as Node prints it in messages."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _js_number_string(number: float) -> str:
    """JavaScript's ``String(number)`` for a finite non-negative number."""
    if number.is_integer() and number < 1e21:
        return str(int(number))
    text = repr(number)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = int(exponent)
    digits = mantissa.replace(".", "")
    if -7 < power < 21:  # JavaScript writes these positionally
        return (
            "0." + "0" * (-power - 1) + digits
            if power < 0
            else digits + "0" * (power + 1 - len(digits))
        )
    return f"{mantissa}e{'+' if power > 0 else '-'}{abs(power)}"


def _is_array_index(key: str) -> bool:
    """Node's ``isArrayIndex``: ``String(+key) === key`` and ``0 <= +key < 2**32 - 1``."""
    text = key.strip()
    try:
        if text == "":
            number = 0.0
        elif re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text):
            number = float(text)
        elif re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
            number = float(int(text, 16))
        else:
            return False
    except (ValueError, OverflowError):
        return False
    if math.isnan(number) or math.isinf(number) or number < 0 or number >= 0xFFFF_FFFF:
        return False
    return _js_number_string(number) == key


def pattern_key_compare(a: str, b: str) -> int:
    """PATTERN_KEY_COMPARE: negative when ``a`` is more specific than ``b`` (a longer part
    before ``*``, then a longer key; a key without ``*`` after one with it)."""
    a_star, b_star = a.find("*"), b.find("*")
    base_a = len(a) if a_star == -1 else a_star + 1
    base_b = len(b) if b_star == -1 else b_star + 1
    if base_a != base_b:
        return -1 if base_a > base_b else 1
    if a_star == -1:
        return 1
    if b_star == -1:
        return -1
    if len(a) != len(b):
        return -1 if len(a) > len(b) else 1
    return 0


def _url_path(relative: str) -> str:
    """The package-relative path a ``./...`` string names once parsed as a URL against the
    package folder and turned back into a file path: query and fragment cut off,
    backslashes as slashes, dot segments resolved, percent-escapes decoded."""
    cut = min((i for i in (relative.find("?"), relative.find("#")) if i >= 0), default=-1)
    path = relative if cut < 0 else relative[:cut]
    segments: list[str] = []
    parts = path.replace("\\", "/").split("/")
    for index, part in enumerate(parts):
        lowered = part.lower()
        last = index == len(parts) - 1
        if lowered in _DOT:
            if last:
                segments.append("")
        elif lowered in _DOT_DOT:
            if segments:
                segments.pop()
            if last:
                segments.append("")
        elif part or last:  # "a//b" names the file "a/b"
            segments.append(part)
    return "./" + "/".join(segments).lstrip("/")


def _check_encoded_separators(target: str) -> None:
    if _ENCODED_SEPARATOR.search(target):
        raise ResolutionError(
            "ERR_INVALID_MODULE_SPECIFIER",
            f'Invalid module "{target}" must not include encoded "/" or "\\" characters',
        )


# --------------------------------------------------------- PACKAGE_TARGET_RESOLVE


class _Undefined:
    """PACKAGE_TARGET_RESOLVE's "undefined": no condition of an object matched (unlike
    ``null``, which excludes)."""


_UNDEFINED = _Undefined()


@dataclass(frozen=True)
class _Target:
    path: str
    external: bool = False


class _Context:
    def __init__(self, conditions: tuple[str, ...], internal: bool, package_json: str) -> None:
        self.conditions = frozenset(conditions)
        self.internal = internal
        self.package_json = package_json

    def invalid_target(self, key: str, target: Any) -> ResolutionError:
        shown = _js_string(target) if not isinstance(target, str) else json.dumps(target)
        rel = (
            isinstance(target, str)
            and not self.internal
            and target != ""
            and not target.startswith("./")
        )
        hint = '; targets must start with "./"' if rel else ""
        if key == "." and not self.internal:
            text = f'Invalid "exports" main target {shown} defined in the package config'
        else:
            field_name = "imports" if self.internal else "exports"
            text = (
                f"Invalid \"{field_name}\" target {shown} defined for '{key}' in the package config"
            )
        return ResolutionError("ERR_INVALID_PACKAGE_TARGET", f"{text} {self.package_json}{hint}")

    def invalid_config(self, reason: str) -> ResolutionError:
        return ResolutionError(
            "ERR_INVALID_PACKAGE_CONFIG", f"Invalid package config {self.package_json}. {reason}"
        )


def _target_string(
    target: str, pattern_match: str, key: str, pattern: bool, ctx: _Context
) -> _Target:
    if pattern_match != "" and not pattern and not target.endswith("/"):
        raise ctx.invalid_target(key, target)
    if not target.startswith("./"):
        if (
            ctx.internal
            and not target.startswith("/")
            and not target.startswith("../")
            and not _URL_SCHEME.match(target)
        ):
            # An "imports" target may name another package; Node resolves it from here.
            bare = target.replace("*", pattern_match) if pattern else target + pattern_match
            return _Target(bare, external=True)
        raise ctx.invalid_target(key, target)
    # Empty segments ("a//b") only earn a deprecation warning from Node.
    if _ERROR_SEGMENT.search(target[2:]):
        raise ctx.invalid_target(key, target)
    resolved = _url_path(target)
    if pattern_match == "":
        return _Target(resolved)
    if _ERROR_SEGMENT.search(pattern_match):
        request = key.replace("*", pattern_match, 1) if pattern else key + pattern_match
        field_name = "imports" if ctx.internal else "exports"
        raise ResolutionError(
            "ERR_INVALID_MODULE_SPECIFIER",
            f'Invalid module "{request}" request is not a valid match in pattern "{key}" for '
            f'the "{field_name}" resolution of {ctx.package_json}',
        )
    if pattern:
        # Node substitutes into the already-parsed URL's text, then parses it again.
        return _Target(_url_path(_url_text(target).replace("*", pattern_match)))
    return _Target(_url_path(resolved + pattern_match))


def _url_text(target: str) -> str:
    """The text of ``new URL(target, package)`` relative to the package: dot segments of
    the path resolved, the query and fragment kept (a ``*`` there is substituted too)."""
    cut = min((i for i in (target.find("?"), target.find("#")) if i >= 0), default=-1)
    if cut < 0:
        return _url_path(target)
    return _url_path(target[:cut]) + target[cut:]


def _target_resolve(
    target: Any, pattern_match: str, key: str, pattern: bool, ctx: _Context
) -> _Target | _Undefined | None:
    if isinstance(target, str):
        return _target_string(target, pattern_match, key, pattern, ctx)
    if isinstance(target, list):
        if not target:
            return None
        last_error: ResolutionError | _Undefined | None = _UNDEFINED
        for item in target:
            try:
                result = _target_resolve(item, pattern_match, key, pattern, ctx)
            except ResolutionError as exc:
                last_error = exc
                if exc.code == "ERR_INVALID_PACKAGE_TARGET":
                    continue
                raise
            if isinstance(result, _Undefined):
                continue
            if result is None:
                last_error = None
                continue
            return result
        if isinstance(last_error, ResolutionError):
            raise last_error
        return None if last_error is None else _UNDEFINED
    if isinstance(target, dict):
        if any(_is_array_index(name) for name in target):
            raise ctx.invalid_config('"exports" cannot contain numeric property keys.')
        for name, value in target.items():
            if name == "default" or name in ctx.conditions:
                result = _target_resolve(value, pattern_match, key, pattern, ctx)
                if isinstance(result, _Undefined):
                    continue
                return result
        return _UNDEFINED
    if target is None:
        return None
    raise ctx.invalid_target(key, target)


# ------------------------------------------------- PACKAGE_IMPORTS_EXPORTS_RESOLVE


def _best_pattern(match_key: str, match_obj: dict[str, Any]) -> tuple[str, str] | None:
    """The most specific ``*`` key matching ``match_key`` and the part its ``*`` matches."""
    best = ""
    best_match = ""
    for key in match_obj:
        star = key.find("*")
        if star == -1 or not match_key.startswith(key[:star]):
            continue
        trailer = key[star + 1 :]
        if (
            len(match_key) >= len(key)
            and match_key.endswith(trailer)
            and pattern_key_compare(best, key) == 1
            and key.rfind("*") == star
        ):
            best = key
            best_match = match_key[star : len(match_key) - len(trailer)]
    return (best, best_match) if best else None


def is_conditions_sugar(exports: Any, package_json: str = "package.json") -> bool:
    """Whether ``exports`` is the main entry only (a string, an array, or an object of
    condition keys); an object mixing ``./`` keys and condition keys is an invalid
    package configuration."""
    if isinstance(exports, (str, list)):
        return True
    if not isinstance(exports, dict) or not exports:
        return False
    kinds = {key == "" or not key.startswith(".") for key in exports}
    if len(kinds) > 1:
        raise _Context((), False, package_json).invalid_config(
            "\"exports\" cannot contain some keys starting with '.' and some not. The exports "
            "object must either be an object of package subpath keys or an object of main "
            "entry condition name keys only."
        )
    return kinds == {True}


def _not_exported(subpath: str, package_json: str) -> ResolutionError:
    if subpath == ".":
        return ResolutionError(
            "ERR_PACKAGE_PATH_NOT_EXPORTED", f'No "exports" main defined in {package_json}'
        )
    return ResolutionError(
        "ERR_PACKAGE_PATH_NOT_EXPORTED",
        f"Package subpath '{subpath}' is not defined by \"exports\" in {package_json}",
    )


def package_exports_resolve(
    exports: Any, subpath: str, conditions: tuple[str, ...], package_json: str = "package.json"
) -> tuple[_Target, str]:
    """PACKAGE_EXPORTS_RESOLVE for ``subpath`` (``"."`` or ``"./x"``): the target and the
    key that matched, or :class:`ResolutionError`."""
    ctx = _Context(conditions, False, package_json)
    if is_conditions_sugar(exports, package_json):
        exports = {".": exports}
    if not isinstance(exports, dict):
        exports = {}
    if subpath in exports and "*" not in subpath and not subpath.endswith("/"):
        result = _target_resolve(exports[subpath], "", subpath, False, ctx)
        if not isinstance(result, _Target):
            raise _not_exported(subpath, package_json)
        return result, subpath
    best = _best_pattern(subpath, exports)
    if best is not None:
        key, pattern_match = best
        result = _target_resolve(exports[key], pattern_match, key, True, ctx)
        if not isinstance(result, _Target):
            raise _not_exported(subpath, package_json)
        return result, key
    raise _not_exported(subpath, package_json)


def package_imports_resolve(
    imports: Any, name: str, conditions: tuple[str, ...], package_json: str = "package.json"
) -> tuple[_Target, str]:
    """PACKAGE_IMPORTS_RESOLVE for a ``#name`` specifier."""
    if name == "#" or name.startswith("#/") or name.endswith("/"):
        raise ResolutionError(
            "ERR_INVALID_MODULE_SPECIFIER",
            f'Invalid module "{name}" is not a valid internal imports specifier name',
        )
    ctx = _Context(conditions, True, package_json)
    if isinstance(imports, dict) and imports:
        if name in imports and "*" not in name:
            result = _target_resolve(imports[name], "", name, False, ctx)
            if isinstance(result, _Target):
                return result, name
        else:
            best = _best_pattern(name, imports)
            if best is not None:
                key, pattern_match = best
                result = _target_resolve(imports[key], pattern_match, key, True, ctx)
                if isinstance(result, _Target):
                    return result, key
    raise ResolutionError(
        "ERR_PACKAGE_IMPORT_NOT_DEFINED",
        f'Package import specifier "{name}" is not defined in package {package_json}',
    )


def resolve(
    exports: Any, subpath: str, conditions: tuple[str, ...], package_json: str = "package.json"
) -> Resolution:
    """Does ``subpath`` (``"."``, ``"./x"``, or ``"x"`` for ``./x``) resolve through this
    ``exports`` value with these conditions? The package-relative target, or Node's error
    code and message. Pure: no file is looked at (a target ending in ``/`` is a folder,
    which no module system loads)."""
    subpath = _normal_subpath(subpath)
    try:
        found, key = package_exports_resolve(exports, subpath, conditions, package_json)
        _check_encoded_separators(found.path)
    except ResolutionError as exc:
        return Resolution(subpath, conditions, code=exc.code, message=exc.message)
    return Resolution(subpath, conditions, target=found.path, via="exports", key=key)


def resolve_imports(
    imports: Any, name: str, conditions: tuple[str, ...], package_json: str = "package.json"
) -> Resolution:
    """The ``imports`` counterpart of :func:`resolve` for a ``#name`` specifier."""
    try:
        found, key = package_imports_resolve(imports, name, conditions, package_json)
        if not found.external:
            _check_encoded_separators(found.path)
    except ResolutionError as exc:
        return Resolution(name, conditions, code=exc.code, message=exc.message, via="imports")
    return Resolution(
        name, conditions, target=found.path, via="imports", key=key, external=found.external
    )


def _normal_subpath(subpath: str) -> str:
    if subpath in ("", "."):
        return "."
    return subpath if subpath.startswith("./") else "./" + subpath


# ------------------------------------------------- whole resolution with files


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
        root = _url_path("./" + main.removeprefix("./"))[2:]
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
    subpath = _normal_subpath(subpath)
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
    target = _url_path(subpath)
    try:
        _check_encoded_separators(target)
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


_PACKAGE_NAME_INVALID = re.compile(r"^\.|%|\\")


def split_specifier(specifier: str) -> tuple[str, str]:
    """Node's ``parsePackageName``: ``("@scope/pkg", "./sub/path")`` for
    ``@scope/pkg/sub/path``, ``(name, ".")`` for the bare name."""
    separator = specifier.find("/")
    valid = True
    if specifier.startswith("@"):
        if separator == -1:
            valid = False
        else:
            separator = specifier.find("/", separator + 1)
    name = specifier if separator == -1 else specifier[:separator]
    if not valid or not name or _PACKAGE_NAME_INVALID.search(name):
        raise ResolutionError(
            "ERR_INVALID_MODULE_SPECIFIER",
            f'Invalid module "{specifier}" is not a valid package name',
        )
    return name, "." + ("" if separator == -1 else specifier[separator:])


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
