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
from harnesscheck.model.module import Module
from harnesscheck.model.syntax import callee_key, positional_params, walk
from harnesscheck.regions import TIMED_WORDS, host_before
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
    region, inside it; or inside a function the region runs because it was handed it
    (``time_it(run)``, ``bench(step, batch)``)."""
    facts = source.facts
    jitted = facts.jitted | facts.compiled
    said: set[tuple[int, int]] = set()  # a call reached from several regions: once
    for region in source.regions:
        copies = [(call, region.host) for call in region.timed.calls]
        copies += _handed(facts, region.start, region.timed.every)
        for call, host in copies:
            at = (call.lineno, call.col_offset)
            if at in said or not (isinstance(call.func, ast.Name) and call.func.id in jitted):
                continue
            copied = [a.id for a in call.args if isinstance(a, ast.Name) and a.id in host]
            if copied:
                said.add(at)
                yield finding(
                    CODE,
                    call,
                    f"NumPy input ({', '.join(copied)}): each timed call copies it to the "
                    "device; put it there once before the timer (`jax.device_put`)",
                )


def _handed(facts: Module, start: int, timed: list[ast.Call]) -> list[tuple[ast.Call, set[str]]]:
    """The calls the region makes through the parameters of the function it is in, as each
    call of that function in the module hands them: a function's (or a lambda's) own calls,
    or a call of the function handed with the arguments handed beside it; each with the names
    bound to NumPy's results before that call."""
    definition = facts.innermost(start)
    if definition is None:
        return []
    params = positional_params(definition)
    rest = definition.args.vararg.arg if definition.args.vararg else None  # bench(f, *args)
    through = [c for c in timed if isinstance(c.func, ast.Name) and c.func.id in params]
    found: list[tuple[ast.Call, set[str]]] = []
    for site in facts.of(ast.Call) if through else []:
        if callee_key(site.func) != definition.name:
            continue
        given = dict(zip(params, site.args, strict=False))
        host = host_before(facts, site.lineno)
        for call in through:
            handed = given.get(call.func.id)  # type: ignore[union-attr]
            if isinstance(handed, ast.Lambda):
                found += [(n, host) for n in walk(handed.body) if isinstance(n, ast.Call)]
            elif isinstance(handed, ast.Name) and handed.id in facts.functions:
                for body in facts.functions[handed.id]:
                    found += [(n, host) for n in walk(body) if isinstance(n, ast.Call)]
            elif isinstance(handed, ast.Name):  # bench(step, batch): step(x) with x = batch
                args = [
                    handed_arg
                    for a in call.args
                    for handed_arg in (
                        site.args[len(params) :]
                        if isinstance(a, ast.Starred) and callee_key(a.value) == rest
                        else [given.get(callee_key(a), a)]
                    )
                ]
                found.append((ast.copy_location(ast.Call(handed, args, []), site), host))
    return found


def watched(seen: Seen) -> str:
    return (
        f"the interval timed from {seen.since} to here hands the same NumPy array to jitted "
        f"work again ({seen.where}), {seen.times}: it is copied to the device on every call, "
        "and the copy is timed as compute; place it once with jax.device_put before the timer "
        "starts"
    )
