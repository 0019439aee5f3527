"""Host callbacks (JW108): what a callback staged in a watched function changes of the
program's objects, read from its bytecode, and when it runs; and ``jax.effects_barrier()``, in
each thread."""

from __future__ import annotations

import dis
import functools
import sys
import types
from typing import Any

from .places import ProgramCode, like
from .state import State

_CHANGING = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "pop", "popleft", "popitem",
     "clear", "appendleft", "extendleft", "remove", "discard", "put", "put_nowait"}
)  # fmt: skip
# Objects no callback changes in place (an id of one would match any equal constant).
_UNCHANGING = (int, float, complex, str, bytes, tuple, frozenset, type(None), types.ModuleType,
               types.FunctionType, type)  # fmt: skip
_DEPTH = 3  # calls into the program's own functions a callback's changes are looked for through


class Effect:
    """A host callback staged by a watched function: the program line that staged it, what it
    changes (objects by id, and ``(id(namespace), name)`` slots it rebinds), when it last ran."""

    __slots__ = ("code", "keep", "nonlocals", "objects", "ran", "site", "slots")

    def __init__(self, program: ProgramCode, site: tuple[str, int], callback: Any) -> None:
        self.site, self.ran = site, 0
        self.objects: set[int] = set()
        self.slots: set[tuple[int, str]] = set()
        self.nonlocals: set[str] = set()
        self.keep: list[Any] = []  # what the ids name, alive while the callback is
        self.code = None
        _changes(program, self, callback)


def _changes(program: ProgramCode, effect: Effect, callback: Any, depth: int = 0) -> None:
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
            if program.place(target.__code__.co_filename) is not None:
                _changes(program, effect, callee, depth + 1)


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


def _staging(state: State, stage: Any) -> Any:
    """``jax.debug.callback`` or ``io_callback``: the callback is noted as an effect of the
    watched functions tracing now, and wrapped to note when it runs."""

    @like(stage)
    def staged(callback: Any = None, *args: Any, **kwargs: Any) -> Any:
        calling = state.calling()
        if callback is None or not callable(callback) or not calling:
            made = stage(callback, *args, **kwargs)
            if callback is None and callable(made):  # jax.debug.callback(ordered=True)(f, x)
                return _staging(state, made)
            return made
        site = state.program.site()
        if site is None:
            return stage(callback, *args, **kwargs)
        effect = Effect(state.program, site, callback)
        outer = calling[-1]._jaxwaits_effects
        if effect.objects or effect.slots or effect.nonlocals:
            outer.append(effect)

        @like(callback)
        def ran(*a: Any, **k: Any) -> Any:
            effect.ran = state.next()
            return callback(*a, **k)

        return stage(ran, *args, **kwargs)

    return staged


def _barrier(state: State, barrier: Any) -> Any:
    """``jax.effects_barrier()``: this thread's effects are waited for; its window closes."""

    @like(barrier)
    def waited(*args: Any, **kwargs: Any) -> Any:
        result = barrier(*args, **kwargs)
        state.local.barrier = state.next()
        window = getattr(state.local, "window", None)
        if window is not None:
            window.close()
        return result

    return waited


def watch_callbacks(state: State, jax: Any) -> None:
    from jax._src import callback, debugging

    staged = _staging(state, debugging.debug_callback)
    jax.debug.callback = debugging.debug_callback = staged
    io = callback.io_callback
    callback.io_callback = _staging(state, io)
    experimental = sys.modules.get("jax.experimental")
    if experimental is not None and getattr(experimental, "io_callback", None) is io:
        experimental.io_callback = callback.io_callback
    jax.effects_barrier = _barrier(state, jax.effects_barrier)
    state.observed.append("host callbacks")
