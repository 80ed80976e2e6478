"""The values gate 15's Python reader works with (:mod:`.python_samples`): what a sample
expression holds, a name the model does not have, a use it cannot judge, and what a class's
constructor accepts."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_postgates.evidence.model_facts import CallableFacts

# The kind of an instance of one of several product classes (``-> Model | MixedModel``).
EITHER = "either"


@dataclass(frozen=True)
class PyValue:
    """What a sample expression holds. ``kind``: module (``name`` the dotted module),
    class / instance (``name`` the class), callable (``callables``; ``receiver`` the class
    a method was reached through), container (``name`` the class of its items), union (a
    type alias of product classes, ``alternatives``), either (an instance of one of the
    ``alternatives``) or unknown (from the product, type not known). ``shown`` is how the
    sample writes it."""

    kind: str
    name: str
    shown: str
    callables: tuple[CallableFacts, ...] = ()
    receiver: str = ""
    reason: str = ""  # unknown: why the model cannot say what it is (when it can tell)
    # union: the product classes a type alias joins (``name`` the alias).
    alternatives: tuple[str, ...] = ()
    # tuple: what each element of a fixed-length tuple holds (None: not the product's).
    elements: tuple[PyValue | None, ...] = ()
    # instance: attributes the call that gave it sets on it (CallableFacts.attaches).
    attached: tuple[str, ...] = ()


@dataclass(frozen=True)
class Miss:
    """A name the model does not have: ``missing`` looked up in ``owner``; the nearest."""

    missing: str
    owner: str
    nearest: tuple[str, ...]
    where: str = ""


@dataclass(frozen=True)
class Unjudged:
    reason: str


@dataclass(frozen=True)
class Constructor:
    """What a class's constructor accepts: its ``__init__``'s facts, or the fields of a
    dataclass-like class (``fields``), or why it is not known (``problem``)."""

    callables: tuple[CallableFacts, ...] = ()
    fields: frozenset[str] | None = None
    problem: str = ""
