"""What gate 15's JavaScript fence reader (``js_samples.JsSample``) offers the modules it
hands parts of its reading to (``js_unbound``, ``js_option_keys``): a protocol, so that they
type their argument without importing the reader that imports them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pytest_postgates.helpers.js_types import Cls, JsTypes
from pytest_postgates.helpers.sample_checks import SampleChecker, SampleReport, SampleValue


class FenceReading(Protocol):
    gate: SampleChecker
    report: SampleReport
    values: dict[str, SampleValue]
    bound: set[str]
    package_word: str
    source: bytes
    first: int  # the fence's first line in the page
    lines: list[str]
    shown: list[str]  # the fence's lines as the page writes them
    # Parameters, loop variables and caught errors: (name, start byte, end byte).
    scoped: list[tuple[str, int, int]]
    # Parameters of callbacks handed to the product: (name, start byte, end byte, the call).
    handed: list[tuple[str, int, int, str]]
    # Those the product's declared types type: (name, start byte, end byte, the value).
    typed_parameters: list[tuple[str, int, int, SampleValue]]
    # The last annotated parameter of each name: (the fence's source, its function's start
    # and end byte, the value), which holds only there (js_unbound.held).
    parameters: dict[str, tuple[bytes, int, int, SampleValue]]
    # A variable the fence binds to an object literal: name -> (the literal, where bound).
    literals: dict[str, tuple[Any, int]]
    judged_literals: set[int]  # the literals whose keys were judged (by node id)
    # Names bound to another package's module (local -> specifier), and the modules the
    # sample replaces with the product's mock (``jest.mock("axios")``).
    foreign: dict[str, str]
    mocked: set[str]
    named: set[str]  # identifiers the post's fences write as strings
    plugins: dict[str, str]  # value -> a package the fence read hands it
    # The page's own interfaces (name -> field -> its product type) and the interface each
    # of its functions declares it returns (js_page_types).
    page_interfaces: dict[str, dict[str, SampleValue | None]]
    page_functions: dict[str, str]
    # What the docs' pages bind a name to, and whether they declare it (js_docs_names).
    docs_names: Callable[[str], SampleValue | None]
    docs_declared: Callable[[str], bool]

    def line(self, node: Any) -> int: ...

    def linenode_text(self, node: Any) -> str: ...

    def types(self) -> JsTypes | None: ...

    def class_of(self, held: SampleValue) -> Cls | None: ...

    def required_class(self, held: SampleValue) -> Cls | None: ...

    def constant_class(self, held: SampleValue) -> Cls | str | None: ...

    def value_of(self, node: Any) -> SampleValue | None: ...

    def called(self, function: Any) -> SampleValue | None: ...

    def is_bound(self, node: Any, name: str) -> bool: ...

    def constructed(self, node: Any) -> SampleValue | None: ...
