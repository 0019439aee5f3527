"""After a wait on a call whose host callbacks change the program's objects: the lines the
waiting code runs next, each looked at for a read of those objects before the thread's
``jax.effects_barrier()`` (JW108)."""

from __future__ import annotations

import dis
import sys
import types
from typing import Any

from .places import column
from .state import Dispatch, State

WINDOW = 2000  # lines the waiting code is followed for after a wait, at most


def no_calls(frame: Any, event: str, arg: Any) -> None:
    """The thread's trace function while a window is open: new frames are not followed."""
    return None


class Window:
    """After a wait on a call whose callbacks change the program's objects: the lines the
    waiting code (and its callers, in the program) runs next, up to the thread's effects
    barrier, each looked at for a read of those objects (JW108)."""

    def __init__(self, state: State, calls: list[Dispatch], site: tuple[str, int]) -> None:
        self.state, self.calls, self.site, self.lines = state, calls, site, 0
        self.effects = [e for d in calls for e in d.effects]
        self.read: set[str] = set()  # the names already reported

    @classmethod
    def open(cls, state: State, calls: list[Dispatch]) -> None:
        found = state.program.frames(sys._getframe(2), 1)
        if not found:
            return
        path, frame = found[0]
        local = state.local
        if sys.gettrace() not in (None, no_calls):  # a debugger's or coverage's: left alone
            if not getattr(local, "refused", False):
                local.refused = True
                state.not_followed("the program traces itself (a debugger or coverage)")
            return
        window = local.window = cls(state, calls, (path, frame.f_lineno))
        window.look(frame, frame.f_lasti)  # the rest of the wait's own line
        frame.f_trace = window.line
        frame.f_trace_lines = True
        sys.settrace(no_calls)

    def close(self) -> None:
        if getattr(self.state.local, "window", None) is self:
            self.state.local.window = None
            sys.settrace(None)

    def line(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if getattr(self.state.local, "window", None) is not self:
            return None
        if event == "return":
            back = frame.f_back
            if back is not None and self.state.program.place(back.f_code.co_filename) is not None:
                self.look(back, back.f_lasti)  # the rest of the line that called it
                back.f_trace = self.line
                back.f_trace_lines = True
            else:
                self.close()
            return None
        if event != "line":
            return self.line
        self.lines += 1
        if self.lines > WINDOW:
            self.close()
            return None
        try:
            self.look(frame, -1)
        except Exception as e:  # never the program's failure: written down instead
            self.close()
            self.state.not_followed(f"{type(e).__name__}: {e}")
            return None
        return self.line

    def look(self, frame: types.FrameType, after: int) -> None:
        """Report each read of what the callbacks change on the frame's line, past ``after``."""
        for name, key, offset in _reads(self.state.loads, frame, after):
            if name in self.read:
                continue
            if any(
                key in e.objects or key in e.slots or _nonlocal(e, name, frame)
                for e in self.effects
            ):
                self.read.add(name)
                self._report(frame, name, offset)

    def _report(self, frame: types.FrameType, name: str, offset: int) -> None:
        path = self.state.program.place(frame.f_code.co_filename)
        # A function traced again for new shapes keeps its earlier traces' callbacks too: one
        # of them ran for the latest call.
        ran = any(e.ran > max(d.begun for d in self.calls) for e in self.effects)
        self.state.write(
            {
                "rule": "JW108",
                "site": [path, frame.f_lineno],
                "col": column(frame.f_code, offset),  # where the name is read
                "name": name,
                "wait": list(self.site),
                "calls": sorted({d.site for d in self.calls}),
                "callbacks": sorted({e.site for e in self.effects}),
                "ran": ran,
            }
        )


def _nonlocal(effect: Any, name: str, frame: types.FrameType) -> bool:
    """A name the callback rebinds as ``nonlocal``, read in the function that defined it."""
    return name in effect.nonlocals and effect.code in frame.f_code.co_consts


def _reads(
    cache: dict[Any, Any], frame: types.FrameType, after: int
) -> list[tuple[str, int | tuple[int, str], int]]:
    """What the frame's current line loads past the instruction at offset ``after``: each name
    (and ``name.attr``) with the id of the object it holds, and its ``(id(namespace), name)``
    slot, and the offset of the load; ``cache`` remembers what each code's lines load."""
    code = frame.f_code
    lines = cache.get(code)
    if lines is None:
        lines = cache[code] = {}
        instructions = list(dis.get_instructions(code))
        for ins, following in zip(instructions, [*instructions[1:], None], strict=True):
            at = ins.positions.lineno if ins.positions else None
            if at is None or not ins.opname.startswith("LOAD_") or ins.opname == "LOAD_CONST":
                continue
            names = ins.argval if isinstance(ins.argval, tuple) else (ins.argval,)
            attr = following.argval if following and following.opname == "LOAD_ATTR" else None
            for name in names:
                if isinstance(name, str):
                    lines.setdefault(at, []).append((ins.offset, ins.opname, name, attr))
    found: list[tuple[str, int | tuple[int, str], int]] = []
    loads = [load for load in lines.get(frame.f_lineno, []) if load[0] > after]
    if not loads:
        return found
    local = frame.f_locals
    at_module = local is frame.f_globals
    for offset, op, name, attr in loads:
        if (
            op in ("LOAD_GLOBAL", "LOAD_NAME")
            and name in frame.f_globals
            and (at_module or name not in local)
        ):
            found.append((name, (id(frame.f_globals), name), offset))
            held = frame.f_globals[name]
        elif name in local:
            held = local[name]
        else:
            continue
        found.append((name, id(held), offset))
        if attr is not None:
            found.append((f"{name}.{attr}", (id(held), attr), offset))
            own = getattr(held, "__dict__", None)
            if isinstance(own, dict) and attr in own:
                found.append((f"{name}.{attr}", id(own[attr]), offset))
    return found
