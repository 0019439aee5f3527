"""What a region's warm-up ran: where the function around it speaks of warming up, the jitted
functions it times that the warm-up never called, and those it called on a slice of the array
the region hands them whole (the new shape compiles in the region); where a loop's first round
is the warm-up, whether the program tells that round apart."""

from __future__ import annotations

import ast
from functools import lru_cache

from harnesscheck.model.module import Module
from harnesscheck.model.syntax import (
    bound_names,
    callee_key,
    names_read,
    past_first,
    spans_line,
    walk,
)
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
        whole = {i: a.id for i, a in enumerate(call.args) if isinstance(a, ast.Name)}
        left, warmed = set(whole), False  # where each earlier call has had a slice so far
        for c in _calls_by_name(facts).get(name, []):  # in the order of the lines
            if c.lineno >= region.start or not left:
                break
            if definition is None or spans_line(definition, c.lineno):
                left = {i for i in left if i < len(c.args) and _sliced(c.args[i]) == whole[i]}
                warmed = True
        if warmed and left:
            found.append((call, name, whole[min(left)]))
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
    for call in sorted(facts.of(ast.Call), key=lambda c: (c.lineno, c.col_offset)):
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


def round_apart(facts: Module, region: Region, names: set[str]) -> bool:
    """The timer is read under ``if it == 0:`` (or its ``else``), a round's number against 0
    (not ``(step + 1) % every == 0``): the first round timed on its own, on purpose
    (``t_first``), or every round but the first; or the loop around the region tells its
    first round apart before the timer starts (``if i == 0: msg = "jit warmup"``), or shows
    the time read into ``names`` only for later rounds."""
    line = getattr(region.end, "lineno", region.start)
    loops = [loop for loop in facts.of(ast.For) if spans_line(loop, region.start)]
    rounds = {name for loop in loops for name in bound_names(loop.target)}
    for node in facts.of(ast.If):
        if not _first_round(node.test):
            continue
        if node.lineno < line and spans_line(node, line) and not spans_line(node, region.start):
            return True
        first = node.lineno < region.start and callee_key(node.test.left) in rounds  # type: ignore[attr-defined]
        if first and any(spans_line(loop, node.lineno) for loop in loops):
            return True
    return _shown_after_first(facts, region, loops, rounds, names)


def _shown_after_first(
    facts: Module, region: Region, loops: list[ast.For], rounds: set[str], names: set[str]
) -> bool:
    """The loop's rounds read the timer, and only later rounds show it: each statement after
    the reading that reads its time stands under a test of the round's number (``for stage,
    steps in enumerate([10, 20]):  # burn-in``, then ``if stage == 1: print(t1 - t0)``)."""
    line = getattr(region.end, "end_lineno", None) or region.start
    loop = max(loops, key=lambda n: n.lineno, default=None)
    if loop is None or not names:
        return False
    later = [n for n in walk(loop) if isinstance(n, ast.If) and _later_round(n.test, rounds)]
    readers = [
        s
        for s in walk(loop)
        if isinstance(s, ast.stmt) and not isinstance(s, (ast.If, ast.For, ast.While))
        and s.lineno > line and names_read(s) & names
    ]  # fmt: skip
    return bool(readers) and all(any(spans_line(n, s.lineno) for n in later) for s in readers)


def _later_round(test: ast.expr, rounds: set[str]) -> bool:
    """``test`` holds only for rounds after the first: ``stage == 1``, ``i > 0`` (of a round's
    number), alone or in an ``and``."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return any(
        isinstance(p, ast.Compare)
        and callee_key(p.left) in rounds
        and (
            past_first(p)
            or (
                isinstance(p.ops[0], ast.Eq)
                and isinstance(p.comparators[0], ast.Constant)
                and isinstance(p.comparators[0].value, int)
                and p.comparators[0].value >= 1
            )
        )
        for p in parts
    )


def _first_round(test: ast.expr) -> bool:
    """``it == 0`` (or ``!=``): a round's number against 0."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
        and {type(test.left), type(test.comparators[0])} == {ast.Name, ast.Constant}
        and any(
            isinstance(side, ast.Constant) and side.value == 0
            for side in (test.left, *test.comparators)
        )
    )
