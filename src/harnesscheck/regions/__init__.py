"""The timed regions of a module: the statements between a timer's start and its reading (or
what ``timeit``, a timing context manager and a ``%%timeit`` cell time), each read statement
by statement as :class:`~harnesscheck.regions.timed.Timed` work and the waits on it. Four rules
judge them (JW101, JW102, JW103, JW107)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from harnesscheck.model.module import Module
from harnesscheck.model.syntax import (
    Function,
    bound_names,
    callee_key,
    callee_name,
    clock_read,
    first_timer,
    is_timer,
    names_read,
    restarts_timer,
    run_by,
    spans_line,
    starts_timer,
    statement_lists,
)
from harnesscheck.regions.intent import DISPATCH, meant
from harnesscheck.regions.timed import Timed
from harnesscheck.sources import CELL_TIMER


@dataclass(frozen=True)
class Region:
    """One timed region: where its timer starts (a line), the statement or call that ends it,
    the NumPy names made on the host before it, whether its runs are counted (``timeit``'s
    ``number=``: no calibration round takes the first call), and what it does."""

    start: int
    end: ast.AST
    host: frozenset[str]
    fixed_count: bool
    timed: Timed
    again: bool = False  # a later reading of a clock read before: what ran first belongs in it


def judgeable(region: Region, facts: Module) -> bool:
    """Whether a region's waits can be judged: it timed JAX work, handed none of it to code
    the review cannot see, and does not say that it times the dispatch (JW101, JW103)."""
    timed = region.timed
    if not (timed.calls or timed.arithmetic) or timed.maybe or timed.unseen:
        return False
    if timed.forgotten and not timed.made:  # no work after the code that may have waited
        return False
    return not meant(facts, region.start, region.end, DISPATCH)


def running(region: Region, facts: Module) -> bool:
    """A running clock: the timer is read inside a loop that its start lies before and that
    never starts it again (``start = time.time()``, then ``time.time() - start`` logged each
    batch), so each reading is the time since a moment before the loop, and what ran first
    (compiling included) belongs in it."""
    end = region.end
    if not isinstance(end, ast.stmt):
        return False
    started = {callee_key(n.right) for n in ast.walk(end) if clock_read(n)} - {""}
    if not started:
        return False
    for loop in facts.of(ast.For, ast.While):
        if spans_line(loop, end.lineno) and not spans_line(loop, region.start):
            restarted = {
                name for target, _ in facts.assignments(loop) for name in bound_names(target)
            }
            if not started & restarted:
                return True
    return False


def regions(module: Module) -> list[Region]:
    """Every timed region of the module: timer readings, ``timeit`` calls, ``%%timeit`` cells."""
    if not module.times:
        return []
    found: list[Region] = []
    for node in module.of(ast.Call):
        found += _timeit(module, node)
    for node in module.of(ast.With):
        found += _timed_block(module, node)
    for node in module.of(ast.While):
        if module.is_benchmark_loop(node):
            # google_benchmark times each round of `while state:`, a time budget each round
            # before its test; the rounds are not a count fixed beforehand (as timeit's calibration)
            host = host_before(module, node.lineno)
            found.append(_read(module, host, node.body, node, node.lineno, fixed_count=False))
    readings, differences = _subtractions(module)
    for body in module.bodies():
        found += _timer_readings(module, body, readings, differences)
    for owner in module.of(ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While):
        found += _laps(module, owner.body)
    for loop in module.of(ast.For, ast.While):
        found += _rounds(module, loop)
    return found


def _rounds(module: Module, loop: ast.For | ast.While) -> list[Region]:
    """A timer read and started again in one block of a loop: ``time.time() - lt0``, then
    ``lt0 = time.time()`` (vit's ``if step % progress_every == 0:``), or ``now = time.time()``,
    ``now - last``, then ``last = now``. Each reading after the first times the rounds since
    the last one, so the loop's body down to the reading is timed; the first is the region
    its start before the loop makes, and compiles there."""
    found = []
    for block in _blocks(loop.body):
        read: dict[str, tuple[ast.stmt, ast.Call]] = {}  # now = time(): where, and the timer
        for i, statement in enumerate(block):
            since = {
                n.right.id: (statement, n.left) if isinstance(n.left, ast.Call) else read[n.left.id]
                for n in run_by(statement)
                if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
                and isinstance(n.right, ast.Name) and _reading(n.left, read)
            }  # fmt: skip
            for name in [n for n in since if n in read]:
                del since[name]  # t0 = time() earlier in the round: it times from there
            for target, value in module.assignments(statement):  # t = time() in there: its own
                if isinstance(target, ast.Name) and isinstance(value, ast.Call) and is_timer(value):
                    since.pop(target.id, None)
                    read[target.id] = (statement, value)
            for later in block[i + 1 :]:
                for target, value in module.assignments(later):
                    if (
                        isinstance(target, ast.Name)
                        and target.id in since
                        and _reading(value, read)
                    ):
                        end, timer = since.pop(target.id)
                        statements = _before(loop.body, end) or []
                        host = host_before(module, loop.lineno)
                        found.append(
                            _read(module, host, statements, end, later.lineno, timer, False)
                        )
    return found


def _reading(node: ast.AST, read: dict[str, tuple[ast.stmt, ast.Call]]) -> bool:
    """A timer's reading: the timer called, or a name bound to what it returned."""
    return is_timer(node) or (isinstance(node, ast.Name) and node.id in read)


def _blocks(body: list[ast.stmt]) -> Iterator[list[ast.stmt]]:
    """A loop's body and the blocks nested in it that run in its rounds (not those of an inner
    loop or function: they are their own)."""
    yield body
    for statement in body:
        if not isinstance(statement, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            for block in statement_lists(statement):
                yield from _blocks(block)


def _before(statements: list[ast.stmt], target: ast.stmt) -> list[ast.stmt] | None:
    """The statements run before ``target`` from the start of ``statements``, into the blocks
    it is nested in; None when it is not there."""
    region: list[ast.stmt] = []
    for statement in statements:
        if statement is target:
            return region
        for block in statement_lists(statement):
            inner = _before(block, target)
            if inner is not None:
                return region + inner
        region.append(statement)
    return None


def _laps(module: Module, body: list[ast.stmt]) -> list[Region]:
    """A lap timer in a function or a loop: ``now = time.time()``, ``now - self.last``, then
    ``self.last = now``. Each call (or round) is timed from the last reading to this one, so
    what the body does before the reading is timed. The first lap has no start: the first
    call, which compiles, is never in one (JW102 is not asked)."""
    found = []
    for i, statement in enumerate(body):
        if not (
            i
            and isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(now := statement.targets[0], ast.Name)
            and is_timer(statement.value)
        ):
            continue
        later = [n for s in body[i + 1 :] for n in ast.walk(s)]
        since = {
            callee_key(n.right)
            for n in later
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
            and isinstance(n.left, ast.Name) and n.left.id == now.id
        }  # fmt: skip
        kept = {
            callee_key(n.targets[0])
            for n in later
            if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.value, ast.Name) and n.value.id == now.id
        }  # fmt: skip
        if since & kept - {""}:
            host = host_before(module, body[0].lineno)
            timer = statement.value
            found.append(_read(module, host, body[:i], statement, body[0].lineno, timer, False))
    return found


def _subtractions(module: Module) -> tuple[set[str], set[tuple[str, str]]]:
    """What the module's subtractions say of its names, in one pass: names only ever first in
    one (``et`` in ``tt += et - st``: readings, not starts), and the pairs (``t1 - t0``)."""
    first: set[str] = set()
    second: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for node in module.of(ast.BinOp):
        if isinstance(node.op, ast.Sub):
            left, right = names_read(node.left), names_read(node.right)
            first |= left
            second |= right
            pairs |= {(one, other) for one in left for other in right}
    return first - second, pairs


def _starts_another(start: ast.stmt, end: ast.stmt, differences: set[tuple[str, str]]) -> bool:
    """``end`` only starts a timer (its own again, or another that is never taken from this
    one): ``s = time.time()`` after ``begin = time.time()`` reads nothing."""
    if not (isinstance(end, (ast.Assign, ast.AnnAssign)) and is_timer(getattr(end, "value", None))):
        return False
    if restarts_timer(start, end):
        return True
    started = names_read(ast.Tuple(getattr(start, "targets", [getattr(start, "target", None)])))
    ended = names_read(ast.Tuple(getattr(end, "targets", [getattr(end, "target", None)])))
    return not any((e, s) in differences for e in ended for s in started)


def _read(
    module: Module,
    host: set[str],
    statements: list[ast.stmt],
    end: ast.AST,
    start: int,
    timer: ast.Call | None = None,
    fixed_count: bool = True,
    again: bool = False,
) -> Region:
    timed = Timed(module, host)
    for piece, alternative in _in_order(statements):
        timed.read(piece, alternative)
    for piece in _before_timer(end, timer):
        timed.read(piece)
    return Region(start, end, frozenset(host), fixed_count, timed, again)


def _timeit(module: Module, call: ast.Call) -> list[Region]:
    """What ``timeit.timeit`` or ``repeat`` runs: a lambda, a function of the module, a jitted
    callee, or a statement written as a string (its ``setup`` is not timed); and what
    pytest-benchmark's ``benchmark(f, *args)`` and ``benchmark.pedantic(f, args=...)`` run.
    Only ``timeit``'s ``number=`` counts the runs: without it a calibration round, and
    pytest-benchmark's rounds (it reports the fastest), take the compiling call."""
    if module.is_pytest_benchmark(call):
        pedantic = isinstance(call.func, ast.Attribute)
        args = list(call.args[1:])
        for keyword in call.keywords if pedantic else []:
            if keyword.arg == "args" and isinstance(keyword.value, (ast.Tuple, ast.List)):
                args += keyword.value.elts
        body = _runs(module, call, call.args[0], args)
        counted = False
    elif module.is_timeit(call) and call.args:
        body = _runs(module, call, call.args[0], [])
        counted = any(k.arg == "number" for k in call.keywords)
    else:
        return []
    if not body:
        return []
    host = host_before(module, call.lineno)
    return [_read(module, host, body, call, call.lineno, fixed_count=counted)]


def _runs(module: Module, call: ast.Call, timed: ast.AST, args: list[ast.expr]) -> list[ast.stmt]:
    """The statements a timed callable runs, placed on the timing call's line."""
    where = {"lineno": call.lineno, "col_offset": call.col_offset}
    if isinstance(timed, ast.Lambda):
        return [ast.Expr(timed.body, **where)]
    if isinstance(timed, ast.Constant) and isinstance(timed.value, str):
        try:
            parsed = ast.parse(timed.value).body
        except SyntaxError:
            return []
        for node in (n for statement in parsed for n in ast.walk(statement)):
            if "lineno" in node._attributes:
                node.lineno, node.end_lineno = call.lineno, call.lineno  # type: ignore[attr-defined]
                node.col_offset = call.col_offset  # type: ignore[attr-defined]
        return parsed
    if isinstance(timed, ast.Name) and len(module.functions.get(timed.id, [])) == 1 and not args:
        return module.functions[timed.id][0].body
    if isinstance(timed, ast.Call) and (made := _made_by(module, timed)) is not None:
        return _runs(module, call, made, args)  # timeit(make_run(x)): what make_run returns
    if callee_key(timed) in module.jitted | module.compiled | module.jax_functions:
        return [ast.Expr(ast.Call(timed, args, [], **where), **where)]
    return []


def _made_by(module: Module, call: ast.Call) -> ast.Lambda | ast.Name | None:
    """What a function of the module returns, when it is one lambda or one function it defines:
    ``def make(): def run(): ...; return run``."""
    defs = module.functions.get(callee_key(call.func), [])
    if len(defs) != 1:
        return None
    inner = [s for s in defs[0].body if isinstance(s, Function)]
    returns = [s for s in defs[0].body if isinstance(s, ast.Return)]
    value = returns[-1].value if returns else None
    if isinstance(value, ast.Lambda):
        return value
    named = [d for d in inner if isinstance(value, ast.Name) and d.name == value.id]
    if named and len(module.functions.get(named[0].name, [])) == 1:
        return value  # its body is found by name, as the module's own function
    return None


def _timed_block(module: Module, node: ast.With) -> list[Region]:
    """The block of a ``with`` that times it: a context manager of the module or the project
    that reads a timer on entering and on leaving (``with timer:``, ``with Timer("step"):``),
    or a ``%%timeit`` cell, as sources makes it: ``with jaxwaits_timed_cell(number=10):``."""
    found = []
    for item in node.items:
        cell = item.context_expr
        called = cell.func if isinstance(cell, ast.Call) else cell
        if callee_key(called) in module.timing_contexts:
            host = host_before(module, node.lineno)
            found.append(_read(module, host, node.body, node, node.lineno))
        elif isinstance(cell, ast.Call) and callee_name(cell.func) == CELL_TIMER:
            counted = any(k.arg == "number" for k in cell.keywords)
            host = host_before(module, node.lineno)
            found.append(_read(module, host, node.body, node, node.lineno, fixed_count=counted))
    return found


def _host_in_scope(module: Module, line: int) -> set[str]:
    """The names the function around ``line`` binds to what NumPy made before it, in the
    blocks around the one ``line`` is in (``nus = np.logspace(...)``, then a loop timed)."""
    definition = module.innermost(line)
    if definition is None:
        return set(module.numpy_modules)
    return host_before(module, line, after=definition.lineno)


def host_before(module: Module, line: int, after: int = 0) -> set[str]:
    """NumPy's modules, and the names bound before ``line`` (and after the line ``after``) to
    what they made (what a ``timeit`` call or a ``%%timeit`` cell is handed from the host)."""
    host = set(module.numpy_modules)
    for statement in itertools.takewhile(lambda n: n.lineno < line, module.assigned):
        if statement.lineno > after:
            module.host_made(statement, host)
    return host


def _timer_readings(
    module: Module, body: list[ast.stmt], readings: set[str], differences: set[tuple[str, str]]
) -> list[Region]:
    """``t0 = time.perf_counter()`` ... ``time.perf_counter() - t0`` in one statement list (a
    name in ``readings`` is the end of a region, never the start of one)."""
    found = []
    host = set(module.numpy_modules)  # what the statements so far made on the host
    places = {id(statement): k for k, statement in enumerate(body)}
    for i, statement in enumerate(body):
        if i:
            module.host_made(body[i - 1], host)  # kept up as it goes: linear in the block
        value = getattr(statement, "value", None)
        if not (isinstance(statement, (ast.Assign, ast.AnnAssign)) and starts_timer(value)):
            continue
        targets = getattr(statement, "targets", [getattr(statement, "target", None)])
        if {n for t in targets for n in bound_names(t)} <= readings:
            continue  # et = time.time(), then tt += et - st: it ends a region
        until = _until_timer(body, i + 1)
        if until and _starts_another(statement, until[1], differences):
            continue  # t0 = time(); ...; t0 = time() (or s = time()): started, not read
        if until:
            statements, end, timer = until
            host |= _host_in_scope(module, body[0].lineno)  # made before the block it is in
            found.append(_read(module, host, statements, end, statement.lineno, timer=timer))
            found += _read_again(module, host, body, i, end, places)
    return found


def _read_again(
    module: Module,
    host: set[str],
    body: list[ast.stmt],
    i: int,
    end: ast.stmt,
    places: dict[int, int],
) -> list[Region]:
    """The later readings of the clock started at ``body[i]`` in its block (``places``: each
    statement's index), no restart between: each times all since the start."""
    started = {n for t in getattr(body[i], "targets", []) for n in bound_names(t)}
    found: list[Region] = []
    while id(end) in places:
        until = _until_timer(body, places[id(end)] + 1)
        if until is None or id(until[1]) not in places or not _reads(until[1], started):
            break
        end, timer = until[1], until[2]
        statements = body[i + 1 : places[id(end)]]
        found.append(_read(module, host, statements, end, body[i].lineno, timer, again=True))
    return found


def _reads(statement: ast.stmt, started: set[str]) -> bool:
    """``statement`` reads the clock started as one of ``started`` (``time() - start``), and
    does not start it again."""
    restarted = {n for t in getattr(statement, "targets", []) for n in bound_names(t)}
    return not restarted & started and any(
        clock_read(n) and callee_key(n.right) in started for n in ast.walk(statement)
    )


def _until_timer(
    statements: list[ast.stmt], start: int = 0
) -> tuple[list[ast.stmt], ast.stmt, ast.Call] | None:
    """The statements from ``start`` run before the timer is next read, the statement that
    reads it (the innermost), and the timer call."""
    region: list[ast.stmt] = []
    for statement in (statements[k] for k in range(start, len(statements))):
        timer = first_timer(statement)
        if timer is None:
            region.append(statement)
            continue
        for block in statement_lists(statement):
            if any(first_timer(s) is timer for s in block):
                inner = _until_timer(block)
                if inner:
                    return region + inner[0], inner[1], inner[2]
        if isinstance(statement, ast.While):  # while time.time() - t0 < budget: step()
            region += statement.body
        return region, statement, timer
    return None


def _before_timer(end: ast.AST, timer: ast.Call | None) -> list[ast.stmt]:
    """What the statement that reads the timer evaluates before it: ``print(f"{loss}
    {time.time() - t0}")`` formats ``loss`` first."""
    if timer is None or not isinstance(end, ast.stmt):
        return []
    early = [
        n
        for n in ast.walk(end)
        if isinstance(n, (ast.FormattedValue, ast.Call))
        and (n.lineno, n.col_offset) < (timer.lineno, timer.col_offset)
        and not any(m is timer for m in ast.walk(n))  # not what the timer's reading is in
    ]
    return [ast.Expr(n, lineno=n.lineno, col_offset=n.col_offset) for n in early]


def _in_order(
    statements: list[ast.stmt], alternative: bool = False
) -> Iterator[tuple[ast.stmt, bool]]:
    """Simple statements, and the headers of compound ones, in the order they first run, each
    with whether it is an ``else`` branch's, which runs instead of the ``if`` branch before it
    (what it binds is bound there too, not instead); definitions are not run."""
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(statement, (ast.For, ast.AsyncFor)):
            target, values = statement.target, statement.iter
            if (
                isinstance(target, ast.Tuple)
                and len(target.elts) == 2
                and callee_name(values) == "items"
            ):
                target = target.elts[1]  # for name, value in metrics.items(): names are keys
            yield ast.Assign([target], values, lineno=statement.lineno), alternative
        elif isinstance(statement, (ast.If, ast.While)):
            yield ast.Assert(statement.test, lineno=statement.lineno), alternative
            yield from _in_order(statement.body, alternative)
            yield from _in_order(statement.orelse, alternative or isinstance(statement, ast.If))
            continue
        elif not isinstance(statement, (ast.Try, ast.With, ast.AsyncWith)):
            yield statement, alternative
            continue
        for block in statement_lists(statement):
            yield from _in_order(block, alternative)


# The words a timed region cannot be written without (a source with none of them has none).
# A timing helper of the project (a context manager, a decorator, a function handed the step)
# is found where its name says what it does: timer, Timer, timed, timing, time_it, chrono,
# stopwatch, bench (a module that hands a JAX function to one, or times with one, names it).
# A clock of datetime is read by now() (not every "datetime64"); chrono is named as a module or
# a class (not inside "synchronous").
TIMED_WORDS = (
    "timeit", "time()", "time.time", "perf_counter", "monotonic", "process_time", "time_ns",
    "default_timer", "now(", "bench", "while state", CELL_TIMER, "imer", "timed", "timing",
    "time_it",
    "chrono.", "Chrono", "topwatch",
)  # fmt: skip
