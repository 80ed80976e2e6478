"""``postgates``: the seeds' gate-runner CLI, on top of pytest.

    postgates run DRAFT.md... [--all] [--only=1,2,7] [-- PYTEST_ARGS...]
    postgates hook [--online] FILE...      (the pre-commit hook; see ci.py)
    postgates summary [--scorecards DIR]   (a GitHub job summary; see ci.py)
    postgates action {gates|verdict}       (the GitHub Action's steps; see ci_action.py)
    postgates explain POST TOKEN           (why gate 2 decided so; see explain.py)
    postgates merge --out DIR SHARD_DIR... (join --postgates-shard runs; see merge.py)

Runs the gates through pytest (same collection, settings and scorecards as ``pytest``),
prints each post's overall JSON, and exits 0 exactly when every hard gate of every post
passed. Advisory gates never change the exit code. Findings of failing gates go to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from pytest_postgates.escaping import one_line
from pytest_postgates.session import describe_record

EXIT_OK = 0
EXIT_GATES_FAILED = 1
EXIT_USAGE = 2


class _Collector:
    """Receives the overall verdicts from the run (a pytest plugin object)."""

    def __init__(self) -> None:
        self.overall: dict[str, dict[str, Any]] = {}
        self.records: dict[str, dict[int, dict[str, Any]]] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        recorder = session.config.pluginmanager.get_plugin("postgates-overall")
        if recorder is not None:
            self.overall = dict(recorder.overall)
            self.records = dict(recorder.records)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="postgates", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the gates on posts and print overall JSON")
    run.add_argument("posts", nargs="+", metavar="POST", help="Markdown post(s) or folders")
    run.add_argument("--all", action="store_true", help="no short-circuit: run every gate")
    run.add_argument("--only", metavar="IDS", help="run only these gate ids, e.g. --only=2,14")
    from pytest_postgates import merge

    merge.add_arguments(commands.add_parser("merge", help=merge.DESCRIPTION))
    # These parse their own arguments (their modules' parsers, dispatched in main before
    # this parser runs); declared here so that --help and the CLI reference list them.
    for name, text in DELEGATED.items():
        delegated = commands.add_parser(name, help=text, add_help=False)
        delegated.add_argument(
            "arguments", nargs=argparse.REMAINDER, help=f"see `postgates {name} --help`"
        )
    return parser


DELEGATED = {
    "hook": "the pre-commit hook: gate the Markdown files named (see ci.py)",
    "summary": "a GitHub job summary from the scorecards (see ci.py)",
    "action": "the GitHub Action's steps: gates, verdict (see ci_action.py)",
    "explain": "why gate 2 decided so on a token of a post (see explain.py)",
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("hook", "summary"):  # CI entry points (pre-commit, Action)
        from pytest_postgates import ci

        return ci.hook(argv[1:]) if argv[0] == "hook" else ci.summary(argv[1:])
    if argv and argv[0] == "action":
        from pytest_postgates import ci_action

        return ci_action.main(argv[1:])
    if argv and argv[0] == "explain":
        from pytest_postgates import explain

        return explain.main(argv[1:])
    if argv and argv[0] == "merge":
        from pytest_postgates import merge

        return merge.main(argv[1:])
    # Everything after a lone "--" goes to pytest untouched; options before it are ours
    # wherever they stand (``postgates run X.md --all`` as the seeds' CLI takes them).
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    args = build_parser().parse_args(argv)
    # --postgates: the command is asked for posts whatever folder it is given.
    pytest_args = [*args.posts, "--postgates", "-p", "no:terminal", "-p", "no:cacheprovider"]
    pytest_args += extra
    if args.all:
        pytest_args.append("--postgates-all")
    if args.only:
        pytest_args.append(f"--postgates-only={args.only}")
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        pytest_args[:0] = ["-p", "pytest_postgates.plugin"]
    collector = _Collector()
    code = pytest.main(pytest_args, plugins=[collector])
    if code in (
        pytest.ExitCode.USAGE_ERROR,
        pytest.ExitCode.INTERNAL_ERROR,
        pytest.ExitCode.INTERRUPTED,
    ):
        print(f"postgates: pytest exited with {code!s}", file=sys.stderr)
        return EXIT_USAGE
    if not collector.overall:
        named = one_line(" ".join(args.posts))
        print(f"postgates: no posts were collected from {named}", file=sys.stderr)
        return EXIT_USAGE
    try:
        _print_results(collector)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours. Point stdout at
        # /dev/null so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    passed = all(report["overall"] == "PASS" for report in collector.overall.values())
    return EXIT_OK if passed else EXIT_GATES_FAILED


def _print_results(collector: _Collector) -> None:
    for post, report in sorted(collector.overall.items()):
        print(json.dumps(report, indent=2, sort_keys=True))
        for record in sorted(collector.records.get(post, {}).values(), key=lambda r: r["gate"]):
            if record["verdict"] in ("FAIL", "ERROR"):
                shown = one_line(post)
                print(f"{shown}: {describe_record(record)}", file=sys.stderr)
                for line, finding_code, message, _fix in record["findings"]:
                    finding = f"{one_line(finding_code)} {one_line(message)}"
                    print(f"{shown}:{line or 1}: {finding}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
