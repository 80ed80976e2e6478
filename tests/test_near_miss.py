"""evidence/near_miss.py: each way a name is near a product name, and each turned off."""

from __future__ import annotations

import pytest

from pytest_postgates.evidence.api_model import ApiModel, build_model
from pytest_postgates.evidence.near_miss import NAMES, WAYS, near_name, resemblance

SOURCE = (
    "class RabbitMQDsn: ...\n"
    "class RenderWidget: ...\n"
    "class ProxyAgent: ...\n"
    "def read_text_content(): ...\n"
    "def stop_after_attempt(): ...\n"
    "def dispatcher(): ...\n"
    "def serializer(): ...\n"
    "def configureTransport(): ...\n"
)

# (a name the product does not have, the real one it is near, the way it is near).
CASES = [
    ("read_content", "read_text_content", "near-word-added"),
    ("stop_after_delay", "stop_after_attempt", "near-word-replaced"),
    ("RenderGadget", "RenderWidget", "near-word-changed"),
    ("AgentProxy", "ProxyAgent", "near-words-swapped"),
    ("dispatchar", "dispatcher", "near-letter-changed"),
    ("serialzer", "serializer", "near-letter-slipped"),
]


@pytest.fixture(scope="module")
def model() -> ApiModel:
    return build_model("c", {"lib/things.py": SOURCE})


def test_every_way_is_tested_here() -> None:
    assert {way for *_, way in CASES} == NAMES == {w.name for w in WAYS}


@pytest.mark.parametrize(("name", "real", "way"), CASES)
def test_each_way_of_being_near(name: str, real: str, way: str, model: ApiModel) -> None:
    assert resemblance(model, name) == (real, way)
    assert near_name(model, name) == real


@pytest.mark.parametrize(("name", "real", "way"), CASES)
def test_a_way_turned_off_decides_nothing(name: str, real: str, way: str, model: ApiModel) -> None:
    found = resemblance(model, name, off=frozenset({way}))
    assert found is None or found[1] != way
    # Every way off: no near miss at all.
    assert resemblance(model, name, off=NAMES) is None
    assert near_name(model, name, off=NAMES) is None


@pytest.mark.parametrize("name", ["RabbitMQDsn", "RabbitMqDsn", "render_widget", "Widget"])
def test_a_real_name_or_another_convention_is_no_near_miss(name: str, model: ApiModel) -> None:
    assert resemblance(model, name) is None
