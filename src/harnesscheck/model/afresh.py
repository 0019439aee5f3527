"""Jits of a function made anew on each call: ``jax.jit(lambda x: ...)`` or ``jit(inner)``,
``inner`` a ``def`` nested in the function that jits it. Each call of that function makes a new
function to jit, and JAX's cache knows a function by its identity: every call compiles again."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from harnesscheck.model.library import JITTING
from harnesscheck.model.syntax import Function, bound_names, callee_key, callee_name, spans_line

if TYPE_CHECKING:
    from harnesscheck.model.local import Local

CACHES = {"lru_cache", "cache", "cached"}
JITS = JITTING | {"partial"}  # the last names of a jit's callee: partial(jax.jit, ...)(f)


def jitted_afresh(facts: Local, definition: Function) -> set[str]:
    """The names ``definition`` binds to a jit of a function it makes itself (a nested ``def``
    or a lambda), and the nested definitions a jit decorates."""
    made = _made(definition)
    fresh: set[str] = set()
    for node in ast.walk(definition):
        if isinstance(node, Function) and node is not definition:
            if any(facts.wrapper(d) in JITTING for d in node.decorator_list):
                fresh.add(node.name)
        elif isinstance(node, ast.Assign) and _jit_of_made(facts, node.value, made):
            fresh |= {name for t in node.targets for name in bound_names(t)}
    return fresh


def recompiling(facts: Local) -> set[str]:
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
        if definition is None or definition.name in found or _cached(definition):
            continue
        if not _jit_of_made(facts, jit, _made(definition)):
            continue
        if id(jit) in called:  # jit(_compute)(x)
            found.add(definition.name)
        elif id(jit) in bound:  # f = jit(_compute); f(x)
            names = {n for t in bound[id(jit)].targets for n in bound_names(t)}
            if _calls(facts, definition, names):
                found.add(definition.name)
    for node in facts.of(ast.FunctionDef):  # @jit def inner(...): ...; inner(x)
        if any(facts.wrapper(d) in JITTING for d in node.decorator_list):
            outer = max(
                (d for d in facts.around(node.lineno) if d is not node),
                key=lambda d: d.lineno,
                default=None,
            )
            if outer is not None and not _cached(outer) and _calls(facts, outer, {node.name}):
                found.add(outer.name)
    return found


def _cached(definition: Function) -> bool:
    """``@lru_cache``: what it makes is made once for each set of arguments, then kept."""
    return any(callee_name(d) in CACHES for d in definition.decorator_list)


def _calls(facts: Local, definition: Function, names: set[str]) -> bool:
    """``definition`` calls one of ``names``."""
    return any(
        callee_key(c.func) in names and spans_line(definition, c.lineno) for c in facts.of(ast.Call)
    )


def _made(definition: Function) -> set[str]:
    """The functions ``definition`` defines inside itself."""
    return {n.name for n in ast.walk(definition) if isinstance(n, Function) and n is not definition}


def _jit_of_made(facts: Local, node: ast.AST, made: set[str]) -> bool:
    """``node`` jits a lambda or one of the ``made`` functions: ``jax.jit(lambda v: v)``."""
    return (
        isinstance(node, ast.Call)
        and facts.wrapper(node.func) in JITTING
        and any(isinstance(w, ast.Lambda) or callee_key(w) in made for w in node.args[:1])
    )
