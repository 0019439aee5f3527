"""What ``jaxwaits watch`` installs in the watched program, as its ``sitecustomize``, before the
program's first line. Standard library only; JAX is never imported here: its callables are
wrapped when the program itself imports it.

It sees, in each thread: the clocks the program's own code reads; the arrays each jitted or
pmapped call returns, with the program line that called it; the waits on arrays (blocks, host
transfers, ``is_ready()`` that says True); JAX's compilations. A clock reading the program's code
makes is returned as a float (or int) that remembers when it was read, so that subtracting one
reading from a later one is the measurement, wherever that happens; it is then judged, and each
mistake is written as one JSON line to the log ``JAXWAITS_WATCH_LOG`` names.
"""

from __future__ import annotations

import collections
import dis
import functools
import importlib.abc
import importlib.util
import itertools
import json
import os
import sys
import sysconfig
import threading
import time
import types
import weakref
from typing import Any

_LOG = os.environ.pop("JAXWAITS_WATCH_LOG", "")
_HERE = os.path.dirname(os.path.abspath(__file__))
_PATHS = sysconfig.get_paths()
_LIBRARY = tuple(os.path.join(p, "") for p in {_PATHS["stdlib"], _PATHS["platstdlib"]})
_lock = threading.RLock()
_seq = itertools.count(1)
_log_file: Any = None
_compiles: collections.deque[tuple[int, int, float]]  # (seq, thread, seconds)
_unknown_waits: dict[int, collections.deque[int]]  # thread -> waits on arrays no call made
# id of an output array -> the array (weakly: an id is reused once its array is gone), its call
_outputs: dict[int, tuple[Any, _Dispatch]] = {}
_open: collections.deque[_Dispatch]  # calls neither waited on nor seen ready yet
_host_inputs: dict[int, Any] = {}  # id of a NumPy array handed to a watched call -> it, weakly
_copied_again: list[tuple[int, int, tuple[str, int]]] = []  # (seq, thread, site) of a re-copy
_joins: collections.deque[tuple[int, int, int | None]]  # (seq, joining thread, joined one)
_copies: dict[int, list[Any]] = {}  # id of an array -> [seq, thread, site, seq fetched (0)]
_array_type: type | None = None
_observed: list[str] = []  # what this release lets the watch observe (written to the log)


class _Dispatch:
    """One watched call: its thread, when, the program line, its first output (weakly), and
    when it was first waited on and first seen ready (or its output seen gone)."""

    __slots__ = (
        "begun", "dropped", "effects", "first", "path", "ready", "seq", "site", "thread", "waited"
    )  # fmt: skip

    def __init__(
        self, seq: int, begun: int, thread: int, path: tuple[tuple[str, int], ...], first: Any,
        effects: tuple[Any, ...],
    ) -> None:  # fmt: skip
        self.seq, self.thread, self.path, self.site = seq, thread, path, path[0]
        self.begun = begun  # when the call was made (its seq is when it returned)
        self.first = weakref.ref(first)
        self.effects = effects  # the host callbacks staged in the function called (_Effect)
        self.waited = 0
        self.ready = 0
        self.dropped = False  # its output was gone before it was seen ready: not known


class _Read:
    """One clock reading by the program's code: which clock, when, where, in which thread."""

    __slots__ = ("clock", "seq", "site", "thread")

    def __init__(self, clock: str, seq: int, thread: int, site: tuple[str, int]) -> None:
        self.clock, self.seq, self.thread, self.site = clock, seq, thread, site


def _like(original: Any) -> Any:
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


def _user(filename: str) -> bool:
    if filename.startswith("<"):
        return not filename.startswith("<frozen")
    if filename.startswith(_HERE) or filename.startswith(_LIBRARY):
        return False
    return "site-packages" not in filename and "dist-packages" not in filename


# Code that times the program's code for it: its clock readings are the program's, made at the
# program line that handed it the code (timeit's statement, IPython's %timeit, pytest-benchmark).
_TIMING = ("<timeit-src>", "<magic-timeit>")
_TIMING_PACKAGES = (os.sep + "pytest_benchmark" + os.sep,)
_places: dict[str, str | None] = {}  # a code's file name -> its path when it is the program's


def _place(filename: str) -> str | None:
    """The path of a file of the program's own code, None for another's (remembered)."""
    if filename not in _places:
        own = filename not in _TIMING and _user(filename)
        path = filename if filename.startswith("<") else os.path.abspath(filename)
        _places[filename] = path if own else None
    return _places[filename]


def _program_lines(frame: types.FrameType | None, most: int) -> list[tuple[str, int]]:
    """The lines of the first ``most`` frames of the program's own code from ``frame`` outwards
    (a ``timeit`` statement's frame gives way to the line that called ``timeit``)."""
    found: list[tuple[str, int]] = []
    while frame is not None and len(found) < most:
        path = _place(frame.f_code.co_filename)
        if path is not None:
            found.append((path, frame.f_lineno))
        frame = frame.f_back
    return found


def _site(depth: int = 2) -> tuple[str, int] | None:
    """The program line that made this call."""
    lines = _program_lines(sys._getframe(depth), 1)
    return lines[0] if lines else None


def _reading_site(depth: int = 2) -> tuple[str, int] | None:
    """The program line that read the clock; for a reading a helper of the program returns as
    it is (``def now(): return time.perf_counter()``: a function, a lambda, a method, one such
    helper calling another), the line that called the helper, where the interval is made."""
    frame = sys._getframe(depth)
    while (
        frame.f_back is not None
        and _place(frame.f_code.co_filename) is not None
        and _place(frame.f_back.f_code.co_filename) is not None
        and frame.f_lasti in _returned(frame.f_code)
    ):
        frame = frame.f_back
    lines = _program_lines(frame, 1)
    return lines[0] if lines else None


_returns: dict[types.CodeType, frozenset[int]] = {}


def _returned(code: types.CodeType) -> frozenset[int]:
    """The offsets of the calls whose result the code returns at once (and of their caches,
    where a frame in the call has its last instruction on 3.11)."""
    offsets = _returns.get(code)
    if offsets is None:
        offsets = _returns[code] = frozenset(
            offset
            for ins, following in itertools.pairwise(dis.get_instructions(code))
            if ins.opname.startswith("CALL") and following.opname == "RETURN_VALUE"
            for offset in range(ins.offset, following.offset)
        )
    return offsets


def _path(depth: int = 2) -> tuple[tuple[str, int], ...]:
    """The program lines this call was made from, innermost first (a few): a helper's line and
    the lines that called the helper."""
    return tuple(_program_lines(sys._getframe(depth), _PATH))


def _direct(depth: int = 2) -> bool:
    """Whether the clock was read by the program's own code (or a ``timeit`` of it), not by a
    library it calls (``logging`` reads the time of every record)."""
    name = sys._getframe(depth).f_code.co_filename
    if name in _TIMING or _place(name) is not None:
        return True
    return any(package in name for package in _TIMING_PACKAGES)


def _write(entry: dict[str, Any]) -> None:
    global _log_file
    if not _LOG:
        return
    with _lock:
        if _log_file is None:
            _log_file = open(_LOG, "a", encoding="utf-8")  # open for the whole run
        _log_file.write(json.dumps(entry) + "\n")
        _log_file.flush()


def _measured(start: _Read, end: _Read, seconds: float) -> None:
    """``end - start`` was computed: judge the interval between the two readings."""
    if start.clock != end.clock or start.thread != end.thread or start.seq >= end.seq:
        return
    with _lock:
        # The reading thread's work, and that of the threads it joined in the interval: a join
        # waits for the thread, not for the work the thread dispatched.
        # (A pool's thread goes on to other work: only its calls before the join count.)
        joined: dict[int, int] = {}
        for q, t, j in _joins:
            if t == end.thread and start.seq < q < end.seq and j is not None:
                joined[j] = max(q, joined.get(j, 0))
        compiled = sum(s for q, t, s in _compiles if t == end.thread and start.seq < q < end.seq)
        tail, calls, covered = [], [], []
        for thread in {end.thread, *joined}:
            until = end.seq if thread == end.thread else joined[thread]
            mine = [d for d in _calls.get(thread, []) if start.seq < d.seq < until]
            unknown = [s for s in _unknown_waits.get(thread, []) if start.seq < s < end.seq]
            # A thread's work runs in the order it was dispatched: a wait on one call's results
            # (or on an array no watched call made, which may hold them) waits for those before.
            done = [
                d.seq for d in mine if 0 < d.waited < end.seq or any(d.seq < u for u in unknown)
            ]
            tail += [d for d in mine if d.seq > max(done, default=0)]
            calls += mine
            covered += done
    where = {"start": list(start.site), "end": list(end.site), "clock": end.clock}
    if tail:
        # Work waited on at one line and not at another (two results of separate calls, one
        # blocked) is one output of several (JW103); the same line's later call left unwaited
        # (the last step of a loop), or nothing waited, is the timer read too early (JW101).
        waited_at = {d.path for d in calls if d.seq <= max(covered, default=0)}
        several = bool(covered) and not waited_at & {d.path for d in tail}
        _write(
            {
                "rule": "JW103" if several else "JW101",
                **where,
                "calls": sorted({_apart(d.path, waited_at) if several else d.site for d in tail}),
                "running": any(not 0 < d.ready <= end.seq for d in tail),
                # a thread's last call whose output the program dropped unseen: it may have run
                "dropped": any(
                    max((d for d in tail if d.thread == t), key=lambda d: d.seq).dropped
                    for t in {d.thread for d in tail}
                ),
            }
        )
    if compiled > 0:
        _write({"rule": "JW102", **where, "compile_s": compiled, "interval_s": seconds})
    with _lock:
        started = [
            c for c in _copies.values()
            if c[1] == end.thread and start.seq < c[0] < end.seq and not 0 < c[3] < end.seq
        ]  # fmt: skip
    if started:
        _write({"rule": "JW111", **where, "calls": sorted({c[2] for c in started})})
    with _lock:
        again = {c[2] for c in _copied_again if c[1] == end.thread and start.seq < c[0] < end.seq}
    if again:
        _write({"rule": "JW107", **where, "calls": sorted(again)})


def _apart(path: tuple[tuple[str, int], ...], others: set[Any]) -> tuple[str, int]:
    """The innermost line of a call's path where it parts from the other calls' (two calls
    through one helper's line are told apart by the lines that called the helper)."""
    for depth, place in enumerate(path):
        if all(len(other) <= depth or other[depth] != place for other in others):
            return place
    return path[0]


class _Float(float):
    """A clock reading in seconds: a float that remembers its reading."""

    _read: _Read

    def __sub__(self, other: Any) -> Any:
        value = float.__sub__(self, other)
        if isinstance(other, (_Float, _Int)):
            _measured(other._read, self._read, float(value))
        return value

    def __reduce__(self) -> Any:
        return (float, (float(self),))


class _Int(int):
    """A clock reading in nanoseconds: an int that remembers its reading."""

    _read: _Read

    def __sub__(self, other: Any) -> Any:
        value = int.__sub__(self, other)
        if isinstance(other, (_Float, _Int)):
            _measured(other._read, self._read, value / 1e9)
        return value

    def __reduce__(self) -> Any:
        return (int, (int(self),))


# Calls kept per thread (and open calls in all): an interval with more is judged on its last ones.
_KEPT = 4096
_PATH = 4  # program lines kept of each call's path
# Named as the builtins they stand for, so that a program printing a reading's type reads the same.
for _kind, _name in ((_Float, "float"), (_Int, "int")):
    _kind.__name__ = _kind.__qualname__ = _name
    _kind.__module__ = "builtins"


def _kept() -> collections.deque[Any]:
    return collections.deque(maxlen=_KEPT)


_calls: dict[int, collections.deque[_Dispatch]] = collections.defaultdict(_kept)  # oldest first
_unknown_waits = collections.defaultdict(_kept)
_open, _compiles, _joins = _kept(), _kept(), _kept()


def _clock(name: str, read: Any, kind: type) -> Any:
    @_like(read)
    def reading() -> Any:
        value = read()
        if not _direct():
            return value
        site = _reading_site()
        if site is None:
            return value
        thread = threading.get_ident()
        seq = next(_seq)
        _see_ready(seq)
        made = kind(value)
        made._read = _Read(name, seq, thread, site)
        return made

    return reading


def _see_ready(seq: int) -> None:
    """At a reading, note which open calls are done by now (a joined thread's work is judged
    at another thread's reading)."""
    with _lock:
        still = []
        for d in _open:
            first = d.first()
            if first is None or _is_ready(first):
                d.ready, d.dropped = seq, first is None
            else:
                still.append(d)
        _open.clear()
        _open.extend(still)


_is_ready_original: Any = None


def _is_ready(array: Any) -> bool:
    try:
        return bool(_is_ready_original(array))
    except Exception:  # deleted or donated: no longer pending
        return True


def _leaves(tree: Any) -> list[Any]:
    """The arrays in a tree (JAX flattens it)."""
    if type(tree) is _array_type:
        return [tree]
    jax = sys.modules.get("jax")
    if jax is None or _array_type is None or tree is None or isinstance(tree, (int, float, str)):
        return []
    try:
        leaves = jax.tree_util.tree_leaves(tree)
    except Exception:  # a tree JAX cannot flatten holds no array it made
        return []
    return [a for a in leaves if type(a) is _array_type]


def _dispatched(out: Any, effects: tuple[Any, ...], begun: int) -> None:
    arrays = _leaves(out)
    if not arrays:
        return
    path = _path(3)
    if not path:
        return
    thread = threading.get_ident()
    with _lock:
        call = _Dispatch(next(_seq), begun, thread, path, arrays[0], effects)
        _calls[thread].append(call)
        for array in arrays:
            key = id(array)
            _outputs[key] = (weakref.ref(array, functools.partial(_gone, key)), call)
        _open.append(call)


def _handed(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """A NumPy array handed to a watched call is copied to the device; the same array handed
    again is a fixed host input copied on every call (JW107)."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return
    arrays = [a for a in (*args, *kwargs.values()) if type(a) is numpy.ndarray]
    if not arrays:
        jax = sys.modules.get("jax")
        tree = [a for a in (*args, *kwargs.values()) if isinstance(a, (list, tuple, dict))]
        if jax is None or not tree:
            return
        arrays = [a for a in jax.tree_util.tree_leaves(tree) if type(a) is numpy.ndarray]
    for array in arrays:
        key = id(array)
        seen = _host_inputs.get(key)
        if seen is not None and seen() is array:
            site = _site(3)
            if site is not None:
                with _lock:
                    _copied_again.append((next(_seq), threading.get_ident(), site))
                    del _copied_again[:-_KEPT]
            continue
        try:
            _host_inputs[key] = weakref.ref(array, functools.partial(_forget_input, key))
        except TypeError:  # an array that cannot be referred to weakly is not followed
            pass


def _forget_input(key: int, ref: Any) -> None:
    if _host_inputs.get(key) is ref:
        _host_inputs.pop(key, None)


def _gone(key: int, ref: Any) -> None:
    """An output array is gone: forget it (unless its id already names another)."""
    if _outputs.get(key, (None,))[0] is ref:
        _outputs.pop(key, None)


def _waited(tree: Any, fetched: bool = False) -> None:
    arrays = _leaves(tree)
    if not arrays:
        return
    thread = threading.get_ident()
    effectful: list[_Dispatch] = []
    with _lock:
        seq = next(_seq)
        for array in arrays:
            copy = _copies.get(id(array)) if fetched else None
            if copy is not None and not copy[3]:
                copy[3] = seq
            known = _outputs.get(id(array))
            call = known[1] if known is not None and known[0]() is array else None
            if call is None:
                # an array no watched call made may hold a watched call's results
                _unknown_waits[thread].append(seq)
            else:
                call.waited = call.waited or seq
                if call.effects and call not in effectful:
                    effectful.append(call)
    # A barrier this thread called after a call was made has waited for its callbacks.
    effectful = [d for d in effectful if d.seq > getattr(_local, "barrier", 0)]
    if effectful:
        try:
            _Window.open(effectful)
        except Exception as e:  # never the program's failure: written down instead
            _not_followed(f"{type(e).__name__}: {e}")


# Host callbacks (JW108): what a callback staged in a watched function changes of the program's
# objects, and a read of them after a wait on that call's arrays with no effects barrier between.
_local = threading.local()
_CHANGING = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "pop", "popleft", "popitem",
     "clear", "appendleft", "extendleft", "remove", "discard", "put", "put_nowait"}
)  # fmt: skip
# Objects no callback changes in place (an id of one would match any equal constant).
_UNCHANGING = (int, float, complex, str, bytes, tuple, frozenset, type(None), types.ModuleType,
               types.FunctionType, type)  # fmt: skip
_WINDOW = 2000  # lines the waiting code is followed for after a wait, at most
_DEPTH = 3  # calls into the program's own functions a callback's changes are looked for through


def _not_followed(why: str) -> None:
    _write({"not observed": "reads of what host callbacks change (JW108)", "why": why})


def _calling() -> list[Any]:
    """The watched functions this thread is inside (a call within another is traced)."""
    calling = getattr(_local, "calling", None)
    if calling is None:
        calling = _local.calling = []
    return calling


class _Effect:
    """A host callback staged by a watched function: the program line that staged it, what it
    changes (objects by id, and ``(id(namespace), name)`` slots it rebinds), when it last ran."""

    __slots__ = ("code", "keep", "nonlocals", "objects", "ran", "site", "slots")

    def __init__(self, site: tuple[str, int], callback: Any) -> None:
        self.site, self.ran = site, 0
        self.objects: set[int] = set()
        self.slots: set[tuple[int, str]] = set()
        self.nonlocals: set[str] = set()
        self.keep: list[Any] = []  # what the ids name, alive while the callback is
        self.code = None
        _changes(self, callback)


def _changes(effect: _Effect, callback: Any, depth: int = 0) -> None:
    """Read the callback's bytecode for the outer objects it changes: through a method
    (``calls.append``), an item or an attribute it stores, or a global or nonlocal it rebinds;
    and so for the program's own functions it calls, a few calls deep."""
    held = getattr(callback, "__self__", None)
    if isinstance(callback, types.BuiltinMethodType) and callback.__name__ in _CHANGING:
        if not isinstance(held, _UNCHANGING):  # losses.append itself
            effect.objects.add(id(held))
            effect.keep.append(held)
        return
    function, given, bound = _unbound(callback)
    code = getattr(function, "__code__", None)
    if code is None:
        return
    if depth == 0:
        effect.code = code
    bound.update(zip(code.co_varnames[: code.co_argcount], given, strict=False))
    cells = dict(zip(code.co_freevars, function.__closure__ or (), strict=False))
    namespace = function.__globals__
    callees: list[Any] = []  # the program's own functions it loads (to call them, mostly)

    # (object, the slot it was loaded from, the object it is an attribute of), this line's
    loaded: list[tuple[Any, tuple[int, str] | None, Any]] = []
    marks: list[tuple[Any, tuple[int, str] | None, Any]] = []  # objects changed in place
    line, stored = None, False
    for ins in dis.get_instructions(code):
        at = ins.positions.lineno if ins.positions else None
        if at is not None and at != line:
            if stored:
                marks += loaded  # x[k] = v: the line's containers, broadly
            line, loaded, stored = at, [], False
        name, op = ins.argval, ins.opname
        if op in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(name, str) and name in namespace:
            loaded.append((namespace[name], (id(namespace), name), None))
        elif op == "LOAD_DEREF" and name in cells:
            try:
                loaded.append((cells[name].cell_contents, None, None))
            except ValueError:  # an empty cell
                pass
        elif op.startswith("LOAD_FAST"):  # LOAD_FAST_LOAD_FAST loads two
            for each in name if isinstance(name, tuple) else (name,):
                if each in bound:
                    loaded.append((bound[each], None, None))
        elif op in ("LOAD_ATTR", "LOAD_METHOD") and loaded:
            held = loaded[-1][0]
            if name in _CHANGING:
                marks.append(loaded[-1])
            own = getattr(held, "__dict__", None)
            if isinstance(own, dict) and name in own:
                loaded[-1] = (own[name], (id(held), name), held)
                callees.append(own[name])
            elif not isinstance(held, _UNCHANGING):  # a method of the program's own class
                method = _method(held, name)
                if method is not None:
                    callees.append(method)
        elif op == "STORE_ATTR" and loaded:
            held, slot, base = loaded[-1]
            target = base if slot == (id(base), name) else held  # self.n += 1, or self.n = v
            effect.slots.add((id(target), name))
            effect.keep.append(target)
        elif op in ("STORE_SUBSCR", "DELETE_SUBSCR"):
            stored = True
        elif op == "STORE_GLOBAL":
            effect.slots.add((id(namespace), name))
        elif op == "STORE_DEREF" and name in code.co_freevars:
            effect.nonlocals.add(name)
        if op in ("LOAD_GLOBAL", "LOAD_DEREF") and loaded:
            callees.append(loaded[-1][0])
    if stored:
        marks += loaded
    for held, slot, _ in marks:
        if not isinstance(held, _UNCHANGING):
            effect.objects.add(id(held))
            effect.keep.append(held)
            if slot is not None:  # the name it was loaded by, read later, holds the change too
                effect.slots.add(slot)
    if depth < _DEPTH:
        for callee in callees:
            target = _unbound(callee)[0]
            if not isinstance(target, types.FunctionType) or target.__code__ is code:
                continue
            if _place(target.__code__.co_filename) is not None:
                _changes(effect, callee, depth + 1)


def _unbound(callback: Any) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
    """A callable's function, the positional arguments bound to it, and the keyword ones."""
    if isinstance(callback, functools.partial):
        return callback.func, callback.args, dict(callback.keywords)
    if isinstance(callback, types.MethodType):
        return callback.__func__, (callback.__self__,), {}
    return callback, (), {}


def _method(held: Any, name: str) -> Any:
    """``held.name`` when it is a plain function of ``held``'s class, bound (no getattr: a
    property's code is not run)."""
    for kind in type(held).__mro__:
        found = kind.__dict__.get(name)
        if found is not None:
            return types.MethodType(found, held) if isinstance(found, types.FunctionType) else None
    return None


def _staging(stage: Any) -> Any:
    """``jax.debug.callback`` or ``io_callback``: the callback is noted as an effect of the
    watched functions tracing now, and wrapped to note when it runs."""

    @_like(stage)
    def staged(callback: Any = None, *args: Any, **kwargs: Any) -> Any:
        calling = _calling()
        if callback is None or not callable(callback) or not calling:
            made = stage(callback, *args, **kwargs)
            if callback is None and callable(made):  # jax.debug.callback(ordered=True)(f, x)
                return _staging(made)
            return made
        site = _site()
        if site is None:
            return stage(callback, *args, **kwargs)
        effect = _Effect(site, callback)
        outer = calling[-1]._jaxwaits_effects
        if effect.objects or effect.slots or effect.nonlocals:
            outer.append(effect)

        @_like(callback)
        def ran(*a: Any, **k: Any) -> Any:
            effect.ran = next(_seq)
            return callback(*a, **k)

        return stage(ran, *args, **kwargs)

    return staged


def _barrier(barrier: Any) -> Any:
    """``jax.effects_barrier()``: this thread's effects are waited for; its window closes."""

    @_like(barrier)
    def waited(*args: Any, **kwargs: Any) -> Any:
        result = barrier(*args, **kwargs)
        _local.barrier = next(_seq)
        window = getattr(_local, "window", None)
        if window is not None:
            window.close()
        return result

    return waited


def _no_calls(frame: Any, event: str, arg: Any) -> None:
    """The thread's trace function while a window is open: new frames are not followed."""
    return None


class _Window:
    """After a wait on a call whose callbacks change the program's objects: the lines the
    waiting code (and its callers, in the program) runs next, up to the thread's effects
    barrier, each looked at for a read of those objects (JW108)."""

    def __init__(self, calls: list[_Dispatch], site: tuple[str, int]) -> None:
        self.calls, self.site, self.lines = calls, site, 0
        self.effects = [e for d in calls for e in d.effects]
        self.read: set[str] = set()  # the names already reported

    @classmethod
    def open(cls, calls: list[_Dispatch]) -> None:
        frame: types.FrameType | None = sys._getframe(2)
        while frame is not None and _place(frame.f_code.co_filename) is None:
            frame = frame.f_back
        if frame is None:
            return
        if sys.gettrace() not in (None, _no_calls):  # a debugger's or coverage's: left alone
            if not getattr(_local, "refused", False):
                _local.refused = True
                _not_followed("the program traces itself (a debugger or coverage)")
            return
        window = _local.window = cls(calls, (_place(frame.f_code.co_filename), frame.f_lineno))
        window.look(frame, frame.f_lasti)  # the rest of the wait's own line
        frame.f_trace = window.line
        frame.f_trace_lines = True
        sys.settrace(_no_calls)

    def close(self) -> None:
        if getattr(_local, "window", None) is self:
            _local.window = None
            sys.settrace(None)

    def line(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if getattr(_local, "window", None) is not self:
            return None
        if event == "return":
            back = frame.f_back
            if back is not None and _place(back.f_code.co_filename) is not None:
                self.look(back, back.f_lasti)  # the rest of the line that called it
                back.f_trace = self.line
                back.f_trace_lines = True
            else:
                self.close()
            return None
        if event != "line":
            return self.line
        self.lines += 1
        if self.lines > _WINDOW:
            self.close()
            return None
        try:
            self.look(frame, -1)
        except Exception as e:  # never the program's failure: written down instead
            self.close()
            _not_followed(f"{type(e).__name__}: {e}")
            return None
        return self.line

    def look(self, frame: types.FrameType, after: int) -> None:
        """Report each read of what the callbacks change on the frame's line, past ``after``."""
        for name, key in _reads(frame, after):
            if name in self.read:
                continue
            if any(
                key in e.objects or key in e.slots or _nonlocal(e, name, frame)
                for e in self.effects
            ):
                self.read.add(name)
                self._report(frame, name)

    def _report(self, frame: types.FrameType, name: str) -> None:
        path = _place(frame.f_code.co_filename)
        # A function traced again for new shapes keeps its earlier traces' callbacks too: one
        # of them ran for the latest call.
        ran = any(e.ran > max(d.begun for d in self.calls) for e in self.effects)
        _write(
            {
                "rule": "JW108",
                "site": [path, frame.f_lineno],
                "name": name,
                "wait": list(self.site),
                "calls": sorted({d.site for d in self.calls}),
                "callbacks": sorted({e.site for e in self.effects}),
                "ran": ran,
            }
        )


def _nonlocal(effect: _Effect, name: str, frame: types.FrameType) -> bool:
    """A name the callback rebinds as ``nonlocal``, read in the function that defined it."""
    return name in effect.nonlocals and effect.code in frame.f_code.co_consts


_line_loads: dict[Any, dict[int, list[tuple[int, str, str, str | None]]]] = {}


def _reads(frame: types.FrameType, after: int) -> list[tuple[str, int | tuple[int, str]]]:
    """What the frame's current line loads past the instruction at offset ``after``: each name
    (and ``name.attr``) with the id of the object it holds, and its ``(id(namespace), name)``
    slot."""
    code = frame.f_code
    lines = _line_loads.get(code)
    if lines is None:
        lines = _line_loads[code] = {}
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
    found: list[tuple[str, int | tuple[int, str]]] = []
    loads = [load[1:] for load in lines.get(frame.f_lineno, []) if load[0] > after]
    if not loads:
        return found
    local = frame.f_locals
    at_module = local is frame.f_globals
    for op, name, attr in loads:
        if (
            op in ("LOAD_GLOBAL", "LOAD_NAME")
            and name in frame.f_globals
            and (at_module or name not in local)
        ):
            found.append((name, (id(frame.f_globals), name)))
            held = frame.f_globals[name]
        elif name in local:
            held = local[name]
        else:
            continue
        found.append((name, id(held)))
        if attr is not None:
            found.append((f"{name}.{attr}", (id(held), attr)))
            own = getattr(held, "__dict__", None)
            if isinstance(own, dict) and attr in own:
                found.append((f"{name}.{attr}", id(own[attr])))
    return found


class _Watched:
    """A jitted (or pmapped) function, whose results are noted as work dispatched."""

    def __init__(self, function: Any) -> None:
        object.__setattr__(self, "_jaxwaits_function", function)
        object.__setattr__(self, "_jaxwaits_effects", [])  # callbacks its traces staged

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _handed(args, kwargs)
        calling = _calling()
        calling.append(self)
        begun = next(_seq)
        try:
            out = self._jaxwaits_function(*args, **kwargs)
        finally:
            calling.pop()
        effects = self._jaxwaits_effects
        if calling:  # called while another watched function traces: its callbacks are that one's
            outer = calling[-1]._jaxwaits_effects
            outer += [e for e in effects if e not in outer]
        _dispatched(out, tuple(effects), begun)
        return out

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        return self if obj is None else types.MethodType(self, obj)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._jaxwaits_function, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._jaxwaits_function, name, value)

    def __repr__(self) -> str:
        return repr(self._jaxwaits_function)

    @property
    def __doc__(self) -> Any:  # type: ignore[override]
        return self._jaxwaits_function.__doc__


def _transform(transform: Any) -> Any:
    @_like(transform)
    def watched(*args: Any, **kwargs: Any) -> Any:
        if not args:  # jax.jit(static_argnums=0) as a decorator factory
            return lambda f: _Watched(transform(f, **kwargs))
        return _Watched(transform(*args, **kwargs))

    return watched


def _waiting(method: Any, after: bool = False, fetched: bool = True) -> Any:
    @_like(method)
    def waiting(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        if not after or result is True:
            _waited(self, fetched)
        return result

    return waiting


def _waiting_function(function: Any, fetched: bool) -> Any:
    @_like(function)
    def waiting(tree: Any, *args: Any, **kwargs: Any) -> Any:
        result = function(tree, *args, **kwargs)
        _waited(tree, fetched)
        return result

    return waiting


def _blocking(function: Any) -> Any:
    """``jax.block_until_ready``: a wait, and a mistake when the tree holds no JAX array
    (JW105) or holds a tracer (JW104: the block is inside a traced function)."""

    @_like(function)
    def block(tree: Any, *args: Any, **kwargs: Any) -> Any:
        jax = sys.modules["jax"]
        try:
            leaves = jax.tree_util.tree_leaves(tree)
        except Exception:  # not a tree: JAX says so itself
            leaves = []
        tracer = getattr(getattr(jax, "core", None), "Tracer", ())
        rule = ""
        if any(isinstance(a, tracer) for a in leaves):
            rule = "JW104"
        elif not any(isinstance(a, jax.Array) for a in leaves):
            rule = "JW105"
        site = _site()
        if rule and site is not None:
            held = sorted({type(a).__name__ for a in leaves}) or ["nothing"]
            _write({"rule": rule, "site": list(site), "held": held})
        result = function(tree, *args, **kwargs)
        _waited(tree)
        return result

    return block


def _copying(method: Any) -> Any:
    """``x.copy_to_host_async()``: starts the copy; the fetch that completes it comes later."""

    @_like(method)
    def copy(self: Any, *args: Any, **kwargs: Any) -> Any:
        site = _site()
        if site is not None:
            with _lock:
                _copies[id(self)] = [next(_seq), threading.get_ident(), site, 0]
                if len(_copies) > _KEPT:
                    del _copies[next(iter(_copies))]
        return method(self, *args, **kwargs)

    return copy


def _watch_jax(jax: Any) -> None:
    global _array_type, _is_ready_original
    from jax._src import array  # the program has imported jax by now

    _array_type = array.ArrayImpl
    _is_ready_original = array.ArrayImpl.is_ready
    for name in ("jit", "pmap"):
        if hasattr(jax, name):
            setattr(jax, name, _transform(getattr(jax, name)))
            _observed.append(f"jax.{name}")
    _watch_compiled()
    kind = array.ArrayImpl
    kind.is_ready = _waiting(kind.is_ready, after=True, fetched=False)
    kind.block_until_ready = _waiting(kind.block_until_ready, fetched=False)
    for name in ("__array__", "item", "tolist", "__float__", "__int__", "__bool__", "__index__",
                 "__complex__", "__repr__", "__str__", "__format__"):  # fmt: skip
        if hasattr(kind, name):
            setattr(kind, name, _waiting(getattr(kind, name)))
    if hasattr(kind, "copy_to_host_async"):
        kind.copy_to_host_async = _copying(kind.copy_to_host_async)
    jax.block_until_ready = _blocking(jax.block_until_ready)
    _watch_callbacks(jax)
    jax.device_get = _waiting_function(jax.device_get, fetched=True)
    monitoring = getattr(jax, "monitoring", None)
    if monitoring is not None and hasattr(monitoring, "register_event_duration_secs_listener"):
        monitoring.register_event_duration_secs_listener(_compiled)
        _observed.append("compilations")
    _write({"observed": _observed})


def _watch_compiled() -> None:
    """Calls of ahead-of-time compiled functions (``jax.jit(f).lower(x).compile()``)."""
    from jax._src import stages

    call = stages.Compiled.__call__

    @_like(call)
    def called(self: Any, *args: Any, **kwargs: Any) -> Any:
        _handed(args, kwargs)
        begun = next(_seq)
        out = call(self, *args, **kwargs)
        _dispatched(out, (), begun)
        return out

    stages.Compiled.__call__ = called
    _observed.append("ahead-of-time compiled calls")


def _watch_callbacks(jax: Any) -> None:
    from jax._src import callback, debugging

    jax.debug.callback = debugging.debug_callback = _staging(debugging.debug_callback)
    io = callback.io_callback
    callback.io_callback = _staging(io)
    experimental = sys.modules.get("jax.experimental")
    if experimental is not None and getattr(experimental, "io_callback", None) is io:
        experimental.io_callback = callback.io_callback
    jax.effects_barrier = _barrier(jax.effects_barrier)
    _observed.append("host callbacks")


def _compiled(event: str, seconds: float, *args: Any, **kwargs: Any) -> None:
    if event.endswith("backend_compile_duration"):
        with _lock:
            _compiles.append((next(_seq), threading.get_ident(), seconds))


def _watch_pjit(module: Any) -> None:
    if hasattr(module, "pjit"):
        module.pjit = _transform(module.pjit)


def _watch_numpy(numpy: Any) -> None:
    def copying(function: Any) -> Any:
        @_like(function)
        def copy(value: Any, *args: Any, **kwargs: Any) -> Any:
            result = function(value, *args, **kwargs)
            if type(value) is _array_type:  # np.asarray(out): a copy to the host, a wait
                _waited(value, fetched=True)
            elif isinstance(value, (list, tuple)) and value and type(value[0]) is _array_type:
                _waited(list(value), fetched=True)
            return result

        return copy

    for name in ("asarray", "array"):
        setattr(numpy, name, copying(getattr(numpy, name)))


_computed_by: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def _watch_futures(base: Any) -> None:
    """``Future.result()`` waits for the pool thread that set the result, as a join does."""
    future = base.Future
    set_result, result = future.set_result, future.result

    @_like(set_result)
    def computed(self: Any, value: Any) -> Any:
        _computed_by[self] = threading.get_ident()
        return set_result(self, value)

    @_like(result)
    def got(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = result(self, *args, **kwargs)
        thread = _computed_by.get(self)
        if thread is not None and thread != threading.get_ident():
            _join(thread)
        return value

    future.set_result, future.result = computed, got


_AFTER = {
    "jax": _watch_jax,
    "jax.experimental.pjit": _watch_pjit,
    "numpy": _watch_numpy,
    "concurrent.futures._base": _watch_futures,
}


def _safely(then: Any, module: Any) -> None:
    """Wrap a module's callables; what cannot be wrapped is written down, never raised."""
    try:
        then(module)
    except Exception as e:  # an unknown release: the program runs on, less observed
        _write({"not observed": module.__name__, "why": f"{type(e).__name__}: {e}"})


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: Any, then: Any) -> None:
        self._loader, self._then = loader, then

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        _safely(self._then, module)


class _Finder(importlib.abc.MetaPathFinder):
    """Lets the modules the watch wraps import as usual, then wraps their callables."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in _AFTER:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader, _AFTER.pop(name))
                return spec
        return None


def _chain() -> None:
    """Leave the program the path and environment it would have had, and run the
    ``sitecustomize`` it would have run."""
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    before = os.environ.pop("JAXWAITS_WATCH_PYTHONPATH", None)
    if before is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = before
    ours = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401 (the program's own, if it has one)
    except ModuleNotFoundError as e:
        if e.name != "sitecustomize":
            raise
        if ours is not None:
            sys.modules["sitecustomize"] = ours


def _join(thread: int | None) -> None:
    """This thread has waited for another (joined it, or got a result it computed)."""
    with _lock:
        _joins.append((next(_seq), threading.get_ident(), thread))


def _joining(join: Any) -> Any:
    @_like(join)
    def joined(self: threading.Thread, *args: Any, **kwargs: Any) -> Any:
        result = join(self, *args, **kwargs)
        if not self.is_alive():
            _join(self.ident)
        return result

    return joined


def _install() -> None:
    threading.Thread.join = _joining(threading.Thread.join)  # type: ignore[method-assign]
    for name in ("time", "perf_counter", "monotonic"):
        setattr(time, name, _clock(name, getattr(time, name), _Float))
        setattr(time, name + "_ns", _clock(name + "_ns", getattr(time, name + "_ns"), _Int))
    for name in list(_AFTER):
        if name in sys.modules:
            _safely(_AFTER.pop(name), sys.modules[name])
    sys.meta_path.insert(0, _Finder())
    if __name__ == "sitecustomize":  # not when a test run imports it into itself (the plugin)
        _chain()


_install()
