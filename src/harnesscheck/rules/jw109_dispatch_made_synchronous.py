"""A file that times JAX work turns dispatch synchronous (`jax_cpu_enable_async_dispatch` off,
`jax_debug_nans` or `jax_debug_infs` on), so each call returns with its work done and a missing
block does not show{claim}`dispatch-made-synchronous`; or it sets
`JAX_CPU_ENABLE_ASYNC_DISPATCH`, which no release reads. On CPU a call with a host callback runs
during the call too, unless the same thread's earlier work is still
running{claim}`cpu-callbacks-run-at-dispatch`. Checklist:
{ref}`review-synchronous-only-in-testing`.

```python
os.environ["JAX_CPU_ENABLE_ASYNC_DISPATCH"] = "false"  # the mistake  # jaxwaits: ignore[JW109]
jax.config.update("jax_debug_nans", True)  # JW109, where the file times work
```

Right: check the harness with dispatch asynchronous, as it runs for real; turn it off with
`jax.config.update("jax_cpu_enable_async_dispatch", False)` only where synchronous is meant.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.syntax import callee_name
from harnesscheck.regions import TIMED_WORDS
from harnesscheck.rules import Source

CODE = "JW109"
NAME = "dispatch-made-synchronous"
ANCHOR = "review-synchronous-only-in-testing"
CLAIMS = ("dispatch-made-synchronous", "cpu-callbacks-run-at-dispatch")
SUMMARY = (
    "timing code runs with dispatch made synchronous (or tries to, through an environment "
    "variable that does nothing): a missing block does not show"
)

ASYNC_VARIABLE = "JAX_CPU_ENABLE_ASYNC_DISPATCH"  # read by no release: the option is a flag
SYNCHRONOUS = {  # jax.config options that make dispatch wait, and the value that does it
    "jax_cpu_enable_async_dispatch": False,
    "jax_debug_nans": True,
    "jax_debug_infs": True,
}

WORDS = (ASYNC_VARIABLE, *TIMED_WORDS)


def check(source: Source) -> Iterator[Finding]:
    """The environment variable anywhere; an option that makes dispatch wait, where the module
    times work."""
    facts = source.facts
    for node in facts.of(ast.Constant, ast.Call):
        if isinstance(node, ast.Constant) and node.value == ASYNC_VARIABLE:
            yield finding(
                CODE,
                node,
                f"{ASYNC_VARIABLE} is read by no JAX release: it turns nothing off; "
                "`jax.config.update('jax_cpu_enable_async_dispatch', False)` does",
            )
        elif facts.times and isinstance(node, ast.Call) and _synchronous(node):
            option, value = (arg.value for arg in node.args if isinstance(arg, ast.Constant))
            yield finding(
                CODE,
                node,
                f"{option}={value} makes each call wait for its work, so the timings here "
                "pass without a block; check the harness with it off",
            )


def _synchronous(call: ast.Call) -> bool:
    """``jax.config.update("jax_debug_nans", True)`` and the like."""
    if callee_name(call.func) != "update" or len(call.args) != 2:
        return False
    option, value = call.args
    if not (isinstance(option, ast.Constant) and isinstance(value, ast.Constant)):
        return False
    return option.value in SYNCHRONOUS and value.value == SYNCHRONOUS[option.value]
