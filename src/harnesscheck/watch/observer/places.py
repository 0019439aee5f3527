"""Which code is the program's own, and the program lines a call or a clock reading was made
from: the frames of the standard library, of installed packages and of the observer are not."""

from __future__ import annotations

import dis
import itertools
import os
import sys
import sysconfig
import types
from typing import Any

# Code that times the program's code for it: its clock readings are the program's, made at the
# program line that handed it the code (timeit's statement, IPython's %timeit, pytest-benchmark).
TIMING = ("<timeit-src>", "<magic-timeit>")
TIMING_PACKAGES = (os.sep + "pytest_benchmark" + os.sep,)


def like(original: Any) -> Any:
    """``functools.wraps`` that copies what it can (a nanobind method's names are not strings)."""

    def copy(wrapper: Any) -> Any:
        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            value = getattr(original, name, None)
            if isinstance(value, str):
                try:
                    setattr(wrapper, name, value)
                except (AttributeError, TypeError):
                    pass
        wrapper.__wrapped__ = original
        return wrapper

    return copy


def column(code: types.CodeType, offset: int) -> int:
    """The column (1-based, as ``review`` counts them) where the expression of the code's
    instruction at ``offset`` starts: for a call, the call."""
    for position in itertools.islice(code.co_positions(), offset // 2, None):
        return (position[2] or 0) + 1
    return 1


class ProgramCode:
    """The program's own code, told from the rest by file name (each name judged once), with
    the folder the observer was loaded from, which is not the program's."""

    def __init__(self, here: str, most: int) -> None:
        paths = sysconfig.get_paths()
        self.here = here
        self.library = tuple(os.path.join(p, "") for p in {paths["stdlib"], paths["platstdlib"]})
        self.most = most  # program lines kept of a call's path
        self.places: dict[str, str | None] = {}  # a code's file name -> its path, if the program's
        self.returns: dict[types.CodeType, frozenset[int]] = {}

    def _user(self, filename: str) -> bool:
        if filename.startswith("<"):
            return not filename.startswith("<frozen")
        if filename.startswith(self.here) or filename.startswith(self.library):
            return False
        return "site-packages" not in filename and "dist-packages" not in filename

    def place(self, filename: str) -> str | None:
        """The path of a file of the program's own code, None for another's (remembered)."""
        if filename not in self.places:
            own = filename not in TIMING and self._user(filename)
            path = filename if filename.startswith("<") else os.path.abspath(filename)
            self.places[filename] = path if own else None
        return self.places[filename]

    def lines(self, frame: types.FrameType | None, most: int) -> list[tuple[str, int]]:
        """The lines of the first ``most`` frames of the program's own code from ``frame``
        outwards (a ``timeit`` statement's frame gives way to the line that called ``timeit``)."""
        return [(path, f.f_lineno) for path, f in self.frames(frame, most)]

    def frames(self, frame: types.FrameType | None, most: int) -> list[tuple[str, types.FrameType]]:
        found: list[tuple[str, types.FrameType]] = []
        while frame is not None and len(found) < most:
            path = self.place(frame.f_code.co_filename)
            if path is not None:
                found.append((path, frame))
            frame = frame.f_back
        return found

    def site(self, depth: int = 2) -> tuple[str, int] | None:
        """The program line that made this call."""
        lines = self.lines(sys._getframe(depth), 1)
        return lines[0] if lines else None

    def calling(self, depth: int = 2) -> tuple[str, types.FrameType] | None:
        """The program's frame that made this call, at the instruction that made it."""
        frames = self.frames(sys._getframe(depth), 1)
        return frames[0] if frames else None

    def reading(self, depth: int = 2) -> tuple[str, types.FrameType] | None:
        """The program's frame that read the clock; for a reading a helper of the program returns
        as it is (``def now(): return time.perf_counter()``: a function, a lambda, a method, one
        such helper calling another), the frame that called the helper, where the interval is
        made."""
        frame = sys._getframe(depth)
        while (
            frame.f_back is not None
            and self.place(frame.f_code.co_filename) is not None
            and self.place(frame.f_back.f_code.co_filename) is not None
            and frame.f_lasti in self._returned(frame.f_code)
        ):
            frame = frame.f_back
        frames = self.frames(frame, 1)
        return frames[0] if frames else None

    def _returned(self, code: types.CodeType) -> frozenset[int]:
        """The offsets of the calls whose result the code returns at once (and of their caches,
        where a frame in the call has its last instruction on 3.11)."""
        offsets = self.returns.get(code)
        if offsets is None:
            offsets = self.returns[code] = frozenset(
                offset
                for ins, following in itertools.pairwise(dis.get_instructions(code))
                if ins.opname.startswith("CALL") and following.opname == "RETURN_VALUE"
                for offset in range(ins.offset, following.offset)
            )
        return offsets

    def path(self, depth: int = 2) -> tuple[tuple[str, int], ...]:
        """The program lines this call was made from, innermost first (a few): a helper's line
        and the lines that called the helper."""
        return tuple(self.lines(sys._getframe(depth), self.most))

    def direct(self, depth: int = 2) -> bool:
        """Whether the clock was read by the program's own code (or a ``timeit`` of it), not by
        a library it calls (``logging`` reads the time of every record)."""
        name = sys._getframe(depth).f_code.co_filename
        if name in TIMING or self.place(name) is not None:
            return True
        return any(package in name for package in TIMING_PACKAGES)
