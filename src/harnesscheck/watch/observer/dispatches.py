"""The work the program dispatches and its waits on it: the arrays each jitted, pmapped or
ahead-of-time compiled call returns, with the program lines that made it; the blocks, fetches
and ``is_ready()`` that wait on them; the copies to the host started; the threads joined."""

from __future__ import annotations

import functools
import sys
import threading
import types
import weakref
from typing import Any

from .places import column, like
from .state import KEPT, Dispatch, State
from .window import Window


class WatchedFunction:
    """A jitted (or pmapped) function, whose results are noted as work dispatched."""

    def __init__(self, function: Any, state: State) -> None:
        object.__setattr__(self, "_jaxwaits_function", function)
        object.__setattr__(self, "_jaxwaits_state", state)
        object.__setattr__(self, "_jaxwaits_effects", [])  # callbacks its traces staged

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        state = self._jaxwaits_state
        handed(state, args, kwargs)
        inputs = fed(state, args, kwargs)
        calling = state.calling()
        calling.append(self)
        begun = state.next()
        try:
            out = self._jaxwaits_function(*args, **kwargs)
        finally:
            calling.pop()
        effects = self._jaxwaits_effects
        if calling:  # called while another watched function traces: its callbacks are that one's
            outer = calling[-1]._jaxwaits_effects
            outer += [e for e in effects if e not in outer]
        dispatched(state, out, tuple(effects), begun, inputs)
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


def transform(state: State, function: Any) -> Any:
    """``jax.jit``, ``jax.pmap``: what they make is :class:`WatchedFunction`."""

    @like(function)
    def watched(*args: Any, **kwargs: Any) -> Any:
        if not args:  # jax.jit(static_argnums=0) as a decorator factory
            return lambda f: WatchedFunction(function(f, **kwargs), state)
        return WatchedFunction(function(*args, **kwargs), state)

    return watched


def dispatched(
    state: State, out: Any, effects: tuple[Any, ...], begun: int, inputs: frozenset[int]
) -> None:
    arrays = state.leaves(out)
    if not arrays:
        return
    # a watched function a pool's thread calls itself: the lines that handed it to the pool
    path = state.program.path(3) or getattr(state.local, "handed", ())
    if not path:
        return
    thread = threading.get_ident()
    with state.lock:
        call = Dispatch(state.next(), begun, thread, path, arrays[0], effects, inputs)
        state.calls[thread].append(call)
        for array in arrays:
            key = id(array)
            state.outputs[key] = (weakref.ref(array, functools.partial(_gone, state, key)), call)
        state.open.append(call)


def fed(state: State, args: tuple[Any, ...], kwargs: dict[str, Any]) -> frozenset[int]:
    """The seqs of the watched calls whose outputs a call is handed: the work it waits for."""
    given = (*args, *kwargs.values())
    kind = state.array_type
    arrays = given if all(type(a) is kind for a in given) else state.leaves(given)
    calls = []
    for array in arrays:
        known = state.outputs.get(id(array))
        if known is not None and known[0]() is array:
            calls.append(known[1].seq)
    return frozenset(calls)


def handed(state: State, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
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
        seen = state.host_inputs.get(key)
        if seen is not None and seen() is array:
            site = state.program.site(3)
            if site is not None:
                with state.lock:
                    state.copied_again.append((state.next(), threading.get_ident(), site))
                    del state.copied_again[:-KEPT]
            continue
        try:
            forget = functools.partial(_forget_input, state, key)
            state.host_inputs[key] = weakref.ref(array, forget)
        except TypeError:  # an array that cannot be referred to weakly is not followed
            pass


def _forget_input(state: State, key: int, ref: Any) -> None:
    if state.host_inputs.get(key) is ref:
        state.host_inputs.pop(key, None)


def _gone(state: State, key: int, ref: Any) -> None:
    """An output array is gone: forget it (unless its id already names another)."""
    if state.outputs.get(key, (None,))[0] is ref:
        state.outputs.pop(key, None)


def waited(state: State, tree: Any, fetched: bool = False) -> None:
    arrays = state.leaves(tree)
    if not arrays:
        return
    thread = threading.get_ident()
    effectful: list[Dispatch] = []
    with state.lock:
        seq = state.next()
        for array in arrays:
            copy = state.copies.get(id(array)) if fetched else None
            if copy is not None and not copy[3]:
                copy[3] = seq
            known = state.outputs.get(id(array))
            call = known[1] if known is not None and known[0]() is array else None
            if call is None:
                # an array no watched call made may hold a watched call's results
                state.unknown_waits[thread].append(seq)
            else:
                call.waited = call.waited or seq
                if call.effects and call not in effectful:
                    effectful.append(call)
    # A barrier this thread called after a call was made has waited for its callbacks.
    effectful = [d for d in effectful if d.seq > getattr(state.local, "barrier", 0)]
    if effectful:
        try:
            Window.open(state, effectful)
        except Exception as e:  # never the program's failure: written down instead
            state.not_followed(f"{type(e).__name__}: {e}")


def waiting(state: State, method: Any, after: bool = False, fetched: bool = True) -> Any:
    """An array's method that waits on it (``is_ready()``: when it says True)."""

    @like(method)
    def wait(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        if not after or result is True:
            waited(state, self, fetched)
        return result

    return wait


def waiting_function(state: State, function: Any, fetched: bool) -> Any:
    @like(function)
    def wait(tree: Any, *args: Any, **kwargs: Any) -> Any:
        result = function(tree, *args, **kwargs)
        waited(state, tree, fetched)
        return result

    return wait


def blocking(state: State, function: Any) -> Any:
    """``jax.block_until_ready``: a wait, and a mistake when the tree holds no JAX array
    (JW105) or holds a tracer (JW104: the block is inside a traced function)."""

    @like(function)
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
        called = state.program.calling()
        if rule and called is not None:
            path, frame = called
            held = sorted({type(a).__name__ for a in leaves}) or ["nothing"]
            col = column(frame.f_code, frame.f_lasti)
            state.write({"rule": rule, "site": [path, frame.f_lineno], "col": col, "held": held})
        result = function(tree, *args, **kwargs)
        waited(state, tree)
        return result

    return block


def copying(state: State, method: Any) -> Any:
    """``x.copy_to_host_async()``: starts the copy; the fetch that completes it comes later."""

    @like(method)
    def copy(self: Any, *args: Any, **kwargs: Any) -> Any:
        site = state.program.site()
        if site is not None:
            with state.lock:
                state.copies[id(self)] = [state.next(), threading.get_ident(), site, 0]
                if len(state.copies) > KEPT:
                    del state.copies[next(iter(state.copies))]
        return method(self, *args, **kwargs)

    return copy


def joining(state: State, join: Any) -> Any:
    """``Thread.join``: this thread has waited for the joined one (not for its work)."""

    @like(join)
    def joined(self: threading.Thread, *args: Any, **kwargs: Any) -> Any:
        result = join(self, *args, **kwargs)
        if not self.is_alive():
            state.join(self.ident)
        return result

    return joined


def watch_futures(state: State, base: Any) -> None:
    """``Future.result()`` waits for the pool thread that set the result, as a join does."""
    future = base.Future
    set_result, result = future.set_result, future.result

    @like(set_result)
    def computed(self: Any, value: Any) -> Any:
        state.computed_by[self] = threading.get_ident()
        return set_result(self, value)

    @like(result)
    def got(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = result(self, *args, **kwargs)
        thread = state.computed_by.get(self)
        if thread is not None and thread != threading.get_ident():
            state.join(thread)
        return value

    future.set_result, future.result = computed, got


def watch_pools(state: State, module: Any) -> None:
    """``pool.submit(step, x)`` (and ``pool.map``): a watched function handed to a thread pool
    itself has no program line in the pool's thread; its calls are placed at the line that
    handed it over."""
    pool = module.ThreadPoolExecutor
    submit = pool.submit

    @like(submit)
    def submitting(self: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(fn, WatchedFunction) or isinstance(
            getattr(fn, "__func__", None), WatchedFunction
        ):
            path = state.program.path(2)
            if path:
                fn = functools.partial(_handed_over, state, path, fn)
        return submit(self, fn, *args, **kwargs)

    pool.submit = submitting


def _handed_over(
    state: State, path: tuple[tuple[str, int], ...], fn: Any, *args: Any, **kwargs: Any
) -> Any:
    state.local.handed = path
    try:
        return fn(*args, **kwargs)
    finally:
        state.local.handed = ()
