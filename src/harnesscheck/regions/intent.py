"""What a timed region says it times on purpose, in its code (never in a comment): the line that
starts the timer, the statement that reads it and the line after, the message printed or logged
just before it starts ("First run: compiling + solving...", then the timer), and for JW102 the
message that shows its time ("execution with compilation: 1.2 s")."""

from __future__ import annotations

import ast
import re
import weakref

from harnesscheck.findings import says
from harnesscheck.model.local import Local
from harnesscheck.model.syntax import bound_names, clock_read, is_timer, names_read

# Words that say a region times, on purpose, the dispatch or the compilation (JW101, JW103 stay
# silent), or is a warm-up or a first run (JW102 does).
DISPATCH = ("compil", "dispatch", "overhead")
WARM_UP = (
    "compil", "warm", "first step", "first run", "first call", "first update", "first iteration",
    "first pass", "first eval", "first gradient", "first forward", "first execution",
    "first invocation", "first inference", "_first", "first_", "includes jit", "incl. jit",
    "including jit", "with jit", "jitting", "to jit", "1st run", "1st call", "1st pass",
)  # fmt: skip
# Words that say a region is the wall clock of a whole run, whose one-off costs belong in it.
WHOLE_RUN = ("completed in", "finished in", "end-to-end", "end to end")

_TIMES: weakref.WeakKeyDictionary[Local, set[str]] = weakref.WeakKeyDictionary()
ROUND_NAMES = re.compile(r"epoch|step|iter|batch")  # in a time's name: one round's time
SHOWN = 40  # lines after a reading where its time may be divided into a rate or a mean
ANNOUNCED = 6  # lines before the timer starts where the message that announces it may stand
TIMER_READ = re.compile(r"\b(time|perf_counter|monotonic|default_timer|timer)(_ns)?\(\)")
ANNOUNCING = re.compile(r"^\s*(print|\w*log\w*(\.\w+)?|\w+\.(info|debug|warning|write))\(")


def meant(
    facts: Local, start: int, end: ast.AST, words: tuple[str, ...], readout: tuple[str, ...] = ()
) -> bool:
    """The region's own code says one of ``words``: ``compile_time = time.time() - t0``,
    ``log("compiled in %.2f s", elapsed)``, ``print("First run: compiling...")`` just before
    ``t0 = time.time()``; or, one of the words ``readout``, the message that shows its time a
    few lines on (``print(f"execution with compilation: {elapsed} s")``)."""
    first = getattr(end, "lineno", start)
    last = (getattr(end, "end_lineno", None) or first) + 1
    lines = [*facts.lines[start - 1 : start], *facts.lines[first - 1 : last]]
    shown = ANNOUNCING.match(facts.lines[first - 1])  # print(f"took {time() - t0}"): shown here
    if readout and not shown and says(_readout(facts, last - 1), readout):
        return True
    return says([*lines, *_announcement(facts, start)], words)


def whole_run(facts: Local, start: int, end: ast.AST, names: set[str]) -> bool:
    """The region is the wall clock of a whole run by its shape: between the timer's start and
    its reading runs a loop that reports its progress each round (``print(f"epoch {e} loss
    ...")``); the timer is not itself started on each round of a loop, nor named for one
    (``epoch_start``: a row of a per-epoch log), nor returned; and its time, kept as ``names``,
    is shown as it is, never divided into a rate or a mean in the rest of its function
    (``n_steps / dt``). So it is the time of the run, whose one-off costs belong in it."""
    last = getattr(end, "lineno", start)
    loops = facts.of(ast.For, ast.While)
    if any(loop.lineno < start and last <= (loop.end_lineno or 0) for loop in loops):
        return False
    if isinstance(end, ast.Return):
        return False  # the caller's to show: as a rate, a mean, a row
    definition = facts.innermost(last)
    if definition and any(_in_loop(loops, line) for line in facts.called.get(definition.name, [])):
        return False  # train_one_epoch(epoch), called each round: a row of a log
    if ROUND_NAMES.search(" ".join(names | names_read(end))):
        return False  # epoch_time = time.time() - epoch_start: a round's time, by its name
    after = min(definition.end_lineno or last, last + SHOWN) if definition else last + ANNOUNCED
    if _divided(facts.lines[last - 1 : after], names):
        return False
    for loop in loops:
        if start < loop.lineno and (loop.end_lineno or last) < last:
            body = facts.lines[loop.body[0].lineno - 1 : loop.end_lineno]
            if any(ANNOUNCING.match(line) for line in body):
                return True
    return False


def _in_loop(loops: list[ast.For | ast.While], line: int) -> bool:
    return any(loop.lineno < line <= (loop.end_lineno or 0) for loop in loops)


def _divided(lines: list[str], names: set[str]) -> bool:
    """A time in ``names`` is divided, or divides, in ``lines`` (the rest of its function) up
    to the next timer read: ``samples_per_sec = total / epoch_duration``."""
    for i, line in enumerate(lines):
        if i and TIMER_READ.search(line):
            return False
        if re.search(r"\)\s*/", line) and TIMER_READ.search(line):
            return True  # (time.time() - t0) / n
        if any(re.search(rf"/\s*\(?\s*{re.escape(n)}\b|\b{re.escape(n)}\s*/", line) for n in names):
            return True
    return False


def _readout(facts: Local, after: int) -> list[str]:
    """The nearest message printed or logged after line ``after`` that shows a value (the
    time read), unless a timer is read first: the next region has begun."""
    window = facts.lines[after : after + ANNOUNCED]
    for i, line in enumerate(window):
        if TIMER_READ.search(line):
            return []
        if ANNOUNCING.match(line):
            message = _call_text(window[i:])
            if not _words_only(message):
                return [message]
    return []


def _call_text(lines: list[str]) -> str:
    """The first of ``lines`` with those after it, until its parentheses close: a message
    written over several lines (``logging.debug(`` and its f-string on the next)."""
    text = ""
    for line in lines:
        text += line
        if text.count("(") <= text.count(")"):
            break
    return text


def _announcement(facts: Local, start: int) -> list[str]:
    """The nearest message printed or logged before the line that starts the timer, where it
    is only words (``print("First run: compiling...")``); a message that shows a value is the
    readout of the timing before (``print(f"Compile time: {t:.2f} s")``), and a blocked call
    the work it announced (``print("Warming up..."); step(x[:10]).block_until_ready()``): each
    ends the search."""
    for line in reversed(facts.lines[max(start - 1 - ANNOUNCED, 0) : start - 1]):
        if ANNOUNCING.match(line):
            return [line] if _words_only(line, facts) else []
        if "block_until_ready(" in line.partition("#")[0]:
            return []  # work waited for between: what it announced ran there (a warm-up)
    return []


def _times(facts: Local) -> set[str]:
    """The names a clock reading is kept in: ``t1 = time.time()``, ``elapsed = t1 - t0``,
    ``elapsed = time.time() - t0``; found once a module (a file of many regions asks often)."""
    if facts in _TIMES:
        return _TIMES[facts]
    clocks = {
        name
        for node in facts.assigned
        if isinstance(node.value, ast.Call) and is_timer(node.value)
        for target in node.targets
        for name in bound_names(target)
    }
    _TIMES[facts] = clocks | {
        name
        for node in facts.assigned
        if any(_difference(n, clocks) for n in ast.walk(node.value))
        for target in node.targets
        for name in bound_names(target)
    }
    return _TIMES[facts]


def _difference(node: ast.AST, clocks: set[str]) -> bool:
    """``time.time() - t0`` or ``t1 - t0``, ``t1`` a clock's reading."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
        return False
    return clock_read(node) or (isinstance(node.left, ast.Name) and node.left.id in clocks)


def _words_only(line: str, facts: Local | None = None) -> bool:
    """``line`` is one call whose arguments are all plain strings; given its module, f-strings
    that show none of the names a clock reading is kept in count as words too
    (``f"Compiling {len(tokens)} tokens..."``, not ``f"took {elapsed:.2f} s"``)."""
    try:
        statement = ast.parse(line.strip()).body
    except SyntaxError:
        return False  # a call that goes on over the next lines
    call = statement[0].value if statement and isinstance(statement[0], ast.Expr) else None
    return isinstance(call, ast.Call) and all(_words(a, facts) for a in call.args)


def _words(argument: ast.expr, facts: Local | None) -> bool:
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str)
    if facts is None or not isinstance(argument, ast.JoinedStr):
        return False
    times = _times(facts)
    shown = names_read(argument) & times or any(_difference(n, times) for n in ast.walk(argument))
    return not shown and not TIMER_READ.search(ast.unparse(argument))
