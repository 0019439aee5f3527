"""A timed region calls `x.copy_to_host_async()` and the timer stops before anything fetches
`x`: on CPU the call only starts the copy to the host{claim}`copy-to-host-async-starts-only`
(on a GPU it returned only after the result was
ready{claim}`gpu-copy-to-host-async-returns-late`, the copy itself not shown done), and a block
waits for the computation, not for the copy{claim}`block-does-not-fetch`, so the transfer the
region means to time may still be under way when the timer stops. Checklist:
{ref}`review-block-is-not-fetch`.

```python
t0 = time.perf_counter()
y = step(x)
y.copy_to_host_async()
y.block_until_ready()
transfer = time.perf_counter() - t0  # JW111
```

Right: time the call that completes the transfer, `np.asarray(y)` (or `jax.device_get(y)`,
`y.item()`), after `copy_to_host_async()` has started it{claim}`three-waits`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.syntax import callee_name, names_read
from harnesscheck.rules import Seen, Source

CODE = "JW111"
NAME = "copy-started-not-fetched"
ANCHOR = "review-block-is-not-fetch"
CLAIMS = ("copy-to-host-async-starts-only", "block-does-not-fetch", "three-waits")
SUMMARY = (
    "copy_to_host_async() only starts the copy to the host: the timer stops before anything "
    "fetches the array"
)
WORDS = ("copy_to_host_async",)
STARTS = "copy_to_host_async"
NOT_FETCHING = {STARTS, "block_until_ready"}  # they read the array, and bring nothing over


def check(source: Source) -> Iterator[Finding]:
    for region in source.regions:
        calls = region.timed.every
        for i, call in enumerate(calls):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == STARTS):
                continue
            started = names_read(call.func.value)
            later = calls[i + 1 :]
            if not started or any(_fetches(c, source) or started & _read_by(c) for c in later):
                continue  # something is fetched, or it is handed to code that may fetch it
            shown = ast.unparse(call.func.value)
            yield finding(
                CODE,
                region.end,
                f"`{shown}.copy_to_host_async()` only starts the copy to the host, and the timer "
                f"stops before anything fetches `{shown}`: time `np.asarray({shown})` (or "
                "`jax.device_get`) to include the transfer",
            )


def _fetches(call: ast.Call, source: Source) -> bool:
    """A call that brings values to the host: a wait that is not a block (``np.asarray``,
    ``jax.device_get``, ``.item()``): after ``for a in leaves: a.copy_to_host_async()``,
    ``jax.device_get(leaves)`` completes the copies, under another name."""
    return callee_name(call.func) not in NOT_FETCHING and source.facts.is_wait(call)


def _read_by(call: ast.Call) -> set[str]:
    """The names a call reads, but for a block or another start: they fetch nothing."""
    if callee_name(call.func) in NOT_FETCHING:  # y.block_until_ready(), jax.block_until_ready(y)
        return set()
    arguments = [*call.args, *(k.value for k in call.keywords)]
    if isinstance(call.func, ast.Attribute):
        arguments.append(call.func.value)
    return set().union(*(names_read(a) for a in arguments))


def watched(seen: Seen) -> str:
    return (
        f"the interval timed from {seen.since} to here started copies to the host "
        f"({seen.where}) that nothing fetched before the read, {seen.times}: "
        "copy_to_host_async() only starts the copy; time the call that completes it "
        "(np.asarray, jax.device_get, .item())"
    )
