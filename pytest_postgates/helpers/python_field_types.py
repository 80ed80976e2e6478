"""The product class an instance attribute is declared as (issue 26: "members on values whose
type the sample shows ... through chains"): ``beta: resources.Beta`` in the class body (or a
base's, a dataclass or model field) makes ``client.beta`` a ``Beta``, so
``client.beta.threads.runs.submit_tool_ouptputs_and_poll`` is judged on each link (openai's
helpers page) instead of stopping at an attribute of unknown type."""

from __future__ import annotations

from pytest_postgates.evidence.model_facts import ClassFacts
from pytest_postgates.helpers.python_types import PythonTypes, PyValue


def field_type(types: PythonTypes, class_name: str, name: str, shown: str) -> PyValue | None:
    """An instance of the one product class that the nearest class of ``class_name``'s
    lineage declaring the attribute ``name`` annotates it as; None when that class declares
    none, or several (``A | B``), or a type outside the product."""
    for entry in types.lineage(class_name):
        if not isinstance(entry, ClassFacts):
            continue
        written = types.model.facts.field_types.get(f"{entry.qualname}.{name}", [])
        written = [text for text in written if text != "None"]
        if not written:
            continue
        typed = {types.annotation(text, shown) for text in written}
        one = typed.pop() if len(typed) == 1 else None
        return one if one is not None and one.kind == "instance" else None
    return None
