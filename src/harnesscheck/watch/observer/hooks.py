"""The wrapping of the modules the watch observes, when the program imports them (an import
hook), or at once where they are imported already: JAX's transformations, array waits and
compilations; NumPy's copies to the host; futures and thread pools; a thread's join; the
clocks."""

from __future__ import annotations

import functools
import importlib.abc
import sys
import threading
from collections.abc import Callable
from typing import Any

from . import dispatches
from .clocks import watch_clocks
from .effects import watch_callbacks
from .places import like
from .state import State

# names of the array's methods that copy it to the host, and so wait on it
FETCHES = ("__array__", "item", "tolist", "__float__", "__int__", "__bool__", "__index__",
           "__complex__", "__repr__", "__str__", "__format__")  # fmt: skip


def _watch_jax(state: State, jax: Any) -> None:
    from jax._src import array  # the program has imported jax by now

    kind = array.ArrayImpl
    state.array_type, state.is_ready_original = kind, kind.is_ready
    for name in ("jit", "pmap"):
        if hasattr(jax, name):
            setattr(jax, name, dispatches.transform(state, getattr(jax, name)))
            state.observed.append(f"jax.{name}")
    _watch_compiled(state)
    kind.is_ready = dispatches.waiting(state, kind.is_ready, after=True, fetched=False)
    kind.block_until_ready = dispatches.waiting(state, kind.block_until_ready, fetched=False)
    for name in FETCHES:
        if hasattr(kind, name):
            setattr(kind, name, dispatches.waiting(state, getattr(kind, name)))
    if hasattr(kind, "copy_to_host_async"):
        kind.copy_to_host_async = dispatches.copying(state, kind.copy_to_host_async)
    jax.block_until_ready = dispatches.blocking(state, jax.block_until_ready)
    watch_callbacks(state, jax)
    jax.device_get = dispatches.waiting_function(state, jax.device_get, fetched=True)
    monitoring = getattr(jax, "monitoring", None)
    if monitoring is not None and hasattr(monitoring, "register_event_duration_secs_listener"):
        monitoring.register_event_duration_secs_listener(functools.partial(_compiled, state))
        state.observed.append("compilations")
    state.write({"observed": state.observed})


def _watch_compiled(state: State) -> None:
    """Calls of ahead-of-time compiled functions (``jax.jit(f).lower(x).compile()``)."""
    from jax._src import stages

    call = stages.Compiled.__call__

    @like(call)
    def called(self: Any, *args: Any, **kwargs: Any) -> Any:
        dispatches.handed(state, args, kwargs)
        inputs = dispatches.fed(state, args, kwargs)
        begun = state.next()
        out = call(self, *args, **kwargs)
        dispatches.dispatched(state, out, (), begun, inputs)
        return out

    stages.Compiled.__call__ = called
    state.observed.append("ahead-of-time compiled calls")


def _compiled(state: State, event: str, seconds: float, *args: Any, **kwargs: Any) -> None:
    if event.endswith("backend_compile_duration"):
        with state.lock:
            state.compiles.append((state.next(), threading.get_ident(), seconds))


def _watch_pjit(state: State, module: Any) -> None:
    if hasattr(module, "pjit"):
        module.pjit = dispatches.transform(state, module.pjit)


def _watch_numpy(state: State, numpy: Any) -> None:
    def copying(function: Any) -> Any:
        @like(function)
        def copy(value: Any, *args: Any, **kwargs: Any) -> Any:
            result = function(value, *args, **kwargs)
            kind = state.array_type
            if type(value) is kind:  # np.asarray(out): a copy to the host, a wait
                dispatches.waited(state, value, fetched=True)
            elif isinstance(value, (list, tuple)) and value and type(value[0]) is kind:
                dispatches.waited(state, list(value), fetched=True)
            return result

        return copy

    for name in ("asarray", "array"):
        setattr(numpy, name, copying(getattr(numpy, name)))


def _safely(state: State, then: Callable[[State, Any], None], module: Any) -> None:
    """Wrap a module's callables; what cannot be wrapped is written down, never raised."""
    try:
        then(state, module)
    except Exception as e:  # an unknown release: the program runs on, less observed
        state.write({"not observed": module.__name__, "why": f"{type(e).__name__}: {e}"})


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: Any, then: Callable[[Any], None]) -> None:
        self._loader, self._then = loader, then

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        self._then(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Lets the modules the watch wraps import as usual, then wraps their callables."""

    def __init__(self, state: State, after: dict[str, Callable[[State, Any], None]]) -> None:
        self._state, self._after = state, after

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in self._after:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    then = functools.partial(_safely, self._state, self._after.pop(name))
                    spec.loader = _Loader(spec.loader, then)
                return spec
        return None


def install(state: State) -> None:
    """Wrap the clocks and a thread's join now, and each module the watch observes as soon as
    it is imported (now, where it is already)."""
    after: dict[str, Callable[[State, Any], None]] = {
        "jax": _watch_jax,
        "jax.experimental.pjit": _watch_pjit,
        "numpy": _watch_numpy,
        "concurrent.futures._base": dispatches.watch_futures,
        "concurrent.futures.thread": dispatches.watch_pools,
    }
    join = dispatches.joining(state, threading.Thread.join)
    threading.Thread.join = join  # type: ignore[method-assign]
    watch_clocks(state)
    for name in list(after):
        if name in sys.modules:
            _safely(state, after.pop(name), sys.modules[name])
    sys.meta_path.insert(0, _Finder(state, after))
