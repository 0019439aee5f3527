"""Several results of separately dispatched work are timed and only some are waited
on{claim}`waits-on-own-buffers`{claim}`block-does-not-drain-later-work`{claim}`block-the-whole-step`.
Checklist: {ref}`review-one-output-of-several`.

```python
t0 = time.perf_counter()
loss = loss_fn(params)
params = update(params)
loss.block_until_ready()
elapsed = time.perf_counter() - t0  # JW103: params not waited on
```

Right: `jax.block_until_ready((loss, params))`. It is reported whichever result was dispatched
first: a block waits for its own array's buffers only (that earlier work on one device has
finished too is by chance). Blocking one output of a single jitted call is not reported: all its
outputs come from one computation; nor is a result handed to the work waited on, nor a random
key split beside the work (``jax.random.split``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.syntax import dotted_parts
from harnesscheck.regions import TIMED_WORDS, judgeable
from harnesscheck.rules import Seen, Source

CODE = "JW103"
NAME = "one-output-blocked"
ANCHOR = "review-one-output-of-several"
CLAIMS = ("waits-on-own-buffers", "block-does-not-drain-later-work", "block-the-whole-step")
SUMMARY = "only some results of separately dispatched work are waited on before the timer stops"
WORDS = TIMED_WORDS


def check(source: Source) -> Iterator[Finding]:
    for region in source.regions:
        timed = region.timed
        if not judgeable(region, source.facts) or not timed.waited or timed.inputs_waited():
            continue
        keys = {(c.lineno, c.col_offset) for c in timed.calls if _key_bookkeeping(c)}
        left = timed.left() - keys
        unwaited = sorted({timed.made[p] for p in left})
        if unwaited:
            yield finding(
                CODE,
                region.end,
                f"the timer stops with {', '.join(unwaited)} not waited on: block on every "
                "result of the timed work",
            )


def _key_bookkeeping(call: ast.Call) -> bool:
    """``jax.random.split(key)``, ``PRNGKey(0)``, ``fold_in``: the keys of the work, not the
    work timed; a region that leaves them unwaited has waited for what it measures."""
    parts = dotted_parts(call.func)
    return parts[-1:] in (["split"], ["PRNGKey"], ["key"], ["fold_in"]) and "random" in parts


def watched(seen: Seen) -> str:
    return (
        f"the interval timed from {seen.since} to here waited on some of its work but not on "
        f"the results dispatched at {seen.where}, {seen.times}: results of separate calls are "
        "not ready together; block on all of them (`jax.block_until_ready((a, b))`)"
    )
