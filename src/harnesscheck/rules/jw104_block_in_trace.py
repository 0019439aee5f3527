"""`block_until_ready` inside a function that `jit`, `vmap`, `grad`, `scan` and the like trace: it
waits for nothing{claim}`block-under-jit-is-noop`{claim}`tracer-raises-attributeerror`.
Checklist: {ref}`review-block-inside-jit`.

```python
@jax.jit
def step(x):
    return jax.block_until_ready(x @ x)  # the mistake  # jaxwaits: ignore[JW104]
```

Right: block on `step(x)` where it is called.
"""

from __future__ import annotations

from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.traced import called_as_they_are, traced_calls
from harnesscheck.rules import Seen, Source

CODE = "JW104"
NAME = "block-in-trace"
ANCHOR = "review-block-inside-jit"
CLAIMS = ("block-under-jit-is-noop", "tracer-raises-attributeerror")
SUMMARY = "a block inside a traced function waits for nothing"
WORDS = ("block_until_ready",)


def check(source: Source) -> Iterator[Finding]:
    facts = source.facts
    direct: set[str] | None = None  # asked only where a block is traced: few modules
    for function, node in traced_calls(facts, "block_until_ready"):
        direct = called_as_they_are(facts) if direct is None else direct
        if id(function) not in facts.traced_here and function.name in direct:
            continue  # handed to jit here, called as it is there: that call's block waits
        yield finding(
            CODE,
            node,
            f"block_until_ready inside {function.name!r}, which is traced: it waits for "
            "nothing; block on the traced function's result, outside it",
        )


def watched(seen: Seen) -> str:
    held = ", ".join(sorted({t for f in seen.found for t in f["held"]}))
    return (
        f"jax.block_until_ready met a tracer here ({held}), {seen.times}: the block is inside "
        "a traced function, where it waits for nothing; block on the result outside"
    )
