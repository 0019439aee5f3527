"""A Python loop, a comprehension or a `tree_map` blocks array by array:
`jax.block_until_ready(arrays)` waits for the same in one batched call into the
runtime{claim}`wrapper-batches`, which pays for a list on CPU and on a
GPU{claim}`wrapper-batching-pays` (for a dict on CPU it does
not{claim}`wrapper-over-a-dict-no-faster`). Not reported in a warm-up of a function that times
something after it: the cost is in no measurement. Checklist: {ref}`review-many-arrays`.

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
from harnesscheck.model.syntax import (
    bound_names,
    callee_name,
    dotted_parts,
    names_read,
    spans_line,
)
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
            found = _loop_block(node)
            if found is None:
                continue
            items, each = found
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            target = node.generators[0].target
            if len(node.generators) != 1 or not isinstance(target, ast.Name):
                continue
            items, each = {target.id}, node.elt
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(lam := node.args[0], ast.Lambda)
            and _is_tree_map(node)
        ):
            params = lam.args.args
            if len(params) != 1 or _one_item(source.facts, node):
                continue
            items, each = {params[0].arg}, lam.body
        else:
            continue
        if isinstance(each, ast.IfExp):  # a.block_until_ready() if hasattr(a, ...) else a
            each = next((e for e in (each.body, each.orelse) if isinstance(e, ast.Call)), each)
        if (
            _blocks_one_of(each, items)
            and not _fallback(source, node)
            and not _untimed(source, node)
        ):
            yield finding(
                CODE,
                node,
                "this blocks array by array: `jax.block_until_ready(arrays)` waits for the same "
                "in one batched call",
            )


def _fallback(source: Source, node: ast.AST) -> bool:
    """``node`` is in an ``except`` handler: what runs where the batched block failed
    (``jax.block_until_ready(result)`` raised on a tree it cannot take)."""
    handlers = source.facts.of(ast.ExceptHandler)
    return any(spans_line(handler, node.lineno) for handler in handlers)  # type: ignore[attr-defined]


def _untimed(source: Source, node: ast.AST) -> bool:
    """``node`` runs in a function that times something else, outside its timed regions (a
    warm-up before the timer starts): the time it costs is in no reported time."""
    inner = source.facts.innermost(node.lineno)  # type: ignore[attr-defined]
    if inner is None:
        return False
    spans = [(r.start, getattr(r.end, "end_lineno", None) or r.start) for r in source.regions]
    here = [(a, b) for a, b in spans if source.facts.innermost(a) is inner]
    return bool(here) and not any(a <= node.lineno <= b for a, b in here)  # type: ignore[attr-defined]


def _loop_block(loop: ast.For) -> tuple[set[str], ast.AST] | None:
    """The names a loop's body may block, and what it does last: its item, or what it takes
    out of its item first (``data = getattr(out, field.name)``), the block perhaps under an
    ``if`` (``if hasattr(leaf, "block_until_ready"):``), nothing else done; None for another
    body, or for a loop over tuples (``for batch, mask in loader``: what each round yields)."""
    body = list(loop.body)
    while body and isinstance(last := body[-1], ast.If) and len(last.body) == 1 and not last.orelse:
        body = [*body[:-1], *last.body]
    target = loop.target
    if not body or not isinstance(body[-1], ast.Expr) or len(body) > 2:
        return None
    if not isinstance(target, ast.Name):
        return None
    if len(body) == 1:  # for a in arrays: a.block_until_ready()
        return {target.id}, body[-1].value
    taken = body[0]
    if not (isinstance(taken, ast.Assign) and _taken_from(taken.value, target.id)):
        return None
    return {target.id} | {n for t in taken.targets for n in bound_names(t)}, body[-1].value


def _taken_from(value: ast.AST, item: str) -> bool:
    """``value`` only takes a part out of ``item`` (or out of what the loop iterates over, by
    the item): ``getattr(out, item.name)``, ``out[item]``, ``item.data``; no other call."""
    if isinstance(value, ast.Call):
        return (
            isinstance(value.func, ast.Name)
            and value.func.id == "getattr"
            and any(item in names_read(a) for a in value.args)
        )
    return isinstance(value, (ast.Attribute, ast.Subscript)) and item in names_read(value)


def _blocks_one_of(each: ast.AST, names: set[str]) -> bool:
    """``each`` is ``x.block_until_ready()``, or ``jax.block_until_ready(x)``, of one of
    ``names``."""
    if not isinstance(each, ast.Call) or callee_name(each.func) != "block_until_ready":
        return False
    if isinstance(each.func, ast.Attribute) and not each.args:  # x.block_until_ready()
        blocked = each.func.value
    elif len(each.args) == 1 and dotted_parts(each.func)[:1] in (["jax"], ["block_until_ready"]):
        blocked = each.args[0]  # jax.block_until_ready(leaf), for leaf in leaves
    else:
        return False
    return isinstance(blocked, ast.Name) and blocked.id in names


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
