"""`jax.effects_barrier()` inside a traced function runs once, while tracing, and waits for nothing
when the computation runs{claim}`barrier-under-jit`. Checklist:
{ref}`review-effects-not-arrays`.

```python
@jax.jit
def step(x):
    jax.debug.print("{}", x)
    jax.effects_barrier()  # the mistake  # jaxwaits: ignore[JW106]
    return x + 1
```

Right: `step(x)`, then `jax.effects_barrier()` outside, in the thread that called
it{claim}`barrier-is-per-thread`.
"""

from __future__ import annotations

from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.traced import traced_calls
from harnesscheck.rules import Source

CODE = "JW106"
NAME = "barrier-in-trace"
ANCHOR = "review-effects-not-arrays"
CLAIMS = ("barrier-under-jit",)
SUMMARY = (
    "jax.effects_barrier() inside a traced function runs once, at tracing, and waits for "
    "nothing when the computation runs"
)
WORDS = ("effects_barrier",)


def check(source: Source) -> Iterator[Finding]:
    for function, node in traced_calls(source.facts, "effects_barrier"):
        yield finding(
            CODE,
            node,
            f"jax.effects_barrier() inside {function.name!r}, which is traced: call it "
            "after the traced function has been called, outside it",
        )
