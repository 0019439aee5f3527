"""The checks: one pass over a module's syntax tree, never importing or running it.

Precision comes first: a check speaks only about work it can tie to JAX in the same source (a
function jitted there, a ``jax``/``jnp``/``lax`` call, a function of the module that computes with
them, or one handed such a function) and stays silent where code it cannot see might wait.
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
    "make_jaxpr", "filter_jit", "filter_vmap", "filter_grad", "filter_value_and_grad",
    "named_jit", "Jit", "Vectorize", "Grad", "GradValues", "Parallel", "parallelize",
}  # fmt: skip
JITTING = {"jit", "pjit", "filter_jit", "pmap", "named_jit", "Jit", "Parallel", "parallelize"}
LOOPS = {"fori_loop", "while_loop", "scan"}  # called outside jit, they compile their function
TIMERS = {
    "time", "perf_counter", "monotonic", "process_time", "perf_counter_ns", "time_ns",
    "monotonic_ns", "default_timer",
}  # fmt: skip
JAX_MODULES = {"jax", "jnp", "lax", "random", "jr", "jrandom"}
NUMPY_MODULES = {"np", "numpy", "onp"}
# Parts of the jax namespace that do no work on the device (a call to them is not timed work).
NOT_WORK = {
    "tree_util", "tree", "config", "debug", "profiler", "distributed", "monitoring", "sharding",
    "multihost_utils", "dtypes", "errors", "devices", "local_devices", "device_count",
    "local_device_count", "process_index", "process_count", "default_backend", "device_get",
    "effects_barrier", "clear_caches", "ShapeDtypeStruct", "NamedSharding", "PartitionSpec",
}  # fmt: skip
# Calls that wait for a JAX array's values (they read them, or wait for them).
WAITING_METHODS = {"block_until_ready", "item", "tolist", "__array__"}
WAITING_FUNCTIONS = {
    "float", "int", "bool", "print", "device_get", "asarray", "array", "str", "repr",
    "block_until_ready",
}  # fmt: skip
# Calls that might wait for everything dispatched before them.
DEVICE_WAITS = {"effects_barrier", "sync_global_devices", "synchronize", "wait_until_finished"}
# ... and any call named like `sync()`, `sync_func()`, `synchronize_all_activity()`
# Calls that take arrays and never wait on them.
PASSING = {
    "append", "extend", "insert", "add", "len", "isinstance", "range", "enumerate", "zip",
    "next", "list", "tuple", "dict", "set", "id", "type", "getattr", "hasattr", "super",
    "update", "setdefault", "pop",
}  # fmt: skip
ROBUST = {"min", "median", "percentile", "quantile", "nanmin", "nanmedian"}
# Words that say a timed region measures, on purpose, what a rule would report: the compilation
# or the dispatch (JW101, JW103), a warm-up or the compilation (JW102).
DISPATCH = ("compil", "dispatch", "overhead")
WARM_UP = ("compil", "warm")
CALLBACKS = {"callback", "io_callback"}  # host callbacks that may change the host's state
APPENDING = {"append", "extend", "insert", "add"}  # results.append(out): results holds it
CHANGING = APPENDING | {"update", "setdefault", "pop", "clear"}
RUNTIME_ERRORS = {"RuntimeError", "XlaRuntimeError", "JaxRuntimeError"}
ASYNC_VARIABLE = "JAX_CPU_ENABLE_ASYNC_DISPATCH"  # read by no release: the option is a flag
SYNCHRONOUS = {  # jax.config options that make dispatch wait, and the value that does it
    "jax_cpu_enable_async_dispatch": False,
    "jax_debug_nans": True,
    "jax_debug_infs": True,
}
CELL_TIMER = "jaxwaits_timed_cell"  # what sources makes of a `%%timeit` cell: a `with` block

Place = tuple[int, int]  # the line and column of a JAX call: one piece of timed work


@dataclass(frozen=True)
class Finding:
    rule: Rule
    line: int
    col: int
    message: str
    end_line: int = 0  # the last line of the statement or call found (0: ``line``)


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _name(node: ast.AST) -> str:
    """The last name of a callee: ``jax.jit`` and ``jit`` are both ``jit``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _chain(node: ast.AST) -> list[str]:
    """The names of a dotted callee: ``jax.tree_util.tree_map`` is jax, tree_util, tree_map."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def _restarts(start: ast.stmt, end: ast.stmt) -> bool:
    """``end`` only sets the timer ``start`` set, again."""
    value = getattr(end, "value", None)
    if not (isinstance(end, (ast.Assign, ast.AnnAssign)) and _is_timer(value)):
        return False
    started = _names_in(ast.Tuple(getattr(start, "targets", [getattr(start, "target", None)])))
    ended = _names_in(ast.Tuple(getattr(end, "targets", [getattr(end, "target", None)])))
    return started == ended


def _syncs(called: str) -> bool:
    """A call that may wait for all the device's work: ``effects_barrier()``, ``sync()``."""
    lowered = called.lower()
    return called in DEVICE_WAITS or ("sync" in lowered and "async" not in lowered)


def _key(node: ast.AST) -> str:
    """How a callee is known: ``step`` or ``self.step``."""
    return node.id if isinstance(node, ast.Name) else _dotted(node)


def _wrapper(node: ast.AST) -> str:
    """The tracing wrapper a decorator or call names: ``jax.jit``, ``partial(jax.jit, ...)``."""
    if isinstance(node, ast.Call):
        if _name(node.func) == "partial" and node.args:
            return _name(node.args[0])
        return _name(node.func)
    return _name(node)


def _is_timer(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or node.args:
        return False
    called = _name(node.func)
    return called in TIMERS or (called == "now" and "datetime" in _chain(node.func))


def _first_timer(node: ast.AST) -> ast.Call | None:
    return next((n for n in ast.walk(node) if isinstance(n, ast.Call) and _is_timer(n)), None)


def _dotted(node: ast.AST) -> str:
    """``self.state`` for an attribute of a name, else ''."""
    chain = _chain(node)
    return ".".join(chain) if isinstance(node, ast.Attribute) and len(chain) > 1 else ""


def _names_in(node: ast.AST) -> set[str]:
    """The names an expression reads, with the attributes of names (``self.state``)."""
    names = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.Attribute) and (dotted := _dotted(n)):
            names.add(dotted)
    return names


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List, ast.Starred)):
        elements = node.elts if not isinstance(node, ast.Starred) else [node.value]
        return [name for element in elements for name in _targets(element)]
    if isinstance(node, ast.Attribute) and (dotted := _dotted(node)):
        return [dotted]  # self.state = f(x)
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return _targets(node.value)  # results[i] = f(x): `results` holds the result
    return []


def _paired(target: ast.AST, value: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    """``a, b = f(x), 1`` binds ``a`` to ``f(x)`` and ``b`` to ``1``."""
    pairs = isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
    if pairs and len(target.elts) == len(value.elts):  # type: ignore[attr-defined]
        for one, other in zip(target.elts, value.elts, strict=True):  # type: ignore[attr-defined]
            yield from _paired(one, other)
    else:
        yield target, value


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists a module or compound statement runs, in order (handlers left
    out)."""
    return [
        block
        for field in ("body", "orelse", "finalbody")
        if isinstance(block := getattr(node, field, None), list) and block
    ]


def _params(definition: Function) -> list[str]:
    """A function's positional parameters, in order."""
    return [a.arg for a in definition.args.posonlyargs + definition.args.args]


def _spans(node: ast.AST, line: int) -> bool:
    """``line`` is one of the lines of a definition (or any node)."""
    first = getattr(node, "lineno", 0)
    return first <= line <= (getattr(node, "end_lineno", None) or first)


@dataclass
class Scope:
    """A function whose parameters are handed JAX functions by the module's own calls."""

    first: int
    last: int
    params: set[str]


class ModuleChecks:
    """Everything known about one module, and the findings."""

    def __init__(self, tree: ast.Module, source: str = "") -> None:
        self.nodes = list(ast.walk(tree))  # walked once: walking is most of the cost
        self.lines = source.splitlines()
        self.findings: list[Finding] = []
        self.jax_modules = set(JAX_MODULES)
        self.numpy_modules = set(NUMPY_MODULES)
        self.jax_names: dict[str, str] = {}  # names imported from jax: bound -> jax's name
        self.from_timeit = {"timeit"}  # names imported from timeit (`%timeit` becomes timeit)
        self.traced: set[str] = set()  # functions whose body is traced
        self.jitted: set[str] = set()  # names bound to jitted functions
        self.compiled: set[str] = set()  # names bound to compiled functions: they never compile
        self.pure: set[str] = set()  # jitted by jax itself: they change none of their arguments
        # jitted by equinox: since 0.11.8 `filter_jit` blocks on its result before returning
        self.blocking: set[str] = set()
        self.functions: dict[str, list[Function]] = {}
        self.jax_functions: set[str] = set()  # module functions that dispatch and never wait
        self.waiting_functions: set[str] = set()  # module functions that wait
        self.jax_values: set[str] = set()  # names bound to JAX arrays
        self.scopes: list[Scope] = []
        self.called: dict[str, list[int]] = {}  # function name -> lines where it is called
        self.robust = False  # the module keeps the fastest (or the median) of repeated timings
        self._known = False  # _know_functions has run
        self.times = False  # the module reads a timer
        self.barrier = False  # the module calls jax.effects_barrier()
        self.callbacks: list[ast.AST] = []  # functions handed to host callbacks
        self.donating: dict[str, tuple[set[int], set[str]]] = {}  # jitted name -> donated args
        self._collect()
        for lines in self.called.values():
            lines.sort()  # the first call of each is then lines[0]

    # What the module defines ----------------------------------------------------------------

    def _collect(self) -> None:
        for node in self.nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._imported(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.setdefault(node.name, []).append(node)
                for decorator in node.decorator_list:
                    wrapper = _wrapper(decorator)
                    if wrapper in TRACING:
                        self.traced.add(node.name)
                    if wrapper in JITTING:
                        self.jitted.add(node.name)
                        if wrapper == "filter_jit":
                            self.blocking.add(node.name)
                        self._donates(ast.Name(node.name), decorator, node)
            elif isinstance(node, ast.Call):
                if _name(node.func) in TRACING:
                    for argument in node.args[:3]:
                        if isinstance(argument, ast.Name):
                            self.traced.add(argument.id)
                used = [node.func]
                if isinstance(node.func, ast.Attribute):  # f.lower(x) compiles f
                    used.append(node.func.value)
                if _name(node.func) in LOOPS:  # lax.fori_loop(0, n, step, x) compiles step
                    used += node.args
                for name in filter(None, map(_key, used)):
                    self.called.setdefault(name, []).append(node.lineno)
                called = _name(node.func)
                if called in ROBUST:
                    self.robust = True
                self.times = self.times or _is_timer(node) or self._is_timeit(node)
                self.barrier = self.barrier or called == "effects_barrier"
                if called in CALLBACKS and node.args:
                    self.callbacks.append(node.args[0])
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
                lower = node.slice.lower
                if (isinstance(lower, ast.Constant) and lower.value == 1) or (
                    isinstance(lower, ast.Name) and "warm" in lower.id.lower()
                ):
                    self.robust = True  # times[1:], times[warmup:]: the first runs are dropped
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                wrapper = _wrapper(node.value.func)
                for target in node.targets:
                    if wrapper in JITTING:  # jit(f), partial(jax.jit, ...)(f)
                        self.jitted.update(_targets(target))
                        if wrapper == "filter_jit":
                            self.blocking.update(_targets(target))
                        self._donates(target, node.value, None)
                        if not {"nnx", "eqx", "objax"} & set(_chain(node.value.func)):
                            self.pure.update(_targets(target))
                    elif wrapper == "compile" and isinstance(target, ast.Name):
                        self.compiled.add(target.id)  # g = f.lower(x).compile()
                        self.pure.add(target.id)
                    elif wrapper in TRACING and isinstance(target, ast.Name):
                        self.jax_functions.add(target.id)  # g = jax.grad(f): g(x) computes
        for node in self.nodes:  # bench = partial(step, x): a jitted call, once bound
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                bound = call.args[0] if _name(call.func) == "partial" and call.args else None
                if bound is not None and _key(bound) in self.jitted:
                    for target in node.targets:
                        self.jitted.update(_targets(target))

    def _donates(self, target: ast.AST, wrapper: ast.AST, definition: Function | None) -> None:
        """The arguments ``jax.jit(f, donate_argnums=...)`` donates; nnx and equinox keep the
        objects they are handed up to date, so theirs are left out."""
        if not isinstance(target, ast.Name) or not isinstance(wrapper, ast.Call):
            return
        if _wrapper(wrapper) not in {"jit", "pjit", "pmap"} or any(
            {"nnx", "eqx"} & set(_chain(n)) for n in [wrapper.func, *wrapper.args[:1]]
        ):
            return  # only jax's own jit donates: nnx and equinox keep their objects up to date
        if target.id in self.donating:
            self.donating[target.id] = (set(), set())  # bound twice: which one is called?
            return
        positions: set[int] = set()
        names: set[str] = set()
        for keyword in wrapper.keywords:
            values = keyword.value.elts if isinstance(keyword.value, ast.Tuple) else [keyword.value]
            constants = [v.value for v in values if isinstance(v, ast.Constant)]
            if keyword.arg == "donate_argnums":
                positions |= {c for c in constants if isinstance(c, int)}
            elif keyword.arg == "donate_argnames":
                names |= {c for c in constants if isinstance(c, str)}
        if definition is not None:
            positions |= {i for i, param in enumerate(_params(definition)) if param in names}
        if positions or names:
            self.donating[target.id] = (positions, names)

    def _imported(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if alias.name.split(".")[0] == "jax":
                    self.jax_modules.add(bound)
                    self.numpy_modules.discard(bound)  # import jax.numpy as np
                elif alias.name == "numpy":
                    self.numpy_modules.add(bound)
        elif node.module == "timeit":
            self.from_timeit |= {alias.asname or alias.name for alias in node.names}
        elif node.module and node.module.split(".")[0] == "jax":
            for alias in node.names:
                bound = alias.asname or alias.name
                self.jax_names[bound] = alias.name
                self.numpy_modules.discard(bound)

    def _know_functions(self) -> None:
        """What the module's functions do, worked out the first time a check asks (most modules
        have no timing, and never ask)."""
        if self._known:
            return
        self._known = True
        self._classify_functions()
        for node in self.nodes:
            if isinstance(node, ast.Assign) and self._jax_call(node.value):
                for target in node.targets:
                    self.jax_values.update(_targets(target))
        self._scopes()

    def _classify_functions(self) -> None:
        """Which module functions dispatch JAX work and never wait, and which wait; twice, so
        that a function calling another of the module is known."""
        for _ in range(2):
            for name, defs in self.functions.items():
                if name in self.traced:
                    continue
                calls = [n for d in defs for n in ast.walk(d) if isinstance(n, ast.Call)]
                if any(self._is_wait(call) for call in calls):
                    self.waiting_functions.add(name)
                elif any(self._jax_call(call) for call in calls):
                    self.jax_functions.add(name)

    def _scopes(self) -> None:
        """Parameters of module functions that the module hands JAX functions, by call or as
        a decorator: ``bench(step, x)``, ``@timed``."""
        handed: dict[str, set[int]] = {}
        for node in self.nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                for i, argument in enumerate(node.args):
                    if self._jax_function(argument):
                        handed.setdefault(node.func.id, set()).add(i)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name in self.jax_functions | self.jitted:
                    for decorator in node.decorator_list:
                        if isinstance(decorator, ast.Name):
                            handed.setdefault(decorator.id, set()).add(0)
        for name, positions in handed.items():
            for definition in self.functions.get(name, []):
                params = _params(definition)
                chosen = {params[i] for i in positions if i < len(params)}
                if chosen:
                    last = definition.end_lineno or definition.lineno
                    self.scopes.append(Scope(definition.lineno, last, chosen))

    def _jax_function(self, node: ast.AST) -> bool:
        """A function that computes with JAX: jitted, of the module, or from jax itself."""
        if isinstance(node, ast.Name):
            return node.id in self.jitted | self.jax_functions
        if isinstance(node, ast.Attribute):
            chain = _chain(node)
            return bool(chain) and chain[0] in self.jax_modules and not set(chain) & NOT_WORK
        if isinstance(node, ast.Call):
            return _wrapper(node.func) in TRACING
        return False

    # What a call does -----------------------------------------------------------------------

    def _from_jax(self, func: ast.AST) -> bool:
        """A callee in jax's own namespace: ``jnp.sum``, ``lax.scan``, ``device_put``."""
        chain = _chain(func)
        return bool(chain) and (chain[0] in self.jax_modules or chain[0] in self.jax_names)

    def _jax_call(self, node: ast.AST) -> bool:
        """A call that dispatches JAX work and returns its arrays."""
        if not isinstance(node, ast.Call):
            return False
        self._know_functions()
        func = node.func
        if isinstance(func, ast.Name):
            name = func.id
            if name in self.jitted | self.compiled | self.jax_functions:
                return True
            if name in self.jax_names:
                original = self.jax_names[name]
                skipped = TRACING | NOT_WORK | WAITING_FUNCTIONS
                return original not in skipped and not original[:1].isupper()  # P(), Mesh()
            if name in self.functions and name not in self.waiting_functions:
                return any(_names_in(arg) & self.jax_values for arg in node.args)
            return any(s.first <= node.lineno <= s.last and name in s.params for s in self.scopes)
        if isinstance(func, ast.Call):  # jax.jit(f)(x), grad(f)(x)
            return _wrapper(func.func) in TRACING
        if _dotted(func) in self.jitted | self.compiled:  # self.step = jax.jit(f)
            return True
        if _chain(func)[:1] == ["self"] and len(_chain(func)) == 2:  # self.evaluate()
            return func.attr in self.jax_functions  # type: ignore[union-attr]
        if isinstance(func, ast.Attribute) and func.attr not in WAITING_METHODS:
            if self._from_jax(func):
                work = not set(_chain(func)) & (NOT_WORK | TRACING)
                return work and not func.attr[:1].isupper()
        return False

    def _is_wait(self, node: ast.Call) -> bool:
        """A call that surely waits for the arrays it is given (or, for a function equinox
        jitted, for those it returns)."""
        if _key(node.func) in self.blocking:
            return True
        self._know_functions()
        called = _name(node.func)
        if isinstance(node.func, ast.Attribute) and called in WAITING_METHODS:
            return True
        if not node.args:
            return False
        if called in WAITING_FUNCTIONS or called in self.waiting_functions:
            return True
        chain = _chain(node.func)
        return bool(chain) and chain[0] in self.numpy_modules  # np.mean(x) fetches x

    def _might_wait(self, node: ast.Call, reaches: bool = False) -> bool:
        """A call of code this review cannot see, which might wait for what it is given (or,
        for a method, ``reaches`` through its object)."""
        called = _name(node.func)
        if _syncs(called):
            return True
        if self._jax_call(node) or self._is_wait(node) or called in PASSING | TRACING:
            return False
        if self._from_jax(node.func):
            return False  # jax's own code: its waits are known
        return bool(node.args or node.keywords) or reaches

    # The checks -------------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        for node in self.nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name in self.traced:
                    self._inside_trace(node)
            elif isinstance(node, ast.Call):
                self._nothing_to_block(node)
                self._timeit(node)
                self._made_synchronous(node)
            elif isinstance(node, ast.With):
                self._timed_cell(node)
            elif isinstance(node, ast.Try):
                self._error_at_the_call(node)
            elif isinstance(node, (ast.For, ast.ListComp, ast.SetComp, ast.GeneratorExp)):
                self._one_by_one(node)
            elif isinstance(node, ast.Constant) and node.value == ASYNC_VARIABLE:
                self._add(
                    Rule.DISPATCH_MADE_SYNCHRONOUS,
                    node,
                    f"{ASYNC_VARIABLE} is read by no JAX release: it turns nothing off; "
                    "`jax.config.update('jax_cpu_enable_async_dispatch', False)` does",
                )
        if self.times or self.donating:
            for body in self._bodies():
                if self.times:
                    self._timed_regions(body)
                if self.donating:
                    self._donations(body)
        if self.callbacks and not self.barrier:
            self._effects_after_block()
        return sorted(set(self.findings), key=lambda f: (f.line, f.col, f.rule.value))

    def _is_timeit(self, call: ast.Call) -> bool:
        """``timeit.timeit``, ``timeit.repeat``, or either imported from ``timeit``."""
        chain = _chain(call.func)
        if _name(call.func) not in {"timeit", "repeat"}:
            return False
        return chain[:1] == ["timeit"] or (len(chain) == 1 and chain[0] in self.from_timeit)

    def _bodies(self) -> Iterator[list[ast.stmt]]:
        for child in self.nodes:
            yield from _blocks(child)

    # JW101, JW102 through timeit: `timeit.timeit(lambda: f(x))` times the dispatch
    def _timeit(self, call: ast.Call) -> None:
        if not (self._is_timeit(call) and call.args):
            return
        timed = call.args[0]
        if isinstance(timed, ast.Lambda):
            body: list[ast.stmt] = [ast.Expr(timed.body, lineno=call.lineno, col_offset=0)]
        elif isinstance(timed, ast.Name) and len(self.functions.get(timed.id, [])) == 1:
            body = self.functions[timed.id][0].body
        elif _key(timed) in self.jitted | self.compiled | self.jax_functions:
            called = ast.Call(timed, [], [], lineno=call.lineno, col_offset=call.col_offset)
            body = [ast.Expr(called, lineno=call.lineno, col_offset=call.col_offset)]
        else:
            return
        counted = any(k.arg == "number" for k in call.keywords)
        self._region(set(self.numpy_modules), body, call, call.lineno, fixed_count=counted)

    # the same, through a `%%timeit` cell (`with jaxwaits_timed_cell(number=10):`)
    def _timed_cell(self, node: ast.With) -> None:
        for item in node.items:
            cell = item.context_expr
            if isinstance(cell, ast.Call) and _name(cell.func) == CELL_TIMER:
                counted = any(k.arg == "number" for k in cell.keywords)
                host = set(self.numpy_modules)
                self._region(host, node.body, node, node.lineno, fixed_count=counted)

    # JW104, JW106
    def _inside_trace(self, function: Function) -> None:
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
            and _chain(call.func)[0] in self.jax_modules
            and call.args
        ):
            return
        why = self._not_an_array(call.args[0])
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
        plain = set(self.functions) - self.jitted
        if isinstance(node, ast.Name) and node.id in plain:
            return f"the function {node.id!r} itself (not its result)"
        if isinstance(node, ast.Call):
            chain = _chain(node.func)
            if chain and chain[0] in self.numpy_modules:
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

    # JW108
    def _effects_after_block(self) -> None:
        changed: set[str] = set()
        inside: list[ast.AST] = []  # the callbacks themselves
        for callback in self.callbacks:
            if isinstance(callback, ast.Lambda):
                definitions: list[ast.AST] = [callback]
            elif isinstance(callback, ast.Name):
                definitions = list(self.functions.get(callback.id, []))
            else:
                continue
            for definition in definitions:
                inside.append(definition)
                changed |= _changed_outside(definition)
        if not changed:
            return
        waits = [n for n in self.nodes if isinstance(n, ast.Call) and self._is_wait(n)]
        reported: set[tuple[int, str]] = set()
        for node in self.nodes:
            if not isinstance(getattr(node, "ctx", None), ast.Load):
                continue
            name = node.id if isinstance(node, ast.Name) else _dotted(node)
            line = getattr(node, "lineno", 0)
            if name not in changed or any(_spans(callback, line) for callback in inside):
                continue
            scope = self._scope_of(line)
            waited = any(w.lineno < line and self._scope_of(w.lineno) == scope for w in waits)
            if waited and (scope, name) not in reported:
                reported.add((scope, name))
                self._add(
                    Rule.EFFECTS_AFTER_BLOCK,
                    node,
                    f"{name!r} is changed by a host callback and read here after a block on "
                    "arrays only: call jax.effects_barrier() before reading it",
                )

    def _scope_of(self, line: int) -> int:
        """The first line of the innermost function around ``line`` (0: the module)."""
        return max((d.lineno for d in self._around(line)), default=0)

    def _around(self, line: int) -> Iterator[Function]:
        """The module's functions that ``line`` is in."""
        for defs in self.functions.values():
            yield from (definition for definition in defs if _spans(definition, line))

    # JW109
    def _made_synchronous(self, call: ast.Call) -> None:
        if not (self.times and _name(call.func) == "update" and len(call.args) == 2):
            return
        option, value = call.args
        if not (isinstance(option, ast.Constant) and isinstance(value, ast.Constant)):
            return
        if option.value in SYNCHRONOUS and value.value == SYNCHRONOUS[option.value]:
            self._add(
                Rule.DISPATCH_MADE_SYNCHRONOUS,
                call,
                f"{option.value}={value.value} makes each call wait for its work, so the "
                "timings here pass without a block; check the harness with it off",
            )

    # JW110
    def _error_at_the_call(self, node: ast.Try) -> None:
        caught = set()
        for handler in node.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            caught |= {_name(t) for t in types if t is not None}
        if not caught & RUNTIME_ERRORS:
            return
        calls = [n for s in node.body for n in ast.walk(s) if isinstance(n, ast.Call)]
        if any(self._is_wait(c) or self._might_wait(c) for c in calls):
            return
        steps = [c for c in calls if self._jax_call(c) and isinstance(c.func, ast.Name)]
        if steps:
            self._add(
                Rule.ERROR_AT_THE_CALL,
                steps[0],
                f"{_name(steps[0].func)!r} is not waited on inside this try: an error while "
                "it runs is raised at the wait, not here; wait inside the try "
                "(`jax.block_until_ready(...)`)",
            )

    # JW112
    def _one_by_one(self, node: ast.For | ast.ListComp | ast.SetComp | ast.GeneratorExp) -> None:
        if isinstance(node, ast.For):
            if len(node.body) != 1 or not isinstance(node.body[0], ast.Expr):
                return
            target, each = node.target, node.body[0].value
        elif len(node.generators) == 1:
            target, each = node.generators[0].target, node.elt
        else:
            return
        if (
            isinstance(each, ast.Call)
            and isinstance(each.func, ast.Attribute)
            and each.func.attr == "block_until_ready"
            and isinstance(target, ast.Name)
            and isinstance(each.func.value, ast.Name)
            and each.func.value.id == target.id
        ):
            self._add(
                Rule.BLOCK_ONE_BY_ONE,
                node,
                "this loop blocks array by array: `jax.block_until_ready(arrays)` waits for "
                "the same in one batched call",
            )

    # JW113
    def _donations(self, body: list[ast.stmt]) -> None:
        for i, statement in enumerate(body):
            value = getattr(statement, "value", None)
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                continue
            if value.func.id not in self.donating:
                continue
            positions, names = self.donating[value.func.id]
            donated = [a for j, a in enumerate(value.args) if j in positions]
            donated += [k.value for k in value.keywords if k.arg in names]
            stored = {n for t in getattr(statement, "targets", []) for n in _targets(t)}
            for argument in donated:
                if isinstance(argument, ast.Name) and argument.id not in stored:
                    self._used_after(argument.id, body[i + 1 :], value.func.id)

    def _used_after(self, name: str, statements: list[ast.stmt], jitted: str) -> None:
        for statement in statements:
            for node in ast.walk(statement):
                if isinstance(node, ast.Name) and node.id == name:
                    if isinstance(node.ctx, ast.Load):
                        self._add(
                            Rule.DONATED_THEN_USED,
                            node,
                            f"{name!r} was donated to {jitted!r}, which deleted it: use the "
                            "call's result, or do not donate it",
                        )
                    return

    # JW101, JW102, JW103, JW107 on `t0 = time.perf_counter()` ... `time.perf_counter() - t0`
    def _timed_regions(self, body: list[ast.stmt]) -> None:
        host = set(self.numpy_modules)  # what the statements so far made on the host
        for i, statement in enumerate(body):
            if i:
                self._host_made(body[i - 1], host)  # kept up as it goes: linear in the block
            value = getattr(statement, "value", None)
            if not (isinstance(statement, (ast.Assign, ast.AnnAssign)) and _is_timer(value)):
                continue
            found = self._until_timer(body, i + 1)
            if found and _restarts(statement, found[1]):
                continue  # t0 = time(); ...; t0 = time(): started again, not read
            if found:
                region, end, timer = found
                self._region(host, region, end, statement.lineno, timer=timer)

    def _until_timer(
        self, statements: list[ast.stmt], start: int = 0
    ) -> tuple[list[ast.stmt], ast.stmt, ast.Call] | None:
        """The statements from ``start`` run before the timer is next read, the statement that
        reads it (the innermost), and the timer call."""
        region: list[ast.stmt] = []
        for statement in (statements[k] for k in range(start, len(statements))):
            timer = _first_timer(statement)
            if timer is None:
                region.append(statement)
                continue
            for block in _blocks(statement):
                if any(_first_timer(s) is timer for s in block):
                    inner = self._until_timer(block)
                    if inner:
                        return region + inner[0], inner[1], inner[2]
            if isinstance(statement, ast.While):  # while time.time() - t0 < budget: step()
                region += statement.body
            return region, statement, timer
        return None

    def _region(
        self,
        host: set[str],
        region: list[ast.stmt],
        end: ast.AST,
        start: int,
        timer: ast.Call | None = None,
        fixed_count: bool = True,
    ) -> None:
        timed = Timed(self)
        for piece in [*_in_order(region), *self._before_timer(end, timer)]:
            timed.read(piece)
        if fixed_count:
            self._compile_timed(start, end, timed.every)
        if timed.calls:
            self._host_inputs(host, timed.calls)
        if not timed.calls or timed.maybe or timed.unseen or self._meant(start, end, DISPATCH):
            return
        unwaited = sorted({timed.made[p] for p in timed.made.keys() - timed.waited - timed.fed})
        if not timed.waited:
            self._add(
                Rule.TIMER_BEFORE_WAIT,
                end,
                "the timer stops, but nothing timed here was waited on: block on the result "
                "(`jax.block_until_ready(...)`) before reading the timer",
            )
        elif unwaited:
            self._add(
                Rule.ONE_OUTPUT_BLOCKED,
                end,
                f"the timer stops with {', '.join(unwaited)} not waited on: block on every "
                "result of the timed work",
            )

    def _before_timer(self, end: ast.AST, timer: ast.Call | None) -> list[ast.stmt]:
        """What the statement that reads the timer evaluates before it: ``print(f"{loss}
        {time.time() - t0}")`` formats ``loss`` first."""
        if timer is None or not isinstance(end, ast.stmt):
            return []
        early = [
            n
            for n in ast.walk(end)
            if isinstance(n, (ast.FormattedValue, ast.Call))
            and (n.lineno, n.col_offset) < (timer.lineno, timer.col_offset)
            and not any(m is timer for m in ast.walk(n))  # not what the timer's reading is in
        ]
        return [ast.Expr(n, lineno=n.lineno, col_offset=n.col_offset) for n in early]

    def _assignments(self, statement: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    yield from _paired(target, node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                yield node.target, node.value

    def _compile_timed(self, start: int, end: ast.AST, calls: list[ast.Call]) -> None:
        """The calls in a timed region that compile: the first of a jitted function, of a lax
        loop over one, or of a function of the module that is the only caller of one."""
        if self.robust or self._warms_up(start) or self._meant(start, end, WARM_UP):
            return  # the fastest of several runs, or a warm-up, leaves the compiling one out
        for call in calls:
            compiled = self._compiles(call, start)
            if compiled:
                self._add(
                    Rule.COMPILE_TIMED,
                    call,
                    f"{compiled} is first called inside the timed region: its compilation is "
                    "timed; call it once (blocked) before the timer starts",
                )

    def _compiles(self, call: ast.Call, start: int) -> str:
        def first(name: str) -> bool:
            return name in self.called and self.called[name][0] >= start

        name = _key(call.func)
        if name in self.jitted and first(name):
            return repr(name)
        if _name(call.func) in LOOPS:
            looped = [_key(a) for a in call.args if _key(a) in self.jitted]
            return next((repr(n) for n in looped if first(n)), "")
        function = name.removeprefix("self.")
        if not first(name) or "." in function:
            return ""
        for definition in self.functions.get(function, []):
            inner = {_key(n.func) for n in ast.walk(definition) if isinstance(n, ast.Call)}
            for jitted in sorted(inner & self.jitted):
                if all(_spans(definition, line) for line in self.called[jitted]):
                    return f"{jitted!r} (through {name!r})"
        return ""

    def _meant(self, start: int, end: ast.AST, words: tuple[str, ...]) -> bool:
        """The line that starts the timer, or the statement that reads it and the line after,
        say what the region times on purpose (`compile_time = time.time() - t0`, `# dispatch
        only`, `log("compiled in %.2f s", elapsed)`)."""
        first = getattr(end, "lineno", start)
        last = (getattr(end, "end_lineno", None) or first) + 1
        said = "\n".join([*self.lines[start - 1 : start], *self.lines[first - 1 : last]]).lower()
        return any(word in said for word in words)

    def _warms_up(self, line: int) -> bool:
        """The function around ``line`` is called more than once, or speaks of warming up."""
        for definition in self._around(line):
            calls = [k for k in self.called if k.split(".")[-1] == definition.name]
            if sum(len(self.called[k]) for k in calls) > 1:
                return True
            names = (n.id for n in ast.walk(definition) if isinstance(n, ast.Name))
            if any("warm" in name.lower() for name in names):
                return True
        return False

    def _host_made(self, statement: ast.stmt, host: set[str]) -> None:
        """Add to ``host`` the names ``statement`` binds to what NumPy (or what NumPy made, a
        RandomState) returns."""
        for target, value in self._assignments(statement):
            chain = _chain(value.func) if isinstance(value, ast.Call) else []
            if chain and chain[0] in host:
                host.update(_targets(target))

    def _host_inputs(self, host: set[str], calls: list[ast.Call]) -> None:
        """``host``: NumPy's modules, and the names bound to what they made before the region."""
        jitted = self.jitted | self.compiled
        for call in calls:
            if not (isinstance(call.func, ast.Name) and call.func.id in jitted):
                continue
            copied = [a.id for a in call.args if isinstance(a, ast.Name) and a.id in host]
            if copied:
                self._add(
                    Rule.HOST_INPUT_TIMED,
                    call,
                    f"NumPy input ({', '.join(copied)}): each timed call copies it to the "
                    "device; put it there once before the timer (`jax.device_put`)",
                )

    def _add(self, rule: Rule, node: ast.AST, message: str) -> None:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0) + 1
        end = getattr(node, "end_lineno", None) or line
        self.findings.append(Finding(rule, line, col, message, end))


def _spine(node: ast.AST) -> Iterator[ast.AST]:
    """An expression and what it is an attribute or item of: ``f(x).data[0]``, ``f(x).data``,
    ``f(x)``."""
    while True:
        yield node
        if not isinstance(node, (ast.Attribute, ast.Subscript)):
            return
        node = node.value


def _changed_outside(definition: ast.AST) -> set[str]:
    """The names of outer objects a function changes: declared global or nonlocal, or
    changed through a method (``calls.append(x)``), an item or an attribute."""
    local = {a.arg for a in ast.walk(definition) if isinstance(a, ast.arg)}
    declared: set[str] = set()
    changed: set[str] = set()
    for node in ast.walk(definition):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared |= set(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)
        elif isinstance(node, ast.Call) and _name(node.func) in CHANGING:
            if isinstance(node.func, ast.Attribute):  # calls.append(x), self.calls.append(x)
                changed |= set(_targets(node.func.value))
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            changed |= set(_targets(node))  # counts[k] = n, self.n = n
    return declared | (changed - local)


def _in_order(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Simple statements, and the headers of compound ones, in the order they first run;
    definitions are not run."""
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(statement, (ast.For, ast.AsyncFor)):
            target, values = statement.target, statement.iter
            if isinstance(target, ast.Tuple) and len(target.elts) == 2 and _name(values) == "items":
                target = target.elts[1]  # for name, value in metrics.items(): names are keys
            yield ast.Assign([target], values, lineno=statement.lineno)
        elif isinstance(statement, (ast.If, ast.While)):
            yield ast.Assert(statement.test, lineno=statement.lineno)
        elif not isinstance(statement, (ast.Try, ast.With, ast.AsyncWith)):
            yield statement
            continue
        for block in _blocks(statement):
            yield from _in_order(block)


class Timed:
    """What a timed region does, read statement by statement: its JAX work, known by the place
    of each JAX call (the outputs of one call are ready together, so waiting on one of them
    waits for all), and the waits on it."""

    def __init__(self, module: ModuleChecks) -> None:
        self.module = module
        self.calls: list[ast.Call] = []  # the JAX work
        self.every: list[ast.Call] = []  # every call, in order
        self.sources: dict[str, set[Place]] = {}  # name -> the timed work it holds results of
        self.made: dict[Place, str] = {}  # timed work -> what it is called in a message
        self.fed: set[Place] = set()  # timed work whose results later timed work takes
        self.steps: set[Place] = set()  # work of jitted or module functions, not bare jnp
        self.waited: set[Place] = set()
        self.maybe = False  # code this review cannot see is handed results of a step
        # results of code this review cannot see, handed timed arrays: it may have waited on
        # them, unless its results are only more input to timed work (preparing a batch)
        self.unseen: list[set[str]] = []
        self._jax_calls: set[int] = set()

    def made_in(self, node: ast.AST) -> set[Place]:
        """The timed work an expression itself calls."""
        return {(n.lineno, n.col_offset) for n in ast.walk(node) if id(n) in self._jax_calls}

    def held(self, node: ast.AST) -> set[Place]:
        """The timed work whose results an expression holds."""
        names = _names_in(node)
        return self.made_in(node).union(*(self.sources.get(name, set()) for name in names))

    def reachable(self, call: ast.Call) -> set[Place]:
        """The timed work a method reaches through its object: ``self.run()`` may read
        ``self.state``."""
        if not isinstance(call.func, ast.Attribute):
            return set()
        owner = _dotted(call.func.value) or _name(call.func.value)
        prefix = owner + "."
        return set().union(*(w for name, w in self.sources.items() if name.startswith(prefix)))

    def read(self, statement: ast.stmt) -> None:
        module = self.module
        nodes = list(ast.walk(statement))
        for node in nodes:
            if isinstance(node, ast.Call) and module._jax_call(node):
                self._jax_calls.add(id(node))
        for node in nodes:
            if isinstance(node, ast.Call):
                self._call(node, statement)
            elif isinstance(node, ast.FormattedValue):
                self.waited |= self.held(node.value)  # f"{loss}" reads the values
            elif isinstance(node, ast.Assert):
                self.waited |= self.held(node.test)  # `if loss < best:` reads the values
        for target, value in module._assignments(statement):
            work = self.held(value)
            if work:
                names = _targets(target)
                self.sources.update({name: work for name in names})
                for place in self.made_in(value) & self.made.keys():
                    if self.made[place].endswith("(...)") and names:
                        self.made[place] = ", ".join(names)

    def _call(self, node: ast.Call, statement: ast.stmt) -> None:
        module = self.module
        self.every.append(node)
        arguments = ast.Tuple([*node.args, *[k.value for k in node.keywords]])
        mapped = [a for a in node.args if isinstance(a, ast.Lambda)]
        if id(node) in self._jax_calls:
            place = (node.lineno, node.col_offset)
            self.calls.append(node)
            if _key(node.func) in module.blocking:
                self.waited.add(place)  # eqx.filter_jit returns with its work done
            self.fed |= self.held(arguments) - {place}
            read = _names_in(arguments)
            self.unseen = [names for names in self.unseen if not names & read]
            self.made.setdefault(place, _name(node.func) + "(...)")
            if not (isinstance(node.func, ast.Attribute) and module._from_jax(node.func)):
                self.steps.add(place)  # not a bare jnp/lax call
            pure = _key(node.func) in module.pure
            if isinstance(statement, ast.Expr) and statement.value is node and not pure:
                for argument in node.args:  # nnx: train_step(model, batch) updates the model
                    if isinstance(argument, ast.Name):
                        self.sources.setdefault(argument.id, set()).add(place)
        elif module._is_wait(node):
            self.waited |= self.held(node)
        elif any(
            isinstance(n, ast.Call) and module._is_wait(n) for a in mapped for n in ast.walk(a)
        ):
            self.waited |= self.held(arguments)  # tree_map(lambda a: a.block_until_ready(), out)
        elif _syncs(_name(node.func)):
            self.maybe = True
        elif _name(node.func) in APPENDING:
            if isinstance(node.func, ast.Attribute):  # results.append(out)
                for name in _targets(node.func.value):
                    self.sources.setdefault(name, set()).update(self.held(arguments))
        elif module._might_wait(node, bool(reached := self.reachable(node))) and (
            handed := self.held(arguments) | reached
        ):
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if receiver is not None and self.held(receiver):
                return  # out.reshape(...) computes
            bound = isinstance(statement, ast.Assign) and node in _spine(statement.value)
            if handed & self.steps or not bound:
                self.maybe = True
            else:  # batch = prepare(x): more input, or the work being timed?
                read = _names_in(arguments)
                self.unseen = [names for names in self.unseen if not names & read]
                self.unseen.append({n for t in statement.targets for n in _targets(t)})


# Every rule needs one of these words in the source: a module without any has no finding.
WORDS = (
    "block_until_ready", "effects_barrier", "timeit", "time()", "time.time", "perf_counter",
    "monotonic", "process_time", "time_ns", "default_timer", "datetime", CELL_TIMER,
    "callback", ASYNC_VARIABLE, "jax_debug_nans", "jax_debug_infs", "RuntimeError",
    "donate_arg",
)  # fmt: skip


def worth_checking(source: str) -> bool:
    return any(word in source for word in WORDS)


def check(tree: ast.Module, source: str = "") -> list[Finding]:
    """Every finding in one module (its source, for the comments a check reads)."""
    return ModuleChecks(tree, source).run()
