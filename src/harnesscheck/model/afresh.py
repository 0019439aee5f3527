"""Jits of a function made anew on each call: ``jax.jit(lambda x: ...)`` or ``jit(inner)``,
``inner`` a ``def`` nested in the function that jits it, and lax loops run outside jit over such a
function (``lax.scan(body, ...)``). Each call of that function makes a new function to compile, and
JAX's cache knows a function by its identity: every call compiles again."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from harnesscheck.model.library import JITTING, LOOPS
from harnesscheck.model.syntax import (
    Function,
    bound_names,
    callee_key,
    callee_name,
    dotted_parts,
    spans_line,
)

if TYPE_CHECKING:
    from harnesscheck.model.local import Local
    from harnesscheck.model.module import Module

CACHES = {"lru_cache", "cache", "cached"}
JITS = JITTING | {"partial"}  # the last names of a jit's callee: partial(jax.jit, ...)(f)
# Calls that return a new function object on every call: jitting what they return compiles anew.
MAKERS = {"partial", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "checkpoint"}


def jitted_afresh(facts: Local, definition: Function) -> set[str]:
    """The names ``definition`` binds to a jit of a function it makes itself (a nested ``def``
    or a lambda), and the nested definitions a jit decorates."""
    made = _made(definition)
    fresh: set[str] = set()
    kept = _memoised(definition)
    for node in ast.walk(definition):
        if isinstance(node, Function) and node is not definition:
            if any(facts.wrapper(d) in JITTING for d in node.decorator_list):
                fresh.add(node.name)
        elif isinstance(node, ast.Assign) and _jit_of_made(facts, node.value, made):
            fresh |= {name for t in node.targets for name in bound_names(t)} - kept
    return fresh


def _memoised(definition: Function) -> set[str]:
    """The names ``definition`` binds only where they are None (``if fn is None: fn =
    jax.jit(...)``, ``fn`` first taken out of a cache): what it made once is kept."""
    return {
        node.test.left.id
        for node in ast.walk(definition)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and isinstance(node.test.ops[0], ast.Is)
        and isinstance(node.test.comparators[0], ast.Constant)
        and node.test.comparators[0].value is None
    }


def recompiling(facts: Module) -> set[str]:
    """The module's functions whose every call compiles: they call a jit of a function they
    make on that call (``jit(_compute)(stacked, probs)``, or a name bound to one). Found from
    the module's jits, few, not by walking every function."""
    called = {id(c.func) for c in facts.of(ast.Call)}
    bound = {id(a.value): a for a in facts.assigned}
    found: set[str] = set()
    for jit in facts.of(ast.Call):
        if not (jit.args and callee_name(jit.func) in JITS and facts.wrapper(jit.func) in JITTING):
            continue
        definition = facts.innermost(jit.lineno)
        if definition is None or definition.name in found or _once(facts, definition):
            continue
        if not _jit_of_made(facts, jit, _made(definition)):
            continue
        if id(jit) in called:  # jit(_compute)(x)
            found.add(definition.name)
        elif id(jit) in bound:  # f = jit(_compute); f(x)
            names = {n for t in bound[id(jit)].targets for n in bound_names(t)}
            names -= _memoised(definition)
            if _calls(facts, definition, names | _wrapping(definition, names)):
                found.add(definition.name)
    for node in facts.of(ast.FunctionDef):  # @jit def inner(...): ...; inner(x)
        if any(facts.wrapper(d) in JITTING for d in node.decorator_list):
            outer = max(
                (d for d in facts.around(node.lineno) if d is not node),
                key=lambda d: d.lineno,
                default=None,
            )
            if outer is not None and not _once(facts, outer) and _calls(facts, outer, {node.name}):
                found.add(outer.name)
    for loop in facts.of(ast.Call):  # lax.scan(body, ...) of a body made on this call
        if not _lax_loop(facts, loop):
            continue  # asked first: innermost() is the dearer question, and most calls are not
        definition = facts.innermost(loop.lineno)
        if definition is None or definition.name in found:
            continue
        made = _made(definition)
        bodies = [a for a in loop.args if isinstance(a, ast.Lambda) or callee_key(a) in made]
        if bodies and not _once(facts, definition):
            found.add(definition.name)
    return found


def _lax_loop(facts: Module, call: ast.Call) -> bool:
    """``jax.lax.scan(...)``, ``lax.map(...)``: run outside jit, it compiles its body; a body
    made anew on each call is a new function to JAX's cache, so every call compiles again."""
    name = callee_name(call.func)
    if name == "map":  # lax.map, not jax.tree.map (a Python loop over leaves, compiling nothing)
        return facts.from_jax(call.func) and "tree" not in dotted_parts(call.func)
    return facts.from_jax(call.func) and name in LOOPS


def _once(facts: Local, definition: Function) -> bool:
    """What ``definition`` makes is made once for each set of arguments, then kept: it is
    cached (``@lru_cache``), or jitted itself, so that its body runs only while it is traced
    (pyNACX's ``@partial(jit, static_argnums=...) def nacx_residual``)."""
    return any(
        callee_name(d) in CACHES or facts.wrapper(d) in JITTING for d in definition.decorator_list
    )


def _calls(facts: Local, definition: Function, names: set[str]) -> bool:
    """``definition`` calls one of ``names``, or a transform of one (``jax.vmap(step)(keys)``)."""
    return any(
        spans_line(definition, c.lineno) and callee_key(_unwrapped(c.func)) in names
        for c in facts.of(ast.Call)
    )


def _wrapping(definition: Function, names: set[str]) -> set[str]:
    """The names ``definition`` binds to a transform of one of ``names`` (``batched =
    jax.vmap(jitted)``): calling one calls it."""
    return {
        name
        for node in ast.walk(definition)
        if isinstance(node, ast.Assign) and callee_key(_unwrapped(node.value)) in names
        for target in node.targets
        for name in bound_names(target)
    }


def _unwrapped(func: ast.AST) -> ast.AST:
    """``step`` of ``jax.vmap(step)``; ``func`` itself when it is no transform's call."""
    while isinstance(func, ast.Call) and callee_name(func.func) in MAKERS and func.args:
        func = func.args[0]
    return func


def _made(definition: Function) -> set[str]:
    """The functions ``definition`` defines inside itself, and the names it binds to a new
    function on each call (``fn = functools.partial(rollout, env)``, ``jax.vmap(step)``)."""
    made = {n.name for n in ast.walk(definition) if isinstance(n, Function) and n is not definition}
    for node in ast.walk(definition):
        if isinstance(node, ast.Assign) and _new_function(node.value):
            made |= {name for t in node.targets for name in bound_names(t)}
    return made


def _new_function(node: ast.AST) -> bool:
    """``node`` makes a new function object: a lambda, ``functools.partial(f, ...)``, a
    transform of a function (``jax.vmap(f)``, ``jax.grad(f)``)."""
    return isinstance(node, ast.Lambda) or (
        isinstance(node, ast.Call) and callee_name(node.func) in MAKERS and bool(node.args)
    )


def _jit_of_made(facts: Local, node: ast.AST, made: set[str]) -> bool:
    """``node`` jits a function made on this call: ``jax.jit(lambda v: v)``, ``jax.jit(inner)``,
    ``jax.jit(functools.partial(rollout, env))``, ``jax.jit(jax.vmap(fn))``."""
    return (
        isinstance(node, ast.Call)
        and facts.wrapper(node.func) in JITTING
        and any(_new_function(w) or callee_key(w) in made for w in node.args[:1])
    )
