"""Gate 15 on shell lines running the repository's own Python scripts (script_runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers.script_runs import flag_line, script_run
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

TRAIN = (
    "import argparse\n\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--base_model', type=str)\n"
    "    parser.add_argument('--target_modules', type=str)\n"
    "    parser.add_argument('--rank', type=int)\n"
    "    args = parser.parse_args()\n"
)
# A script whose flags a library the gate does not read derives (fire): no parser read.
MERGE = "import fire\n\ndef main(base_model_name: str = ''): ...\n\nfire.Fire(main)\n"
FILES = {
    "pyproject.toml": '[project]\nname = "lorakit"\n',
    "lorakit/__init__.py": "def tune(model): ...\n",
    "examples/finetune/train.py": TRAIN,
    "examples/finetune/merge.py": MERGE,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("scripts"), FILES)


def _check(body: str, tmp_path: Path, repo: Path, where: Path | None = None) -> Scorecard:
    post = make_post(body, where or tmp_path)
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def _sh(code: str) -> str:
    return f"Run it:\n\n```bash\n{code}\n```\n"


def _flags(card: Scorecard) -> list[tuple[int, str]]:
    return [(v["line"], v["name"]) for v in card.detail["violations"] if v["kind"] == "cli_flag"]


def test_a_flag_the_scripts_parser_does_not_declare_is_a_finding(
    tmp_path: Path, repo: Path
) -> None:
    code = (
        "python examples/finetune/train.py --base_model m --delora_target_modules q,v\n"
        "python examples/finetune/train.py --base_model m --target_modules q,v --rank 8"
    )
    card = _check(_sh(code), tmp_path, repo)
    assert _flags(card) == [(card.detail["violations"][0]["line"], "--delora_target_modules")]
    reason = card.detail["violations"][0]["reason"]
    assert "train.py" in reason and "--target-modules" in reason  # the nearest real flag
    assert {"line": card.detail["violations"][0]["line"] + 1, "name": "--rank", "kind": "flag"} in (
        card.detail["checked_names"]
    )


def test_launchers_hand_the_words_after_the_script_to_it(tmp_path: Path, repo: Path) -> None:
    code = (
        "torchrun --nproc_per_node 8 examples/finetune/train.py --rnak 8\n"
        "accelerate launch --num_processes 2 examples/finetune/train.py --rank 8"
    )
    card = _check(_sh(code), tmp_path, repo)
    assert [name for _, name in _flags(card)] == ["--rnak"]  # not the launchers' own flags


def test_a_continued_command_places_each_flag_on_its_own_line(tmp_path: Path, repo: Path) -> None:
    code = "python examples/finetune/train.py \\\n    --base_model m \\\n    --rank_size 8"
    card = _check(_sh(code), tmp_path, repo)
    fence_first = card.detail["violations"][0]["line"] - 2
    assert _flags(card) == [(fence_first + 2, "--rank_size")]


def test_a_script_named_from_the_pages_folder_is_found(tmp_path: Path, repo: Path) -> None:
    page_folder = repo / "examples" / "finetune"
    card = _check(_sh("python train.py --rank 8 --lr 3"), tmp_path, repo, where=page_folder)
    assert [name for _, name in _flags(card)] == ["--lr"]


def test_a_parser_the_gate_cannot_read_is_unjudged_with_its_reason(
    tmp_path: Path, repo: Path
) -> None:
    card = _check(_sh("python examples/finetune/merge.py --base_model_id x"), tmp_path, repo)
    assert card.detail["violations"] == []
    assert any(
        "merge.py" in u["text"] and "framework" in u["reason"] for u in card.detail["unjudged"]
    )


def test_the_readers_own_script_and_modules_are_not_the_repositorys(
    tmp_path: Path, repo: Path
) -> None:
    code = (
        "python my_train.py --anything 1\npython -m examples.finetune.train --zz\npytest x.py --q"
    )
    card = _check(_sh(code), tmp_path, repo)
    assert card.detail["violations"] == []
    assert not any("my_train" in u["text"] for u in card.detail["unjudged"])


def test_script_run_reads_interpreter_options_and_paths() -> None:
    tracked = {"a/run.py", "run.py"}.__contains__
    found = script_run(["python3", "-u", "-X", "dev", "./run.py", "--x"], "", tracked)
    assert found is not None and (found.path, found.args) == ("run.py", ["--x"])
    found = script_run(["python", "run.py"], "a", tracked)
    assert found is not None and found.path == "a/run.py"  # the page's folder first
    assert script_run(["python", "../run.py"], "", tracked) is None
    assert script_run(["python", "-c", "run.py"], "", tracked) is None
    assert script_run(["deepspeed", "--num_gpus", "2"], "", tracked) is None


@given(
    st.lists(st.sampled_from(["--rank", "--rank_size", "x", "\\", "'--rank'"]), max_size=6),
    st.integers(min_value=0, max_value=5),
)
def test_flag_line_finds_the_first_line_writing_the_flag_whole(words: list[str], at: int) -> None:
    lines = [" ".join(words)] * at + ["  --rank 8 \\"]
    line = flag_line(10, lines, "--rank")
    before = [i for i, text in enumerate(lines) if "--rank" in text.replace("--rank_size", "")]
    assert line == 10 + before[0]


def test_a_parser_keeping_unknown_flags_leaves_them_unjudged(tmp_path: Path) -> None:
    known = TRAIN.replace("parser.parse_args()", "parser.parse_known_args()")
    repo = make_repo(tmp_path / "repo", {**FILES, "examples/finetune/train.py": known})
    card = _check(_sh("python examples/finetune/train.py --rank 8 --lora_alpha 4"), tmp_path, repo)
    assert card.detail["violations"] == []
    assert any(
        "flags it does not list (examples/finetune/train.py:8)" in u["reason"]
        for u in card.detail["unjudged"]
    )


def test_argparse_takes_a_unique_prefix_of_a_long_option(tmp_path: Path, repo: Path) -> None:
    # allow_abbrev (argparse's default): `--target` is `--target_modules`, the one option it
    # begins; `--ra` begins `--rank` only; `--base_model_id` begins none.
    code = "python examples/finetune/train.py --target q,v --ra 8 --base_model_id m"
    card = _check(_sh(code), tmp_path, repo)
    assert [name for _, name in _flags(card)] == ["--base_model_id"]


def test_a_prefix_of_two_options_or_of_a_parser_without_abbreviations_is_a_finding(
    tmp_path: Path,
) -> None:
    two = TRAIN.replace("'--rank'", "'--rank_size'") + "    parser.add_argument('--rank')\n"
    exact = TRAIN.replace("ArgumentParser()", "ArgumentParser(allow_abbrev=False)")
    files = {**FILES, "examples/two.py": two, "examples/exact.py": exact}
    repo = make_repo(tmp_path / "repo", files)
    code = "python examples/two.py --ran 8\npython examples/exact.py --target q"
    card = _check(_sh(code), tmp_path, repo)
    assert [name for _, name in _flags(card)] == ["--ran", "--target"]
    assert "ambiguous" in card.detail["violations"][0]["reason"]


HF_PARSED = (
    "from dataclasses import dataclass, field\n"
    "from transformers import HfArgumentParser, TrainingArguments\n\n"
    "@dataclass\nclass Base:\n    seed: int = 0\n\n"
    "@dataclass\nclass ScriptArguments(Base):\n"
    "    base_model_name: str = field(default='')\n    merge: bool = True\n\n"
    "parser = HfArgumentParser(ScriptArguments)\n"
)


def test_a_dataclass_parsers_flags_are_its_dataclasses_fields(tmp_path: Path) -> None:
    # HfArgumentParser (an ArgumentParser): `--<field>` per field, its bases' too, and
    # `--no_<field>` of a bool; a class it is given from elsewhere leaves the flags open.
    wide = HF_PARSED.replace("(ScriptArguments)", "((ScriptArguments, TrainingArguments))")
    files = {**FILES, "examples/merge.py": HF_PARSED, "examples/wide.py": wide}
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "python examples/merge.py --base_model_id x --base_model_name y --seed 1 --no_merge\n"
        "python examples/wide.py --learning_rate 1"
    )
    card = _check(_sh(code), tmp_path, repo)
    assert [name for _, name in _flags(card)] == ["--base_model_id"]
    assert any(
        "(examples/wide.py:13)" in u["reason"] and "not all written" in u["reason"]
        for u in card.detail["unjudged"]
    )


def test_a_fence_that_shows_output_has_no_commands_but_its_prompted_ones(
    tmp_path: Path, repo: Path
) -> None:
    # A fence whose info string says it shows output: its lines are what was printed.
    run = "python examples/finetune/train.py --bogus"
    card = _check(f'It prints:\n\n```bash title="Terminal Output"\n{run}\n```\n', tmp_path, repo)
    assert _flags(card) == []
    (tmp_path / "prompted").mkdir()
    body = f"It prints:\n\n```console output\n$ {run}\n```\n"
    assert [n for _, n in _flags(_check(body, tmp_path / "prompted", repo))] == ["--bogus"]


@pytest.mark.parametrize("prompt", ["(venv) $ ", "% ", "\u276f ", "me@box:~/src$ "])
def test_a_session_prompt_makes_the_lines_without_one_output(
    tmp_path: Path, repo: Path, prompt: str
) -> None:
    # The prompted line is the command (its flag judged); the line after it, printed by it.
    script = "python examples/finetune/train.py"
    code = f"{prompt}{script} --nope\n{script} --out"
    card = _check(f"Run it:\n\n```console\n{code}\n```\n", tmp_path, repo)
    assert [n for _, n in _flags(card)] == ["--nope"]
