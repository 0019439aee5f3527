"""A Python loop or comprehension blocks array by array: `jax.block_until_ready(arrays)` waits for
the same in one batched call into the runtime{claim}`wrapper-batches`, which pays on an
accelerator{claim}`wrapper-batching-pays-on-accelerators`. Checklist: {ref}`review-many-arrays`.

```python
for a in arrays:  # the mistake  # jaxwaits: ignore[JW112]
    a.block_until_ready()
```

Right: `jax.block_until_ready(arrays)`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxwaits.review.facts import Finding, finding
from jaxwaits.review.rules import Source

CODE = "JW112"
NAME = "block-one-by-one"
ANCHOR = "review-many-arrays"
CLAIMS = ("wrapper-batches", "wrapper-batching-pays-on-accelerators")
SUMMARY = (
    "a Python loop blocks array by array: jax.block_until_ready(arrays) waits for the same in "
    "one batched call"
)
WORDS = ("block_until_ready",)


def check(source: Source) -> Iterator[Finding]:
    """A loop or comprehension whose only work is ``a.block_until_ready()`` of its own item."""
    for node in source.facts.nodes:
        if isinstance(node, ast.For):
            if len(node.body) != 1 or not isinstance(node.body[0], ast.Expr):
                continue
            target, each = node.target, node.body[0].value
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            if len(node.generators) != 1:
                continue
            target, each = node.generators[0].target, node.elt
        else:
            continue
        if (
            isinstance(each, ast.Call)
            and isinstance(each.func, ast.Attribute)
            and each.func.attr == "block_until_ready"
            and isinstance(target, ast.Name)
            and isinstance(each.func.value, ast.Name)
            and each.func.value.id == target.id
        ):
            yield finding(
                CODE,
                node,
                "this loop blocks array by array: `jax.block_until_ready(arrays)` waits for "
                "the same in one batched call",
            )
