"""A NumPy array is passed to a jitted function inside the timed region: it is copied to the device
on every call, and the copy is timed as
compute{claim}`three-waits`{claim}`block-does-not-fetch`. Checklist:
{ref}`review-block-is-not-fetch`.

```python
batch = np.ones((128, 128))
t0 = time.perf_counter()
step(batch).block_until_ready()  # JW107
elapsed = time.perf_counter() - t0
```

Right: `batch = jax.device_put(batch)` before the timer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.regions import TIMED_WORDS
from harnesscheck.rules import Seen, Source

CODE = "JW107"
NAME = "host-input-timed"
ANCHOR = "review-block-is-not-fetch"
CLAIMS = ("three-waits", "block-does-not-fetch")
SUMMARY = (
    "a NumPy array is passed to a jitted function inside the timed region: it is copied to "
    "the device on every call, and the copy is timed as compute"
)
WORDS = TIMED_WORDS


def check(source: Source) -> Iterator[Finding]:
    """A jitted function handed a NumPy module's result, or a name bound to one before the
    region, inside it."""
    jitted = source.facts.jitted | source.facts.compiled
    for region in source.regions:
        for call in region.timed.calls:
            if not (isinstance(call.func, ast.Name) and call.func.id in jitted):
                continue
            copied = [a.id for a in call.args if isinstance(a, ast.Name) and a.id in region.host]
            if copied:
                yield finding(
                    CODE,
                    call,
                    f"NumPy input ({', '.join(copied)}): each timed call copies it to the "
                    "device; put it there once before the timer (`jax.device_put`)",
                )


def watched(seen: Seen) -> str:
    return (
        f"the interval timed from {seen.since} to here hands the same NumPy array to jitted "
        f"work again ({seen.where}), {seen.times}: it is copied to the device on every call, "
        "and the copy is timed as compute; place it once with jax.device_put before the timer "
        "starts"
    )
