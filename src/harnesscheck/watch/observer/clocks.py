"""The clocks the program reads: a reading its own code makes is returned as a float (or int)
that remembers it, so that subtracting one reading from a later one, wherever the program does
it, hands the interval to :func:`~.intervals.measured`."""

from __future__ import annotations

import threading
import time
from typing import Any

from .intervals import measured
from .places import like
from .state import Reading, State


class Float(float):
    """A clock reading in seconds: a float that remembers its reading."""

    _read: Reading

    def __sub__(self, other: Any) -> Any:
        value = float.__sub__(self, other)
        if isinstance(other, (Float, Int)):
            measured(self._read.state, other._read, self._read, float(value))
        return value

    def __reduce__(self) -> Any:
        return (float, (float(self),))


class Int(int):
    """A clock reading in nanoseconds: an int that remembers its reading."""

    _read: Reading

    def __sub__(self, other: Any) -> Any:
        value = int.__sub__(self, other)
        if isinstance(other, (Float, Int)):
            measured(self._read.state, other._read, self._read, value / 1e9)
        return value

    def __reduce__(self) -> Any:
        return (int, (int(self),))


# Named as the builtins they stand for, so that a program printing a reading's type reads the same.
for _kind, _name in ((Float, "float"), (Int, "int")):
    _kind.__name__ = _kind.__qualname__ = _name
    _kind.__module__ = "builtins"


def _clock(state: State, name: str, read: Any, kind: type) -> Any:
    program = state.program

    @like(read)
    def reading() -> Any:
        value = read()
        if not program.direct():
            return value
        found = program.reading()
        if found is None:
            return value
        path, frame = found
        seq = state.next()
        state.see_ready(seq)
        made = kind(value)
        made._read = Reading(
            state, name, seq, threading.get_ident(), (path, frame.f_lineno), frame.f_code,
            frame.f_lasti,
        )  # fmt: skip
        return made

    return reading


def watch_clocks(state: State) -> None:
    """``time.time``, ``perf_counter``, ``monotonic`` and their ``_ns`` forms."""
    for name in ("time", "perf_counter", "monotonic"):
        setattr(time, name, _clock(state, name, getattr(time, name), Float))
        setattr(time, name + "_ns", _clock(state, name + "_ns", getattr(time, name + "_ns"), Int))
