"""The first call of a jitted function is inside the timed region: it compiles before it
runs{claim}`compile-before-polling`. Checklist: {ref}`review-compile-in-the-measurement`.

```python
step = jax.jit(f)
t0 = time.perf_counter()
step(x).block_until_ready()  # compiles here  # jaxwaits: ignore[JW102] (the mistake)
elapsed = time.perf_counter() - t0
```

Right: one blocked call of `step` before `t0`, or `step.lower(x).compile()`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding, says
from harnesscheck.model.library import APPENDING, JITTING, LOOPS
from harnesscheck.model.module import Module
from harnesscheck.model.syntax import (
    Function,
    bound_names,
    callee_key,
    callee_name,
    spans_line,
)
from harnesscheck.regions import TIMED_WORDS, WARM_UP, Region, running
from harnesscheck.rules import Seen, Source

CODE = "JW102"
NAME = "compile-timed"
ANCHOR = "review-compile-in-the-measurement"
CLAIMS = ("compile-before-polling",)
SUMMARY = "the first call of a jitted function is timed: it compiles before it runs"
WORDS = TIMED_WORDS


def check(source: Source) -> Iterator[Finding]:
    """The calls in a timed region that compile: the first of a jitted function, of a lax loop
    over one, or of a function of the module that is the only caller of one; unless the
    region's own timings are minimised, taken the median of or sliced past their first runs,
    or it is a warm-up, or a running clock (read in a loop it started before: time since then)."""
    facts = source.facts
    for region in source.regions:
        if not region.fixed_count or running(region, facts) or _round_apart(facts, region):
            continue
        # a function called more than once has compiled its steps by its second call, unless
        # it jits them anew each time, around a function it makes on each call
        fresh = _jitted_afresh(facts, region.start) if facts.warms_up(region.start) else None
        if fresh is not None and not fresh:
            continue
        if facts.keeps_fastest(_timings(facts, region.end), region.end):
            continue
        if facts.meant(region.start, region.end, WARM_UP):
            continue
        said: set[str] = set()  # step(x), step(x + 1): one compilation, said once
        for call in region.timed.every:
            if says(facts.lines[call.lineno - 2 : call.lineno - 1], WARM_UP):
                continue  # "# warm up" on the line before: this call is meant to compile
            if fresh is not None and callee_key(call.func) not in fresh:
                continue
            compiled = _compiles(facts, call, region.start)
            if compiled and _timed_again(source, region, call):
                continue  # the first call timed, then the next: the compilation shown on purpose
            if compiled and compiled not in said:
                said.add(compiled)
                yield finding(
                    CODE,
                    call,
                    f"{compiled} is first called inside the timed region: its compilation is "
                    "timed; call it once (blocked) before the timer starts",
                )


def _round_apart(facts: Module, region: Region) -> bool:
    """The timer is read under ``if it == 0:`` (or its ``else``), a round's number against 0
    (not ``(step + 1) % every == 0``): the first round timed on its own, on purpose
    (``t_first``), or every round but the first."""
    line = getattr(region.end, "lineno", region.start)
    for node in facts.of(ast.If):
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            and {type(test.left), type(test.comparators[0])} == {ast.Name, ast.Constant}
            and any(
                isinstance(side, ast.Constant) and side.value == 0
                for side in (test.left, *test.comparators)
            )
            and node.lineno < line
            and spans_line(node, line)
            and not spans_line(node, region.start)
        ):
            return True
    return False


def _timed_again(source: Source, region: Region, call: ast.Call) -> bool:
    """The reading that ends the region starts the next, which times the same callee again:
    the program times the first call and then the next (``t0``, ``f(x)``, ``t1``, ``f(x)``,
    ``t2``), so the first is meant to hold the compilation."""
    key = callee_key(call.func)
    read = getattr(region.end, "lineno", None)
    return any(
        other.start == read != region.start
        and any(callee_key(c.func) == key for c in other.timed.every)
        for other in source.regions
    )


def _jitted_afresh(facts: Module, line: int) -> set[str]:
    """The names the innermost function around ``line`` binds to a jit of a function it makes
    itself (a nested ``def`` or a lambda): each call of it makes a new function, and so
    compiles again (JAX's cache knows a function by its identity)."""
    definition = facts.innermost(line)
    if definition is None:
        return set()
    made = {n.name for n in ast.walk(definition) if isinstance(n, Function) and n is not definition}
    fresh: set[str] = set()
    for node in ast.walk(definition):
        if isinstance(node, Function) and node is not definition:
            if any(facts.wrapper(d) in JITTING for d in node.decorator_list):
                fresh.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            wrapped = node.value.args[:1]
            if facts.wrapper(node.value.func) in JITTING and any(
                isinstance(w, ast.Lambda) or callee_key(w) in made for w in wrapped
            ):
                fresh |= {name for t in node.targets for name in bound_names(t)}
    return fresh


def _timings(facts: Module, end: ast.AST) -> set[str]:
    """The names the region's reading of its timer goes into: ``dt = time() - t0``,
    ``times.append(time() - t0)``, ``t = timeit.repeat(...)``."""
    if isinstance(end, ast.Call):  # timeit: the statement that binds its result
        holders = [n for n in facts.assigned if any(m is end for m in ast.walk(n.value))]
        return {name for n in holders for t in n.targets for name in bound_names(t)}
    names: set[str] = set()
    for node in ast.walk(end):
        if isinstance(node, ast.Assign):
            names |= {name for t in node.targets for name in bound_names(t)}
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            names |= set(bound_names(node.target))
        elif isinstance(node, ast.Call) and callee_name(node.func) in APPENDING:
            if isinstance(node.func, ast.Attribute):
                names |= set(bound_names(node.func.value))
    return names


def _compiles(facts: Module, call: ast.Call, start: int) -> str:
    def first(name: str) -> bool:
        return name in facts.called and facts.called[name][0] >= start

    name = callee_key(call.func)
    if name in facts.identities:
        return ""  # jit(lambda x: x, out_shardings=...) moves arrays: a copy, not a step
    if name in facts.jitted and first(name):
        return repr(name)
    if callee_name(call.func) in LOOPS:
        looped = [callee_key(a) for a in call.args if callee_key(a) in facts.jitted]
        return next((repr(n) for n in looped if first(n)), "")
    function = name.removeprefix("self.")
    if not first(name) or "." in function:
        return ""
    for definition in facts.functions.get(function, []):
        inner = {callee_key(n.func) for n in ast.walk(definition) if isinstance(n, ast.Call)}
        for jitted in sorted(inner & facts.jitted):
            if all(spans_line(definition, line) for line in facts.called[jitted]):
                return f"{jitted!r} (through {name!r})"
    return ""


def watched(seen: Seen) -> str:
    found = seen.found
    seconds = sum(f["compile_s"] for f in found)
    share = max((f["compile_s"] / f["interval_s"] for f in found if f["interval_s"] > 0), default=1)
    return (
        f"a compilation ran inside the interval timed from {seen.since} to here, {seen.times}: "
        f"{seconds:.3g} s, {share:.0%} of the interval; make one blocked call before the timer "
        "starts"
    )
