"""`jax.block_until_ready` is given something that holds no JAX array: a NumPy result, `.item()`, a
Python number, a function
object{claim}`wrapper-passes-non-arrays`{claim}`wrapper-no-arrays-is-silent`. Checklist:
{ref}`review-nothing-to-block`.

```python
jax.block_until_ready(np.asarray(y))  # the mistake  # jaxwaits: ignore[JW105]
```

Right: block on `y` itself, before converting it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding
from harnesscheck.model.library import LOOPS, TRACING
from harnesscheck.model.module import Module
from harnesscheck.model.syntax import callee_name, dotted_parts, wrapper_name
from harnesscheck.rules import Seen, Source

CODE = "JW105"
NAME = "nothing-to-block"
ANCHOR = "review-nothing-to-block"
CLAIMS = ("wrapper-passes-non-arrays", "wrapper-no-arrays-is-silent")
SUMMARY = "jax.block_until_ready is given something that holds no JAX array: it waits for nothing"
WORDS = ("block_until_ready",)


def check(source: Source) -> Iterator[Finding]:
    facts = source.facts
    for call in facts.of(ast.Call):
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "block_until_ready"
            and dotted_parts(call.func)[0] in facts.jax_modules
            and call.args
        ):
            continue
        why = _not_an_array(facts, call.args[0])
        if why:
            yield finding(
                CODE,
                call,
                f"jax.block_until_ready is given {why}, which holds no JAX array: it waits for "
                "nothing and says nothing",
            )


def _not_an_array(facts: Module, node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        return "a constant"
    plain = set(facts.functions) - facts.jitted
    if isinstance(node, ast.Name) and node.id in plain:
        return f"the function {node.id!r} itself (not its result)"
    if isinstance(node, ast.Call):
        if _transforms(node):  # jax.jit(f), jax.vmap(f): a function
            return f"what {wrapper_name(node)}() returns, a function (not its result)"
        chain = dotted_parts(node.func)
        if chain and chain[0] in facts.numpy_modules:
            return "a NumPy result"
        if isinstance(node.func, ast.Attribute) and node.func.attr in {"item", "tolist"}:
            return f"the result of .{node.func.attr}(), a Python value"
        if isinstance(node.func, ast.Name) and node.func.id in {"float", "int", "bool"}:
            return f"a Python {node.func.id}"
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        parts = [_not_an_array(facts, element) for element in node.elts]
        if all(parts):
            return "a container of values none of which is a JAX array"
    return ""


def _transforms(call: ast.Call) -> bool:
    """``call`` makes a function: ``jax.jit(f)``, ``jax.vmap(f)``, ``partial(jax.jit, ...)(f)``;
    not ``jax.jit(f)(x)``, its result, nor ``lax.scan(body, ...)``, which runs ``body``."""
    func = call.func
    if isinstance(func, ast.Call):
        return callee_name(func.func) == "partial" and wrapper_name(func) in MAKES_FUNCTIONS
    return callee_name(func) in MAKES_FUNCTIONS


# What JAX's transformations return when called on a function: another function (the loops,
# cond and jvp run theirs and return its results).
MAKES_FUNCTIONS = (
    TRACING - LOOPS - {"cond", "switch", "map", "jvp", "vjp", "linearize", "eval_shape"}
)


def watched(seen: Seen) -> str:
    held = ", ".join(sorted({t for f in seen.found for t in f["held"]}))
    return (
        f"jax.block_until_ready was handed no JAX array here (it held {held}), {seen.times}: "
        "it waited for nothing; block on the arrays themselves, before converting them"
    )
