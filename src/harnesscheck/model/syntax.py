"""The syntax the model reads, as the rules ask it: one walk of a tree, the names of callees,
what an expression reads and a target binds, timers, and the like; nothing here knows a module."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TypeGuard

from harnesscheck.model.library import DEVICE_WAITS, TIMERS

Place = tuple[int, int]  # the line and column of a JAX call: one piece of timed work
Function = ast.FunctionDef | ast.AsyncFunctionDef


# Fields never walked into: a load, store or operator is a singleton with nothing under it, a
# third of all nodes, and every check reads it where it stands (``node.ctx``, ``node.op``).
UNWALKED = {"ctx", "op", "ops"}
_walked: dict[type, tuple[str, ...]] = {}


def walk(node: ast.AST) -> list[ast.AST]:
    """``node`` and every node under it but loads, stores and operators, in the order of
    ``ast.walk`` (breadth first), made without its generators: walking is most of a review's
    cost, and this takes 0.56 of ``ast.walk``'s time."""
    found = [node]
    i = 0
    while i < len(found):
        current = found[i]
        i += 1
        kind = type(current)
        fields = _walked.get(kind)
        if fields is None:
            fields = _walked[kind] = tuple(f for f in kind._fields if f not in UNWALKED)
        for name in fields:
            value = getattr(current, name, None)
            if type(value) is list:
                found.extend([item for item in value if isinstance(item, ast.AST)])
            elif isinstance(value, ast.AST):
                found.append(value)
    return found


def callee_name(node: ast.AST) -> str:
    """The last name of a callee: ``jax.jit`` and ``jit`` are both ``jit``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return callee_name(node.func)
    return ""


def dotted_parts(node: ast.AST) -> list[str]:
    """The names of a dotted callee: ``jax.tree_util.tree_map`` is jax, tree_util, tree_map."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def restarts_timer(start: ast.stmt, end: ast.stmt) -> bool:
    """``end`` only sets the timer ``start`` set, again."""
    value = getattr(end, "value", None)
    if not (isinstance(end, (ast.Assign, ast.AnnAssign)) and starts_timer(value)):
        return False
    started = names_read(ast.Tuple(getattr(start, "targets", [getattr(start, "target", None)])))
    ended = names_read(ast.Tuple(getattr(end, "targets", [getattr(end, "target", None)])))
    return started == ended


def may_sync(called: str) -> bool:
    """A call that may wait for all the device's work: ``effects_barrier()``, ``sync()``."""
    lowered = called.lower()
    return called in DEVICE_WAITS or ("sync" in lowered and "async" not in lowered)


def is_benchmark(call: ast.Call) -> bool:
    """pytest-benchmark's fixture, called: ``benchmark(f, x)``, ``benchmark.pedantic(f, ...)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "pedantic":
        func = func.value
    return isinstance(func, ast.Name) and func.id == "benchmark" and bool(call.args)


def callee_key(node: ast.AST) -> str:
    """How a callee is known: ``step`` or ``self.step``."""
    return node.id if isinstance(node, ast.Name) else dotted_name(node)


def wrapper_name(node: ast.AST) -> str:
    """The tracing wrapper a decorator or call names: ``jax.jit``, ``partial(jax.jit, ...)``."""
    if isinstance(node, ast.Call):
        if callee_name(node.func) == "partial" and node.args:
            return callee_name(node.args[0])
        return callee_name(node.func)
    return callee_name(node)


def is_timer(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or node.args:
        return False
    called = callee_name(node.func)
    return called in TIMERS or (called == "now" and "datetime" in dotted_parts(node.func))


def starts_timer(value: ast.AST | None) -> bool:
    """A timer's start: the timer called, or called only when timing is asked for
    (``time.time() if time_it else None``)."""
    if isinstance(value, ast.IfExp):
        branches = (value.body, value.orelse)
        return any(map(is_timer, branches)) and any(isinstance(b, ast.Constant) for b in branches)
    return is_timer(value)


def clock_read(node: ast.AST) -> TypeGuard[ast.BinOp]:
    """``time.time() - start``: the clock read against a start."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and is_timer(node.left)


def budget_loop(test: ast.expr) -> bool:
    """A time budget's test, ``time.time() - start < budget``: read at the top of each round,
    it times the round before."""
    return isinstance(test, ast.Compare) and any(map(clock_read, ast.walk(test.left)))


def clock_aliases(assigns: list[ast.Assign]) -> dict[str, str]:
    """Names bound to a clock itself, not to its reading (``timer = time.perf_counter``,
    ``self._now = now_fn or time.time``): calling one reads that clock."""
    found = {}
    for node in assigns:
        values = node.value.values if isinstance(node.value, ast.BoolOp) else [node.value]
        clocks = [
            v.attr for v in values
            if isinstance(v, ast.Attribute) and v.attr in TIMERS
            and dotted_parts(v)[0] in ("time", "timeit")
        ]  # fmt: skip
        found |= {callee_key(t): clocks[0] for t in node.targets if clocks}
    return found


def first_timer(node: ast.AST) -> ast.Call | None:
    """The first timer call in ``node``, in the functions it defines too (a region that meets
    one ends there, read or not: one that went on to the next reading met progress logs since
    the start, which compiling belongs in)."""
    timers = [n for n in walk(node) if isinstance(n, ast.Call) and is_timer(n)]
    if not timers:
        return None
    seeds = {id(n) for s in walk(node) if _seeding(s) for n in walk(s)}
    return next((n for n in timers if id(n) not in seeds), None)


SEEDING = ("seed", "PRNGKey", "key", "default_rng", "RandomState")


def _seeding(node: ast.AST) -> bool:
    """A clock read as a random seed, not as a time: ``np.random.seed(time.time_ns() % 2**32)``,
    ``PRNGKey(int(time.time()))``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):  # not "%s s" % (t - t0)
        left = node.left
        inner = left.args[0] if isinstance(left, ast.Call) and left.args else left
        return isinstance(inner, ast.Call) and is_timer(inner)
    return isinstance(node, ast.Call) and callee_name(node.func).endswith(SEEDING)


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def run_by(node: ast.AST) -> list[ast.AST]:
    """What of ``node`` runs when it runs: its nodes, but the bodies of the functions and
    lambdas it defines, itself included (a reading of a timer there is not one here)."""
    bodies = [d.body for d in walk(node) if isinstance(d, DEFINITIONS)]
    inside = {
        id(n) for body in bodies for part in (body if isinstance(body, list) else [body])
        for n in walk(part)
    }  # fmt: skip
    return [n for n in walk(node) if id(n) not in inside]


def dotted_name(node: ast.AST) -> str:
    """``self.state`` for an attribute of a name, else ''."""
    chain = dotted_parts(node)
    return ".".join(chain) if isinstance(node, ast.Attribute) and len(chain) > 1 else ""


def names_read(node: ast.AST) -> set[str]:
    """The names an expression reads, with the attributes of names (``self.state``)."""
    names = set()
    for n in walk(node):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.Attribute) and (dotted := dotted_name(n)):
            names.add(dotted)
    return names


def bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List, ast.Starred)):
        elements = node.elts if not isinstance(node, ast.Starred) else [node.value]
        return [name for element in elements for name in bound_names(element)]
    if isinstance(node, ast.Attribute) and (dotted := dotted_name(node)):
        return [dotted]  # self.state = f(x)
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return bound_names(node.value)  # results[i] = f(x): `results` holds the result
    return []


def paired(target: ast.AST, value: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    """``a, b = f(x), 1`` binds ``a`` to ``f(x)`` and ``b`` to ``1``."""
    pairs = isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
    if pairs and len(target.elts) == len(value.elts):  # type: ignore[attr-defined]
        for one, other in zip(target.elts, value.elts, strict=True):  # type: ignore[attr-defined]
            yield from paired(one, other)
    else:
        yield target, value


def statement_lists(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists a module or compound statement runs, in order (handlers left
    out)."""
    return [
        block
        for field in ("body", "orelse", "finalbody")
        if isinstance(block := getattr(node, field, None), list) and block
    ]


def positional_params(definition: Function) -> list[str]:
    """A function's positional parameters, in order."""
    return [a.arg for a in definition.args.posonlyargs + definition.args.args]


def param_names(definition: Function) -> set[str]:
    """Every name a function's parameters bind: positional, keyword-only, ``*args``,
    ``**kwargs``."""
    return {a.arg for a in ast.walk(definition.args) if isinstance(a, ast.arg)}


def spans_line(node: ast.AST, line: int) -> bool:
    """``line`` is one of the lines of a definition (or any node)."""
    first = getattr(node, "lineno", 0)
    return first <= line <= (getattr(node, "end_lineno", None) or first)


def times_its_block(definition: Function) -> bool:
    """A ``@contextmanager`` generator that reads a timer before its ``yield`` and after it."""
    if not any(callee_name(d) == "contextmanager" for d in definition.decorator_list):
        return False
    yields = [n.lineno for n in walk(definition) if isinstance(n, ast.Yield)]
    timers = [n.lineno for n in walk(definition) if is_timer(n)]
    before = any(t <= min(yields) for t in timers) if yields else False
    return before and any(t >= max(yields) for t in timers)


def of_the_host(node: ast.AST) -> bool:
    """A constant, or what the environment, ``len`` or a mapping's ``get`` gives: nothing a
    computation made (``bool(os.environ.get("DEBUG"))`` waits for nothing)."""
    if isinstance(node, ast.Constant):
        return True
    if not isinstance(node, ast.Call):
        return False
    chain = dotted_parts(node.func)
    return chain[:1] in (["os"], ["sys"], ["len"]) or chain[-1:] == ["get"]


def reshards(call: ast.Call) -> bool:
    """``jax.jit(lambda x: x, out_shardings=...)``: an identity jitted to move arrays to a
    sharding (a bare ``jit(lambda x: x)`` is what dispatch benchmarks time)."""
    function = call.args[0] if call.args else None
    return (
        isinstance(function, ast.Lambda)
        and len(function.args.args) == 1
        and isinstance(function.body, ast.Name)
        and function.body.id == function.args.args[0].arg
        and any(k.arg == "out_shardings" for k in call.keywords)
    )


def positive_count(value: object) -> bool:
    """A count of runs to drop: ``times[1:]``, ``times[10:]``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


HOST_TYPES = {"int", "float", "bool", "str"}  # converting a Python value of these reads nothing


def annotated_host(definition: Function | None, arguments: list[ast.expr]) -> bool:
    """Every argument is a parameter of ``definition`` annotated as a Python number, flag or
    string (``nsteps: int``), or unannotated with such a default (``num_steps=10_000``)."""
    if definition is None:
        return False
    params = definition.args
    positional = params.posonlyargs + params.args
    defaults = [None] * (len(positional) - len(params.defaults)) + list(params.defaults)
    host = {
        a.arg
        for a, default in zip(
            positional + params.kwonlyargs, defaults + params.kw_defaults, strict=True
        )
        if callee_name(a.annotation or ast.Name("")) in HOST_TYPES
        or (
            a.annotation is None
            and isinstance(default, ast.Constant)
            and isinstance(default.value, (int, float, str))
        )
    }
    return all(isinstance(a, ast.Name) and a.id in host for a in arguments)


def past_first(test: ast.expr) -> bool:
    """``i > 0``, ``i != 0``, ``i >= 1``: every round of a loop but the first."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    bound, op = test.comparators[0], test.ops[0]
    if not (isinstance(test.left, ast.Name) and isinstance(bound, ast.Constant)):
        return False
    return (isinstance(op, (ast.Gt, ast.NotEq)) and bound.value == 0) or (
        isinstance(op, ast.GtE) and bound.value == 1
    )


def appended(statement: ast.stmt) -> set[str]:
    """The names ``statement`` appends (``times.append(toc - tic)``: ``toc``, ``tic``)."""
    return {
        name
        for n in walk(statement)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
        for a in n.args
        for name in names_read(a)
    }
