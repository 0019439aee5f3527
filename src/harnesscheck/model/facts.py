"""What a module does, as the rules see it: one walk over its syntax tree, never importing or
running it, and the names and calls of JAX, NumPy and the timers that the rules share.

Precision comes first: the facts tie work to JAX only within the same source (a function jitted
there, a ``jax``/``jnp``/``lax`` call, a function of the module that computes with them, or one
handed such a function), and a call of code they cannot see is one that might wait.
"""

from __future__ import annotations

import ast
import functools
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from harnesscheck.findings import says


def library(text: str) -> dict[str, set[str]]:
    """The names of each kind of callable in a table like library.toml, over every library it
    lists; a kind it does not know is an error that names the library."""
    kinds: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for library, entry in tomllib.loads(text).items():
        for kind, names in entry.items():
            if kind != "why" and kind not in kinds:
                raise ImportError(f"library.toml: [{library}] names no kind of callable: {kind}")
            kinds.get(kind, set()).update(names if kind != "why" else [])
    return kinds


KINDS = (
    "traces", "jits", "blocks", "loops", "times", "no-work", "waits", "waits-method",
    "device-waits", "passes", "robust", "appends", "callbacks", "maps",
)  # fmt: skip
LIBRARY = library(resources.files(__package__).joinpath("library.toml").read_text("utf-8"))
TRACING = LIBRARY["traces"]  # its function argument (or decorated function) is traced, not run
JITTING = LIBRARY["jits"]
BLOCKING = LIBRARY["blocks"]  # what it jits waits for its results (equinox's filter_jit)
LOOPS = LIBRARY["loops"]  # called outside jit, they compile their function
TIMERS = LIBRARY["times"]
# Parts of the jax namespace that do no work on the device (a call to them is not timed work).
NOT_WORK = LIBRARY["no-work"]
# Calls that wait for a JAX array's values (they read them, or wait for them).
WAITING_METHODS = LIBRARY["waits-method"]
WAITING_FUNCTIONS = LIBRARY["waits"]
# Calls that might wait for everything dispatched before them ...
DEVICE_WAITS = LIBRARY["device-waits"]
# ... and any call named like `sync()`, `sync_func()`, `synchronize_all_activity()`
PASSING = LIBRARY["passes"]  # calls that take arrays and never wait on them
ROBUST = LIBRARY["robust"]
CALLBACKS = LIBRARY["callbacks"]  # host callbacks that may change the host's state
APPENDING = LIBRARY["appends"]  # results.append(out): results holds it
MAPPING = LIBRARY["maps"]  # tree_map(place, params): what place returns, leaf by leaf
JAX_MODULES = {"jax", "jnp", "lax", "random", "jr", "jrandom"}
NUMPY_MODULES = {"np", "numpy", "onp"}

Place = tuple[int, int]  # the line and column of a JAX call: one piece of timed work


Function = ast.FunctionDef | ast.AsyncFunctionDef
# What a module of the project shares with one that imports it: the names of each of these kinds.
SHARED = (
    "jitted", "compiled", "pure", "blocking", "jax_functions", "waiting_functions", "factories",
    "timing_contexts",
)  # fmt: skip


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
    if not (isinstance(end, (ast.Assign, ast.AnnAssign)) and is_timer(value)):
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


def first_timer(node: ast.AST) -> ast.Call | None:
    return next((n for n in walk(node) if isinstance(n, ast.Call) and is_timer(n)), None)


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


def spans_line(node: ast.AST, line: int) -> bool:
    """``line`` is one of the lines of a definition (or any node)."""
    first = getattr(node, "lineno", 0)
    return first <= line <= (getattr(node, "end_lineno", None) or first)


# Finds the facts of the module an import names, given its dotted name and relative level.
Imports = Callable[[str, int], "Module | None"]


@dataclass
class Scope:
    """A function whose parameters are handed JAX functions by the module's own calls."""

    first: int
    last: int
    params: set[str]


class Module:
    """What one module defines and does, found in one walk of its syntax tree: what it
    imports, jits, times and calls, and what its functions do. The rules ask it.

    In a project, ``imports`` finds the facts of the module an import names (its dotted name
    and relative level; None when it is not in the project), so that what that module jits,
    dispatches, waits or times is known here; ``handed`` holds the parameters of this module's
    functions that other modules hand JAX functions to; and ``handing`` is filled with the
    functions of other modules this one hands JAX functions to."""

    def __init__(
        self,
        tree: ast.Module,
        source: str = "",
        imports: Imports | None = None,
        handed: dict[str, set[int]] | None = None,
        path: Path | None = None,
    ) -> None:
        self.nodes = walk(tree)  # walked once: walking is most of the cost
        self._kinds: dict[type, list[ast.AST]] = {}  # the nodes by their exact type
        for node in self.nodes:
            self._kinds.setdefault(type(node), []).append(node)
        self.tree_body = tree.body
        self.source = source
        self.lines = source.splitlines()
        self.path = path
        self._imports = imports
        self._handed = handed or {}
        self._import_nodes: list[ast.Import | ast.ImportFrom] = []
        # names bound to functions of other modules of the project: where they are defined
        self.imported_functions: dict[str, tuple[Module, str]] = {}
        self.inherited: dict[str, Module] = {}  # methods a class here inherits: where defined
        self.handing: list[tuple[Module, str, set[int]]] = []  # (module, function, positions)
        self.jax_modules = set(JAX_MODULES)
        self.numpy_modules = set(NUMPY_MODULES)
        self.jax_names: dict[str, str] = {}  # names imported from jax: bound -> jax's name
        self.imported: set[str] = set()  # every module the module imports, by its full name
        self.from_timeit = {"timeit"}  # names imported from timeit (`%timeit` becomes timeit)
        self.traced: set[str] = set()  # functions whose body is traced
        self._traced_here: set[int] = set()  # the definitions a tracer decorates
        self._traced_names: list[tuple[str, int]] = []  # names a tracing call is handed, where
        self._methods: set[int] = set()  # definitions in a class body: no bare name finds them
        self._class_methods: dict[str, set[str]] = {}  # the module's classes: their methods
        self._jit_aliases: set[str] = set()  # names bound to jit itself: pjit_fn = pjit
        # classes whose __call__ calls what their constructor is handed: at which position
        self._wrappers: dict[str, int] = {}
        # classes imported from the project's modules, by the name bound here: (module, name)
        self._imported_classes: dict[str, tuple[Module, str]] = {}
        self.jitted: set[str] = set()  # names bound to jitted functions
        self.compiled: set[str] = set()  # names bound to compiled functions: they never compile
        self.identities: set[str] = set()  # jit(lambda x: x, out_shardings=...): resharding
        self.pure: set[str] = set()  # jitted by jax itself: they change none of their arguments
        # jitted by equinox: since 0.11.8 `filter_jit` blocks on its result before returning
        self.blocking: set[str] = set()
        self.factories: set[str] = set()  # functions that return a jitted function
        self.partials: dict[str, str] = {}  # write_fn = partial(write, ...): write_fn -> write
        self.timing_contexts: set[str] = set()  # context managers that time their block
        self.timing_methods: dict[str, set[str]] = {}  # class -> its methods that are ones
        self.functions: dict[str, list[Function]] = {}
        self.jax_functions: set[str] = set()  # module functions that dispatch and never wait
        self.waiting_functions: set[str] = set()  # module functions that wait
        self.jax_values: set[str] = set()  # names bound to JAX arrays
        self.scopes: list[Scope] = []
        self.called: dict[str, list[int]] = {}  # function name -> lines where it is called
        # What keeps the fastest (or the median) of repeated timings, or drops the first ones:
        # the names min(), median(), times[1:] read, and the nodes inside such a call.
        self.kept_names: set[str] = set()
        self.kept_nodes: set[int] = set()
        self._known = False  # _know_functions has run
        self.times = False  # the module reads a timer
        self.barrier = False  # the module calls jax.effects_barrier()
        self.callbacks: list[ast.AST] = []  # functions handed to host callbacks
        self.donating: dict[str, tuple[set[int], set[str]]] = {}  # jitted name -> donated args
        self._collect()
        self._after_collect()
        for lines in self.called.values():
            lines.sort()  # the first call of each is then lines[0]

    def of(self, *kinds: type) -> list[Any]:
        """The module's nodes of these exact types (``ast.Call``, …), each type's in the order
        of ``walk``: most checks ask for one or two types, and this spares them every node."""
        if len(kinds) == 1:
            return self._kinds.get(kinds[0], [])
        return [node for kind in kinds for node in self._kinds.get(kind, [])]

    def _collect(self) -> None:
        for node in self.of(ast.Import, ast.ImportFrom):  # first: calls ask what was imported
            self._imported(node)
        for node in self.of(ast.Call):
            self._collect_call(node)
        for node in self.of(ast.Assign):  # pjit_fn = pjit (in a branch): pjit_fn(f) jits f
            if isinstance(node.value, (ast.Name, ast.Attribute)) and (
                callee_name(node.value) in JITTING
            ):
                self._jit_aliases.update(n for t in node.targets for n in bound_names(t))
        for node in self.of(ast.Assign):
            self._collect_assign(node)
        for node in self.of(ast.Subscript):
            if type(node.slice) is ast.Slice:
                lower = node.slice.lower
                if (isinstance(lower, ast.Constant) and lower.value == 1) or (
                    isinstance(lower, ast.Name) and "warm" in lower.id.lower()
                ):
                    self.kept_names |= names_read(node.value)
        for node in self.of(ast.FunctionDef, ast.AsyncFunctionDef):
            self._collect_function(node)
        for node in self.of(ast.ClassDef):
            self._collect_class(node)
        for node in self.of(ast.While):
            if isinstance(node.test, ast.Name):
                self.times = self.times or node.test.id == "state"

    def _collect_function(self, node: Function) -> None:
        self.functions.setdefault(node.name, []).append(node)
        for decorator in node.decorator_list:
            wrapper = wrapper_name(decorator)
            if wrapper in TRACING:
                self.traced.add(node.name)
                self._traced_here.add(id(node))
            if wrapper in JITTING:
                self.jitted.add(node.name)
                if wrapper in BLOCKING:
                    self.blocking.add(node.name)
                self._donates(ast.Name(node.name), decorator, node)
        if isinstance(node, ast.FunctionDef) and _times_its_block(node):
            self.timing_contexts.add(node.name)

    def _collect_class(self, node: ast.ClassDef) -> None:
        """A context manager class that reads a timer on entering and on leaving, and the
        methods of a class that are @contextmanager timers."""
        methods = {m.name: m for m in node.body if isinstance(m, Function)}
        self._methods |= {id(m) for m in node.body if isinstance(m, Function)}
        self._class_methods[node.name] = set(methods)
        init, call = methods.get("__init__"), methods.get("__call__")
        if init is not None and call is not None:  # calling what its constructor is handed
            params = positional_params(init)[1:]
            held = {
                dotted_name(t): s.value.id
                for s in walk(init)
                if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
                and s.value.id in params
                for t in s.targets
            }  # fmt: skip
            for r in walk(call):
                if isinstance(r, ast.Return) and isinstance(r.value, ast.Call):
                    if (callee := dotted_name(r.value.func)) in held:
                        self._wrappers[node.name] = params.index(held[callee])
        hooks = [methods.get(m) for m in ("__enter__", "__exit__")]
        if all(hook is not None and first_timer(hook) for hook in hooks):
            self.timing_contexts.add(node.name)
        timing = {name for name, method in methods.items() if _times_its_block(method)}
        if timing:
            self.timing_methods[node.name] = timing

    def _collect_call(self, node: ast.Call) -> None:
        called = callee_name(node.func)
        if called in TRACING:
            for argument in node.args[:3]:
                if isinstance(argument, ast.Name):
                    self.traced.add(argument.id)
                    self._traced_names.append((argument.id, node.lineno))
        used = [node.func]
        if isinstance(node.func, ast.Attribute):  # f.lower(x) compiles f
            used.append(node.func.value)
        if called in LOOPS:  # lax.fori_loop(0, n, step, x) compiles step
            used += node.args
        for name in filter(None, map(callee_key, used)):
            self.called.setdefault(name, []).append(node.lineno)
        if called in ROBUST:  # min(times), np.median(times), times.min()
            held = [
                *node.args,
                *([node.func.value] if isinstance(node.func, ast.Attribute) else []),
            ]
            for argument in held:
                self.kept_names |= names_read(argument)
                self.kept_nodes |= {id(n) for n in walk(argument)}
        if not self.times:
            self.times = is_timer(node) or self.is_timeit(node) or is_benchmark(node)
        self.barrier = self.barrier or called == "effects_barrier"
        if called in CALLBACKS and node.args:
            self.callbacks.append(node.args[0])

    def _collect_assign(self, node: ast.Assign) -> None:
        if not isinstance(node.value, ast.Call):
            return
        wrapper = wrapper_name(node.value.func)
        if callee_key(node.value.func) in self._jit_aliases:
            wrapper = "jit"
        for target in node.targets:
            if wrapper in JITTING:  # jit(f), partial(jax.jit, ...)(f)
                self.jitted.update(bound_names(target))
                if _reshards(node.value):
                    self.identities.update(bound_names(target))
                if wrapper in BLOCKING:
                    self.blocking.update(bound_names(target))
                self._donates(target, node.value, None)
                if not {"nnx", "eqx", "objax"} & set(dotted_parts(node.value.func)):
                    self.pure.update(bound_names(target))
            elif wrapper == "compile" and isinstance(target, ast.Name):
                self.compiled.add(target.id)  # g = f.lower(x).compile()
                self.pure.add(target.id)
            elif wrapper in TRACING and isinstance(target, ast.Name):
                self.jax_functions.add(target.id)  # g = jax.grad(f): g(x) computes

    def _after_collect(self) -> None:
        self._factories()
        self._adopt_imports()
        self._instances()
        self.times = self.times or bool(self.timing_contexts)
        for node in self.assigned:  # made by a factory, or a partial of a jitted function
            call = node.value
            if not isinstance(call, ast.Call):
                continue
            bound = call.args[0] if callee_name(call.func) == "partial" and call.args else None
            if bound is not None:
                for target in node.targets:
                    self.partials.update(dict.fromkeys(bound_names(target), callee_key(bound)))
            made = callee_key(call.func) in self.factories or self._wraps_jitted(call)
            if made or (bound is not None and callee_key(bound) in self.jitted):
                for target in node.targets:
                    self.jitted.update(bound_names(target))  # step = make_step(); partial(step, x)
            elif callee_key(call.func) in self.timing_contexts:
                for target in node.targets:
                    self.timing_contexts.update(bound_names(target))  # timer = Timer()

    def _wraps_jitted(self, call: ast.Call) -> bool:
        """A wrapper class of the module made around a jitted function: whisper-jax's
        ``PjittedFnWithContext(pjitted, mesh)``, whose ``__call__`` calls it."""
        at = self._wrappers.get(callee_key(call.func))
        return at is not None and len(call.args) > at and callee_key(call.args[at]) in self.jitted

    def _factories(self) -> None:
        """The module's functions that return a jitted function: ``return jax.jit(step)``."""
        for node in self.of(ast.Return):
            if node.value is not None:
                value = node.value
                made = isinstance(value, ast.Call) and (
                    wrapper_name(value.func) in JITTING or self._wraps_jitted(value)
                )
                if made or callee_key(value) in self.jitted:
                    inner = max(self.around(node.lineno), key=lambda d: d.lineno, default=None)
                    if inner is not None:
                        self.factories.add(inner.name)

    def _instances(self) -> None:
        """Instances of the project's classes, and what their methods are: ``chrono =
        Chrono()`` (then ``chrono.log_timing(...)`` times a block), ``env = RolloutManager(...)``
        of another module (then ``env.batch_step`` is jitted)."""
        for node in self.assigned:
            made = callee_key(node.value.func) if isinstance(node.value, ast.Call) else ""
            kinds = self._methods_of(made)
            for target in node.targets:
                for name in bound_names(target):
                    for kind, methods in kinds.items():
                        getattr(self, kind).update(f"{name}.{m}" for m in methods)

    def _methods_of(self, name: str) -> dict[str, set[str]]:
        """By kind, the methods of the class ``name`` names that time a block, are jitted,
        dispatch or wait."""
        if name in self._class_methods:
            home, theirs = self, name
        elif name in self._imported_classes:
            home, theirs = self._imported_classes[name]
        else:
            return {}
        methods = home._class_methods[theirs]
        kinds = {
            kind: methods & getattr(home, kind)
            for kind in ("jitted", "blocking", "jax_functions", "waiting_functions", "factories")
        }
        kinds["timing_contexts"] = home.timing_methods.get(theirs, set())
        return kinds

    def _adopt_imports(self) -> None:
        """What the project's modules this one imports share with it, under the names it binds
        them to: ``from train import step`` (``step``), ``import utils as u`` (``u.timer``)."""
        if self._imports is None:
            return
        for node in self._import_nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if target := self._imports(alias.name, 0):
                        self._share(target, f"{alias.asname or alias.name}.")
                continue
            base = node.module or ""
            found = self._imports(base, node.level) if base else None
            for alias in node.names:
                bound = alias.asname or alias.name
                if found is not None and alias.name in found.defined:
                    self._share(found, bound, alias.name)
                    if alias.name in found._class_methods:
                        self._imported_classes[bound] = (found, alias.name)
                        self._inherit(bound)
                    elif alias.name in found._imported_classes:  # re-exported by a package
                        self._imported_classes[bound] = found._imported_classes[alias.name]
                elif inner := self._imports(f"{base}.{alias.name}".lstrip("."), node.level):
                    self._share(inner, f"{bound}.")  # from . import utils

    def _inherit(self, bound: str) -> None:
        """The methods a class of this module inherits from the class imported as ``bound``:
        ``self.prepare()`` in ``class Mine(Theirs)`` is theirs."""
        if not any(
            isinstance(base, ast.Name) and base.id == bound
            for node in self.of(ast.ClassDef)
            for base in node.bases
        ):
            return
        target, name = self._imported_classes[bound]
        for method in target._class_methods[name]:
            self.inherited[method] = target
            for kind in ("jax_functions", "waiting_functions", "jitted"):
                if method in getattr(target, kind):
                    getattr(self, kind).add(method)

    def _share(self, target: Module, bound: str, name: str = "") -> None:
        """Take ``target``'s kinds of ``name`` as ``bound``, or, with no name, every name it
        defines as ``bound`` + the name (a module bound to ``bound``, ending in a dot)."""
        target.know()
        names = {name: bound} if name else {n: bound + n for n in target.defined}

        def mine(theirs: str) -> str:  # chrono.log_timing there is u.chrono.log_timing here
            head, dot, rest = theirs.partition(".")
            return names[head] + dot + rest if head in names else ""

        for kind in SHARED:
            getattr(self, kind).update(filter(None, map(mine, getattr(target, kind))))
        for theirs, donated in target.donating.items():
            if here := mine(theirs):
                self.donating[here] = donated
        for theirs, defined_there in target.imported_functions.items():  # re-exported
            if here := mine(theirs):
                self.imported_functions[here] = defined_there
        for theirs in target.functions:
            if theirs in target.defined and (here := mine(theirs)):
                self.imported_functions[here] = (target, theirs)

    @functools.cached_property
    def defined(self) -> set[str]:
        """The names the module binds at its top level (what another module can import)."""
        names: set[str] = set()
        for statement in self.tree_body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(statement.name)
            elif isinstance(statement, ast.ImportFrom):  # re-exported by a package's __init__
                names.update(a.asname or a.name for a in statement.names if a.name != "*")
            elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = getattr(statement, "targets", [getattr(statement, "target", None)])
                names.update(n for t in targets for n in bound_names(t) if "." not in n)
        return names

    def _donates(self, target: ast.AST, wrapper: ast.AST, definition: Function | None) -> None:
        """The arguments ``jax.jit(f, donate_argnums=...)`` donates; nnx and equinox keep the
        objects they are handed up to date, so theirs are left out."""
        if not isinstance(target, ast.Name) or not isinstance(wrapper, ast.Call):
            return
        if wrapper_name(wrapper) not in {"jit", "pjit", "pmap"} or any(
            {"nnx", "eqx"} & set(dotted_parts(n)) for n in [wrapper.func, *wrapper.args[:1]]
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
            positions |= {
                i for i, param in enumerate(positional_params(definition)) if param in names
            }
        if positions or names:
            self.donating[target.id] = (positions, names)

    def _imported(self, node: ast.Import | ast.ImportFrom) -> None:
        self._import_nodes.append(node)
        self.imported |= {a.name for a in node.names} if isinstance(node, ast.Import) else set()
        self.imported |= (
            {node.module} if isinstance(node, ast.ImportFrom) and node.module else set()
        )
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

    def know(self) -> None:
        """What the module's functions do, worked out the first time a check asks (most modules
        have no timing, and never ask)."""
        self._know_functions()

    def _know_functions(self) -> None:
        if self._known:
            return
        self._known = True
        self._classify_functions()
        for node in self.of(ast.Assign):
            if self.jax_call(node.value):
                for target in node.targets:
                    self.jax_values.update(bound_names(target))
        self._scopes()

    def _classify_functions(self) -> None:
        """Which module functions dispatch JAX work and never wait, and which wait; twice, so
        that a function calling another of the module is known."""
        calls_of = {
            name: [n for d in defs for n in walk(d) if isinstance(n, ast.Call)]
            for name, defs in self.functions.items()
            if name not in self.traced
        }
        for _ in range(2):
            for name, calls in calls_of.items():
                if any(self.is_wait(call) for call in calls):
                    self.waiting_functions.add(name)
                elif any(self.jax_call(call) for call in calls) and not any(
                    self._hands_waiting(call) for call in calls
                ):
                    self.jax_functions.add(name)

    def _hands_waiting(self, call: ast.Call) -> bool:
        """A call handed a function of the module that waits, or a ``partial`` of one: it may
        run it (``pool.map(write, chunks)``)."""
        handed = (self.partials.get(n, n) for a in call.args for n in names_read(a))
        return any(name in self.waiting_functions for name in handed)

    def _scopes(self) -> None:
        """Parameters of module functions that the module (or another, ``handed``) hands JAX
        functions, by call or as a decorator: ``bench(step, x)``, ``@timed``; and the functions
        of other modules of the project it hands them to (``handing``)."""
        handed: dict[str, set[int]] = {k: set(v) for k, v in self._handed.items()}
        for node in self.of(ast.Call):
            if key := callee_key(node.func):
                for i, argument in enumerate(node.args):
                    if self._jax_function(argument):
                        handed.setdefault(key, set()).add(i)
        for node in self.of(ast.FunctionDef, ast.AsyncFunctionDef):
            if node.name in self.jax_functions | self.jitted:
                for decorator in node.decorator_list:
                    if key := callee_key(decorator):
                        handed.setdefault(key, set()).add(0)
        for name, positions in handed.items():
            if name in self.imported_functions:
                target, theirs = self.imported_functions[name]
                self.handing.append((target, theirs, positions))
            method = name.removeprefix("self.")
            shift = 1 if method != name else 0  # self._embed(state, fn): fn is the third
            for definition in self.functions.get(method, []) if "." not in method else []:
                params = positional_params(definition)
                chosen = {params[i + shift] for i in positions if i + shift < len(params)}
                if chosen:
                    last = definition.end_lineno or definition.lineno
                    self.scopes.append(Scope(definition.lineno, last, chosen))

    def _jax_function(self, node: ast.AST) -> bool:
        """A function that computes with JAX: jitted, of the module or the project, from jax
        itself, a ``partial`` of one, what a factory makes, or a lambda that calls one."""
        if isinstance(node, ast.Name):  # a partial of one: place = partial(device_put, ...)
            return self.partials.get(node.id, node.id) in self.jitted | self.jax_functions
        if isinstance(node, ast.Attribute):
            if dotted_name(node) in self.jitted | self.jax_functions:
                return True
            chain = dotted_parts(node)
            return bool(chain) and chain[0] in self.jax_modules and not set(chain) & NOT_WORK
        if isinstance(node, ast.Call):
            if callee_name(node.func) == "partial" and node.args:
                return self._jax_function(node.args[0])
            return wrapper_name(node.func) in TRACING or callee_key(node.func) in self.factories
        if isinstance(node, ast.Lambda):
            return self.jax_call(node.body)
        return False

    def _maps(self, func: ast.AST) -> bool:
        """A callee that maps a function over a tree: ``jax.tree_util.tree_map``,
        ``jax.tree.map``, ``tree_map`` imported from jax."""
        if isinstance(func, ast.Name):
            return self.jax_names.get(func.id) in MAPPING
        parts = dotted_parts(func)
        return (
            bool(parts)
            and self.from_jax(func)
            and bool({parts[-1], ".".join(parts[-2:])} & MAPPING)
        )

    def from_jax(self, func: ast.AST) -> bool:
        """A callee in jax's own namespace: ``jnp.sum``, ``lax.scan``, ``device_put``."""
        chain = dotted_parts(func)
        return bool(chain) and (chain[0] in self.jax_modules or chain[0] in self.jax_names)

    def jax_call(self, node: ast.AST) -> bool:
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
                return any(names_read(arg) & self.jax_values for arg in node.args)
            return any(s.first <= node.lineno <= s.last and name in s.params for s in self.scopes)
        if isinstance(func, ast.Call):  # jax.jit(f)(x), grad(f)(x), make_step()(x)
            return wrapper_name(func.func) in TRACING or callee_key(func.func) in self.factories
        if self._maps(func):  # tree_map(device_put_replicated, params, shardings)
            return bool(node.args) and self._jax_function(node.args[0])
        if dotted_name(func) in self.jitted | self.compiled | self.jax_functions:
            return True  # self.step = jax.jit(f); train.step(x), train being of the project
        if dotted_parts(func)[:1] == ["self"] and len(dotted_parts(func)) == 2:  # self.evaluate()
            return func.attr in self.jax_functions  # type: ignore[union-attr]
        if isinstance(func, ast.Attribute) and func.attr not in WAITING_METHODS:
            if self.from_jax(func):
                work = not set(dotted_parts(func)) & (NOT_WORK | TRACING)
                return work and not func.attr[:1].isupper()
        return False

    def apart(self, call: ast.Call) -> set[int]:
        """For a call of a module function (not jitted) that dispatches more than one piece of
        JAX work and returns several values, the positions of those its own JAX work made:
        they need not be ready together (``latents, embeds, steps = self._prepare(prompt)``:
        0 and 1). A function that waits only under a condition (``if debug_timers:
        jax.block_until_ready(...)``) counts: a wait the caller cannot count on is no wait for
        results it then blocks in part."""
        func = call.func
        if isinstance(func, ast.Name):
            name = func.id
        elif isinstance(func, ast.Attribute) and dotted_parts(func)[:1] == ["self"]:
            name = func.attr
        else:
            return set()
        if name in self.jitted | self.compiled:
            return set()
        if name not in self.jax_functions | self.waiting_functions:
            return set()
        if name not in self.functions and name in self.inherited:
            return self.inherited[name].apart(call)
        for definition in self.functions.get(name, []):
            inside = walk(definition)
            calls = [n for n in inside if isinstance(n, ast.Call) and self.jax_call(n)]
            guarded = {id(n) for s in inside if isinstance(s, ast.If)
                       for block in (s.body, s.orelse) for t in block for n in walk(t)}  # fmt: skip
            waits = [n for n in inside if isinstance(n, ast.Call) and self.is_wait(n)]
            if len(calls) < 2 or not all(id(w) in guarded for w in waits):
                continue
            made = {  # names the function binds to what its JAX calls return
                bound
                for n in inside
                if isinstance(n, ast.Assign) and any(m in calls for m in walk(n.value))
                for t in n.targets
                for bound in bound_names(t)
            }
            for n in inside:
                if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple):
                    return {k for k, e in enumerate(n.value.elts) if callee_key(e) in made}
        return set()

    def is_wait(self, node: ast.Call) -> bool:
        """A call that surely waits for the arrays it is given (or, for a function equinox
        jitted, for those it returns)."""
        if callee_key(node.func) in self.blocking:
            return True
        self._know_functions()
        called = callee_name(node.func)
        if isinstance(node.func, ast.Attribute) and called in WAITING_METHODS:
            return True
        if not node.args or all(_of_the_host(a) for a in node.args):
            return False  # bool(os.environ.get(...)), int("3"): a host value read
        if called in WAITING_FUNCTIONS | self.waiting_functions:
            return True
        if callee_key(node.func) in self.waiting_functions:  # utils.sync(x), of the project
            return True
        chain = dotted_parts(node.func)
        return bool(chain) and chain[0] in self.numpy_modules  # np.mean(x) fetches x

    def might_wait(self, node: ast.Call, reaches: bool = False) -> bool:
        """A call of code this review cannot see, which might wait for what it is given (or,
        for a method, ``reaches`` through its object)."""
        called = callee_name(node.func)
        if may_sync(called):
            return True
        if self.jax_call(node) or self.is_wait(node) or called in PASSING | TRACING:
            return False
        if self.from_jax(node.func):
            return False  # jax's own code: its waits are known
        return bool(node.args or node.keywords) or reaches

    def keeps_fastest(self, names: set[str], node: ast.AST) -> bool:
        """The timings held in ``names`` (or computed by ``node``), or what is computed from
        them, are minimised, taken the median of, or sliced past their first runs."""
        if id(node) in self.kept_nodes:
            return True  # min(timeit.repeat(...))
        reached, todo = set(names), list(names)
        while todo:
            more = set(self._flows_from.get(todo.pop(), ())) - reached
            reached |= more
            todo += more
        return bool(reached & self.kept_names)

    @functools.cached_property
    def _flows_from(self) -> dict[str, list[str]]:
        """By name, the names bound to values that read it: ``dt = t1 - t0``,
        ``times.append(dt)`` (found the first time it is asked: most modules never ask)."""
        flows: list[tuple[list[str], set[str]]] = []
        for node in self.of(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Call):
            if not isinstance(node, ast.Call) and node.value:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound = [name for target in targets for name in bound_names(target)]
                flows.append((bound, names_read(node.value)))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in APPENDING:
                    read = set().union(*(names_read(a) for a in node.args))
                    flows.append((bound_names(node.func.value), read))
        found: dict[str, list[str]] = {}
        for bound, read in flows:
            for name in read:
                found.setdefault(name, []).extend(bound)
        return found

    def traced_calls(self, called: str) -> Iterator[tuple[Function, ast.Call]]:
        """Each call of ``called`` (its last name) inside a module function whose body is
        traced (by ``jit``, ``vmap``, ``scan`` …), with that function."""
        for node in self.of(ast.FunctionDef, ast.AsyncFunctionDef):
            if id(node) in self._traced_definitions:
                for inner in walk(node):
                    if isinstance(inner, ast.Call) and callee_name(inner.func) == called:
                        yield node, inner

    @functools.cached_property
    def _traced_definitions(self) -> set[int]:
        """The definitions whose bodies are traced: those a tracer decorates, and the one a
        name handed to a tracing call finds from where it is called, as Python finds it (the
        nearest enclosing definition of that name; a method is never found by its bare name,
        so ``jit(eval)`` in ``__init__`` does not trace the method ``eval``)."""
        found = set(self._traced_here)
        for name, line in self._traced_names:
            depths = {
                id(d): depth
                for d in self.functions.get(name, [])
                if id(d) not in self._methods and (depth := self._depth_seen(d, line)) >= 0
            }
            nearest = max(depths.values(), default=-1)
            found |= {d for d, depth in depths.items() if depth == nearest}
        return found

    def _depth_seen(self, definition: Function, line: int) -> int:
        """How deep the scope a definition is made in lies (0: the module), or -1 when that
        scope does not hold ``line``."""
        outer = [f for f in self.around(definition.lineno) if f is not definition]
        if not outer:
            return 0
        scope = max(outer, key=lambda f: f.lineno)
        return len(outer) if spans_line(scope, line) else -1

    @functools.cached_property
    def assigned(self) -> list[ast.Assign]:
        """The module's assignments, in the order of their lines."""
        return sorted(self.of(ast.Assign), key=lambda n: n.lineno)

    def is_benchmark_loop(self, node: ast.While) -> bool:
        """google_benchmark's timed loop, ``while state:``, in a module that imports it."""
        named = isinstance(node.test, ast.Name) and node.test.id == "state"
        return named and "google_benchmark" in self.imported

    def is_timeit(self, call: ast.Call) -> bool:
        """``timeit.timeit``, ``timeit.repeat``, or either imported from ``timeit``."""
        chain = dotted_parts(call.func)
        if callee_name(call.func) not in {"timeit", "repeat"}:
            return False
        return chain[:1] == ["timeit"] or (len(chain) == 1 and chain[0] in self.from_timeit)

    def bodies(self) -> Iterator[list[ast.stmt]]:
        for child in self.nodes:
            yield from statement_lists(child)

    def scope_of(self, line: int) -> int:
        """The first line of the innermost function around ``line`` (0: the module)."""
        return max((d.lineno for d in self.around(line)), default=0)

    def around(self, line: int) -> Iterator[Function]:
        """The module's functions that ``line`` is in."""
        for defs in self.functions.values():
            yield from (definition for definition in defs if spans_line(definition, line))

    def assignments(self, statement: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        for node in walk(statement):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    yield from paired(target, node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                yield node.target, node.value

    def meant(self, start: int, end: ast.AST, words: tuple[str, ...]) -> bool:
        """The line that starts the timer, or the statement that reads it and the line after,
        say what the region times on purpose (`compile_time = time.time() - t0`, `# dispatch
        only`, `log("compiled in %.2f s", elapsed)`)."""
        first = getattr(end, "lineno", start)
        last = (getattr(end, "end_lineno", None) or first) + 1
        return says([*self.lines[start - 1 : start], *self.lines[first - 1 : last]], words)

    def warms_up(self, line: int) -> bool:
        """The function around ``line`` is called more than once, or speaks of warming up."""
        for definition in self.around(line):
            calls = [k for k in self.called if k.split(".")[-1] == definition.name]
            if sum(len(self.called[k]) for k in calls) > 1:
                return True
            names = (n.id for n in walk(definition) if isinstance(n, ast.Name))
            if any("warm" in name.lower() for name in names):
                return True
        return False

    def host_made(self, statement: ast.stmt, host: set[str]) -> None:
        """Add to ``host`` the names ``statement`` binds to what NumPy (or what NumPy made, a
        RandomState) returns."""
        for target, value in self.assignments(statement):
            chain = dotted_parts(value.func) if isinstance(value, ast.Call) else []
            if chain and chain[0] in host:
                host.update(bound_names(target))


def _times_its_block(definition: Function) -> bool:
    """A ``@contextmanager`` generator that reads a timer before its ``yield`` and after it."""
    if not any(callee_name(d) == "contextmanager" for d in definition.decorator_list):
        return False
    yields = [n.lineno for n in walk(definition) if isinstance(n, ast.Yield)]
    timers = [n.lineno for n in walk(definition) if is_timer(n)]
    before = any(t <= min(yields) for t in timers) if yields else False
    return before and any(t >= max(yields) for t in timers)


def _of_the_host(node: ast.AST) -> bool:
    """A constant, or what the environment, ``len`` or a mapping's ``get`` gives: nothing a
    computation made (``bool(os.environ.get("DEBUG"))`` waits for nothing)."""
    if isinstance(node, ast.Constant):
        return True
    if not isinstance(node, ast.Call):
        return False
    chain = dotted_parts(node.func)
    return chain[:1] in (["os"], ["sys"], ["len"]) or chain[-1:] == ["get"]


def _reshards(call: ast.Call) -> bool:
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
