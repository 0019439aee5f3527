"""The second step's classification of a module's functions: which dispatch JAX work and
never wait, and which wait, from the calls each makes."""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING

from harnesscheck.model.library import MOVING
from harnesscheck.model.syntax import bound_names, callee_key, callee_name
from harnesscheck.model.traced import called_as_they_are, traced_definitions

if TYPE_CHECKING:
    from harnesscheck.model.module import Module


ROUNDS = 8  # of classifying again: each reaches one call deeper into the module's functions


def classify_functions(module: Module) -> None:
    """Which module functions dispatch JAX work and never wait, and which wait; again until
    nothing changes, so that a function calling others of the module is known. A function's
    calls are those whose place lies within its own (the module's calls sorted by place,
    found by bisection, not by walking each function), less those in bodies that are traced;
    only a call of one of the module's functions can change as they are classified, and
    every other call is asked once."""
    calls = sorted(module.of(ast.Call), key=_place)
    places = [_place(call) for call in calls]
    ends = [(call.end_lineno or 0, call.end_col_offset or 0) for call in calls]
    direct = called_as_they_are(module)
    spans = {
        name: [(bisect_left(places, _opening(d)), bisect_right(places, _closing(d))) for d in defs]
        for name, defs in module.functions.items()
        if name not in module.traced  # traced: its waits run once, while tracing
        or (name in direct and not any(id(d) in module.traced_here for d in defs))
    }  # ... unless it is also called as it is (scanned_rollout(key, n), and jit(scanned_rollout))
    bodies = traced_definitions(module)
    traced = {  # calls in bodies only ever traced: a wait there runs once, while tracing
        i
        for d in module.of(ast.FunctionDef, ast.AsyncFunctionDef)
        if id(d) in bodies and (id(d) in module.traced_here or d.name not in direct)
        for i in range(bisect_left(places, _opening(d)), bisect_right(places, _closing(d)))
    }
    moving = [  # a call of one of them, or handed one: tree_map(place, params)
        any(
            name in module.functions or module.partials.get(name) in module.functions
            for name in (callee_name(call.func), *(callee_key(a) for a in call.args))
        )
        for call in calls
    ]
    settled: dict[tuple[int, bool], bool] = {}

    def asked(i: int, question: Callable[[ast.Call], bool], wait: bool) -> bool:
        if moving[i]:
            return question(calls[i])
        if (i, wait) not in settled:
            settled[(i, wait)] = question(calls[i])
        return settled[(i, wait)]

    names_handed: dict[int, set[str]] = {}

    def handed(i: int) -> set[str]:  # the functions a call may run: pool.map(write, xs)
        if i not in names_handed:
            names_handed[i] = module.handed_names(calls[i])
        return names_handed[i]

    runs = {name: {id(d) for d in module.functions[name]} for name in spans}
    owners: list[int] = []

    def owner(i: int) -> int:  # the function or lambda the call is written in, innermost
        if not owners:
            owners.extend(_owners(module, places))
        return owners[i]

    insides = {name: [i for a, b in ranges for i in range(a, b)] for name, ranges in spans.items()}
    changing = list(insides)  # after the first round, only what calls the module's functions
    for _ in range(ROUNDS):  # until nothing changes: chebfun2 -> _impl -> from_function waits
        before = (set(module.waiting_functions), set(module.jax_functions))
        for name in changing:
            inside = insides[name]
            if name in module.waiting_functions:
                continue
            last = next(
                (i for i in reversed(inside) if i not in traced and asked(i, module.is_wait, True)),
                None,
            )
            if last is not None and not any(
                ends[i] > ends[last] and owner(i) in runs[name] and asked(i, module.jax_call, False)
                for i in inside[inside.index(last) + 1 :]
                if not (callee_name(calls[i].func) in MOVING and module.from_jax(calls[i].func))
            ):  # waits, and dispatches no work after its last wait (copying host data is none)
                module.waiting_functions.add(name)
                module.jax_functions.discard(name)
            elif any(asked(i, module.jax_call, False) for i in inside) and not any(
                handed(i) & module.waiting_functions for i in inside
            ):
                module.jax_functions.add(name)
            else:
                module.jax_functions.discard(name)
        if (module.waiting_functions, module.jax_functions) == before:
            return
        changing = [name for name in changing if any(moving[i] for i in insides[name])]


def _owners(module: Module, places: list[tuple[int, int]]) -> list[int]:
    """By call, the innermost function or lambda it is written in (its id; 0: the module's
    own level): a call in a function nested in another runs when that one is called."""
    owner = [0] * len(places)
    nested = module.of(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    for node in sorted(nested, key=_place):  # outer first: an inner one, opening later, wins
        for i in range(bisect_left(places, _place(node)), bisect_right(places, _closing(node))):
            owner[i] = id(node)
    return owner


def _place(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _opening(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
    """Where a definition starts: its first decorator, or its ``def``."""
    return min(map(_place, [*definition.decorator_list, definition]))


def _closing(node: ast.AST) -> tuple[int, int]:
    return node.end_lineno or node.lineno, node.end_col_offset or 0  # type: ignore[attr-defined]


def bound_to_lambdas(module: Module) -> None:
    """Names bound only to lambdas that dispatch JAX work: ``f = lambda p: loss(p, x)`` (then
    ``f(params)`` dispatches it)."""
    bound: dict[str, list[ast.expr]] = {}
    for node in module.assigned:
        for name in (n for target in node.targets for n in bound_names(target)):
            bound.setdefault(name, []).append(node.value)
    for name, values in bound.items():
        if all(isinstance(v, ast.Lambda) and module.jax_call(v.body) for v in values):
            module.jax_functions.add(name)


def bound_to_names(module: Module) -> None:
    """Names bound to another name take what it names: ``vmaps_train = train_fn`` (jitted by a
    factory), then ``train_jit = vmaps_train`` (lop-jax), followed until nothing changes."""
    aliases = [
        (node.value.id, bound_names(target))
        for node in module.assigned
        if isinstance(node.value, ast.Name)
        for target in node.targets
    ]
    kinds = (module.jitted, module.jax_functions, module.waiting_functions)
    for _ in range(ROUNDS):
        before = sum(map(len, kinds))
        for named, names in aliases:
            for kind in kinds:
                if named in kind:
                    kind.update(names)
        if sum(map(len, kinds)) == before:
            return
