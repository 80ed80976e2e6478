"""CI integration (issue 13 steps 4 and 5): the pre-commit hook and the job summary.

The pre-commit test builds the hook's environment for real with ``pre-commit try-repo``
(pip installs this repository and its dependencies from PyPI: about a minute the first
time). ``PRE_COMMIT_HOME`` may name a folder to keep that environment between runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_postgates import ci

REPO = Path(__file__).resolve().parent.parent
GOOD = (
    "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
    "This post shows how pytest runs a Python plugin over Markdown files.\n\n"
    "Each gate becomes one test item.\n"
)
BROCHURE = GOOD.replace("Each gate becomes one test item.", "Honestly, it is a paradigm shift.")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def scratch_repo(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    return root


# ------------------------------------------------------------------------- the hook
def test_hook_manifest_shape() -> None:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "postgates"
    assert hook["language"] == "python"
    assert hook["types"] == ["markdown"]
    assert hook["entry"] == "postgates hook"
    assert hook.get("args", []) == []  # offline comes from the command's default


def test_hook_gates_only_posts_and_is_offline_unless_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.postgates]\npaths = ["docs/*"]\n')
    monkeypatch.chdir(tmp_path)
    calls: list[list[str]] = []

    def fake_main(args: list[str], *rest: Any, **kwargs: Any) -> int:
        calls.append(list(args))
        return 0

    monkeypatch.setattr(pytest, "main", fake_main)
    staged = ["_posts/a.md", "README.md", "docs/guide/b.md", "other/c.md", "notes.txt"]
    assert ci.post_files(staged, tmp_path) == ["_posts/a.md", "docs/guide/b.md"]
    assert ci.hook([*staged]) == 0
    assert calls[-1][:2] == ["_posts/a.md", "docs/guide/b.md"]
    assert "--postgates-offline" in calls[-1]
    assert ci.hook(["--online", "_posts/a.md", "--", "--postgates-only=11"]) == 0
    assert "--postgates-offline" not in calls[-1] and "--postgates-only=11" in calls[-1]
    calls.clear()
    assert ci.hook(["README.md"]) == 0 and calls == []  # nothing to gate: no pytest run


@pytest.mark.parametrize(
    ("config_file", "text"),
    [
        ("pytest.ini", "[pytest]\npostgates_paths = docs/*\n"),
        ("setup.cfg", "[metadata]\nname = x\n\n[tool:pytest]\npostgates_paths = docs/*\n"),
        ("tox.ini", "[tox]\n\n[pytest]\npostgates_paths = docs/* notes\n"),
        ("pyproject.toml", '[tool.pytest.ini_options]\npostgates_paths = ["docs/*"]\n'),
    ],
)
def test_hook_takes_postgates_paths_from_the_pytest_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config_file: str, text: str
) -> None:
    """Issue 27: postgates_paths in pytest.ini, setup.cfg, tox.ini or pyproject's pytest
    table chooses the posts, as in the project's own pytest runs (it used to be ignored:
    the hook passed while checking nothing)."""
    (tmp_path / config_file).write_text(text, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # relative to the configuration file, not the cwd
    staged = ["../docs/guide/b.md", "../README.md", "../other/c.md"]
    assert ci.post_files(staged, tmp_path / "sub") == ["../docs/guide/b.md"]


def test_hook_runs_pytest_in_the_projects_rootdir(tmp_path: Path) -> None:
    """The hook's own configuration (``-c``) would make its temporary folder the rootdir:
    it names the project's, found as pytest finds it, so scorecards land where they do."""
    from pytest_postgates import hook_config

    (tmp_path / "site/_posts").mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    setup = hook_config.project_setup(["site/_posts/a.md"], tmp_path)
    assert (setup.rootdir, setup.config_file) == (tmp_path, None)
    (tmp_path / "site/pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert hook_config.project_setup(["site/_posts/a.md"], tmp_path).rootdir == tmp_path / "site"
    (tmp_path / "tox.ini").write_text("[pytest]\npostgates_scorecards = cards\n")
    (tmp_path / "site/setup.cfg").write_text("[metadata]\nname = x\n")  # no pytest section
    setup = hook_config.project_setup(["site/_posts/a.md"], tmp_path)
    assert (setup.rootdir, setup.config_file) == (tmp_path, tmp_path / "tox.ini")
    arguments = setup.pytest_arguments(tmp_path / "empty.ini")
    assert arguments[:4] == ["-c", str(tmp_path / "empty.ini"), "--rootdir", str(tmp_path)]
    assert arguments[-2:] == ["-o", f"postgates_scorecards={tmp_path / 'cards'}"]


def _hook_process(project: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``postgates hook`` as pre-commit runs it: a process of its own, in the project."""
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    return subprocess.run(
        [sys.executable, "-m", "pytest_postgates", "hook", *arguments],
        cwd=project,
        env={**env, "PYTEST_ADDOPTS": "-p trio"},  # the project's, not the hook's
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_hook_runs_without_the_projects_pytest_plugins(tmp_path: Path) -> None:
    """Issue 27: the hook's environment lacks the plugins the project's own pytest setup
    loads (``-p trio`` in addopts and PYTEST_ADDOPTS, a conftest.py importing trio, a
    required plugin, a warning filter naming trio); it gates the posts all the same, with
    the project's postgates settings (postgates_paths, a gate's key) from pytest.ini."""
    project = tmp_path / "project"
    files = {
        "pytest.ini": (
            "[pytest]\naddopts = -p trio --strict-config\nrequired_plugins = pytest-trio\n"
            "filterwarnings = error::trio.TrioDeprecationWarning\n"
            "postgates_paths = docs\npostgates_body_line_floor = 1\n"
            # gate 11's brochure phrases are house style: this project adopts them
            "postgates_enforce_banned_phrases = true\n"
        ),
        "conftest.py": "import trio\n",
        "docs/good.md": GOOD,
        "docs/brochure.md": BROCHURE,
        "_posts/2026-01-01-good.md": GOOD,
        "README.md": "# Readme\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    only = ["--", "--postgates-only=1,11"]
    passed = _hook_process(project, "docs/good.md", "_posts/2026-01-01-good.md", "README.md", *only)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "4 passed" in passed.stdout, passed.stdout  # both gated (not "no posts among")
    failed = _hook_process(project, "docs/brochure.md", *only)
    assert failed.returncode == ci.EXIT_GATES_FAILED, failed.stdout + failed.stderr
    assert "narrative_opening" in failed.stdout and "trio" not in failed.stdout + failed.stderr
    assert "the gates failed" in failed.stdout


def test_hook_says_could_not_run_apart_from_gates_failed(tmp_path: Path) -> None:
    """Issue 27: a run that cannot start is "could not run" (exit 3, with the reason),
    never the exit code or the words of failing gates."""
    project = tmp_path / "project"
    (project / "_posts").mkdir(parents=True)
    (project / "_posts/2026-01-01-good.md").write_text(GOOD, encoding="utf-8")
    broken = _hook_process(project, "_posts/2026-01-01-good.md", "--", "-p", "no_such_plugin")
    assert broken.returncode == ci.EXIT_COULD_NOT_RUN == 3, broken.stdout + broken.stderr
    assert "postgates hook: could not run the gates: pytest exited with USAGE_ERROR" in (
        broken.stderr
    )
    assert "the gates failed" not in broken.stdout + broken.stderr
    nothing = _hook_process(project, "_posts/2026-01-01-good.md", "--", "-k", "no_such_gate")
    assert nothing.returncode == 3, nothing.stdout + nothing.stderr
    assert "could not run the gates: no gate item was collected from 1 post(s)" in (nothing.stderr)
    (project / "pyproject.toml").write_text("[tool.postgates]\nbody_line_floor = -1\n")
    bad = _hook_process(project, "_posts/2026-01-01-good.md")
    assert bad.returncode == 3 and "could not run the gates: " in bad.stderr, bad.stderr


_NETWORK = re.compile(
    r"Temporary failure in name resolution|NewConnectionError|No matching distribution|"
    r"Could not find a version that satisfies|Network is unreachable",
    re.IGNORECASE,
)


def _try_repo(repo: Path, home: Path, *files: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "postgates", "-v"]
    return subprocess.run(
        [*command, "--files", *files],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home), "PYTEST_ADDOPTS": ""},
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_pre_commit_try_repo_runs_the_hook(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is a test dependency: pip install .[test]")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    home = Path(os.environ.get("PRE_COMMIT_HOME") or tmp_path / "pre-commit-home")
    repo = scratch_repo(
        tmp_path / "blog",
        {
            "_posts/2026-01-01-good.md": GOOD,
            "_posts/2026-01-01-brochure.md": BROCHURE,
            "README.md": "# Readme\n\nTODO\n",
            "pyproject.toml": (
                "[tool.postgates]\nbody_line_floor = 1\nenforce_banned_phrases = true\n"
            ),
        },
    )
    passed = _try_repo(repo, home, "_posts/2026-01-01-good.md", "README.md")
    output = passed.stdout + passed.stderr
    if passed.returncode != 0 and "Installing environment" in output and _NETWORK.search(output):
        pytest.skip("pre-commit could not build the hook environment (no PyPI): " + output[-400:])
    assert passed.returncode == 0, output
    assert re.search(r"postgates \(blog post quality gates\)\.+Passed", output), output
    assert "passed" in output and "README" not in output.split("Passed", 1)[1]
    failed = _try_repo(repo, home, "_posts/2026-01-01-brochure.md")
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert re.search(r"postgates \(blog post quality gates\)\.+Failed", output), output
    assert "narrative_opening" in output


# ----------------------------------------------------------------------- the summary
def _overall(post: str, verdicts: dict[int, str], cut: int | None = None) -> dict[str, Any]:
    names = {1: "blog_quality", 11: "narrative_opening", 13: "call_graph_claims"}
    gates = [
        {"gate": g, "name": names[g], "advisory": g == 13, "verdict": v}
        for g, v in verdicts.items()
    ]
    failing = [g for g, v in verdicts.items() if v in ("FAIL", "ERROR") and g != 13]
    return {
        "post": post,
        "overall": "FAIL" if failing or cut else "PASS",
        "failing_gates": failing,
        "short_circuited_at": cut,
        "gates": gates,
    }


def test_summary_counts_per_gate_and_links_failing_posts(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    for stem, report in {
        "a": _overall("_posts/a.md", {1: "PASS", 11: "PASS", 13: "FAIL"}),
        "b": _overall("_posts/b c.md", {1: "FAIL", 11: "SKIP", 13: "SKIP"}, cut=1),
    }.items():
        (folder / f"{stem}-overall.json").write_text(json.dumps(report))
    (folder / "junk-overall.json").write_text("{not json")
    text = ci.summary_markdown(ci.read_overall(folder), "https://github.com/o/r/blob/abc")
    assert "1 of 2 post(s) pass every hard gate." in text
    # Names are literal text in <code> (escaped for Markdown, tests/hostile/test_hostile_ci).
    assert "| 1 | <code>blog\\_quality</code> | hard | 1 | 1 | 0 | 0 |" in text
    assert "| 13 | <code>call\\_graph\\_claims</code> | advisory | 0 | 1 | 0 | 1 |" in text
    assert (
        "- [<code>\\_posts/b c.md</code>](https://github.com/o/r/blob/abc/_posts/b%20c.md): "
        "gate 1 <code>blog\\_quality</code>; short-circuited at gate 1"
    ) in text
    assert "posts/a.md" not in text  # a passing post is not listed
    output = tmp_path / "summary.md"
    output.write_text("earlier step\n")
    assert ci.summary(["--scorecards", str(folder), "--output", str(output)]) == 0
    assert output.read_text().startswith("earlier step\n## postgates")
    assert ci.summary(["--scorecards", str(tmp_path / "none")]) == 2


# ----------------------------------------------------------------- the GitHub Action
ACTION = REPO / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _action() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_action_shape() -> None:
    action = _action()
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    uses = [step.get("uses", "") for step in steps]
    assert uses[0].startswith("actions/setup-python@")
    upload = next(step for step in steps if step.get("uses", "").startswith("github/codeql"))
    assert upload["uses"] == "github/codeql-action/upload-sarif@v3"
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert "always()" in upload["if"]
    ids = [step.get("id") for step in steps]
    assert ids.index("install") < ids.index("gates") < ids.index("summary") < ids.index("verdict")
    assert set(action["inputs"]) >= {"paths", "args", "offline", "sarif-file", "scorecards"}
    for step in steps:
        # Inputs are handed over in env, never spliced into a script (no injection).
        assert "${{" not in step.get("run", ""), step
        if "run" in step:
            assert step["shell"] == "bash"
    # The steps' logic is a module of the package (tests/test_ci_action.py), not shell.
    gates = next(step for step in steps if step.get("id") == "gates")
    assert gates["run"] == "postgates action gates"
    assert set(gates["env"]) >= {"POSTGATES_PATHS", "POSTGATES_ARGS", "POSTGATES_SARIF"}
    verdict = next(step for step in steps if step.get("id") == "verdict")
    assert verdict["run"] == "postgates action verdict"
    assert action["outputs"]["outcome"]["value"] == "${{ steps.gates.outputs.outcome }}"
    assert "no:cacheprovider" not in ACTION.read_text(encoding="utf-8")
    summary = next(step for step in steps if step.get("id") == "summary")
    assert summary["run"].startswith("postgates summary")


def _evaluate(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression[len("inputs.") :]]
        if expression == "github.action_path":
            return str(REPO)
        found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        if found:
            return outputs.get(found.group(1), {}).get(found.group(2), "")
        raise AssertionError(f"expression the test cannot evaluate: {expression}")

    return _EXPRESSION.sub(value, text)


def run_action_locally(
    repo: Path, given: dict[str, str], *, install: bool = True, may_fail: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Run the action's bash steps in ``repo`` as a runner would: inputs from the defaults
    and ``given``, step outputs through GITHUB_OUTPUT, the summary into
    GITHUB_STEP_SUMMARY. The install step runs with ``--dry-run --no-deps`` (this venv
    already has the package; a real install here would replace the editable one);
    ``install=False`` leaves it out (a second run of the same tree: pip's isolated build
    environment alone costs half a minute)."""
    action = _action()
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update(given)
    outputs: dict[str, dict[str, str]] = {}
    summary = repo / "step-summary.md"
    codes: dict[str, int] = {}
    bin_folder = str(Path(sys.executable).parent)
    for step in action["runs"]["steps"]:
        if "run" not in step or (step["id"] == "install" and not install):
            continue
        output_file = repo / f".output-{step['id']}"
        output_file.write_text("")
        env = {
            **os.environ,
            "PATH": bin_folder + os.pathsep + os.environ["PATH"],
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_REPOSITORY": "octo/blog",
            "GITHUB_SHA": "0123abc",
            "GITHUB_SERVER_URL": "https://github.com",
            "PYTEST_ADDOPTS": "",
        }
        env.update({k: _evaluate(str(v), inputs, outputs) for k, v in step.get("env", {}).items()})
        script = step["run"]
        if step["id"] == "install":
            script = script.replace("pip install", "pip install --dry-run --no-deps")
        script = script.replace("python -m", f"{sys.executable} -m")
        result = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", script],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        codes[step["id"]] = result.returncode
        if step["id"] != "verdict" and step["id"] not in may_fail:
            assert result.returncode == 0, (step["id"], result.stdout, result.stderr)
        if step["id"] == "verdict":
            outputs["verdict-log"] = {"stdout": result.stdout}
        outputs[step["id"]] = dict(
            line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line
        )
    return {"codes": codes, "outputs": outputs, "summary": summary.read_text(encoding="utf-8")}


def test_action_steps_run_on_a_scratch_repository(tmp_path: Path) -> None:
    repo = scratch_repo(
        tmp_path / "blog",
        {
            "_posts/2026-01-01-good.md": GOOD,
            "_posts/2026-01-01-brochure.md": BROCHURE,
            "pyproject.toml": (
                "[tool.postgates]\nbody_line_floor = 1\nenforce_banned_phrases = true\n"
            ),
        },
    )
    ran = run_action_locally(
        repo, {"offline": "true", "args": "--postgates-only=1,11,13 --postgates-all"}
    )
    assert ran["outputs"]["gates"]["exit-code"] == "1"
    assert ran["outputs"]["gates"]["outcome"] == "gates-failed"
    assert ran["codes"]["verdict"] == 1  # the job fails, after the upload and the summary
    assert ran["outputs"]["verdict-log"]["stdout"].startswith(
        "::error title=postgates gates-failed::the gates failed"
    )
    sarif = json.loads((repo / "postgates.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"narrative_opening"}
    assert "| 11 | <code>narrative\\_opening</code> | hard | 1 | 1 | 0 | 0 |" in ran["summary"]
    assert (
        "- [<code>\\_posts/2026-01-01-brochure.md</code>](https://github.com/octo/blog/blob/"
        "0123abc/_posts/2026-01-01-brochure.md): gate 11 <code>narrative\\_opening</code>"
    ) in ran["summary"]
    (repo / "_posts/2026-01-01-brochure.md").unlink()
    (repo / ".postgates").rename(repo / "old-cards")
    clean = run_action_locally(
        repo, {"offline": "true", "args": "--postgates-only=1,11,13"}, install=False
    )
    assert clean["outputs"]["gates"]["exit-code"] == "0"
    assert clean["codes"]["verdict"] == 0
    # pytest that cannot start is "could not run", not "gates failed" (issue 27).
    broken = run_action_locally(
        repo, {"args": "-p no_such_plugin"}, install=False, may_fail=("summary",)
    )
    assert broken["outputs"]["gates"] == {"exit-code": "4", "outcome": "could-not-run"}
    assert broken["codes"]["verdict"] == 1
    assert broken["outputs"]["verdict-log"]["stdout"].startswith(
        "::error title=postgates could-not-run::the gates could not run: pytest refused"
    )
