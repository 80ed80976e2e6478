"""Where recall goes: each missed defect token, by the mechanism that decided it.

bench/natural_drift.py (``--json``) and bench/planted_docs.py (``--json``) keep, for every
case and every invention, the scorecard entries of the defect token at the parent: the
entries of gates 2, 14 and 15 whose token (gate 2), specifier (gate 14), text or name
(gate 15) contains the defect's name (the benches' own matching), with their distance from
its line, each gate's verdict there, and where the token is written on the page (prose
code span, heading, a fence and its language, ...). This bench reads those files, never a
page, and sorts every miss into one mechanism, decided by the entry nearest the line
within ``LINE_SLACK`` lines (natural drift; planted inventions: 1, as that bench counts a
catch):

1. ``not read``: no gate's card has an entry for the name near the line (its extractor
   never saw the token), by where it is written (a fence that gate 15 does not read is
   named with its language); ``judged elsewhere on the page`` when the only entries of the
   name are farther (a gate lists a token once per page), with what they say;
2. ``grounded``: the token was judged present, by the rule (else the evidence) that
   grounded it; gate 2's other clearing outcomes (external, defined-in-post,
   not-a-reference) likewise, by rule;
3. ``unjudged``: listed with a reason: gate 2's rule, gate 14's or 15's reason with its
   numbers and quoted names blanked;
4. ``gate error``: the gate that reads the token where it is written did not PASS or FAIL
   (an ERROR, a SKIP such as no package, a card missing), with its reason blanked;
5. ``reported``: a finding of the name near the line that the bench did not count (gate
   2's ``ungrounded`` list beyond its cap of 50, say): named, never hidden.

Gate 15's card lists what it checked by line and name (``checked_names``); a checked name
that is no violation was found present (``grounded: gate 15 checked <kind>``). A card
without that list (written before it) cannot tell a fence token it found present from one
it never read: ``not read or checked present``.

Per half (tune, report) x shape x mechanism the counts are printed; for the tune half the
case ids too (natural drift: ``project fix[:10] doc:line``; planted: ``project doc:line
invention``). The report half is counts only, never a token, doc or line: nobody reads a
held-out page for causes.

    python bench/miss_anatomy.py --drift ND.json --planted PD.json [--planted PD2.json]
                                 [--json OUT]
                                 [--results bench/results/miss_anatomy.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pytest_postgates.gates.symbol_grounding import entry_lines
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.post import parse_post

LINE_SLACK = 2
# Gate 2 outcomes that clear a token (the card's ``outcomes``): judged as not a miss.
CLEARED = ("grounded", "external", "defined-in-post", "not-a-reference")
# The gates that read a token where it is written: gate 2 in prose, 14 and 15 in code.
READERS = {"prose": (2,), "code": (14, 15)}


def where_written(text: str, line: int, names: Sequence[str], slack: int = LINE_SLACK) -> str:
    """Where the defect token sits on the page: the line nearest ``line`` (within
    ``slack``) that holds one of ``names``, read with the plugin's own Markdown parser:
    ``fence <lang> (read|not read by gate 15)``, ``indented code``, ``heading``, ``link
    text``, ``prose code span``, ``prose outside code span``, ``html``; ``line not found``
    when no line near holds the name."""
    post = parse_post(Path("page.md"), text.encode("utf-8"))
    near = sorted(range(line - slack, line + slack + 1), key=lambda n: (abs(n - line), n))
    at = next(
        (
            n
            for n in near
            if 1 <= n <= len(post.lines) and any(m in post.lines[n - 1] for m in names)
        ),
        None,
    )
    if at is None:
        return "line not found"
    for fence in post.fences:
        if at in fence.content_lines:
            kind = fence_kind(fence)
            read = "not read by gate 15" if kind is None else f"gate 15 reads as {kind}"
            return f"fence {fence.lang or '(no language)'}, {read}"
    for block in post.indented_code:
        if block.start_line < at <= block.start_line + block.content.count("\n"):
            kind = fence_kind(block)
            return f"indented code, gate 15 reads as {kind}" if kind else "indented code"
    if at in post.html_lines:
        return "html"
    written = post.lines[at - 1]
    if re.match(r"\s{0,3}#{1,6}\s", written):
        return "heading"
    spans = [s for s in post.code_spans if s.line == at and any(m in s.text for m in names)]
    if spans:
        return "link text code span" if spans[0].href else "prose code span"
    return "prose outside code span"


def _blank(reason: str) -> str:
    """A reason with the page's and the code's names blanked, so that one reason counts
    once (each blanked to ``…``: an underscore would read as emphasis on a rendered page) and
    a held-out reason shows no token, path or expression of its page: the use it
    opens with (``client.send: ...``), quoted names, parenthesised code, paths, dotted,
    snake_case and camelCase words, numbers."""
    reason = re.sub(r"^[^\s:]+: ", "", reason)
    reason = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"", "…", reason)
    reason = re.sub(r"\([^()]*\)", "(…)", reason)
    reason = re.sub(r"\S*[/.$]\S*|\b\w*[a-z][A-Z]\w*\b|\b\w+_\w+\b", "…", reason)
    return re.sub(r"\d+", "N", reason).strip()[:90]


def _medium(where: str) -> str:
    return "code" if where.startswith(("fence", "indented")) else "prose"


def classify(
    entries: Sequence[dict[str, Any]],
    verdicts: dict[str, str],
    reasons: dict[str, str],
    where: str,
    checked_listed: bool = True,
    slack: int = LINE_SLACK,
) -> str:
    """The mechanism that decided one missed token, from the card entries of its name on
    the page (``gate``, ``outcome``, ``rule``, ``where``, ``reason``, ``line`` and
    ``distance``: how far from the labelled line), the gates' verdicts at the parent (by
    gate number as a string) and their reasons, where the token is written
    (:func:`where_written`) and whether gate 15's card lists the names it checked.

    An entry within ``slack`` lines decides, the nearest first (at one distance the name
    itself before a token holding it, then the gate that reads the token where it is
    written); with none near, an entry of the name
    elsewhere on the page is named as such (a gate lists a token once per page)."""
    readers = READERS[_medium(where)]
    near = [e for e in entries if int(e.get("distance", 0)) <= slack]
    decided = _decision(near, readers)
    if decided:
        return decided
    elsewhere = _decision([e for e in entries if int(e.get("distance", 0)) > slack], readers)
    if elsewhere:
        return f"judged elsewhere on the page: {elsewhere}"
    for gate in readers:
        verdict = verdicts.get(str(gate), "")
        if verdict and verdict not in ("PASS", "FAIL"):
            return f"gate error: gate {gate} {verdict} {_blank(reasons.get(str(gate), ''))}".strip()
    if "gate 15 reads" in where and not checked_listed:
        return f"not read or checked present: {where}"
    return f"not read: {where}"


def _decision(entries: Sequence[dict[str, Any]], readers: tuple[int, ...]) -> str | None:
    """What the entry nearest the line says (None without entries)."""
    ranked = sorted(
        entries,
        key=lambda e: (
            int(e.get("distance", 0)),
            not e.get("exact"),
            int(e["gate"]) not in readers,
            int(e["gate"]),
        ),
    )
    for entry in ranked:
        gate, outcome = int(entry["gate"]), str(entry.get("outcome", ""))
        if outcome in CLEARED:
            how = entry.get("rule") or "no rule recorded"
            if outcome == "grounded" and not entry.get("rule") and entry.get("where"):
                how = "evidence " + _evidence(str(entry["where"]))
            return f"{outcome}: gate {gate} {how}"
        if outcome == "unjudged":
            why = entry.get("rule") or _blank(str(entry.get("reason", "")))
            return f"unjudged: gate {gate} {why}"
        if outcome in ("ungrounded", "violation"):
            return f"reported: gate {gate} {outcome}"
    return None


def _evidence(where: str) -> str:
    """Gate 2's ``where`` of a grounding without a rule, as a kind: ``text``, a file's
    extension (``file .py``), else the value's first word."""
    if where in ("text", "") or (" " not in where and "." not in where):
        return where or "none"
    head = where.split()[0].split(":")[0]
    suffix = Path(head).suffix
    return f"file {suffix}" if suffix else head[:40]


def name_entries(
    entries: Iterable[dict[str, Any]], names: Sequence[str], line: int
) -> list[dict[str, Any]]:
    """The card entries whose token contains one of ``names``, each with its ``distance``
    from ``line`` and whether the token is the name itself (``exact``: without call
    parentheses, leading dashes or dots, or an assignment)."""
    kept = []
    for entry in entries:
        token = str(entry.get("token", ""))
        if any(n in token for n in names):
            bare = re.sub(r"\(.*\)$|=.*$", "", token).strip("`").lstrip("-.")
            distance = abs(int(entry.get("line", 0)) - line)
            kept.append({**entry, "distance": distance, "exact": bare in names})
    return kept


def card_entries(gate: int, detail: dict[str, Any]) -> list[dict[str, Any]]:
    """Every entry of one gate's card detail, in one shape: ``gate``, ``line``, ``token``,
    ``outcome`` and what the card says of it (``rule``, ``where``, ``reason``, ``source``)."""
    out: list[dict[str, Any]] = []
    if gate == 2:
        listed = [("ungrounded", i) for i in detail.get("ungrounded") or []]
        for outcome, items in (detail.get("outcomes") or {}).items():
            listed += [(outcome, i) for i in items]
        for outcome, item in listed:
            said = {k: str(item[k]) for k in ("rule", "where", "reason", "source") if item.get(k)}
            out += [{"gate": 2, "line": line, "token": str(item["token"]), "outcome": outcome,
                     **said} for line in entry_lines(item)]  # fmt: skip
        return out
    key = "specifier" if gate == 14 else "name"
    for listing, outcome in (("violations", "violation"), ("unjudged", "unjudged")):
        for item in detail.get(listing) or []:
            token = str(item.get(key) or item.get("text") or item.get("specifier") or "")
            out.append({"gate": gate, "line": int(item.get("line", 0)), "token": token,
                        "outcome": outcome, "reason": str(item.get("reason", ""))})  # fmt: skip
    # Gate 15's checked names: what it checked and did not report was found present.
    # A violation's name is shown with its owner (``client.gett``, ``Client(tmeout=)``).
    reported = {
        (int(v.get("line", 0)), word)
        for v in detail.get("violations") or []
        for word in re.findall(r"[\w$-]+", str(v.get("name", "")))
    }
    for item in detail.get("checked_names") or []:
        line, name = int(item.get("line", 0)), str(item.get("name", ""))
        if (line, name) not in reported:
            out.append({"gate": gate, "line": line, "token": name, "outcome": "grounded",
                        "rule": f"checked {item.get('kind', '')}"})  # fmt: skip
    return out


# ------------------------------------------------------------------------ the tables
def drift_items(data: dict[str, Any]) -> list[dict[str, Any]]:
    """natural_drift's cases: half, shape, caught, and for a miss its mechanism and id."""
    out = []
    for case in data.get("cases", []):
        item = {"half": case["split"], "shape": case["shape"], "caught": bool(case["caught"])}
        if not case["caught"]:
            item["mechanism"] = classify(
                case.get("entries", []), case.get("verdicts", {}), case.get("reasons", {}),
                case.get("where", "line not found"), bool(case.get("checked_listed")),
            )  # fmt: skip
            item["id"] = f"{case['project']} {case['fix'][:10]} {case['doc']}:{case['line']}"
        out.append(item)
    return out


def planted_items(data: dict[str, Any]) -> list[dict[str, Any]]:
    """planted_docs' inventions (every half of the file), as :func:`drift_items`."""
    halves = data.get("halves") or {data.get("half", "report"): data}
    out = []
    for half, measured in halves.items():
        for invention in measured["overall"]["inventions"]:
            caught = invention["outcome"] == "ungrounded"
            item = {"half": half, "shape": invention["shape"], "caught": caught}
            if not caught:
                item["mechanism"] = classify(
                    invention.get("entries", []), {"2": invention.get("verdict", "")},
                    {"2": invention.get("verdict_reason", "")},
                    invention.get("where", "line not found"), slack=1,
                )  # fmt: skip
                item["id"] = (f"{invention['project']} {invention['doc']}:{invention['line']} "
                              f"{invention['invention']}")  # fmt: skip
            out.append(item)
    return out


def cells_of(items: Sequence[dict[str, Any]]) -> dict[tuple[str, str, str], list[str]]:
    """(half, shape, mechanism) -> the ids of its misses."""
    cells: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for item in items:
        if not item["caught"]:
            cells[(item["half"], item["shape"], item["mechanism"])].append(item["id"])
    return dict(cells)


SILENT = "gate 15 reads"  # in a `not read: ...` mechanism: a sample gate 15 reads


def silent_in_samples(items: Sequence[dict[str, Any]], half: str) -> int:
    """Issue 26's silence figure: the misses of ``half`` written in a code sample gate 15
    reads that no card names at all (``not read: fence js, gate 15 reads as code``): gate
    15 neither checked nor listed them unjudged."""
    return sum(
        1
        for i in items
        if i["half"] == half and not i["caught"]
        and i["mechanism"].startswith("not read") and SILENT in i["mechanism"]
    )  # fmt: skip


def print_table(title: str, items: Sequence[dict[str, Any]]) -> None:
    cells = cells_of(items)
    for half in ("tune", "report"):
        chosen = {k: v for k, v in cells.items() if k[0] == half}
        cases = [i for i in items if i["half"] == half]
        if not cases:
            continue
        missed = sum(not i["caught"] for i in cases)
        print(f"\n== {title}, {half} half: {missed} misses of {len(cases)}")
        print(f"  silent (named by no card) in samples gate 15 reads: "
              f"{silent_in_samples(items, half)}")  # fmt: skip
        totals: Counter[str] = Counter()
        for (_, _, mechanism), ids in chosen.items():
            totals[mechanism] += len(ids)
        print("  by mechanism, all shapes:")
        for mechanism, count in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"    {count:>4}  {mechanism}")
        for shape in sorted({i["shape"] for i in cases}):
            rows = sorted(((k[2], v) for k, v in chosen.items() if k[1] == shape),
                          key=lambda kv: (-len(kv[1]), kv[0]))  # fmt: skip
            whole = sum(i["shape"] == shape for i in cases)
            print(f"  {shape}: {sum(len(v) for _, v in rows)} missed of {whole}")
            for mechanism, ids in rows:
                print(f"    {len(ids):>4}  {mechanism}")
                if half == "tune":  # held-out ids are never printed
                    for ident in sorted(ids):
                        print(f"            {ident}")


def record(run: Any, name: str, items: Sequence[dict[str, Any]]) -> None:
    """Three tables: per half and shape the cases and catches (controls: the bench's own
    figures) beside the misses classified; per half the misses by mechanism; per half,
    shape and mechanism."""
    totals = run.table(
        f"{name}: misses classified per half and shape",
        [{"name": "half", "kind": "label"}, {"name": "shape", "kind": "label"},
         {"name": "cases", "kind": "control"}, {"name": "caught", "kind": "control"},
         {"name": "misses classified", "kind": "figure"}],
    )  # fmt: skip
    for half, shape in sorted({(i["half"], i["shape"]) for i in items}, key=_order):
        chosen = [i for i in items if (i["half"], i["shape"]) == (half, shape)]
        caught = sum(i["caught"] for i in chosen)
        totals.append([half, shape, len(chosen), caught, len(chosen) - caught])
    silence = run.table(
        f"{name}: misses named by no card in samples gate 15 reads (never silent: 0)",
        [{"name": "half", "kind": "label"}, {"name": "silent misses", "kind": "figure"}],
    )  # fmt: skip
    for half in sorted({i["half"] for i in items}, key=lambda h: _order((h,))):
        silence.append([half, silent_in_samples(items, half)])
    cells = cells_of(items)
    by_mechanism = run.table(
        f"{name}: misses per half and mechanism (all shapes)",
        [{"name": "half", "kind": "label"}, {"name": "mechanism", "kind": "label"},
         {"name": "misses", "kind": "figure"}],
    )  # fmt: skip
    pooled: Counter[tuple[str, str]] = Counter()
    for (half, _shape, mechanism), ids in cells.items():
        pooled[(half, mechanism)] += len(ids)
    for (half, mechanism), count in sorted(
        pooled.items(), key=lambda kv: (*_order(kv[0][:1]), -kv[1], kv[0][1])
    ):
        by_mechanism.append([half, mechanism, count])
    rows = run.table(
        f"{name}: misses per half, shape and mechanism",
        [{"name": "half", "kind": "label"}, {"name": "shape", "kind": "label"},
         {"name": "mechanism", "kind": "label"}, {"name": "misses", "kind": "figure"}],
    )  # fmt: skip
    for (half, shape, mechanism), ids in sorted(
        cells.items(), key=lambda kv: (*_order(kv[0][:2]), -len(kv[1]), kv[0][2])
    ):
        rows.append([half, shape, mechanism, len(ids)])


def _order(key: tuple[str, ...]) -> tuple[Any, ...]:
    """Tune before report, then as written."""
    return (key[0] != "tune", *key)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drift", type=Path, action="append", default=[],
                        help="bench/natural_drift.py --json output (repeatable)")  # fmt: skip
    parser.add_argument("--planted", type=Path, action="append", default=[],
                        help="bench/planted_docs.py --json output (repeatable)")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write the tables (report half: counts)")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    from bench.results_json import Run

    run = Run("miss_anatomy", {"drift": [str(p) for p in args.drift],
                               "planted": [str(p) for p in args.planted],
                               "line_slack": LINE_SLACK})  # fmt: skip
    payload: dict[str, Any] = {}
    for name, paths, read in (("natural drift", args.drift, drift_items),
                              ("planted inventions", args.planted, planted_items)):  # fmt: skip
        items: list[dict[str, Any]] = []
        for path in paths:
            data = json.loads(path.read_text(encoding="utf-8"))
            read_here = read(data)
            items += read_here
            measured = data.get("plugin_commit") or "not recorded in the file"
            halves = ", ".join(sorted({i["half"] for i in read_here}))
            projects = sorted(data.get("projects") or {})  # a planted file of one half
            run.notes.append(f"{name} (half: {halves}"
                             f"{', projects ' + ', '.join(projects) if projects else ''}): "
                             f"{path.name}, gates at plugin commit {measured}")  # fmt: skip
        if not items:
            continue
        print_table(name, items)
        record(run, name, items)
        payload[name] = [
            {"half": h, "shape": s, "mechanism": m, "misses": len(ids),
             **({"ids": sorted(ids)} if h == "tune" else {})}
            for (h, s, m), ids in sorted(cells_of(items).items())
        ]  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if args.results:
        run.write(args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
