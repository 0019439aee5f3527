"""Arrays whose shape changes from one round of a loop to the next: made in the loop's body by a
constructor whose shape reads the loop's variable (``x = jnp.ones((n, n))`` in ``for n in
sizes:``), sliced to a length that does (``batch = data[:n]``), or joined with more on each
round (``ids = jnp.concatenate([ids, token], axis=1)``). A jitted function, or an
operation outside jit, called with one compiles anew on each round."""

from __future__ import annotations

import ast

from harnesscheck.model.module import Module
from harnesscheck.model.syntax import bound_names, callee_name, dotted_parts, names_read, walk

# A constructor's arguments that hold the shape, by its name: positions (None: every one).
SHAPE_AT: dict[str, tuple[int, ...] | None] = {
    "ones": (0,), "zeros": (0,), "empty": (0,), "full": (0,), "eye": (0,), "identity": (0,),
    "arange": None, "linspace": (2,), "rand": None, "randn": None,
}  # fmt: skip
# ... in a `random` namespace: jax's take a key first (normal(key, shape)), NumPy's two
# parameters (normal(loc, scale, size))
RANDOM = {"normal", "uniform", "randint", "truncated_normal", "bernoulli"}
SHAPE_WORDS = {"shape", "size", "num"}
GROWING = {"concatenate", "append", "hstack", "vstack", "column_stack"}


def reshaped(facts: Module, line: int) -> tuple[ast.For, dict[str, str]] | None:
    """The innermost ``for`` loop around ``line``, and the names its body binds before that
    line to arrays whose shape changes with the loop's variable, each with that variable."""
    loops = [
        loop
        for loop in facts.of(ast.For)
        if loop.body[0].lineno <= line <= (loop.end_lineno or loop.lineno)
    ]
    if not loops:
        return None
    loop = max(loops, key=lambda node: node.lineno)
    varying = {name: name for name in bound_names(loop.target)}
    made: dict[str, str] = {}
    for statement in loop.body:
        for node in walk(statement):
            if not isinstance(node, ast.Assign):
                continue
            names = [name for target in node.targets for name in bound_names(target)]
            if _grows(node.value, names):  # ids = jnp.concatenate([ids, token], axis=1)
                made.update(dict.fromkeys(names, next(iter(varying), names[0])))
            if node.lineno >= line:
                continue
            read = names_read(node.value) & varying.keys()
            if not read:
                continue
            by = varying[sorted(read)[0]]
            if _shaped_by(facts, node.value, varying.keys()):
                made.update(dict.fromkeys(names, by))
            elif not any(isinstance(n, ast.Call) for n in walk(node.value)):
                varying.update(dict.fromkeys(names, by))  # n = sizes[i], n = 2 ** i
    return loop, made


def _grows(value: ast.AST, names: list[str]) -> bool:
    """``value`` joins one of ``names`` with more (``jnp.concatenate([ids, token], axis=1)``):
    bound to it on each round of a loop, the array is longer on each round."""
    return (
        isinstance(value, ast.Call)
        and callee_name(value.func) in GROWING
        and bool(value.args)
        and bool(names_read(value.args[0]) & set(names))
    )


def _shaped_by(facts: Module, value: ast.AST, varying: set[str]) -> bool:
    """``value`` makes an array whose shape reads one of ``varying``."""
    for node in walk(value):
        if isinstance(node, ast.Call):
            if any(names_read(shape) & varying for shape in _shape_arguments(facts, node)):
                return True
        elif isinstance(node, ast.Slice):
            bounds = [b for b in (node.lower, node.upper) if b is not None]
            if any(names_read(b) & varying for b in bounds):
                return True
    return False


def _shape_arguments(facts: Module, call: ast.Call) -> list[ast.AST]:
    found: list[ast.AST] = [k.value for k in call.keywords if k.arg in SHAPE_WORDS]
    name = callee_name(call.func)
    parts = dotted_parts(call.func)
    if name in RANDOM and "random" in parts:
        found += call.args[1:2] if facts.from_jax(call.func) else call.args[2:3]
    elif name in SHAPE_AT and len(parts) > 1:  # jnp.ones, np.zeros: not a function of the program
        at = SHAPE_AT[name]
        found += call.args if at is None else [call.args[i] for i in at if i < len(call.args)]
    return found
