"""An argument donated to a function jitted with `donate_argnums` or `donate_argnames` is used
after the call that donated it: the call deleted it, and blocking on it or reading it raises,
naming the deletion{claim}`checks-deleted-first`. Checklist: {ref}`review-deleted-or-donated`.

```python
update = jax.jit(lambda p, g: p - g, donate_argnums=0)
new_params = update(params, grads)
params.block_until_ready()  # the mistake  # jaxwaits: ignore[JW113]
```

Right: use the result (`params = update(params, grads)`). Flax NNX's and Equinox's `jit` keep
the objects they are handed up to date, so their donations are not reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.syntax import bound_names
from harnesscheck.rules import Source

CODE = "JW113"
NAME = "donated-then-used"
ANCHOR = "review-deleted-or-donated"
CLAIMS = ("checks-deleted-first",)
SUMMARY = "an array donated to a jitted call is used after it: the call deleted it"
WORDS = ("donate_arg",)


def check(source: Source) -> Iterator[Finding]:
    """In each statement list, an argument a call donated that a later statement reads before
    anything binds it again."""
    facts = source.facts
    if not facts.donating:
        return
    for body in facts.bodies():
        for i, statement in enumerate(body):
            value = getattr(statement, "value", None)
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                continue
            if value.func.id not in facts.donating:
                continue
            positions, names = facts.donating[value.func.id]
            donated = [a for j, a in enumerate(value.args) if j in positions]
            donated += [k.value for k in value.keywords if k.arg in names]
            stored = {n for t in getattr(statement, "targets", []) for n in bound_names(t)}
            for argument in donated:
                if isinstance(argument, ast.Name) and argument.id not in stored:
                    yield from _used_after(argument.id, body[i + 1 :], value.func.id)


def _used_after(name: str, statements: list[ast.stmt], jitted: str) -> Iterator[Finding]:
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and node.id == name:
                if isinstance(node.ctx, ast.Load):
                    yield finding(
                        CODE,
                        node,
                        f"{name!r} was donated to {jitted!r}, which deleted it: use the "
                        "call's result, or do not donate it",
                    )
                return
