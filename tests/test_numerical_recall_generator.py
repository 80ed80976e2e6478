"""The generator of bench/numerical_recall.py: its planted claims are new to the post, their
numbers are written nowhere in it (in any unit the gate converts) nor in the repository's
evidence, they stand clear of links, every shape is produced, the seed decides, and each
plant sits on the line the bench reports."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext
from pytest_postgates.gates.numerical_claims import GATE
from pytest_postgates.post import parse_post
from tests.helpers import FRONT_MATTER, make_repo

BENCH = Path(__file__).resolve().parent.parent / "bench" / "numerical_recall.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("numerical_recall", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


recall = _load()

# A post of the blog's shape, written for this test: prose paragraphs, a sample fence that
# assigns numbers, a list, a table, a link, a heading.
BODY = """
# Retries that do not melt the provider

The client retries a failed call with backoff. Each attempt waits longer than the last.
It keeps the provider from being hammered during an outage.

The retry budget is shared by every call in a session. A call that exhausts it fails fast.

```ts
const client = new Client({
  maxRetries: 3,
  requestTimeoutMs: 30000,
});
```

The configuration above is all a caller needs. Nothing else changes in the call site.

- one item of a list
- another item

| Column | Other |
|---|---|
| a | b |

Timeouts are handled by the transport layer. The caller sees one error type for all of them.

The circuit breaker opens after repeated failures. It closes again once a probe succeeds.

Another paragraph that explains the design in plain words. It has no numbers at all.

See [the docs](https://example.com/docs) for the whole list of options and defaults here.

A closing paragraph that sums the design up. Nothing in it is a figure either.
"""


def _post(tmp_path: Path, body: str = BODY, name: str = "2026-06-03-retries.md"):
    path = tmp_path / name
    path.write_text(FRONT_MATTER + body, encoding="utf-8")
    return parse_post(path)


def _evidence(changelog: str = "", messages: str = "", repo_text: str = ""):
    return recall.Evidence(changelog, messages, lambda needle: needle in repo_text)


def _plant(tmp_path: Path, seed: int, per_post: int = 5, evidence=None):
    post = _post(tmp_path)
    lines, plants = recall.plants_for(post, evidence or _evidence(), random.Random(seed), per_post)
    return post, lines, plants


@pytest.mark.parametrize("seed", range(20))
def test_plants_are_new_and_their_numbers_are_written_nowhere(tmp_path: Path, seed: int) -> None:
    post, lines, plants = _plant(tmp_path, seed)
    assert plants
    original_numbers = recall.numbers_in(post.text)
    text = "\n".join(lines)
    for plant in plants:
        assert plant.sentence not in post.text
        assert plant.sentence.split("\n")[-1] in lines[plant.line - 1]
        value = float(plant.number)
        # Checked independently of written_nowhere: every conversion the gate makes.
        for scale in (1.0, 1e-3, 1e3, 1e-2, 60.0, 6e4, 1e6, 2.0**20):
            if scale in recall.UNITS[plant.unit][2]:
                assert round(value * scale, 6) not in original_numbers, plant
        assert text.count(plant.sentence) == 1
    assert len({p.number for p in plants}) == len(plants)


def test_every_shape_is_produced_and_the_seed_decides(tmp_path: Path) -> None:
    shapes: set[str] = set()
    for seed in range(40):
        shapes |= {p.shape for p in _plant(tmp_path, seed, per_post=len(recall.SHAPES))[2]}
    assert shapes == set(recall.SHAPES)
    assert _plant(tmp_path, 7)[2] == _plant(tmp_path, 7)[2]
    assert any(_plant(tmp_path, 7)[2] != _plant(tmp_path, seed)[2] for seed in range(8, 12))


def test_a_config_plant_follows_the_fence_and_names_its_setting(tmp_path: Path) -> None:
    found = []
    for seed in range(40):
        post, lines, plants = _plant(tmp_path, seed, per_post=len(recall.SHAPES))
        found += [(post, lines, p) for p in plants if p.shape == "config"]
    assert found
    for _post_before, lines, plant in found:
        assert "`maxRetries: 3`" in plant.sentence
        assert "max retries" in plant.sentence
        # Right after the fence: its closing line, a blank line, then the claim.
        assert lines[plant.line - 3] == "```" and lines[plant.line - 2] == ""
        assert lines[plant.line - 4] == "});"


def test_a_number_the_evidence_holds_is_never_planted(tmp_path: Path) -> None:
    evidence = _evidence(changelog="- cut latency to 437ms (#12)", repo_text="52 seconds")
    assert evidence.cites("437", "ms")
    assert evidence.cites("52", "s")
    assert not evidence.cites("438", "ms")
    assert _evidence(messages="fix: 1,300 tokens budget").cites("1300", "tokens")
    for seed in range(20):
        for plant in _plant(tmp_path, seed, evidence=evidence)[2]:
            assert (plant.number, plant.unit) not in {("437", "ms"), ("52", "s")}


def test_written_nowhere_reads_the_units_the_gate_converts() -> None:
    numbers = recall.numbers_in("timeout: 30000, ratio 0.4, a 52MB cache, 1,500 items")
    assert numbers >= {30000.0, 0.4, 52.0, 1500.0}
    assert not recall.written_nowhere(30, "s", numbers)  # 30 s = 30000 ms
    assert not recall.written_nowhere(40, "%", numbers)  # 40% = 0.4
    assert not recall.written_nowhere(52, "MB", numbers)
    assert recall.written_nowhere(31, "s", numbers)


def test_plants_near_a_link_are_dropped(tmp_path: Path) -> None:
    body = "Intro paragraph.\n\nSee [the docs](https://example.com) now.\n"
    near = "Intro paragraph.\n\nSee [the docs](https://example.com) now. It takes 437ms.\n"
    far = body + "\n" + ("Filler words here. " * 20 + "\n\n") * 2 + "It takes 438ms.\n"
    plant_near = recall.Plant("appended", "ms", "437", "It takes 437ms.", 9)
    plant_far = recall.Plant("plain", "ms", "438", "It takes 438ms.", 14)
    assert recall.verified(_post(tmp_path, near), [plant_near]) == []
    assert recall.verified(_post(tmp_path, far), [plant_far]) == [plant_far]


def test_only_plain_prose_paragraphs_take_plants(tmp_path: Path) -> None:
    post = _post(tmp_path)
    ends = recall.prose_paragraphs(post.lines, post.code_lines | post.html_lines, 1)
    texts = [post.lines[end - 1] for end in ends]
    assert all(not t.startswith(("#", "-", "|", "`", "---")) for t in texts)
    assert "It keeps the provider from being hammered during an outage." in texts


def test_the_gate_reads_a_claim_on_every_reported_line(tmp_path: Path) -> None:
    """The bench's bookkeeping against the gate itself: each plant's number is a claim
    (flagged, exempt or cited) on the line the bench reports, in a real git repository."""
    repo = make_repo(tmp_path / "repo", {"README.md": "A project.\n", "CHANGELOG.md": "# 1.0\n"})
    context = GateContext.create(Settings(repo=repo, ref="HEAD", offline=True), tmp_path / "c")
    posts = tmp_path / "_posts"
    posts.mkdir()
    for seed in range(6):
        _post_before, lines, plants = _plant(tmp_path, seed, per_post=len(recall.SHAPES))
        target = posts / f"2026-06-0{seed + 1}-planted.md"
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        planted = parse_post(target)
        card = GATE.evaluate(planted, context)
        for plant in recall.verified(planted, plants):
            _caught, said = recall.outcome(card, plant)
            assert not said.startswith("not read as a claim"), (plant, said)
