"""What a region's warm-up ran, where the function around it speaks of warming up: the jitted
functions it times that the warm-up never called, and those it called on a slice of the array
the region hands them whole (the new shape compiles in the region)."""

from __future__ import annotations

import ast
from functools import lru_cache

from harnesscheck.model.module import Module
from harnesscheck.model.syntax import callee_key, spans_line, walk
from harnesscheck.regions import Region


def warmed_on_a_slice(facts: Module, region: Region) -> list[tuple[ast.Call, str, str]]:
    """The region's calls of a jitted function whose every earlier call in the function around
    it was handed a slice of an array this call is handed whole (``run(d[:10])``, then
    ``run(d)`` timed: dmipy), with the function's name and the array's."""
    definition = facts.innermost(region.start)
    found = []
    for call in region.timed.every:
        name = callee_key(call.func)
        if name not in facts.jitted or facts.called.get(name, [region.start])[0] >= region.start:
            continue
        earlier = [
            c
            for c in _calls_by_name(facts).get(name, [])
            if c.lineno < region.start and (definition is None or spans_line(definition, c.lineno))
        ]
        whole = {i: a.id for i, a in enumerate(call.args) if isinstance(a, ast.Name)}
        sliced = [{i: _sliced(a) for i, a in enumerate(c.args)} for c in earlier]
        for i, array in whole.items():
            if sliced and all(w.get(i) == array for w in sliced):
                found.append((call, name, array))
                break
    return found


def _sliced(node: ast.AST) -> str:
    """``d`` of ``d[:10]``; "" for anything else."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return node.value.id if isinstance(node.value, ast.Name) else ""
    return ""


def unwarmed(facts: Module, region: Region) -> set[str]:
    """In a function called once (not in a loop, not traced) that speaks of warming up, the
    jitted functions the region calls that nothing before it in the function reads: its
    warm-up did not run them (jigandmpnn warms up sample_batch, then times sample_jit, made
    beside it)."""
    definition = facts.innermost(region.start)
    calls = facts.called.get(definition.name, []) if definition is not None else []
    loops = facts.of(ast.For, ast.While, ast.AsyncFor)
    if definition is None or len(calls) > 1 or definition.name in facts.traced:
        return set()
    if any(spans_line(loop, line) for loop in loops for line in calls):
        return set()  # called once, in a loop: warm from its second round
    read = _first_read(definition)
    called = {callee_key(call.func) for call in region.timed.every}
    return {
        name
        for name in called
        if name in facts.jitted and read.get(name, region.start) >= region.start
    }


@lru_cache(maxsize=4)  # the modules being checked: each is done before the next
def _calls_by_name(facts: Module) -> dict[str, list[ast.Call]]:
    """The module's calls, by callee: asked once a module, however many regions it has."""
    found: dict[str, list[ast.Call]] = {}
    for call in facts.of(ast.Call):
        found.setdefault(callee_key(call.func), []).append(call)
    return found


@lru_cache(maxsize=64)
def _first_read(definition: ast.AST) -> dict[str, int]:
    """The line where ``definition`` first reads each name: walked once, for all its regions."""
    read: dict[str, int] = {}
    for n in walk(definition):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            read[n.id] = min(read.get(n.id, n.lineno), n.lineno)
    return read
