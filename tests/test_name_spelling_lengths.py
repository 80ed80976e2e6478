"""The near misses' walk over names of about a name's length (name_spelling.near_in_length)."""

from __future__ import annotations

from pytest_postgates.evidence.name_spelling import near_in_length


def test_names_near_in_length_are_the_asked_sets_never_a_kept_ones() -> None:
    """name_spelling.near_in_length keeps the last set's names by length: another set
    (another model's member names) is answered from its own names, in sorted order."""
    first = frozenset({"sendMail", "sendMails", "send", "postMail", "fetchMe", "sendMaik"})
    assert list(near_in_length(first, 8)) == sorted(n for n in first if 7 <= len(n) <= 9)
    other = frozenset({"sendMail", "readMail"})
    assert list(near_in_length(other, 8)) == ["readMail", "sendMail"]
    assert list(near_in_length(first, 4)) == ["send"]
    assert list(near_in_length(frozenset(), 8)) == []
