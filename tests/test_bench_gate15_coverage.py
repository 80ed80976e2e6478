"""bench/gate15_coverage.py: the tokens it enumerates in the fences gate 15 reads, what it
excludes as plainly not the product's, and when it takes a card to account for a token."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import load_bench

coverage = load_bench("bench_gate15_coverage", "gate15_coverage.py")

PAGE = """Intro.

```js
import { defineConfig } from 'nitroish';
const app = defineConfig({ preset: 'node' });
app.listen();
console.log(app.port);
wrap((state) => state.bears);
```

```python
from pyorm import Orm
import os
class User(Orm):
    pass
User.find(where=1)
os.path.join('a')
```
"""


def _measure(tmp_path: Path, detail: dict[str, object]) -> object:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "guide-overall.json").write_text(json.dumps({"post": "docs/guide.md"}), "utf-8")
    card = {"verdict": "PASS", "detail": {"package": "nitroish, pyorm", **detail}}
    (cards / "guide-gate15-code_samples.json").write_text(json.dumps(card), "utf-8")
    parsers = coverage.load_parsers()
    assert not isinstance(parsers, str)
    return coverage.measure_cards(lambda doc: PAGE.encode(), cards, parsers)


def test_tokens_are_silent_unless_the_card_names_them(tmp_path: Path) -> None:
    cover = _measure(tmp_path, {"checked_names": [], "violations": [], "unjudged": []})
    assert dict(cover.silent) == {"import": 2, "key": 1, "member": 4, "keyword": 1}
    # `console.log`, `os.path.join`: a global, another package's; `app.port` is the product's.
    assert cover.excluded[("member", "a global of the runtime")] == 1
    assert cover.excluded[("member", "another package")] == 2
    causes = {(kind, root) for kind, root, _context in cover.causes}
    assert ("member", "callback parameter") in causes
    assert ("member", "the page's class over (product import)") in causes


def test_an_entry_naming_the_token_near_its_line_accounts_for_it(tmp_path: Path) -> None:
    detail = {
        "checked_names": [{"line": 4, "name": "defineConfig"}, {"line": 13, "name": "Orm"}],
        "violations": [{"line": 5, "name": "preset", "reason": "no such key"}],
        "unjudged": [
            {"line": 6, "name": "app.listen", "reason": "app.listen: `app` holds ..."},
            {"line": 7, "name": "app.port", "reason": "app.port: ..."},
            {"line": 8, "name": "state.bears", "reason": "state.bears: a parameter"},
            {"line": 17, "name": "User.find", "reason": "User.find: (`find` not judged)"},
            {"line": 17, "name": "where=", "reason": "a keyword argument of `User.find()`"},
        ],
    }
    cover = _measure(tmp_path, detail)
    assert sum(cover.silent.values()) == 0, cover.causes
    assert sum(cover.accounted.values()) == 8
