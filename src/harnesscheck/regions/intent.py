"""What a timed region says it times on purpose, in its code (never in a comment): the line that
starts the timer, the statement that reads it and the line after, the message printed or logged
just before it starts ("First run: compiling + solving...", then the timer), and for JW102 the
message that shows its time ("execution with compilation: 1.2 s")."""

from __future__ import annotations

import ast
import re

from harnesscheck.findings import says
from harnesscheck.model.local import Local

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
    if readout and says(_readout(facts, last - 1), readout):
        return True
    return says([*lines, *_announcement(facts, start)], words)


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
            return [line] if _words_only(line) else []
        if "block_until_ready(" in line.partition("#")[0]:
            return []  # work waited for between: what it announced ran there (a warm-up)
    return []


def _words_only(line: str) -> bool:
    """``line`` is one call whose arguments are all plain strings."""
    try:
        statement = ast.parse(line.strip()).body
    except SyntaxError:
        return False  # a call that goes on over the next lines
    call = statement[0].value if statement and isinstance(statement[0], ast.Expr) else None
    return isinstance(call, ast.Call) and all(
        isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args
    )
