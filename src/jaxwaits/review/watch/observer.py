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
_compiles: list[tuple[int, int, float]] = []  # (seq, thread, seconds)
_unknown_waits: dict[int, list[int]] = {}  # thread -> seqs of waits on arrays no watched call made
# id of an output array -> the array (weakly: an id is reused once its array is gone), its call
_outputs: dict[int, tuple[Any, _Dispatch]] = {}
_open: collections.deque[_Dispatch]  # calls neither waited on nor seen ready yet
_host_inputs: dict[int, Any] = {}  # id of a NumPy array handed to a watched call -> it, weakly
_copied_again: list[tuple[int, int, tuple[str, int]]] = []  # (seq, thread, site) of a re-copy
_joins: list[tuple[int, int, int | None]] = []  # (seq, joining thread, joined thread)
_copies: dict[int, list[Any]] = {}  # id of an array -> [seq, thread, site, seq fetched (0)]
_array_type: type | None = None
_observed: list[str] = []  # what this release lets the watch observe (written to the log)


class _Dispatch:
    """One watched call: its thread, when, the program line, its first output (weakly), and
    when it was first waited on and first seen ready."""

    __slots__ = ("first", "ready", "seq", "site", "thread", "waited")

    def __init__(self, seq: int, thread: int, site: tuple[str, int], first: Any) -> None:
        self.seq, self.thread, self.site = seq, thread, site
        self.first = weakref.ref(first)
        self.waited = 0
        self.ready = 0


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


def _site(depth: int = 2) -> tuple[str, int] | None:
    """The program line that made this call: the first frame of the program's own code (a
    ``timeit`` statement's frame gives way to the line that called ``timeit``)."""
    frame: types.FrameType | None = sys._getframe(depth)
    while frame is not None:
        path = _place(frame.f_code.co_filename)
        if path is not None:
            return (path, frame.f_lineno)
        frame = frame.f_back
    return None


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
        joined = {j for q, t, j in _joins if t == end.thread and start.seq < q < end.seq}
        compiled = sum(s for q, t, s in _compiles if t == end.thread and start.seq < q < end.seq)
        tail, calls, covered = [], [], []
        for thread in {end.thread, *joined}:
            mine = [d for d in _calls.get(thread, []) if start.seq < d.seq < end.seq]
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
        waited_at = {d.site for d in calls if d.seq <= max(covered, default=0)}
        several = bool(covered) and not waited_at & {d.site for d in tail}
        _write(
            {
                "rule": "JW103" if several else "JW101",
                **where,
                "calls": sorted({d.site for d in tail}),
                "running": any(not 0 < d.ready <= end.seq for d in tail),
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
# Named as the builtins they stand for, so that a program printing a reading's type reads the same.
for _kind, _name in ((_Float, "float"), (_Int, "int")):
    _kind.__name__ = _kind.__qualname__ = _name
    _kind.__module__ = "builtins"
_calls: dict[int, collections.deque[_Dispatch]] = {}  # thread -> its watched calls, oldest first
_open = collections.deque(maxlen=_KEPT)


def _clock(name: str, read: Any, kind: type) -> Any:
    @_like(read)
    def reading() -> Any:
        value = read()
        if not _direct():
            return value
        site = _site()
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
                d.ready = seq
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


def _dispatched(out: Any) -> None:
    arrays = _leaves(out)
    if not arrays:
        return
    site = _site(3)
    if site is None:
        return
    thread = threading.get_ident()
    with _lock:
        call = _Dispatch(next(_seq), thread, site, arrays[0])
        mine = _calls.get(thread)
        if mine is None:
            mine = _calls[thread] = collections.deque(maxlen=_KEPT)
        mine.append(call)
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
    with _lock:
        seq = next(_seq)
        for array in arrays:
            copy = _copies.get(id(array)) if fetched else None
            if copy is not None and not copy[3]:
                copy[3] = seq
            known = _outputs.get(id(array))
            call = known[1] if known is not None and known[0]() is array else None
            if call is None:
                _unknown_waits.setdefault(thread, []).append(seq)  # may hold a watched result
            elif not call.waited:
                call.waited = seq


class _Watched:
    """A jitted (or pmapped) function, whose results are noted as work dispatched."""

    def __init__(self, function: Any) -> None:
        object.__setattr__(self, "_jaxwaits_function", function)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _handed(args, kwargs)
        out = self._jaxwaits_function(*args, **kwargs)
        _dispatched(out)
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
    jax.device_get = _waiting_function(jax.device_get, fetched=True)
    monitoring = getattr(jax, "monitoring", None)
    if monitoring is not None and hasattr(monitoring, "register_event_duration_secs_listener"):
        monitoring.register_event_duration_secs_listener(_compiled)
        _observed.append("compilations")
    _write({"observed": _observed})


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


_AFTER = {"jax": _watch_jax, "jax.experimental.pjit": _watch_pjit, "numpy": _watch_numpy}


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


def _joining(join: Any) -> Any:
    @_like(join)
    def joined(self: threading.Thread, *args: Any, **kwargs: Any) -> Any:
        result = join(self, *args, **kwargs)
        if not self.is_alive():
            with _lock:
                _joins.append((next(_seq), threading.get_ident(), self.ident))
                del _joins[:-_KEPT]
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
