"""A Python loop, a comprehension or a `tree_map` blocks array by array:
`jax.block_until_ready(arrays)` waits for the same in one batched call into the
runtime{claim}`wrapper-batches`, which pays for a list on CPU and on a
GPU{claim}`wrapper-batching-pays` (for a dict on CPU it does
not{claim}`wrapper-over-a-dict-no-faster`). Checklist: {ref}`review-many-arrays`.

```python
for a in arrays:  # the mistake  # jaxwaits: ignore[JW112]
    a.block_until_ready()
jax.tree_util.tree_map(lambda a: a.block_until_ready(), metrics)  # jaxwaits: ignore[JW112]
```

Right: `jax.block_until_ready(arrays)`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.module import Module
from harnesscheck.model.syntax import bound_names, dotted_parts
from harnesscheck.rules import Source

CODE = "JW112"
NAME = "block-one-by-one"
ANCHOR = "review-many-arrays"
CLAIMS = ("wrapper-batches", "wrapper-batching-pays")
SUMMARY = (
    "a Python loop or a tree_map blocks array by array: jax.block_until_ready(arrays) waits for "
    "the same in one batched call"
)
WORDS = ("block_until_ready",)


def check(source: Source) -> Iterator[Finding]:
    """A loop or comprehension whose only work is ``a.block_until_ready()`` of its own item, or
    a ``tree_map`` of ``lambda a: a.block_until_ready()`` (in either, perhaps only where the
    item can: ``a.block_until_ready() if hasattr(a, ...) else a``)."""
    kinds = (ast.For, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.Call)
    for node in source.facts.of(*kinds):
        if isinstance(node, ast.For):
            if len(node.body) != 1 or not isinstance(node.body[0], ast.Expr):
                continue
            target, each = node.target, node.body[0].value
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            if len(node.generators) != 1:
                continue
            target, each = node.generators[0].target, node.elt
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(lam := node.args[0], ast.Lambda)
            and _is_tree_map(node)
        ):
            params = lam.args.args
            if len(params) != 1 or _one_item(source.facts, node):
                continue
            target, each = ast.Name(params[0].arg), lam.body
        else:
            continue
        if isinstance(each, ast.IfExp):  # a.block_until_ready() if hasattr(a, ...) else a
            each = next((e for e in (each.body, each.orelse) if isinstance(e, ast.Call)), each)
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
                "this blocks array by array: `jax.block_until_ready(arrays)` waits for the same "
                "in one batched call",
            )


def _one_item(facts: Module, call: ast.Call) -> bool:
    """The tree mapped is an item taken out of a result (``res = step(x)[0][0]``): most likely
    one array, a tree with one leaf, whose one block is all there is to wait for."""
    tree = call.args[1] if len(call.args) > 1 else None
    if not isinstance(tree, ast.Name):
        return isinstance(tree, ast.Subscript)
    bound = [
        n.value
        for n in facts.assigned
        if n.lineno < call.lineno and tree.id in {b for t in n.targets for b in bound_names(t)}
    ]
    return bool(bound) and isinstance(bound[-1], ast.Subscript)


def _is_tree_map(node: ast.AST) -> bool:
    """``jax.tree_util.tree_map(f, ...)``, ``jax.tree.map(f, ...)``, ``tree_map(f, ...)``."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    parts = dotted_parts(node.func)
    return parts[-1:] == ["tree_map"] or parts[-2:] == ["tree", "map"]
