"""A suppression comment names a rule that finds nothing on its line (or, for ``ignore-file``,
in its file), or an ``ignore`` that names no rule stands on a line where no rule finds anything.
A suppression that silences nothing hides nothing today, but it says a mistake is meant where
there is none, and it will silence the next real one on that line. It is the review's own rule,
not an item of the checklist.

```python
t0 = time.perf_counter()
y = step(x).block_until_ready()  # jaxwaits: ignore[JW101] the mistake
elapsed = time.perf_counter() - t0
```

Right: take the code out of the comment (here the whole comment: the line waits).
"""

from __future__ import annotations

from collections.abc import Iterator

from harnesscheck.findings import Finding
from harnesscheck.rules import Source

CODE = "JW100"
NAME = "unused-suppression"
ANCHOR = ""  # no checklist item: its link is to its own section of the review-tool page
CLAIMS: tuple[str, ...] = ()
SUMMARY = "a suppression comment silences nothing: no rule it names finds anything there"
WORDS = ("jaxwaits:",)
AFTER_OTHERS = True  # it is given what the other rules found


def check(source: Source) -> Iterator[Finding]:
    for comment in source.comments:
        silenced = [f for f in source.found if comment.silences(f)]
        where = "in this file" if comment.whole else "on this line"
        if comment.codes is None:
            if not silenced:
                message = f"no rule finds anything {where}: this suppression silences nothing"
                yield Finding(CODE, comment.line, comment.col, message, comment.line)
            continue
        for name in sorted(comment.codes - {f.rule for f in silenced} - {CODE}):
            message = f"{name} finds nothing {where}: take it out of the suppression"
            yield Finding(CODE, comment.line, comment.col, message, comment.line)
