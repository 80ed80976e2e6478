"""A product function read as a value (issue 26): ``get_registry.get(...)`` where
``get_registry`` is a ``def``. A plain function's name holds the function, whose attributes
are a function's (``__name__``, ``__doc__``); the attributes of what it returns are reached
through a call (``get_registry().get``). A decorated function may hold anything the
decorator made (``functools.lru_cache`` adds ``cache_clear``; a property is its result),
and a function some code sets an attribute on holds more: those keep the reading of a
property (:class:`~pytest_postgates.evidence.model_facts.CallableFacts.plain_function`)."""

from __future__ import annotations

from pytest_postgates.helpers.python_types import NEVER_BOUND, PythonTypes
from pytest_postgates.helpers.python_values import Miss, PyValue, Unjudged


def _function() -> None:
    """Stands for any plain function: its attributes are every function's."""


class _Owner:
    def method(self) -> None:
        """Stands for any method read through an instance: a bound method."""


# What every function and bound method has, as the running interpreter makes them.
FUNCTION_ATTRIBUTES = frozenset(dir(_function)) | frozenset(dir(_Owner().method))


def function_attribute(
    types: PythonTypes, held: PyValue, name: str, shown: str
) -> tuple[PyValue | Miss | Unjudged, str] | None:
    """Attribute ``name`` of ``held`` when ``held`` is a function read as a value, with the
    reason a miss would give; None for anything else, a method that is not plain among
    them (read as a property, whose value is its result). A plain function has a
    function's attributes: a miss names the call whose result has ``name``
    (``get_registry().get``) when its declared return type does. A module's function that
    is not plain (decorated, given attributes) may hold anything: unjudged."""
    if held.kind != "callable" or not held.callables:
        return None
    reason = f"{held.shown} is a function, which has no attribute {name}"
    if held.reason == NEVER_BOUND:  # `command.invoke(ctx)`: a Command named like a function
        why = f"{held.shown} is {NEVER_BOUND}: the product's function, or a value named like it"
        return Unjudged(why), reason
    if not all(made.plain_function for made in held.callables):
        if any(not types.is_module(made.qualname.rpartition(".")[0]) for made in held.callables):
            return None
        why = f"{held.shown} is decorated or given attributes: what its name holds is not known"
        return Unjudged(why), reason
    if name in FUNCTION_ATTRIBUTES:
        return PyValue("unknown", name, shown), reason
    where = held.callables[0].path
    returned = types.returned(held)
    if returned is not None and returned.kind in ("class", "instance"):
        member = types.member(returned.name, name, shown, False)
        if isinstance(member, PyValue):
            return Miss(name, held.shown, (f"{held.shown}().{name}",), where), reason
    return Miss(name, held.shown, (), where), reason
