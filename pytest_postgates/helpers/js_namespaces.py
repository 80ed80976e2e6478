"""Gate 15's reading of a TypeScript namespace a declaration file declares (``declare
namespace Interceptors { function redirect(opts?: RedirectOpts): Interceptor }``, exported
as ``interceptors``): its members are the names the namespace exports, each a binding of
the file that declares it, so ``interceptors.redirect({...})`` and ``const { redirect } =
interceptors`` reach the function and its declared parameters. A JavaScript module's
value export is read so too when the module's sibling declaration file (``index.js`` ->
``index.d.ts``, what TypeScript reads for it) declares that export as such a namespace:
the tables cannot see into ``module.exports.interceptors = { redirect: require(...) }``,
the declarations can."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.api_lookup import OBJECT_MEMBERS, ApiLookup, Binding, Unknown
from pytest_postgates.helpers.js_tree import node_text
from pytest_postgates.helpers.js_types import declaration_file
from pytest_postgates.helpers.sample_checks import SampleValue, did_you_mean

# `typeof import('./m').name` (relative specifiers only: another package is not the
# product's) and `typeof Name`.
_TYPEOF_IMPORT = re.compile(
    r"""typeof\s+import\(\s*(['"])(\.[^'"]*)\1\s*\)(?:\.([A-Za-z_$][\w$]*))?"""
)
_TYPEOF_NAME = re.compile(r"typeof\s+([A-Za-z_$][\w$]*)")

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import Cls


def declared_namespace(
    sample: FenceReading, binding: Binding | Unknown | None, exported: str
) -> SampleValue | None:
    """A ``declared`` value (module: the declaring file, name: the namespace) for the
    export ``exported`` when it is a declared namespace, itself or by its JavaScript
    module's declaration file; None for anything else. A namespace merged with a class
    or interface of its name is not one: its members are the class's too, nor is one
    merged with a function (``fastify()`` and ``fastify.errorCodes``)."""
    lookup = sample.gate.lookup
    if not isinstance(binding, Binding):
        return None
    found: Binding | Unknown | None = binding
    twin = declaration_file(binding.path) if binding.kind == "value" else ""
    if twin and lookup.tables.files.get(twin) is not None:
        found = lookup.find_export(twin, exported)
    if isinstance(found, Binding) and found.kind == "const":
        found = _typeof_value(lookup, found)
    if not isinstance(found, Binding) or found.kind != "namespace":
        return None
    table = lookup.table(found.path)
    if table is None or found.local not in table.namespaces or found.local in table.classes:
        return None
    types = sample.types()
    if types is None or types.model.callables.get(f"{found.path}.{found.local}"):
        return None
    return SampleValue("declared", found.path, found.local, found)


def module_value_class(sample: FenceReading, module: str) -> Cls | None:
    """The product class or interface a module's value is (what ``require()`` of it gives,
    whose methods a sample calls) as its declarations type it: ``declare const Joi:
    Joi.Root; export = Joi;`` in the JavaScript module's sibling ``index.d.ts`` (what
    TypeScript reads for it, whatever the module's own ``module.exports`` is), else in the
    module itself. None when neither says so, or the declared type is no one product type
    the model resolves."""
    lookup, types = sample.gate.lookup, sample.types()
    if types is None:
        return None
    for path in (declaration_file(module), module):
        found = lookup.table(path) if path else None
        local = found.export_equals if found is not None else None
        said = found.value_types.get(local, "") if found is not None and local else ""
        if said.startswith("type:"):
            return types.type_named(said.removeprefix("type:"), path)
    return None


def _typeof_value(lookup: ApiLookup, binding: Binding) -> Binding | Unknown | None:
    """What a constant declared as another value's type holds (``const interceptors:
    typeof import('./interceptors').default``, ``const x: typeof Name``): that value, as
    TypeScript reads it; the constant itself for any other declaration."""
    table = lookup.table(binding.path)
    said = table.value_types.get(binding.local, "") if table is not None else ""
    written = said.removeprefix("type:").strip() if said.startswith("type:") else ""
    imported = _TYPEOF_IMPORT.fullmatch(written)
    if imported is not None:
        target = lookup.relative(binding.path, imported.group(2))
        if target is None:
            return binding
        name = imported.group(3)
        return lookup.find_export(target, name) if name else Binding(target, "*", "namespace")
    named = _TYPEOF_NAME.fullmatch(written)
    if named is not None and named.group(1) != binding.local:
        return lookup.local_binding(binding.path, named.group(1))
    return binding


def member_value(sample: FenceReading, held: SampleValue, name: str) -> SampleValue:
    """What the namespace's member ``name`` holds: the binding the declaring file gives it
    (a function, a class, a namespace inside it), or a value of a type not known."""
    names = _members(sample, held)
    if name not in names:
        return SampleValue("unknown", origin=f"{held.name}.{name}, not declared")
    found = sample.gate.lookup.local_binding(held.module, name)
    inner = declared_namespace(sample, found, name)
    if inner is not None:
        return inner
    return SampleValue("export", held.module, name, found)


def check_member(
    sample: FenceReading, held: SampleValue, used: str, name: str, line: int, text: str
) -> None:
    """``name`` against the names the namespace exports."""
    names = _members(sample, held)
    sample.report.count("member", line, name)
    if name in names or name in OBJECT_MEMBERS:
        return
    types = sample.types()
    close = types.nearest(name, set(names)) if types is not None else []
    sample.report.violation(line, "member", used, f"{held.module} ({held.name})",
                            f"the namespace {held.name} declares no {name}{did_you_mean(close)}",
                            close)  # fmt: skip


def pattern_item(source: bytes, item: Any) -> tuple[str, str]:
    """(the name taken, the local it is bound to) of one part of an object pattern; ("",
    "") for a part that takes no one name (a rest element)."""
    if item.type == "shorthand_property_identifier_pattern":
        name = node_text(source, item)
        return name, name
    if item.type == "pair_pattern":
        key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
        if key is not None and value is not None and value.type == "identifier":
            return node_text(source, key), node_text(source, value)
    return "", ""


def _members(sample: FenceReading, held: SampleValue) -> list[str]:
    table = sample.gate.lookup.table(held.module)
    return table.namespaces.get(held.name, []) if table is not None else []
