"""pytest hooks of pytest-postgates: options, collection, markers, reports, xdist.

Hooks only; the behaviour lives in ``runner`` (gates of a post), ``nodes`` (items) and
``session`` (per-run state and overall verdicts).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import config as settings_module
from pytest_postgates.activation import WORKERINPUT_KEY, Activation, decide
from pytest_postgates.batch import RUN_DIR_KEY
from pytest_postgates.evidence.api_model import vouch_in
from pytest_postgates.fileio import set_waiting_work
from pytest_postgates.gates import SETTINGS_TYPES, in_run_order
from pytest_postgates.gates.base import Gate
from pytest_postgates.lookahead import LookAhead, xdist_note
from pytest_postgates.nodes import GateItem, PostFile, PostgatesProblem
from pytest_postgates.post import is_markdown
from pytest_postgates.session import STATE_KEY, OverallRecorder, PostgatesState, file_name_problem
from pytest_postgates.shards import PLUGIN_NAME, Shard, ShardRun

__all__ = ["LOOKAHEAD_KEY", "STATE_KEY"]

LOOKAHEAD_KEY = pytest.StashKey["LookAhead | None"]()
ACTIVATION_KEY = pytest.StashKey[Activation]()

FLAGS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "--postgates-repo",
        "repo",
        {
            "metavar": "PATH",
            "help": "git repository the posts are grounded against "
            "(default: the repository that contains each post)",
        },
    ),
    (
        "--postgates-ref",
        "ref",
        {
            "metavar": "REF",
            "help": "ref whose package.json/exports are authoritative (default: HEAD)",
        },
    ),
    (
        "--postgates-package",
        "package",
        {
            "metavar": "NAME",
            "help": "the real published package name (default: from the repository)",
        },
    ),
    (
        "--postgates-scorecards",
        "scorecards",
        {"metavar": "DIR", "help": "where scorecards are written (default: .postgates/scorecards)"},
    ),
    ("--postgates-only", "only", {"metavar": "IDS", "help": "run only these gate ids, e.g. 11,13"}),
    (
        "--postgates-jobs",
        "jobs",
        {
            "metavar": "N",
            "help": "processes gating posts in a serial run: N > 1 starts N-1 look-ahead "
            "worker processes (a process pool) that gate later posts; auto = one per spare "
            "CPU; ignored under -n (xdist is the engine) (default: 1, no process started)",
        },
    ),
    (
        "--postgates-shard",
        "shard",
        {
            "metavar": "K/N",
            "help": "run only shard K of N: whole posts, by a stable hash of the post path "
            "(a CI matrix; 'postgates merge' joins the shards' outputs)",
        },
    ),
    (
        "--postgates-feedback",
        "feedback",
        {"metavar": "FILE", "help": "write drafter retry feedback for failing posts"},
    ),
    (
        "--postgates-changed",
        "changed",
        {"metavar": "REF", "help": "collect only posts changed since this git ref"},
    ),
    (
        "--postgates-sarif",
        "sarif",
        {"metavar": "FILE", "help": "write a SARIF 2.1.0 log of every finding (code scanning)"},
    ),
    (
        "--postgates-html",
        "html",
        {"metavar": "FILE", "help": "write a self-contained HTML report of the corpus"},
    ),
)
SWITCHES: tuple[tuple[str, str, str], ...] = (
    (
        "--postgates-all",
        "run_all",
        "run every gate of a post even after a hard gate failed (no short-circuit)",
    ),
    (
        "--postgates-offline",
        "offline",
        "no network: external links are reported as unchecked, not dead",
    ),
    ("--postgates-snapshot", "snapshot", "compare scorecards with pinned snapshots"),
)


def ini_keys() -> list[str]:
    """Every ``postgates_*`` ini key: the run-wide keys and the gates' own."""
    gate_keys = settings_module.Settings.declare(SETTINGS_TYPES).gate_keys()
    run_wide = [key for key, kind in settings_module.KEYS.items() if kind != "gates"]
    return [f"postgates_{key}" for key in (*run_wide, *gate_keys)]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("postgates", "pytest-postgates: blog posts as test cases")
    group.addoption(
        "--postgates",
        dest="postgates_activate",
        action="store_true",
        default=False,
        help="collect posts in a run that names no Markdown path and has no postgates "
        "configuration (as pytest-mypy's --mypy)",
    )
    for flag, key, kwargs in FLAGS:
        group.addoption(flag, dest=f"postgates_{key}", default=None, **kwargs)
    for flag, key, help_text in SWITCHES:
        group.addoption(
            flag, dest=f"postgates_{key}", action="store_true", default=False, help=help_text
        )
    for key, kind in settings_module.KEYS.items():
        if kind in ("paths", "ids"):
            # Typed: pytest splits the value on whitespace (quotes keep a space), the
            # settings then on commas, so that "a b", "a, b" and "a,b" are one list.
            parser.addini(
                f"postgates_{key}",
                f"pytest-postgates setting '{key}' (see [tool.postgates]); a list",
                type="args",
                default=[],
            )
        elif kind != "gates":
            parser.addini(
                f"postgates_{key}",
                f"pytest-postgates setting '{key}' (see [tool.postgates])",
                default="",
            )
    # The gates' own keys, with the meaning each gate declares for them.
    for key, (_, declared) in settings_module.Settings.declare(SETTINGS_TYPES).gate_keys().items():
        parser.addini(
            f"postgates_{key}", f"pytest-postgates setting '{key}': {declared.help}", default=""
        )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgates: a quality gate run on a blog post (pytest-postgates)"
    )
    config.addinivalue_line("markers", "hard: a blocking postgates gate; its FAIL fails the run")
    config.addinivalue_line(
        "markers", "advisory: a non-blocking postgates gate; its FAIL is an expected failure"
    )
    workerinput = getattr(config, "workerinput", None)
    try:
        if workerinput is not None and WORKERINPUT_KEY in workerinput:
            activation = Activation.from_workerinput(workerinput[WORKERINPUT_KEY])
        else:
            activation = decide(config, ini_keys())  # reads pyproject.toml: may be broken
        config.stash[ACTIVATION_KEY] = activation
        if not activation.active:
            return  # a run that did not ask for posts is left as it is
        state = PostgatesState.from_config(config, activation.post_folders)
    except settings_module.SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[STATE_KEY] = state
    if state.context.batches.parts > 1:
        # A worker waiting on another's lock computes a part of a batch instead (batch.py),
        # and loads the API model another process of the run built without checking it.
        set_waiting_work(state.context.batches.help_once)
        vouch_in(state.context.batches.run_dir)
    if not hasattr(config, "workerinput"):
        # Overall verdicts are decided where every report arrives: the xdist controller,
        # or the only process.
        config.pluginmanager.register(OverallRecorder(state), "postgates-overall")
    if state.settings.shard is not None:
        shard = Shard(*state.settings.shard)
        config.pluginmanager.register(ShardRun(shard, state.settings.scorecards), PLUGIN_NAME)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    state = config.stash.get(STATE_KEY, None)
    if state is not None:
        return state.header().split("\n")
    activation = config.stash.get(ACTIVATION_KEY, None)
    return [activation.hint] if activation is not None and activation.hint else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> PostFile | None:
    if not is_markdown(file_path):
        return None
    state = parent.config.stash.get(STATE_KEY, None)
    if state is None or not state.is_post(file_path, parent.session.isinitpath(file_path)):
        return None
    state.register_post(file_path)
    if file_name_problem(file_path) is not None:
        # Not UTF-8: the node id is the printable form, so that it can be reported (and
        # cross to xdist's controller); the post's items ERROR with the reason.
        shown = state.display(file_path)
        return PostFile.from_parent(
            parent, path=file_path, name=shown.rsplit("/", 1)[-1], nodeid=shown
        )
    return PostFile.from_parent(parent, path=file_path)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    # After -k/-m/--deselect have run: a deselected gate is not a failure and must not
    # short-circuit anything, so each post learns which of its gates remain.
    shard_run = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if isinstance(shard_run, ShardRun):
        shard_run.select(config, items)  # other shards' posts: deselected, never run
    selected: dict[PostFile, list[Gate]] = {}
    for item in items:
        if isinstance(item, GateItem) and isinstance(item.parent, PostFile):
            selected.setdefault(item.parent, []).append(item.gate)
    for post_file, gates in selected.items():
        post_file.run.selected = in_run_order(gates)
    state = config.stash.get(STATE_KEY, None)
    if state is not None:
        state.set_selection({post_file.path: gates for post_file, gates in selected.items()})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, Any]:
    report = yield
    if isinstance(item, GateItem):
        if call.excinfo is not None and isinstance(call.excinfo.value, PostgatesProblem):
            report.longrepr = call.excinfo.value.text
        if call.when == "setup" and item.card is not None:
            # Travels with the report to the xdist controller, which writes overall files.
            report.postgates = item.run_record()
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    # Before pytest's own loop runs the items: with jobs > 1, workers gate the later posts.
    config = session.config
    if config.option.collectonly or (
        session.testsfailed and not config.option.continue_on_collection_errors
    ):
        return
    state = config.stash.get(STATE_KEY, None)
    if state is not None:
        config.stash[LOOKAHEAD_KEY] = LookAhead.for_session(session, state)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    lookahead = item.config.stash.get(LOOKAHEAD_KEY, None)
    if lookahead is not None and isinstance(item, GateItem):
        lookahead.before_item(item.path)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    # -x, --maxfail, Ctrl-C or the end: no worker outlives the session.
    lookahead = session.config.stash.get(LOOKAHEAD_KEY, None)
    if lookahead is not None:
        lookahead.stop()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    lookahead = config.stash.get(LOOKAHEAD_KEY, None)
    if lookahead is not None:
        for line in lookahead.summary:
            terminalreporter.write_line(line)
    state = config.stash.get(STATE_KEY, None)
    note = xdist_note(config, state.settings) if state is not None else None
    if note is not None:
        terminalreporter.write_line(note)


def pytest_unconfigure(config: pytest.Config) -> None:
    lookahead = config.stash.get(LOOKAHEAD_KEY, None)
    if lookahead is not None:
        lookahead.stop()
    state = config.stash.get(STATE_KEY, None)
    if state is not None and state.context.results is not None:
        state.context.results.flush()  # every process: the stamps of what it wrote
    if state is not None and state.context.batches.parts > 1:
        set_waiting_work(None)
        vouch_in(None)
    if state is not None and not hasattr(config, "workerinput"):
        state.context.batches.remove()


@pytest.hookimpl(tryfirst=True, specname="pytest_runtestloop")
def pytest_runtestloop_prefetch(session: pytest.Session) -> None:
    # Before xdist's worker loop runs the first item: the second worker builds the index.
    # (Named apart from the hook so that another pytest_runtestloop here cannot shadow it.)
    worker = getattr(session.config, "workerinput", {}).get("workerid")
    if worker is not None and session.items:
        from pytest_postgates.xdist import prefetch

        prefetch(session, worker)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    # xdist: every worker follows the controller's activation (its own command line is
    # not the user's) and shares the controller's scratch folder for batch results.
    node.workerinput[WORKERINPUT_KEY] = node.config.stash[ACTIVATION_KEY].to_workerinput()
    state = node.config.stash.get(STATE_KEY, None)
    if state is not None:
        node.workerinput[RUN_DIR_KEY] = str(state.context.batches.run_dir)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    # xdist's default "load" mode would scatter one post's gates over several workers;
    # grouping them keeps "parsed once per run" and short-circuit exact.
    if config.getvalue("dist") != "load" or config.stash.get(STATE_KEY, None) is None:
        return None
    from pytest_postgates.xdist import PostScopeScheduling

    return PostScopeScheduling(config, log)
