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

Results are package-relative paths (``./dist/index.js``) or Node's error code and words:
:func:`resolve` answers the ``exports`` question alone, :func:`resolve_imports` the
``imports`` one. Nothing here reads a file; :mod:`pytest_postgates.evidence.resolution`
adds the legacy lookup of packages without ``exports`` and Node's final file checks.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

# Bumped whenever a rule below changes what resolves (cached gate results are keyed on it).
RESOLUTION_VERSION = 2
# Node 20.19+ (and 22.12+) resolve with require(esm) on, which adds "module-sync";
# "node-addons" is on unless --no-addons. "default" always matches; it is listed so that a
# message names every key that could have matched.
IMPORT_CONDITIONS: tuple[str, ...] = ("node", "import", "module-sync", "node-addons", "default")
REQUIRE_CONDITIONS: tuple[str, ...] = ("require", "node", "module-sync", "node-addons", "default")
TYPES_CONDITION = "types"

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


def url_path(relative: str) -> str:
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


def check_encoded_separators(target: str) -> None:
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
    resolved = url_path(target)
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
        return _Target(url_path(_url_text(target).replace("*", pattern_match)))
    return _Target(url_path(resolved + pattern_match))


def _url_text(target: str) -> str:
    """The text of ``new URL(target, package)`` relative to the package: dot segments of
    the path resolved, the query and fragment kept (a ``*`` there is substituted too)."""
    cut = min((i for i in (target.find("?"), target.find("#")) if i >= 0), default=-1)
    if cut < 0:
        return url_path(target)
    return url_path(target[:cut]) + target[cut:]


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
    subpath = normal_subpath(subpath)
    try:
        found, key = package_exports_resolve(exports, subpath, conditions, package_json)
        check_encoded_separators(found.path)
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
            check_encoded_separators(found.path)
    except ResolutionError as exc:
        return Resolution(name, conditions, code=exc.code, message=exc.message, via="imports")
    return Resolution(
        name, conditions, target=found.path, via="imports", key=key, external=found.external
    )


def normal_subpath(subpath: str) -> str:
    if subpath in ("", "."):
        return "."
    return subpath if subpath.startswith("./") else "./" + subpath


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
