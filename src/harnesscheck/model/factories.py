"""Factories: the module's functions that return jitted functions (``return jax.jit(f),
jit(g)``), so that what a call of one returns is known as jitted where it is bound."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from harnesscheck.model.library import JITTING
from harnesscheck.model.syntax import Function, callee_key, spans_line

if TYPE_CHECKING:
    from harnesscheck.model.local import Local


def factories(facts: Local) -> set[str]:
    """The names of the module's functions whose every return is a jitted function, a
    wrapper around one, or a function they define that returns what a jitted one returns
    (a method's also as ``self.name``)."""
    found: set[str] = set()
    for node in facts.of(ast.Return):
        values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        if not values or any(v is None for v in values):
            continue
        rest = [v for v in values if not _jitted_value(facts, v)]  # type: ignore[arg-type]
        if any(not isinstance(v, ast.Name) or v.id not in facts.functions for v in rest):
            continue  # only a function defined in the module may be one that calls a jit
        inner = facts.innermost(node.lineno)
        if inner is not None and all(_calls_jitted(facts, inner, v) for v in rest):
            found |= {inner.name, f"self.{inner.name}"}  # a method, called on its instance
    return found


def _jitted_value(facts: Local, value: ast.expr) -> bool:
    """``jax.jit(step)``, a wrapper around a jitted function, or a name bound to one."""
    made = isinstance(value, ast.Call) and (
        facts.wrapper(value.func) in JITTING or facts.wraps_jitted(value)
    )
    return made or callee_key(value) in facts.jitted


def _calls_jitted(facts: Local, outer: Function, value: ast.expr) -> bool:
    """``value`` names a function defined in ``outer`` that returns what a jitted function
    returns: ``def _call(tokens): return _fwd(params, tokens)``, then ``return _call``."""
    return any(
        d is not outer
        and spans_line(outer, d.lineno)
        and any(
            isinstance(r, ast.Return)
            and isinstance(r.value, ast.Call)
            and callee_key(r.value.func) in facts.jitted
            for r in ast.walk(d)
        )
        for d in facts.functions.get(callee_key(value), [])
    )
