"""A value that a host callback (`jax.debug.callback`, `io_callback`) changes is read after a block
on arrays, and the file never calls `jax.effects_barrier()`. Blocking on the output waits for the
output; the barrier is the call made to wait for the callbacks{claim}`barrier-for-callbacks`, on
the runtime's effect tokens{claim}`barrier-waits-on-tokens`, those of the calling
thread{claim}`barrier-is-per-thread`. (On CPU and on a GPU the callback had run by then in every
run here, by the way those backends run callbacks, which a block does not promise.)
Checklist: {ref}`review-effects-not-arrays`.

```python
calls = []


@jax.jit
def f(x):
    jax.debug.callback(lambda: calls.append(1))
    return x + 1


f(x).block_until_ready()
print(len(calls))  # the mistake  # jaxwaits: ignore[JW108]
```

Right: `jax.effects_barrier()` after the block, before reading `calls`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.library import APPENDING
from harnesscheck.model.syntax import bound_names, callee_name, dotted_name, spans_line
from harnesscheck.rules import Seen, Source

CODE = "JW108"
NAME = "effects-after-block"
ANCHOR = "review-effects-not-arrays"
CLAIMS = ("barrier-for-callbacks", "barrier-waits-on-tokens", "barrier-is-per-thread")
SUMMARY = (
    "what a host callback changed is read after a block on arrays, with no "
    "jax.effects_barrier(): the block waits for arrays, not for callbacks"
)
# A call of one (debug.callback(, io_callback(), not pure_callback( nor a def of one; each
# pattern begins with its word, which a search finds fast.
WORDS = (
    re.compile(r"callback(?<=\Wcallback)(?<!def callback)\s*\("),
    re.compile(r"io_callback(?<!def io_callback)\s*\("),
)

CHANGING = APPENDING | {"update", "setdefault", "pop", "clear"}  # calls that change an object


def check(source: Source) -> Iterator[Finding]:
    """Each outer object a host callback changes, read after a wait on arrays in the same scope,
    in a module that never calls ``jax.effects_barrier()``: once per object and scope."""
    facts = source.facts
    if not facts.callbacks or facts.barrier:
        return
    changed: set[str] = set()
    inside: list[ast.AST] = []  # the callbacks themselves
    for callback in facts.callbacks:
        if isinstance(callback, ast.Lambda):
            definitions: list[ast.AST] = [callback]
        elif isinstance(callback, ast.Name):
            definitions = list(facts.functions.get(callback.id, []))
        else:
            continue
        for definition in definitions:
            inside.append(definition)
            changed |= _changed_outside(definition)
    if not changed:
        return
    waits = [n for n in facts.of(ast.Call) if facts.is_wait(n)]
    reported: set[tuple[int, str]] = set()
    for node in facts.of(ast.Name, ast.Attribute):
        if not isinstance(node.ctx, ast.Load):
            continue
        name = node.id if isinstance(node, ast.Name) else dotted_name(node)
        line = getattr(node, "lineno", 0)
        if name not in changed or any(spans_line(callback, line) for callback in inside):
            continue
        scope = facts.scope_of(line)
        waited = any(w.lineno < line and facts.scope_of(w.lineno) == scope for w in waits)
        if waited and (scope, name) not in reported:
            reported.add((scope, name))
            yield finding(
                CODE,
                node,
                f"{name!r} is changed by a host callback and read here after a block on "
                "arrays only: call jax.effects_barrier() before reading it",
            )


def _changed_outside(definition: ast.AST) -> set[str]:
    """The names of outer objects a function changes: declared global or nonlocal, or
    changed through a method (``calls.append(x)``), an item or an attribute."""
    local = {a.arg for a in ast.walk(definition) if isinstance(a, ast.arg)}
    declared: set[str] = set()
    changed: set[str] = set()
    for node in ast.walk(definition):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared |= set(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)
        elif isinstance(node, ast.Call) and callee_name(node.func) in CHANGING:
            if isinstance(node.func, ast.Attribute):  # calls.append(x), self.calls.append(x)
                changed |= set(bound_names(node.func.value))
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            changed |= set(bound_names(node))  # counts[k] = n, self.n = n
    return declared | (changed - local)


def watched(seen: Seen) -> str:
    found = seen.found
    names = ", ".join(sorted({f"`{f['name']}`" for f in found}))
    staged = seen.lines(sorted({tuple(c) for f in found for c in f["callbacks"]}))
    waits = seen.lines(sorted({tuple(f["wait"]) for f in found}))
    reads = f"{len(found)} times" if len(found) > 1 else "once"
    if all(f["ran"] for f in found):
        state = (
            "it had run by then by chance (on a CPU the callback runs within the "
            "computation, on a GPU during the call): the block is not what waits for it"
        )
    else:
        state = "it had not run yet at the read: what was read is stale here"
    return (
        f"{names}, changed by the host callback staged at {staged}, is read here after a "
        f"wait on arrays only ({waits}) and no jax.effects_barrier() in this thread, "
        f"{reads}; {state}. Call jax.effects_barrier() before reading it"
    )
