"""A `try` catches `RuntimeError` (or `XlaRuntimeError`, `JaxRuntimeError`) around a call of a JAX
function and does not wait inside it: a failure while the computation runs is raised at the
wait, `block_until_ready()`, `np.asarray()` or `jax.effects_barrier()`, after the `try` is
left{claim}`errors-surface-at-the-wait`; and a barrier can raise an `ExceptionGroup`, which
`except RuntimeError` does not catch{claim}`barrier-reports-latest-failures`. Checklist:
{ref}`review-errors-at-the-wait`.

```python
try:
    out = step(x)  # JW110
except RuntimeError:
    out = fallback(x)
```

Right: `out = jax.block_until_ready(step(x))` inside the `try`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.syntax import callee_name
from harnesscheck.rules import Source

CODE = "JW110"
NAME = "error-at-the-call"
ANCHOR = "review-errors-at-the-wait"
CLAIMS = ("errors-surface-at-the-wait", "barrier-reports-latest-failures")
SUMMARY = (
    "a runtime error is caught around a JAX call that is not waited on: a failure while the "
    "computation runs is raised at the wait, outside the try"
)
WORDS = (re.compile(r"except\b[^:]*RuntimeError"),)  # a handler of it (Jax-, XlaRuntimeError)

RUNTIME_ERRORS = {"RuntimeError", "XlaRuntimeError", "JaxRuntimeError"}


def check(source: Source) -> Iterator[Finding]:
    """A ``try`` that catches a runtime error around a JAX call, with no wait inside it."""
    facts = source.facts
    for node in facts.of(ast.Try):
        caught = set()
        for handler in node.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            caught |= {callee_name(t) for t in types if t is not None}
        if not caught & RUNTIME_ERRORS:
            continue
        calls = [n for s in node.body for n in ast.walk(s) if isinstance(n, ast.Call)]
        if any(facts.is_wait(c) or facts.might_wait(c) for c in calls):
            continue
        steps = [c for c in calls if facts.jax_call(c) and isinstance(c.func, ast.Name)]
        if steps:
            yield finding(
                CODE,
                steps[0],
                f"{callee_name(steps[0].func)!r} is not waited on inside this try: an error "
                "while it runs is raised at the wait, not here; wait inside the try "
                "(`jax.block_until_ready(...)`)",
            )
