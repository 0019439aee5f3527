"""The checks: one pass over a module's syntax tree, never importing or running it.

Precision comes first: a check speaks only about calls it can tie to JAX in the same source (a
function jitted there, or a ``jax``/``jnp``/``lax`` call), and stays silent about the rest.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jaxwaits.review.rules import Rule

# Wrappers whose function argument (or decorated function) is traced, not run.
TRACING = {
    "jit", "pjit", "vmap", "pmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian",
    "checkpoint", "remat", "shard_map", "xmap", "scan", "fori_loop", "while_loop", "cond",
    "switch", "map", "custom_jvp", "custom_vjp", "jvp", "vjp", "linearize", "eval_shape",
    "make_jaxpr", "filter_jit", "filter_vmap", "filter_grad",
}  # fmt: skip
JITTING = {"jit", "pjit", "filter_jit", "pmap"}
TIMERS = {
    "time", "perf_counter", "monotonic", "process_time", "perf_counter_ns", "time_ns",
    "monotonic_ns", "default_timer",
}  # fmt: skip
JAX_MODULES = {"jax", "jnp", "lax", "random", "jr", "jrandom"}
NUMPY_MODULES = {"np", "numpy", "onp"}
# Calls that wait for a JAX array's values to be ready (they read them, or wait for them).
WAITING_METHODS = {"block_until_ready", "item", "tolist", "__array__"}
WAITING_FUNCTIONS = {"float", "int", "bool", "print", "device_get", "asarray", "array", "str"}


Place = tuple[int, int]  # the line and column of a call: one piece of timed work


@dataclass(frozen=True)
class Finding:
    rule: Rule
    line: int
    col: int
    message: str


def _name(node: ast.AST) -> str:
    """The last name of a callee: ``jax.jit`` and ``jit`` are both ``jit``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _root(node: ast.AST) -> str:
    """The first name of a dotted callee: ``jnp.sum`` is ``jnp``."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _wrapper(node: ast.AST) -> str:
    """The tracing wrapper a decorator or call names: ``jax.jit``, ``partial(jax.jit, ...)``."""
    if isinstance(node, ast.Call):
        if _name(node.func) == "partial" and node.args:
            return _name(node.args[0])
        return _name(node.func)
    return _name(node)


def _is_timer(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in TIMERS and not node.args


def _has_timer(node: ast.AST) -> bool:
    return any(_is_timer(n) for n in ast.walk(node))


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [name for element in node.elts for name in _targets(element)]
    return []


def _paired(target: ast.AST, value: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    """``a, b = f(x), 1`` binds ``a`` to ``f(x)`` and ``b`` to ``1``."""
    pairs = isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
    if pairs and len(target.elts) == len(value.elts):  # type: ignore[attr-defined]
        for one, other in zip(target.elts, value.elts, strict=True):  # type: ignore[attr-defined]
            yield from _paired(one, other)
    else:
        yield target, value


class ModuleChecks:
    """Everything known about one module, and the findings."""

    def __init__(self, tree: ast.Module) -> None:
        self.nodes = list(ast.walk(tree))  # walked once: walking is most of the cost
        self.findings: list[Finding] = []
        self.traced: set[str] = set()  # functions whose body is traced
        self.jitted: set[str] = set()  # names bound to jitted functions
        self.functions: set[str] = set()
        self.called: dict[str, list[int]] = {}  # function name -> lines where it is called
        self.takes_min = False  # the module keeps the fastest of repeated timings
        self._collect()

    def _collect(self) -> None:
        for node in self.nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.add(node.name)
                for decorator in node.decorator_list:
                    wrapper = _wrapper(decorator)
                    if wrapper in TRACING:
                        self.traced.add(node.name)
                    if wrapper in JITTING:
                        self.jitted.add(node.name)
            elif isinstance(node, ast.Call) and _name(node.func) in TRACING:
                for argument in node.args[:3]:
                    if isinstance(argument, ast.Name):
                        self.traced.add(argument.id)
            if isinstance(node, ast.Call):
                callee = node.func.value if isinstance(node.func, ast.Attribute) else node.func
                if isinstance(callee, ast.Name):  # f(x), f.lower(x): both compile f
                    self.called.setdefault(callee.id, []).append(node.lineno)
                if _name(node.func) == "min":
                    self.takes_min = True
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
                lower = node.slice.lower
                if isinstance(lower, ast.Constant) and lower.value == 1:
                    self.takes_min = True  # times[1:]: the first, compiling run is dropped
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                if _wrapper(node.value.func) in JITTING:  # jit(f), partial(jax.jit, ...)(f)
                    for target in node.targets:
                        self.jitted.update(_targets(target))

    def run(self) -> list[Finding]:
        for node in self.nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name in self.traced:
                    self._inside_trace(node)
            if isinstance(node, ast.Call):
                self._nothing_to_block(node)
                self._timeit(node)
        for body in self._bodies():
            self._timed_regions(body)
        return sorted(set(self.findings), key=lambda f: (f.line, f.col, f.rule.value))

    # JW101, through timeit: `timeit.timeit(lambda: f(x))` times the dispatch
    def _timeit(self, call: ast.Call) -> None:
        if _name(call.func) not in {"timeit", "repeat"} or not call.args:
            return
        timed = call.args[0]
        if isinstance(timed, ast.Lambda) and self._jax_call(timed.body):
            self._add(
                Rule.TIMER_BEFORE_WAIT,
                call,
                "timeit times a call that is not waited on, so it measures the dispatch: time "
                "`lambda: f(x).block_until_ready()`",
            )

    def _bodies(self) -> Iterator[list[ast.stmt]]:
        for child in self.nodes:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(child, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    yield block

    # JW104, JW106
    def _inside_trace(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            called = _name(node.func)
            if called == "block_until_ready":
                self._add(
                    Rule.BLOCK_IN_TRACE,
                    node,
                    f"block_until_ready inside {function.name!r}, which is traced: it waits for "
                    "nothing; block on the traced function's result, outside it",
                )
            elif called == "effects_barrier":
                self._add(
                    Rule.BARRIER_IN_TRACE,
                    node,
                    f"jax.effects_barrier() inside {function.name!r}, which is traced: call it "
                    "after the traced function has been called, outside it",
                )

    # JW105
    def _nothing_to_block(self, call: ast.Call) -> None:
        if not (
            isinstance(call.func, ast.Attribute)
            and call.func.attr == "block_until_ready"
            and _root(call.func) == "jax"
            and call.args
        ):
            return
        argument = call.args[0]
        why = self._not_an_array(argument)
        if why:
            self._add(
                Rule.NOTHING_TO_BLOCK,
                call,
                f"jax.block_until_ready is given {why}, which holds no JAX array: it waits for "
                "nothing and says nothing",
            )

    def _not_an_array(self, node: ast.AST) -> str:
        if isinstance(node, ast.Constant):
            return "a constant"
        if isinstance(node, ast.Name) and node.id in self.functions - self.jitted:
            return f"the function {node.id!r} itself (not its result)"
        if isinstance(node, ast.Call):
            if _root(node.func) in NUMPY_MODULES:
                return "a NumPy result"
            if isinstance(node.func, ast.Attribute) and node.func.attr in {"item", "tolist"}:
                return f"the result of .{node.func.attr}(), a Python value"
            if isinstance(node.func, ast.Name) and node.func.id in {"float", "int", "bool"}:
                return f"a Python {node.func.id}"
        if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
            parts = [self._not_an_array(element) for element in node.elts]
            if all(parts):
                return "a container of values none of which is a JAX array"
        return ""

    # JW101, JW102, JW103, JW107
    def _timed_regions(self, body: list[ast.stmt]) -> None:
        for i, statement in enumerate(body):
            if not (isinstance(statement, ast.Assign) and _is_timer(statement.value)):
                continue
            end = next((j for j in range(i + 1, len(body)) if _has_timer(body[j])), None)
            if end is None:
                continue
            self._region(body[:i], body[i + 1 : end], body[end])

    def _jax_call(self, node: ast.AST) -> bool:
        """A call that returns JAX arrays: a jitted function of this module, or jax/jnp/lax."""
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in self.jitted
        if isinstance(func, ast.Attribute) and func.attr not in WAITING_METHODS:
            return _root(func) in JAX_MODULES and func.attr not in TRACING | {"device_get"}
        return False

    def _region(self, before: list[ast.stmt], region: list[ast.stmt], end: ast.stmt) -> None:
        # Each timed result is known by the line of the work that made it: the outputs of one
        # call are ready together, so waiting on one of them waits for all.
        sources: dict[str, set[Place]] = {}  # name -> the timed work it was computed from
        made: dict[Place, str] = {}  # timed work -> a name it was bound to
        calls: list[ast.Call] = []
        waits: list[ast.Call] = []
        fed: set[Place] = set()  # timed work whose results later timed work takes as input
        waited: set[Place] = set()
        waits_on_timed = False
        for statement in region:
            calls_here, waits_here = [], []
            for node in ast.walk(statement):
                if isinstance(node, ast.Call):
                    if self._jax_call(node):
                        calls_here.append(node)
                        inputs = {n for arg in node.args for n in _names_in(arg)}
                        fed |= set().union(*(sources.get(n, set()) for n in inputs))
                    if self._is_wait(node):
                        waits_here.append(node)
            calls += calls_here
            waits += waits_here
            if calls_here and waits_here:  # tree_map(lambda a: a.block_until_ready(), f(x))
                waits_on_timed = True
            for target, value in self._assignments(statement):
                names = _targets(target)
                if any(self._jax_call(node) for node in ast.walk(value)):
                    work = (value.lineno, value.col_offset)
                    made.setdefault(work, names[0] if names else "")
                    sources.update({name: {work} for name in names})
                    if isinstance(value, ast.Call) and self._is_wait(value):
                        waited.add(work)  # y = f(x).block_until_ready()
                else:
                    came_from = set().union(*(sources.get(n, set()) for n in _names_in(value)))
                    if came_from:
                        sources.update({name: came_from for name in names})
        if not calls:
            return
        waits_on_timed = waits_on_timed or bool(waited)
        for wait in waits:
            covered = set().union(*(sources.get(n, set()) for n in _names_in(wait)))
            if covered or any(self._jax_call(n) for n in ast.walk(wait)):
                waits_on_timed = True
                waited |= covered
        unwaited = sorted(name for work, name in made.items() if work not in waited | fed)
        if not waits_on_timed:
            self._add(
                Rule.TIMER_BEFORE_WAIT,
                end,
                "the timer stops, but nothing timed here was waited on: block on the result "
                "(`jax.block_until_ready(...)`) before reading the timer",
            )
        elif unwaited and waited:
            self._add(
                Rule.ONE_OUTPUT_BLOCKED,
                end,
                f"the timer stops with {', '.join(unwaited)} not waited on: block on every "
                "result of the timed work",
            )
        self._compile_timed(region, calls)
        self._host_inputs(before, calls)

    def _assignments(self, statement: ast.stmt) -> Iterator[tuple[ast.AST, ast.AST]]:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    yield from _paired(target, node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                yield node.target, node.value

    def _is_wait(self, node: ast.Call) -> bool:
        called = _name(node.func)
        if isinstance(node.func, ast.Attribute) and called in WAITING_METHODS:
            return True
        return called in WAITING_FUNCTIONS and bool(node.args)

    def _compile_timed(self, region: list[ast.stmt], calls: list[ast.Call]) -> None:
        if self.takes_min:
            return  # the fastest of several runs leaves the compiling one out
        start = region[0].lineno if region else 0
        for call in calls:
            name = call.func.id if isinstance(call.func, ast.Name) else ""
            if name in self.jitted and not any(line < start for line in self.called[name]):
                self._add(
                    Rule.COMPILE_TIMED,
                    call,
                    f"{name!r} is first called inside the timed region: its compilation is "
                    "timed; call it once (blocked) before the timer starts",
                )

    def _host_inputs(self, before: list[ast.stmt], calls: list[ast.Call]) -> None:
        host = set()
        for statement in before:
            for target, value in self._assignments(statement):
                if isinstance(value, ast.Call) and _root(value.func) in NUMPY_MODULES:
                    host.update(_targets(target))
        for call in calls:
            if not (isinstance(call.func, ast.Name) and call.func.id in self.jitted):
                continue
            for argument in call.args:
                if isinstance(argument, ast.Name) and argument.id in host:
                    self._add(
                        Rule.HOST_INPUT_TIMED,
                        argument,
                        f"{argument.id!r} is a NumPy array: each timed call copies it to the "
                        "device; put it there once before the timer (`jax.device_put`)",
                    )

    def _add(self, rule: Rule, node: ast.AST, message: str) -> None:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0) + 1
        self.findings.append(Finding(rule, line, col, message))


# Every rule needs one of these words in the source: a module without any has no finding.
WORDS = (
    "block_until_ready", "effects_barrier", "timeit", "time()", "time.time", "perf_counter",
    "monotonic", "process_time", "time_ns", "default_timer",
)  # fmt: skip


def worth_checking(source: str) -> bool:
    return any(word in source for word in WORDS)


def check(tree: ast.Module) -> list[Finding]:
    """Every finding in one module."""
    return ModuleChecks(tree).run()
