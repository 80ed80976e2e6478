"""Collection nodes: a post is a ``pytest.File``; each gate of it is a ``pytest.Function``.

Gate items are real ``Function`` items with a ``callobj`` so that they get fixtures like
any test (``request`` now; syrupy's ``snapshot`` for baselines). Collection reads nothing
from the post: parsing happens on the worker that runs the post's first item, once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.escaping import one_line, printable
from pytest_postgates.gates.base import Gate
from pytest_postgates.junit import testcase_properties_allowed
from pytest_postgates.runner import ExpectationError, PostRun, is_advisory
from pytest_postgates.scorecard import Scorecard, scorecard_path, write_json
from pytest_postgates.session import STATE_KEY, file_name_problem, file_name_refusal

if TYPE_CHECKING:
    from pytest_postgates.session import PostgatesState


class PostgatesProblem(Exception):
    """Base of the exceptions whose report is the gate's findings, not a traceback."""

    def __init__(self, item: GateItem, text: str) -> None:
        super().__init__(text)
        self.item = item
        self.text = text


class GateFailed(PostgatesProblem):
    """The gate's verdict is FAIL (an advisory gate's FAIL is an expected failure)."""


class GateErrored(PostgatesProblem):
    """The gate could not judge the post: bad input, missing repository, a crash."""


class SnapshotMismatch(PostgatesProblem):
    """Snapshot mode: the scorecard is not the pinned one."""


class ExpectationMismatch(PostgatesProblem):
    """The post declares an expected outcome that did not happen."""


def _gate_test() -> None:
    """The test function of a gate item outside snapshot mode. It takes no fixtures, so an
    item costs pytest no fixture resolution; :meth:`GateItem.runtest` judges the verdict
    computed at setup."""


def _gate_snapshot_test(request: pytest.FixtureRequest, snapshot: Any) -> None:
    """Snapshot mode: the scorecard must equal the one pinned by syrupy."""
    item = request.node
    assert isinstance(item, GateItem)
    item.check_snapshot(snapshot)


class PostFile(pytest.File):
    """A Markdown post; yields one item per implemented, selected gate."""

    def collect(self) -> Iterator[GateItem]:
        state = _state(self.config)
        for gate in state.gates:
            yield GateItem.from_parent(self, gate=gate)

    def fixture_info(self, test: Any) -> Any:
        """The fixture closure of ``test`` for items of this post.

        Every gate item runs the same function, and a Markdown file defines no fixtures, so
        the closure depends only on the post's folder (its conftests): it is computed once
        per folder, as pytest computes it once for all parametrized copies of a test.
        """
        cache: dict[tuple[Path, Any], Any] = self.config.stash.setdefault(_FIXTURE_INFO, {})
        key = (self.path.parent, test)
        info = cache.get(key)
        if info is None:
            manager = self.session._fixturemanager
            # Typed for an Item, but it reads only the node's markers and autouse scope,
            # which the File has and its items share.
            info = cache[key] = manager.getfixtureinfo(node=self, func=test, cls=None)  # type: ignore[arg-type]
        return info

    @property
    def run(self) -> PostRun:
        run = getattr(self, "_postgates_run", None)
        if run is None:
            state = _state(self.config)
            name_problem = file_name_refusal(self.path)
            run = PostRun(
                self.path,
                state.display(self.path),
                state.stem(self.path),
                state.context,
                roots=state.roots,
                refusal=name_problem,
            )
            self._postgates_run = run
        return run


class GateItem(pytest.Function):
    def __init__(self, *, gate: Gate, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gate = gate
        self.card: Scorecard | None = None
        state = self.config.stash[STATE_KEY]
        self.snapshot_mode = state.settings.snapshot
        # Per post (gate 12 follows the project's markdownlint configuration); the post's
        # PostRun is made later, once every post is collected (its stem depends on them).
        advisory = is_advisory(gate, self.path, state.context)
        for marker in _item_markers(self.config, advisory, self.snapshot_mode):
            self.add_marker(marker)

    @classmethod
    def from_parent(cls, parent: PostFile, *, gate: Gate) -> GateItem:  # type: ignore[override]
        snapshot = parent.config.stash[STATE_KEY].settings.snapshot
        test = _gate_snapshot_test if snapshot else _gate_test
        return super().from_parent(
            parent,
            name=gate.name,
            callobj=test,
            gate=gate,
            fixtureinfo=parent.fixture_info(test),
        )

    @property
    def run(self) -> PostRun:
        assert isinstance(self.parent, PostFile)
        return self.parent.run

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        # Our own failures are their findings; building pytest's traceback for them first
        # (source lines, locals) cost more than the gates on a large corpus.
        if isinstance(excinfo.value, PostgatesProblem):
            return excinfo.value.text
        if isinstance(excinfo.value, pytest.xfail.Exception):
            # An advisory FAIL or a declared expectation: the reason is the whole story
            # (pytest shows it from ``wasxfail``), not a traceback into the plugin.
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def _repr_failure_py(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> Any:
        # The setup phase (ERROR items) reports through this method rather than repr_failure.
        if isinstance(excinfo.value, PostgatesProblem):
            return excinfo.value.text
        return super()._repr_failure_py(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        # The displayed path: a file name that is not UTF-8 cannot cross to the xdist
        # controller (or be printed) as it is.
        path = self.path if file_name_problem(self.path) is None else Path(self.run.display)
        return path, 0, f"{self.run.display}::{self.gate.name} (gate {self.gate.id})"

    def runtest(self) -> None:
        if self.snapshot_mode:
            super().runtest()  # the snapshot fixture is the assertion
        else:
            self.check_verdict()

    # ------------------------------------------------------------------ phases
    def setup(self) -> None:
        super().setup()
        card = self.run.evaluate(self.gate)
        self.card = card
        state = _state(self.config)
        target = scorecard_path(state.settings.scorecards, self.run.stem, card.gate, card.name)
        data = card.to_dict()
        results = self.run.context.results
        assert results is not None  # GateContext always has one
        # Names the file's content (a cached card's by its entry, without encoding it).
        digest = card.content_digest()
        try:
            if not results.written_unchanged(target, digest):
                write_json(target, data)
                results.record_written(target, digest)
        except OSError as exc:
            raise GateErrored(
                self,
                f"{card.name} (gate {card.gate}) ERROR: cannot write scorecard "
                f"{state.display(target)}: {exc.strerror or type(exc).__name__}",
            ) from None
        if testcase_properties_allowed(self.config):
            # Only the legacy JUnit family allows a testcase's own properties; in every
            # family the testsuite lists each item's verdict (junit.py).
            self.user_properties.extend(
                [
                    ("gate_id", card.gate),
                    ("verdict", card.verdict),
                    ("score", "" if card.score is None else card.score),
                ]
            )
        if self.snapshot_mode:
            # The pinned scorecard is the assertion, whatever the verdict.
            return
        # A malformed expectation is the post's problem: an ERROR at setup, like bad input.
        expectation = self._expectation()
        if card.verdict == "SKIP":
            # Reported at the post, not at this line of the plugin.
            raise pytest.skip.Exception(
                one_line(card.summary or "skipped"), _use_item_location=True
            )
        if card.verdict == "ERROR" and (expectation is None or expectation.verdict != "ERROR"):
            raise GateErrored(self, self.render(card))

    def check_verdict(self) -> None:
        card = self.card
        assert card is not None
        expectation = self._expectation()
        if expectation is not None:
            matched = card.verdict == expectation.verdict and (
                expectation.findings is None or expectation.findings == len(card.findings)
            )
            if not matched:
                raise ExpectationMismatch(
                    self,
                    f"{self.run.display}: front matter expects {self.gate.name} to "
                    f"{expectation.describe()}, but it gave {card.verdict} with "
                    f"{len(card.findings)} finding(s)\n" + self.render(card),
                )
            if card.verdict != "PASS":
                pytest.xfail(f"declared in front matter: {expectation.describe()}")
            return
        if card.verdict == "FAIL":
            if card.advisory:
                # The summary becomes the xfail reason (-rx, JUnit); findings are in the file.
                pytest.xfail(one_line(f"advisory gate {card.name} FAIL: {card.summary}"))
            refused = self.run.refused_expectation(self.gate)
            note = f"\n{one_line(refused)}" if refused else ""
            raise GateFailed(self, self.render(card) + note)

    def check_snapshot(self, snapshot: Any) -> None:
        from syrupy.extensions.json import JSONSnapshotExtension

        card = self.card
        assert card is not None
        from syrupy.terminal import disable_color

        pinned = snapshot(extension_class=JSONSnapshotExtension)
        if pinned != card.to_dict():
            # syrupy's own diff, shown without a traceback through the plugin; coloured only
            # where the terminal shows colour (not in CI logs, files or xdist transport).
            if self.config.get_terminal_writer().hasmarkup:
                diff = "\n".join(pinned.get_assert_diff())
            else:
                with disable_color():
                    diff = printable("\n".join(pinned.get_assert_diff()))
            raise SnapshotMismatch(
                self,
                f"{card.name} (gate {card.gate}) scorecard differs from the pinned snapshot "
                f"(--snapshot-update re-pins it)\n{diff}",
            )

    def _expectation(self) -> Any:
        try:
            return self.run.expectation(self.gate)
        except ExpectationError as exc:
            # The message quotes the post's keys: one line, never a line of its own.
            raise GateErrored(self, one_line(f"{self.run.display}: {exc}")) from None

    def run_record(self) -> dict[str, Any]:
        """What the overall verdict and the feedback file need, as plain data (it crosses
        from xdist workers to the controller inside the test report)."""
        card = self.card
        assert card is not None
        return {
            "post": self.run.display,
            "stem": self.run.stem,
            "gate": card.gate,
            "name": card.name,
            "advisory": card.advisory,
            "verdict": card.verdict,
            "short_circuited_at": card.detail.get("short_circuited_at")
            if card.verdict == "SKIP"
            else None,
            "summary": card.summary,
            "score": card.score,
            "findings": [[f.line, f.code, f.message, f.fix] for f in card.findings],
            "note": card.detail.get("note", "") if isinstance(card.detail.get("note"), str) else "",
            "suppressed": len(card.detail.get("suppressed", ()))
            if isinstance(card.detail.get("suppressed"), list)
            else 0,
        }

    # ------------------------------------------------------------------ output
    def render(self, card: Scorecard) -> str:
        """The verdict line first (pytest's short summary shows it), then one
        ``file:line: CODE message`` line per finding."""
        # Each value quoting the post or its file name stays on its own line (one_line);
        # the block as a whole is printable.
        summary = one_line(card.summary)
        lines = [f"{card.name} (gate {card.gate}) {card.verdict}: {summary}".rstrip(": ")]
        display = one_line(self.run.display)
        lines.extend(
            f"{display}:{finding.line or 1}: {one_line(finding.code)} {one_line(finding.message)}"
            for finding in card.findings
        )
        if card.trace:
            lines.append(card.trace.rstrip())
        # Findings quote the post: its escape sequences are shown, never acted on.
        return printable("\n".join(lines))


_FIXTURE_INFO = pytest.StashKey[dict[tuple[Path, Any], Any]]()
_MARKERS = pytest.StashKey[dict[tuple[bool, bool], tuple[pytest.MarkDecorator, ...]]]()


def _item_markers(
    config: pytest.Config, advisory: bool, snapshot_mode: bool
) -> tuple[pytest.MarkDecorator, ...]:
    """The markers of a gate item, made once per run for each kind of item (marks are
    immutable, so items share them as parametrized copies of a test do)."""
    made = config.stash.setdefault(_MARKERS, {})
    markers = made.get((advisory, snapshot_mode))
    if markers is None:
        markers = (pytest.mark.postgates, pytest.mark.advisory if advisory else pytest.mark.hard)
        if advisory and not snapshot_mode:
            # Only a gate FAIL is the expected failure; an ERROR stays an error.
            markers += (
                pytest.mark.xfail(
                    reason="advisory gate: a FAIL never fails the run",
                    raises=GateFailed,
                    strict=False,
                ),
            )
        made[advisory, snapshot_mode] = markers
    return markers


def _state(config: pytest.Config) -> PostgatesState:
    return config.stash[STATE_KEY]
