"""Gate 2's ``historical`` check (helpers/history_cues.py) on a name written alone: the
page's next sentence, when it speaks of the name, is read as the name's own."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

CODE = "def retry_delay_seconds() -> None: ...\n\n\ndef line_numbers() -> None: ...\n"


def test_a_list_item_of_the_name_alone_is_read_with_its_next_sentence(tmp_path: Path) -> None:
    """A migration guide's list: "- `line_number`" with the nested item "It was removed in
    2.0.": the next sentence, about the name alone, says it is the product's past."""
    repo = make_repo(tmp_path / "repo", {"mylib/__init__.py": CODE})
    ctx = repo_context(repo, tmp_path / "cache")
    body = (
        "Breaking changes:\n\n"
        "- `line_number`\n"
        "  - It was removed in 2.0.\n"
        "- `retry_delay_secs`\n"
        "  - This option works the same.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    entry = token_outcome(card, "line_number")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "historical"), entry
    # The next sentence says nothing of the kind: still a claim, and a miss.
    assert token_outcome(card, "retry_delay_secs")["outcome"] == "ungrounded"
