"""The timer stops before the timed JAX work is waited on, so it measures the
dispatch{claim}`is-ready-never-waits`{claim}`dispatch-is-paced`. Checklist:
{ref}`review-timing-without-blocking`.

```python
t0 = time.perf_counter()
y = step(x)
elapsed = time.perf_counter() - t0  # JW101
```

Right: `y = step(x).block_until_ready()` before reading the timer{claim}`returns-self`; for
`timeit`, time `lambda: step(x).block_until_ready()`. A wait only on the step's inputs, before
the step was dispatched (a batch read back to the host), is reported too: it waits for nothing
the step does.
"""

from __future__ import annotations

from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.regions import TIMED_WORDS, judgeable
from harnesscheck.rules import Seen, Source

CODE = "JW101"
NAME = "timer-before-wait"
ANCHOR = "review-timing-without-blocking"
CLAIMS = ("is-ready-never-waits", "returns-self", "dispatch-is-paced")
SUMMARY = "the timer stops before the timed JAX work is waited on, so it measures the dispatch"
WORDS = TIMED_WORDS


def check(source: Source) -> Iterator[Finding]:
    for region in source.regions:
        timed = region.timed
        if not judgeable(region, source.facts):
            continue
        if not timed.waited:
            said = "nothing timed here was waited on"
        elif timed.inputs_waited():
            said = "only the inputs of the timed work were waited on, not the work they feed"
        else:
            continue
        yield finding(
            CODE,
            region.end,
            f"the timer stops, but {said}: block on the result "
            "(`jax.block_until_ready(...)`) before reading the timer",
        )


def watched(seen: Seen) -> str:
    found = seen.found
    running = sum(f["running"] for f in found)
    dropped = sum(bool(f.get("dropped")) and not f["running"] for f in found)
    if running:
        state = f"still running at the read ({running} of {len(found)}): the time is wrong here"
    elif dropped:
        state = (
            f"not seen finished: its results were dropped before the read ({dropped} of "
            f"{len(found)}), so whether it was still running is not known"
        )
    else:
        state = "finished before the read by chance: wrong on a loaded or faster machine"
    return (
        f"the timer read here ends an interval (from {seen.since}) in which the work dispatched "
        f"at {seen.where} was not waited on, {seen.times}; it was {state}. Block on the result "
        "(`jax.block_until_ready(...)`) before reading the timer"
    )
