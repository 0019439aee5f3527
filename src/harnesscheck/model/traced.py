"""What a module traces: the bodies of its functions that ``jit``, ``vmap``, ``scan`` … trace
rather than run, found as Python finds the names handed to them, and the calls inside them (a
block or a barrier there runs once, while tracing)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.model.local import Local
from harnesscheck.model.syntax import Function, callee_name, spans_line, walk


def traced_calls(facts: Local, called: str) -> Iterator[tuple[Function, ast.Call]]:
    """Each call of ``called`` (its last name) inside a module function whose body is traced,
    with that function."""
    traced = traced_definitions(facts)
    for node in facts.of(ast.FunctionDef, ast.AsyncFunctionDef):
        if id(node) in traced:
            for inner in walk(node):
                if isinstance(inner, ast.Call) and callee_name(inner.func) == called:
                    yield node, inner


def traced_definitions(facts: Local) -> set[int]:
    """The definitions whose bodies are traced: those a tracer decorates, and the one a name
    handed to a tracing call finds from where it is called, as Python finds it (the nearest
    enclosing definition of that name; a method is never found by its bare name, so
    ``jit(eval)`` in ``__init__`` does not trace the method ``eval``)."""
    found = set(facts.traced_here)
    for name, line in facts.traced_names:
        depths = {
            id(d): depth
            for d in facts.functions.get(name, [])
            if id(d) not in facts.in_classes and (depth := _depth_seen(facts, d, line)) >= 0
        }
        nearest = max(depths.values(), default=-1)
        found |= {d for d, depth in depths.items() if depth == nearest}
    return found


def _depth_seen(facts: Local, definition: Function, line: int) -> int:
    """How deep the scope a definition is made in lies (0: the module), or -1 when that scope
    does not hold ``line``."""
    outer = [f for f in facts.around(definition.lineno) if f is not definition]
    if not outer:
        return 0
    scope = max(outer, key=lambda f: f.lineno)
    return len(outer) if spans_line(scope, line) else -1


def called_as_they_are(facts: Local) -> set[str]:
    """The traced functions that a call also names (``rollout(key)`` beside
    ``jax.jit(rollout)``): there their bodies run for real, and their waits wait."""
    return {
        call.func.id
        for call in facts.of(ast.Call)
        if isinstance(call.func, ast.Name) and call.func.id in facts.traced
    }
