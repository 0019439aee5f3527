"""What a region's warm-up ran: where the function around it speaks of warming up, the jitted
functions it times that the warm-up never called, those it called on a slice of the array the
region hands them whole (the new shape compiles in the region), and those it called with
another value of a static argument; where a loop's first round is the warm-up, whether the
program tells that round apart; and a first run timed apart from a second."""

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
    (``t_first``), or every round but the first; or under a test no first round passes
    (``if version % log_every == 0``, the version counted from 1); or the loop around the
    region tells its first round apart before the timer starts (``if i == 0: msg = "jit
    warmup"``), or shows the time read into ``names`` only for later rounds."""
    line = getattr(region.end, "lineno", region.start)
    loops = [loop for loop in facts.of(ast.For) if spans_line(loop, region.start)]
    rounds = {name for loop in loops for name in bound_names(loop.target)}
    for node in facts.of(ast.If):
        inside = (
            node.lineno < line and spans_line(node, line) and not spans_line(node, region.start)
        )
        later = inside and _later_round(node.test, rounds, facts, node.lineno)
        if later and not _first_round(node.test) and _each_round(facts, region, line):
            return True  # read on rounds the first never reaches (the `else` of one it does)
        if not _first_round(node.test):
            continue
        if inside:
            return True
        first = node.lineno < region.start and callee_key(node.test.left) in rounds  # type: ignore[attr-defined]
        if first and any(spans_line(loop, node.lineno) for loop in loops):
            return True
    around = [loop for loop in facts.of(ast.For, ast.While) if spans_line(loop, line)]
    if not loops and not _each_round(facts, region, line):
        return False
    return _shown_after_first(facts, region, loops or around, rounds, names)


def _each_round(facts: Module, region: Region, line: int) -> bool:
    """The timer read at ``line`` starts again on every round of the loop around that line:
    it is started in the loop, or its start is set anew by a statement of the loop's own
    body (``t0 = t1``), not only when the time is shown. Else what is read under a test of
    later rounds holds every round since the last reading, the first among them."""
    loop = max(
        (n for n in facts.of(ast.For, ast.While) if spans_line(n, line)),
        key=lambda n: n.lineno,
        default=None,
    )
    if loop is None or spans_line(loop, region.start):
        return loop is not None
    started = {
        name
        for n in facts.of(ast.Assign)
        if n.lineno == region.start
        for t in n.targets
        for name in bound_names(t)
    }
    return any(
        isinstance(s, ast.Assign) and started & {n for t in s.targets for n in bound_names(t)}
        for s in loop.body
    )


def _shown_after_first(
    facts: Module,
    region: Region,
    loops: list[ast.For] | list[ast.For | ast.While],
    rounds: set[str],
    names: set[str],
) -> bool:
    """The loop's rounds read the timer, and only later rounds show it: each statement after
    the reading that reads its time stands under a test of the round's number (``for stage,
    steps in enumerate([10, 20]):  # burn-in``, then ``if stage == 1: print(t1 - t0)``)."""
    line = getattr(region.end, "end_lineno", None) or region.start
    loop = max(loops, key=lambda n: n.lineno, default=None)
    if loop is None or not names:
        return False
    later = [
        n
        for n in walk(loop)
        if isinstance(n, ast.If) and _later_round(n.test, rounds, facts, n.lineno)
    ]
    statements = sorted(
        (s for s in walk(loop) if isinstance(s, ast.stmt) and s.lineno > line),
        key=lambda s: s.lineno,
    )
    names, readers = set(names), []
    for s in statements:
        if isinstance(s, (ast.If, ast.For, ast.While)) or not names_read(s) & names:
            continue
        if isinstance(s, ast.Assign):  # dt = t1 - t0, t0 = t1: the time kept, not yet shown
            names |= {name for t in s.targets for name in bound_names(t)}
        else:
            readers.append(s)
    return bool(readers) and all(any(spans_line(n, s.lineno) for n in later) for s in readers)


def _later_round(test: ast.expr, rounds: set[str], facts: Module, at: int) -> bool:
    """``test`` (at line ``at``) holds only for rounds after the first: ``stage == 1``,
    ``i > 0`` (of a round's number), or ``n % every == 0`` where the first round's ``n`` is
    no multiple of it, alone or in an ``and``."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return any(
        isinstance(p, ast.Compare)
        and (
            (
                callee_key(p.left) in rounds
                and (
                    past_first(p)
                    or (
                        isinstance(p.ops[0], ast.Eq)
                        and isinstance(p.comparators[0], ast.Constant)
                        and isinstance(p.comparators[0].value, int)
                        and p.comparators[0].value >= 1
                    )
                )
            )
            or _never_first(p, facts, at)
        )
        for p in parts
    )


def _never_first(test: ast.Compare, facts: Module, at: int) -> bool:
    """``n % every == 0`` (or ``(n + 1) % every``) that the first round's ``n`` fails: a
    number ``every`` it is no multiple of, or a name where that ``n`` is 1 (every 1 would
    log each round, and nobody writes a modulo for that)."""
    left = test.left
    if not (
        isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Mod)
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == 0
    ):
        return False
    counted, plus = left.left, 0
    if isinstance(counted, ast.BinOp) and isinstance(counted.op, ast.Add):
        if isinstance(counted.right, ast.Constant) and isinstance(counted.right.value, int):
            counted, plus = counted.left, counted.right.value
    firsts = _first_values(facts, at) if isinstance(counted, ast.Name) else {}
    if not isinstance(counted, ast.Name) or counted.id not in firsts:
        return False
    first, every = firsts[counted.id] + plus, left.right
    if isinstance(every, ast.Constant) and isinstance(every.value, int) and every.value > 1:
        return first % every.value != 0
    return first == 1 and not isinstance(every, ast.Constant)


def _first_values(facts: Module, line: int) -> dict[str, int]:
    """The round numbers of the loops around ``line`` whose first value is known: a ``for``
    over ``range(a, b)`` or ``enumerate(xs, a)`` (its number starts at ``a``), and a counter
    set to a number before a loop and raised by one at the top of its body, before ``line``
    (``version = 0``, ``while True: version += 1``: the first round's is 1)."""
    found: dict[str, int] = {}
    for loop in facts.of(ast.For, ast.While):
        if not spans_line(loop, line):
            continue
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call):
            name, args, target = callee_key(loop.iter.func), loop.iter.args, loop.target
            start = None
            if name == "range" and args:
                start = 0 if len(args) == 1 else _int(args[0])
            elif name == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
                given = args[1:] or [k.value for k in loop.iter.keywords if k.arg == "start"]
                target, start = target.elts[0], _int(given[0]) if given else 0
            if isinstance(target, ast.Name) and start is not None:
                found[target.id] = start
        for statement in loop.body:
            if statement.lineno >= line:
                break
            counter = _raised_by_one(statement)
            before = _set_before(facts, counter, loop.lineno) if counter else None
            if counter and before is not None:
                found[counter] = before + 1
    return found


def _int(node: ast.expr) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _raised_by_one(statement: ast.stmt) -> str:
    """``n += 1``: ``n``."""
    if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add):
        if isinstance(statement.target, ast.Name) and _int(statement.value) == 1:
            return statement.target.id
    return ""


def _set_before(facts: Module, name: str, line: int) -> int | None:
    """The number ``name`` is last set to before ``line``, in the same function."""
    where = facts.innermost(line)
    last: ast.Assign | None = None
    for node in facts.of(ast.Assign):
        same = where is None or spans_line(where, node.lineno)
        if (
            node.lineno < line
            and same
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ):
            last = node if last is None or node.lineno > last.lineno else last
    return _int(last.value) if last is not None else None


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


def timed_again(facts: Module, regions: list[Region], region: Region, call: ast.Call) -> bool:
    """The next region times the same callee again: the one the reading that ends this region
    starts (``t0``, ``f(x)``, ``t1``, ``f(x)``, ``t2``), or, where both are run once (in no
    loop, no ``timeit``), the next one after it in the same function, handed the same
    arguments and read into another name or message: a first run, then a second. The program
    times the first call apart from the next, so the first is meant to hold the compilation.
    The same row printed for each (``print(f"took {time() - t}")`` again and again) is a log
    whose first row holds the compilation under the name of the rest."""
    key = callee_key(call.func)
    read = getattr(region.end, "lineno", None)
    if not key or read is None:
        return False
    loops = facts.of(ast.For, ast.While)

    def once(timed: Region) -> bool:
        lines = (timed.start, getattr(timed.end, "lineno", timed.start))
        looped = any(spans_line(n, line) for n in loops for line in lines)
        return not looped and not isinstance(timed.end, ast.Call)  # timeit(f, number=10)

    chained = [other for other in regions if other.start == read != region.start]
    after = [other for other in regions if other.start > read] if once(region) else []
    following = min(chained or after, key=lambda other: other.start, default=None)
    if following is None or facts.scope_of(following.start) != facts.scope_of(region.start):
        return False
    if chained:
        return any(callee_key(c.func) == key for c in following.timed.every)
    if not once(following) or _reading(facts, following) == _reading(facts, region):
        return False  # the same row printed each time: the first row holds the compilation
    handed = ast.dump(ast.Tuple([*call.args, *(k.value for k in call.keywords)]))
    return any(
        callee_key(c.func) == key
        and ast.dump(ast.Tuple([*c.args, *(k.value for k in c.keywords)])) == handed
        for c in following.timed.every
    )


def _reading(facts: Module, region: Region) -> str:
    """The text of the statement that reads the region's timer."""
    line = getattr(region.end, "lineno", region.start)
    return facts.lines[line - 1].strip()


def static_changed(facts: Module, call: ast.Call, start: int) -> str:
    """The static argument ``call`` hands a value its every earlier call in the same function
    handed another value of (``relax(p, 1)`` warmed up, ``relax(p, 20)`` timed, the steps
    static): a new value of a static argument compiles anew. Said as "argument 1 = 20" or
    "n_steps = 20"; "" for none."""
    key = callee_key(call.func)
    positions, names = facts.static[key]
    scope = facts.scope_of(call.lineno)
    earlier = [
        c
        for c in _calls_by_name(facts).get(key, [])
        if c.lineno < start and facts.scope_of(c.lineno) == scope
    ]
    values = _static_values(call, positions, names)
    if not earlier or not values:
        return ""
    for other in earlier:
        before = _static_values(other, positions, names)
        if not any(k in before and before[k] != v for k, v in values.items()):
            return ""  # this call's values were warmed up by that one
    return ", ".join(f"{'argument ' * k.isdigit()}{k} = {v}" for k, v in values.items())


def _static_values(call: ast.Call, positions: set[int], names: set[str]) -> dict[str, str]:
    """The numbers and strings a call hands its static arguments, by position or name."""
    handed = {str(i): a for i, a in enumerate(call.args) if i in positions}
    handed |= {k.arg: k.value for k in call.keywords if k.arg in names}
    return {k: repr(v.value) for k, v in handed.items() if isinstance(v, ast.Constant)}
