"""The declared twin of a JavaScript package's export (issue 26): the function its
hand-written declaration tree declares under the name the sample imports, read from the
declaration file beside the module the sample imports (``index.d.ts`` beside ``index.js``)
and followed through its re-exports (undici's ``export * from './types/content-type'``).
Gate 15 judges the keys of an object passed to the export against both the keys the code
reads and the twin's declared parameter: a key either takes is taken (axios'
``toFormData``, a constant of ``index.js`` that ``index.d.ts`` declares as a function)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
from pytest_postgates.helpers.js_types import JsTypes, Keys, declaration_file

KeysAt = Callable[[int, tuple[str, ...]], Keys | None]
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


def _declared_export(lookup: ApiLookup, module: str, name: str, kind: str) -> Binding | None:
    """The binding of kind ``kind`` that the declaration file of ``module`` (a JavaScript
    file) exports as ``name``, followed to the declaration file that declares it; None when
    there is none."""
    declared = declaration_file(module) if module else ""
    if not declared or lookup.tables.files.get(declared) is None:
        return None
    found = lookup.find_export(declared, name, declared=True)
    if not isinstance(found, Binding) or found.kind != kind:
        return None
    return found if found.path.endswith(_DECLARATIONS) else None


def declared_twin(lookup: ApiLookup, module: str, name: str) -> Binding | None:
    """The function the declaration file of ``module`` (a JavaScript file) exports as
    ``name``, followed to the declaration file that declares it; None when there is none."""
    return _declared_export(lookup, module, name, "function")


def declared_class(lookup: ApiLookup, module: str, name: str) -> tuple[str, str] | None:
    """The class the declaration file of ``module`` exports as ``name`` (axios' ``export
    class AxiosError`` for a function of the code that ``new`` makes), as the model names
    a class: (name, declaration file); None when there is none."""
    found = _declared_export(lookup, module, name, "class")
    return (found.local, found.path) if found is not None else None


def twin_keys(types: JsTypes, twin: Binding, own: KeysAt | None = None) -> KeysAt:
    """Where the keys of the twin's parameters are declared, with the keys ``own`` (the
    implementation's) takes: a key either takes is taken; when either cannot tell, its
    reason."""
    declared: KeysAt = partial(types.function_keys, twin.path, twin.local)
    if own is None:
        return declared
    return partial(_either, own, declared)


def _either(own: KeysAt, declared: KeysAt, position: int, path: tuple[str, ...]) -> Keys | None:
    first, second = own(position, path), declared(position, path)
    if first is None or second is None:
        return first or second
    if first.reason or second.reason:
        return first if first.reason else second
    return replace(second, fields=first.fields | second.fields, read_by=first.read_by)
