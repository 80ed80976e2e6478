"""``postgates merge --out DIR SHARD_DIR...``: what one run over the whole corpus writes,
from the outputs of N ``--postgates-shard K/N`` runs.

Each SHARD_DIR is a folder a shard wrote its outputs into (a CI job's artifact): it holds
the shard's scorecards folder, with the manifest ``postgates-shard-K-of-N.json`` in it
(shards.py), and whatever reports the run wrote below the same folder. DIR gets the same
layout:

- the scorecards: every shard's files, copied (a post's cards come from the one shard that
  ran it; the manifests are not copied);
- the SARIF log, the HTML report and the retry feedback: rendered again, by the very
  functions a run renders them with, from the gate records of every shard's manifest, so
  they are byte for byte what one run writes (one SARIF run, results in one run's order,
  fingerprints as one run computes them);
- the JUnit file: the shards' testcases in one run's collection order, the testsuite's
  counts summed and the postgates properties of every gate item. pytest writes wall-clock
  values into it (the suite's ``timestamp`` and ``time``, each testcase's ``time``, the
  ``hostname``): the merged suite takes the earliest shard's timestamp and the longest
  shard's time; everything else is byte for byte what one serial run writes.

The job summary is read from the merged scorecards (``postgates summary --scorecards
DIR/...``), as from one run's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_postgates.shards import MANIFEST_FORMAT, MANIFEST_GLOB

EXIT_OK = 0
EXIT_USAGE = 2
REPORTS = ("sarif", "html", "feedback")


class MergeError(Exception):
    """The shard folders cannot be merged; the text says why (one line)."""


@dataclass(frozen=True)
class ShardOutput:
    """One shard's folder and its manifest."""

    folder: Path
    manifest: Path
    data: Mapping[str, Any]

    @property
    def scorecards(self) -> Path:
        """The scorecards folder relative to the shard folder."""
        return self.manifest.parent.relative_to(self.folder)

    def output(self, kind: str) -> Path | None:
        """Where (relative to the shard folder) the run wrote an output, if it did."""
        relative = self.data["outputs"].get(kind)
        if relative is None:
            return None
        path = Path(os.path.normpath(self.scorecards / relative))
        if path.is_absolute() or path.parts[:1] == ("..",):
            raise MergeError(
                f"{self.folder}: the shard wrote its {kind} output outside this folder "
                f"({relative} from the scorecards folder); write every output of a shard "
                "below one folder and pass that folder"
            )
        return path


def find_manifest(folder: Path) -> Path:
    if not folder.is_dir():
        raise MergeError(f"{folder}: not a folder")
    found = sorted(folder.rglob(MANIFEST_GLOB))
    if len(found) != 1:
        what = "no shard manifest" if not found else f"{len(found)} shard manifests"
        raise MergeError(
            f"{folder}: {what} ({MANIFEST_GLOB}) in it; pass one folder per shard run "
            "of --postgates-shard K/N"
        )
    return found[0]


def load_shards(folders: Sequence[Path]) -> list[ShardOutput]:
    """Every shard's manifest, checked to be the N shards of one corpus, in shard order."""
    shards: list[ShardOutput] = []
    for folder in folders:
        manifest = find_manifest(folder)
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise MergeError(f"{manifest}: cannot read: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            raise MergeError(f"{manifest}: not a shard manifest of this version of postgates")
        shards.append(ShardOutput(folder, manifest, data))
    counts = {shard.data["shard"][1] for shard in shards}
    if len(counts) != 1:
        raise MergeError(f"the folders hold shards of different counts: {sorted(counts)}")
    count = counts.pop()
    by_index: dict[int, ShardOutput] = {}
    for shard in shards:
        index = shard.data["shard"][0]
        if index in by_index:
            raise MergeError(
                f"shard {index}/{count} is given twice: {by_index[index].folder}, {shard.folder}"
            )
        by_index[index] = shard
    missing = [str(index) for index in range(1, count + 1) if index not in by_index]
    if missing:
        raise MergeError(f"shard(s) {', '.join(missing)} of {count} are missing")
    first = by_index[1]
    for shard in by_index.values():
        for key in ("items", "source_root", "outputs", "junit_prefix"):
            if shard.data[key] != first.data[key]:
                raise MergeError(
                    f"shards 1 and {shard.data['shard'][0]} differ in {key}: they were not "
                    "run over the same checkout with the same options"
                )
        if shard.scorecards != first.scorecards:
            raise MergeError(
                f"the scorecards folder is {first.scorecards} in {first.folder} but "
                f"{shard.scorecards} in {shard.folder}"
            )
    return [by_index[index] for index in range(1, count + 1)]


def merged_records(shards: Sequence[ShardOutput]) -> dict[str, dict[int, dict[str, Any]]]:
    """Every shard's gate records (post -> gate id -> record); JSON made the ids strings."""
    records: dict[str, dict[int, dict[str, Any]]] = {}
    for shard in shards:
        for post, gates in shard.data["records"].items():
            if post in records:
                raise MergeError(f"{post} was run by two shards")
            records[post] = {int(gate): record for gate, record in gates.items()}
    return records


def merge(shards: Sequence[ShardOutput], out: Path) -> list[Path]:
    """Write the merged outputs into ``out``; the paths written, relative to it."""
    from pytest_postgates import reports
    from pytest_postgates.fileio import write_atomic
    from pytest_postgates.session import feedback_text

    first = shards[0]
    rebuilt = {kind: first.output(kind) for kind in (*REPORTS, "junitxml")}
    records = merged_records(shards)
    overall = {post: report for shard in shards for post, report in shard.data["overall"].items()}
    written = copy_scorecards(shards, out, {path for path in rebuilt.values() if path})
    root = first.data["source_root"]
    source_root = reports.SourceRoot(
        Path(root["path"]), Path(root["rootdir"]), root["in_repository"]
    )
    renders = {
        "sarif": lambda: reports.dumps_sarif(records, source_root),
        "html": lambda: reports.html_report(records, overall),
        "feedback": lambda: feedback_text(records),
        "junitxml": lambda: merge_junit(shards, rebuilt["junitxml"], records),
    }
    for kind, relative in rebuilt.items():
        if relative is not None:
            write_atomic(out / relative, renders[kind]())
            written.append(relative)
    return written


def copy_scorecards(shards: Sequence[ShardOutput], out: Path, skip: set[Path]) -> list[Path]:
    """Every shard's scorecard files into ``out`` (the manifests and reports rendered again
    left out); a file two shards wrote must be the same bytes (the run's shared files)."""
    target = out / shards[0].scorecards
    target.mkdir(parents=True, exist_ok=True)
    copied: dict[str, Path] = {}
    for shard in shards:
        for source in sorted(shard.manifest.parent.iterdir()):
            relative = shard.scorecards / source.name
            if not source.is_file() or source.match(MANIFEST_GLOB) or relative in skip:
                continue
            earlier = copied.get(source.name)
            if earlier is not None:
                if earlier.read_bytes() != source.read_bytes():
                    raise MergeError(f"{source.name} differs between {earlier} and {source}")
                continue
            shutil.copyfile(source, target / source.name)
            copied[source.name] = source
    return [shards[0].scorecards / name for name in sorted(copied)]


def merge_junit(
    shards: Sequence[ShardOutput],
    relative: Path | None,
    records: Mapping[str, Mapping[int, Mapping[str, Any]]],
) -> str:
    """One JUnit file from the shards' (see the module's docstring for the clock values)."""
    from _pytest.junitxml import bin_xml_escape, mangle_test_address

    from pytest_postgates.junit import suite_properties

    assert relative is not None
    roots: list[ET.Element] = []
    for shard in shards:
        path = shard.folder / relative
        try:
            roots.append(ET.fromstring(path.read_text(encoding="utf-8")))
        except (OSError, ET.ParseError) as exc:
            raise MergeError(f"{path}: cannot read the shard's JUnit file: {exc}") from None
    suites = [root.find("testsuite") for root in roots]
    if any(suite is None for suite in suites):
        raise MergeError("a shard's JUnit file has no testsuite")
    # One run's order: the collection order every shard recorded.
    prefix = shards[0].data["junit_prefix"]
    positions: dict[tuple[str, str], deque[int]] = {}
    for index, nodeid in enumerate(shards[0].data["items"]):
        names = mangle_test_address(nodeid)
        classnames = ([prefix] if prefix else []) + names[:-1]
        key = (".".join(classnames), bin_xml_escape(names[-1]))
        positions.setdefault(key, deque()).append(index)
    ordered: list[tuple[int, ET.Element]] = []
    leading: dict[bytes, ET.Element] = {}  # not an item (a collection error): once, first
    others: dict[tuple[str, str], None] = {}  # other plugins' suite properties
    ours = {
        f"{post}::{record['name']}" for post, gates in records.items() for record in gates.values()
    }
    for suite in suites:
        assert suite is not None
        for prop in suite.iterfind("properties/property"):
            name, value = prop.get("name", ""), prop.get("value", "")
            if name not in ours:
                others.setdefault((name, value), None)
        for case in suite.iterfind("testcase"):
            key = (case.get("classname", ""), case.get("name", ""))
            queue = positions.get(key)
            if queue:
                ordered.append((queue.popleft(), case))
            else:
                leading.setdefault(ET.tostring(case), case)
    first = suites[0]
    assert first is not None
    attributes = dict(first.attrib)
    for count in ("errors", "failures", "skipped", "tests"):
        attributes[count] = str(sum(int(s.get(count, "0")) for s in suites if s is not None))
    attributes["time"] = max((s.get("time", "0") for s in suites if s is not None), key=float)
    attributes["timestamp"] = min(s.get("timestamp", "") for s in suites if s is not None)
    merged = ET.Element("testsuite", attributes)
    properties = [*others, *((n, bin_xml_escape(v)) for n, v in suite_properties(records))]
    if properties:
        node = ET.SubElement(merged, "properties")
        for name, value in properties:
            node.append(ET.Element("property", name=name, value=value))
    for case in [*leading.values(), *(case for _, case in sorted(ordered, key=lambda p: p[0]))]:
        merged.append(case)
    testsuites = ET.Element("testsuites")
    testsuites.set("name", roots[0].get("name", "pytest tests"))
    testsuites.append(merged)
    return '<?xml version="1.0" encoding="utf-8"?>' + ET.tostring(testsuites, encoding="unicode")


DESCRIPTION = (
    "merge the outputs of N --postgates-shard K/N runs into what one run over the whole "
    "corpus writes"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (also shown by the generated CLI reference)."""
    parser.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="DIR",
        help="folder for the merged outputs, laid out as each shard folder is",
    )
    parser.add_argument(
        "shards",
        nargs="+",
        type=Path,
        metavar="SHARD_DIR",
        help="one folder per shard run, holding its scorecards folder (with the "
        "postgates-shard-K-of-N.json manifest) and its reports",
    )


def main(arguments: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="postgates merge", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(list(arguments))
    try:
        shards = load_shards(args.shards)
        written = merge(shards, args.out)
    except MergeError as exc:
        print(f"postgates merge: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"postgates merge: {len(shards)} shard(s), {len(written)} file(s) written to {args.out}")
    return EXIT_OK
