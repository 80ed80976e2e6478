"""Gate 15's judgement of a member a JavaScript/TypeScript sample uses on an instance whose
class the model knows (made with ``new``, returned, a field's or getter's type): declared
by the class or its bases, else a violation, unless something says the member may exist
all the same (then ``unjudged`` with why). Where the value's type is open (reached through
a type parameter read as its default, :meth:`JsTypes.held_type`), a member is missing only
when no product type its type may be declares it either. Takes the fence reader
(:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_postgates.evidence.api_lookup import OBJECT_MEMBERS
from pytest_postgates.helpers import js_docs_names
from pytest_postgates.helpers.sample_checks import (
    ASSUMED_FROM_NAME,
    CODE_NAMED,
    OPEN_TYPE,
    did_you_mean,
)

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import Cls


def typed_member(
    sample: FenceReading, cls: Cls, used: str, name: str, line: int, text: str, origin: str = ""
) -> None:
    """A member of an instance of ``cls``. Where the class is assumed from the value's name
    (``origin``), a member the class lacks is a finding only when the product's code never
    names it (the value may be another type's: a quoted excerpt's local ``options``)."""
    types = sample.types()
    if types is None:
        return
    members, problem = types.members(cls)
    known = name in members or name in OBJECT_MEMBERS
    if origin == ASSUMED_FROM_NAME and not known and types.written(name):
        problem = f"the type {cls[0]} is assumed from the name, and the code names {name}"
    elif origin.startswith(CODE_NAMED) and not known and types.written(name):
        problem = f"{cls[0]} is how the product's code declares the name, and the code names {name}"
    if not known and name in sample.named:
        # `app.decorate("foo", ...)`, `Object.defineProperty(app, "foo", ...)`: the
        # sample adds the member at run time.
        problem = f"the sample names {name!r} as a string: it may add it at run time"
    plugin = sample.plugins.get(used.rsplit(".", 1)[0])
    if not known and plugin and not problem:
        problem = f"the sample hands {plugin} to a method of it: it may add {name}"
    if not known and not problem:
        problem = types.named_by_code(cls, name)
    beyond = (
        types.declared_beyond(cls, name) if origin.startswith(OPEN_TYPE) and not known else None
    )
    if beyond and not problem:
        problem = (f"the value's type is {cls[0]} or a type extending it (a type parameter's "
                   f"argument the sample does not show), and {beyond} declares {name}")  # fmt: skip
    below = types.declared_below(cls, name) if not known and not problem else None
    if below:
        problem = (f"{cls[0]} does not declare {name}, but {below}, a product type "
                   f"extending it, does: the value may be one")  # fmt: skip
    cited = js_docs_names.cited(origin)
    if not known and problem:
        sample.report.skip(line, text, f"{used}: {problem}{cited}")
        return
    sample.report.count("member", line, name)
    if known:
        return
    close = types.nearest(name, members)
    nor = ", nor does any product type extending it" if origin.startswith(OPEN_TYPE) else ""
    nor += cited
    sample.report.violation(line, "member", used, cls[1],
                            f"{cls[0]} declares no member {name}{nor}{did_you_mean(close)}",
                            close)  # fmt: skip
