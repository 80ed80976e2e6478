"""Gate 15's folder stamp lists a folder once per run (fence_stamps._listing): the listing
kept is used only while the folder's time of change is the one it was listed at, and never
for a folder changed in the last seconds; a stamp made from it is the stamp made anew."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_postgates.helpers import fence_stamps


@pytest.fixture(autouse=True)
def _own_stamps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(fence_stamps, "_KNOWN", {})
    yield


def _page(folder: Path, name: str, code: str) -> None:
    (folder / name).write_text(f"# {name}\n\n```ts\n{code}\n```\n", encoding="utf-8")


def _age(path: Path, seconds: int = 60) -> None:
    past = time.time() - seconds
    os.utime(path, (past, past))


def test_a_kept_listing_gives_the_stamp_made_anew_until_the_folder_changes(
    tmp_path: Path,
) -> None:
    _page(tmp_path, "a.md", "const orm = init();")
    _page(tmp_path, "b.md", "const em = orm.em;")
    (tmp_path / "notes.txt").write_text("not a page")
    _age(tmp_path)
    listings: fence_stamps.Listings = {}
    first = fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    assert str(tmp_path) in listings
    assert first == fence_stamps.folder_stamp(tmp_path / "a.md", None)
    assert fence_stamps.folder_stamp(tmp_path / "b.md", None, listings=listings) == first
    # A page added: the folder's time of change moves, and it is listed again.
    _page(tmp_path, "c.md", "const other = orm.em;")
    added = fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    assert "c.md:" in added and added != first
    assert added == fence_stamps.folder_stamp(tmp_path / "a.md", None)
    # A page edited (the folder unchanged): its own stamp moves, the listing kept.
    _age(tmp_path)
    fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    _page(tmp_path, "b.md", "const em = orm.em.fork();")
    os.utime(tmp_path / "b.md", ns=(time.time_ns(), time.time_ns() + 1_000_000))
    edited = fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    assert edited != added
    assert edited == fence_stamps.folder_stamp(tmp_path / "a.md", None)
    # A page removed.
    (tmp_path / "c.md").unlink()
    removed = fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    assert "c.md:" not in removed


def test_a_folder_changed_in_the_last_seconds_is_listed_each_time(tmp_path: Path) -> None:
    _page(tmp_path, "a.md", "const orm = init();")
    listings: fence_stamps.Listings = {}
    first = fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    assert listings == {}  # within its clock's tick another page may come unseen
    _page(tmp_path, "b.md", "const em = orm.em;")
    assert fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings) != first


def test_a_kept_listing_is_keyed_by_the_folders_identity_and_time_of_change(
    tmp_path: Path,
) -> None:
    """What the kept listing trusts: the folder's device, inode and time of change."""
    _page(tmp_path, "a.md", "const orm = init();")
    _age(tmp_path)
    listings: fence_stamps.Listings = {}
    fence_stamps.folder_stamp(tmp_path / "a.md", None, listings=listings)
    stamp, _, _ = listings[str(tmp_path)]
    status = os.stat(tmp_path)
    assert stamp == (status.st_dev, status.st_ino, status.st_mtime_ns)
