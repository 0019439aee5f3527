"""What one module defines and does by itself, read from its syntax alone: the first step of
the model (every module's names, before any call is classified across modules). What it
imports from the program's other modules is the second step (:mod:`harnesscheck.model.module`)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harnesscheck.model.factories import factories
from harnesscheck.model.jit_options import Told, told
from harnesscheck.model.library import (
    APPENDING,
    BLOCKING,
    CALLBACKS,
    JAX_MODULES,
    JITTING,
    LOOPS,
    NUMPY_MODULES,
    ROBUST,
    TIMERS,
    TRACING,
    foreign,
    makes_models,
)
from harnesscheck.model.syntax import (
    Function,
    appended,
    bound_names,
    budget_loop,
    callee_key,
    callee_name,
    clock_aliases,
    dotted_name,
    dotted_parts,
    first_timer,
    is_benchmark,
    is_timer,
    names_read,
    paired,
    past_first,
    positional_params,
    positive_count,
    reshards,
    spans_line,
    statement_lists,
    times_its_block,
    walk,
    wrapper_name,
)


class Local:
    """One module's own definitions and calls, found in one walk of its syntax tree: what it
    imports, jits, times and calls, by the names it binds. The rules ask it through
    :class:`~harnesscheck.model.module.Module`, which adds what other modules share."""

    def __init__(
        self,
        tree: ast.Module,
        source: str = "",
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
        self._import_nodes: list[ast.Import | ast.ImportFrom] = []
        self.jax_modules = set(JAX_MODULES)
        self.numpy_modules = set(NUMPY_MODULES)
        self.jax_names: dict[str, str] = {}  # names imported from jax: bound -> jax's name
        self.imported: set[str] = set()  # every module the module imports, by its full name
        self.origins: dict[str, str] = {}  # names bound by absolute imports: their full names
        self.model_classes: set[str] = set()  # its classes derived from a library's models
        self.from_timeit = {"timeit"}  # names imported from timeit (`%timeit` becomes timeit)
        self._clocks: dict[str, str] = {}  # clocks imported under a name of the module's own
        self.traced: set[str] = set()  # functions whose body is traced
        self.traced_here: set[int] = set()  # the definitions a tracer decorates
        self.traced_names: list[tuple[str, int]] = []  # names a tracing call is handed, where
        self.in_classes: set[int] = set()  # definitions in a class body: no bare name finds them
        self._class_methods: dict[str, set[str]] = {}  # the module's classes: their methods
        self._class_attributes: dict[str, set[str]] = {}  # ... what their methods set on self
        self._jit_aliases: set[str] = set()  # names bound to jit itself: pjit_fn = pjit
        # classes whose __call__ calls what their constructor is handed: at which position
        self._wrappers: dict[str, int] = {}
        self.jitted: set[str] = set()  # names bound to jitted functions
        self.compiled: set[str] = set()  # names bound to compiled functions: they never compile
        self.identities: set[str] = set()  # jit(lambda x: x, out_shardings=...): resharding
        self.pure: set[str] = set()  # jitted by jax itself: they change none of their arguments
        # jitted by equinox: since 0.11.8 `filter_jit` blocks on its result before returning
        self.blocking: set[str] = set()
        self.factories: set[str] = set()  # functions that return a jitted function
        self.recompiling: set[str] = set()  # functions that jit anew, so compile, each call
        self.partials: dict[str, str] = {}  # write_fn = partial(write, ...): write_fn -> write
        self.timing_contexts: set[str] = set()  # context managers that time their block
        self.timing_methods: dict[str, set[str]] = {}  # class -> its methods that are ones
        self.functions: dict[str, list[Function]] = {}
        self.jax_functions: set[str] = set()  # module functions that dispatch and never wait
        self.transformed: set[str] = set()  # names bound to a transformation: g = jax.grad(f)
        self.waiting_functions: set[str] = set()  # module functions that wait
        self.called: dict[str, list[int]] = {}  # function name -> lines where it is called
        self.enclosing: dict[str, list[Function | None]] = {}  # name -> around each def of it
        # What keeps the fastest (or the median) of repeated timings, or drops the first ones:
        # the names min(), median(), times[1:] read, and the nodes inside such a call.
        self.kept_names: set[str] = set()
        self.kept_nodes: set[int] = set()
        self.times = False  # the module reads a timer
        self.barrier = False  # the module calls jax.effects_barrier()
        self.effects = False  # ... or a host callback, or jax.debug.print: it has effects
        self.callbacks: list[ast.AST] = []  # functions handed to host callbacks
        self.donating: dict[str, Told] = {}  # jitted name -> donated args
        self.static: dict[str, Told] = {}  # jitted name -> the arguments it takes as static
        self._collect()
        self.from_timeit -= set(self.functions)  # def timeit(fn): the module's own helper
        self.factories |= factories(self)
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
        self._clocks |= clock_aliases(self.of(ast.Assign))
        for node in self.of(ast.Call):
            self._collect_call(node)
        for node in self.of(ast.Assign):  # pjit_fn = pjit (in a branch): pjit_fn(f) jits f
            if isinstance(node.value, (ast.Name, ast.Attribute)) and (
                self.wrapper(node.value) in JITTING
            ):
                self._jit_aliases.update(n for t in node.targets for n in bound_names(t))
        for node in self.of(ast.Assign):
            self._collect_assign(node)
        for node in self.of(ast.Subscript):
            if type(node.slice) is ast.Slice:
                lower = node.slice.lower
                if (isinstance(lower, ast.Constant) and positive_count(lower.value)) or (
                    isinstance(lower, ast.Name) and "warm" in lower.id.lower()
                ):
                    self.kept_names |= names_read(node.value)
        for node in self.of(ast.If):  # if i > 0: times.append(dt), the first round left out
            if past_first(node.test):
                self.kept_names |= {n for s in node.body for n in appended(s)}
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
            wrapper = self.wrapper(decorator)
            if wrapper in TRACING:
                self.traced.add(node.name)
                self.traced_here.add(id(node))
            if wrapper in JITTING:
                self.jitted.add(node.name)
                if wrapper in BLOCKING:
                    self.blocking.add(node.name)
                self._told_arguments(ast.Name(node.name), decorator, node)
        if isinstance(node, ast.FunctionDef) and times_its_block(node):
            self.timing_contexts.add(node.name)

    def _collect_class(self, node: ast.ClassDef) -> None:
        """A context manager class that reads a timer on entering and on leaving, and the
        methods of a class that are @contextmanager timers."""
        methods = {m.name: m for m in node.body if isinstance(m, Function)}
        self.in_classes |= {id(m) for m in node.body if isinstance(m, Function)}
        if any(self.makes_models(base) for base in node.bases):
            self.model_classes.add(node.name)
        self._class_methods[node.name] = set(methods)
        self._class_attributes[node.name] = {
            target.attr
            for method in methods.values()
            for n in walk(method)
            if isinstance(n, ast.Assign)
            for target in n.targets
            if isinstance(target, ast.Attribute) and callee_key(target.value) == "self"
        }
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
        timing = {name for name, method in methods.items() if times_its_block(method)}
        if timing:
            self.timing_methods[node.name] = timing

    def _collect_call(self, node: ast.Call) -> None:
        if (clock := self._clocks.get(callee_key(node.func))) is not None:
            node.func = ast.copy_location(ast.Name(clock, ast.Load()), node.func)  # timer()
        called = callee_name(node.func)
        if self.wrapper(node.func) in TRACING:
            for argument in node.args[:3]:
                if isinstance(argument, ast.Name):
                    self.traced.add(argument.id)
                    self.traced_names.append((argument.id, node.lineno))
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
            self.times = is_timer(node) or self.is_timeit(node) or self.is_pytest_benchmark(node)
        self.barrier = self.barrier or called == "effects_barrier"
        if called in CALLBACKS and node.args:
            self.callbacks.append(node.args[0])
        if called in CALLBACKS or (called == "print" and "debug" in dotted_parts(node.func)):
            self.effects = True

    def _collect_assign(self, node: ast.Assign) -> None:
        if not isinstance(node.value, ast.Call):
            return
        wrapper = self.wrapper(node.value.func)
        if callee_key(node.value.func) in self._jit_aliases:
            wrapper = "jit"
        for target in node.targets:
            if wrapper in JITTING:  # jit(f), partial(jax.jit, ...)(f)
                self.jitted.update(bound_names(target))
                if reshards(node.value):
                    self.identities.update(bound_names(target))
                if wrapper in BLOCKING:
                    self.blocking.update(bound_names(target))
                self._told_arguments(target, node.value, None)
                if not {"nnx", "eqx", "objax"} & set(dotted_parts(node.value.func)):
                    self.pure.update(bound_names(target))
            elif wrapper == "compile" and isinstance(target, ast.Name):
                self.compiled.add(target.id)  # g = f.lower(x).compile()
                self.pure.add(target.id)
            elif wrapper in TRACING and isinstance(target, ast.Name):
                self.jax_functions.add(target.id)  # g = jax.grad(f): g(x) computes
                self.transformed.add(target.id)  # ... outside jit, operation by operation

    def wraps_jitted(self, call: ast.Call) -> bool:
        """A wrapper class of the module made around a jitted function: whisper-jax's
        ``PjittedFnWithContext(pjitted, mesh)``, whose ``__call__`` calls it."""
        at = self._wrappers.get(callee_key(call.func))
        return at is not None and len(call.args) > at and callee_key(call.args[at]) in self.jitted

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

    @functools.cached_property
    def public(self) -> set[str]:
        """What ``from module import *`` binds: the names in its ``__all__`` when it lists
        them, else those it defines that do not begin with an underscore."""
        for statement in self.tree_body:
            if isinstance(statement, ast.Assign) and "__all__" in {
                n for t in statement.targets for n in bound_names(t)
            }:
                if isinstance(statement.value, (ast.List, ast.Tuple)):
                    return {
                        e.value
                        for e in statement.value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    } & self.defined
        return {name for name in self.defined if not name.startswith("_")}

    def _told_arguments(
        self, target: ast.AST, wrapper: ast.AST, definition: Function | None
    ) -> None:
        """The arguments ``jax.jit(f, donate_argnums=...)`` donates and those it takes as
        static; nnx and equinox keep the objects they are handed up to date: no donation."""
        if not isinstance(target, ast.Name) or not isinstance(wrapper, ast.Call):
            return
        if wrapper_name(wrapper) not in {"jit", "pjit", "pmap"}:
            return
        for kept, kind in ((self.donating, "donate"), (self.static, "static")):
            if kind == "donate" and any(
                {"nnx", "eqx"} & set(dotted_parts(n)) for n in [wrapper.func, *wrapper.args[:1]]
            ):
                continue  # only jax's own jit donates: nnx and equinox keep their objects
            if target.id in kept:
                kept[target.id] = (set(), set())  # bound twice: which one is called?
            elif any(found := told(wrapper, definition, kind)):
                kept[target.id] = found

    def _imported(self, node: ast.Import | ast.ImportFrom) -> None:
        self._import_nodes.append(node)
        self.imported |= {a.name for a in node.names} if isinstance(node, ast.Import) else set()
        self.imported |= (
            {node.module} if isinstance(node, ast.ImportFrom) and node.module else set()
        )
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                self.origins[bound] = alias.name if alias.asname else bound
                if alias.name.split(".")[0] == "jax":
                    self.jax_modules.add(bound)
                    self.numpy_modules.discard(bound)  # import jax.numpy as np
                else:
                    self.jax_modules.discard(bound)  # import random: Python's, not jax's
                    if alias.name == "numpy":
                        self.numpy_modules.add(bound)
            return
        if node.module and not node.level:
            for alias in node.names:
                self.origins[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        if node.module in ("time", "timeit"):  # from timeit import default_timer as timer
            self._clocks |= {a.asname: a.name for a in node.names if a.asname and a.name in TIMERS}
        if node.module == "timeit":
            self.from_timeit |= {alias.asname or alias.name for alias in node.names}
        elif node.module and node.module.split(".")[0] == "jax":
            for alias in node.names:
                bound = alias.asname or alias.name
                self.jax_names[bound] = alias.name
                self.numpy_modules.discard(bound)

    def wrapper(self, node: ast.AST) -> str:
        """The wrapper a decorator or call names (:func:`wrapper_name`: ``jax.jit``,
        ``partial(jax.jit, ...)``), or "" for another library's own that goes by a name of
        JAX's (``numba.jit``, ``torch.compile``)."""
        name = wrapper_name(node)
        if isinstance(node, ast.Call):
            partial = callee_name(node.func) == "partial" and node.args
            node = node.args[0] if partial else node.func
        if dotted_parts(node)[-2:] == ["tree", "map"]:
            return ""  # jax.tree.map runs its function on each leaf; lax.map traces it
        origin = self._origin(dotted_parts(node))
        return "" if origin and foreign(origin) else name

    def makes_models(self, func: ast.AST) -> bool:
        """``func`` names a library's class of models or a function that returns one
        (``nn.Module``, ``FlaxBertModel.from_pretrained``, ``hk.transform``), or a class of the
        module derived from one."""
        parts = dotted_parts(func)
        if parts[-1:] in (["from_pretrained"], ["from_config"]):
            parts = parts[:-1]
        if not parts:
            return False
        if len(parts) == 1 and parts[0] in self.model_classes:
            return True
        origin = self._origin(parts)
        return origin is not None and makes_models(origin)

    def _origin(self, parts: list[str]) -> str | None:
        """The full dotted name a dotted callee stands for, by what its first name was
        imported as (``nn.Module``: ``flax.linen.Module``); None when not imported."""
        head = self.origins.get(parts[0]) if parts else None
        return ".".join([head, *parts[1:]]) if head is not None else None

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

    @functools.cached_property
    def assigned(self) -> list[ast.Assign]:
        """The module's assignments, in the order of their lines."""
        return sorted(self.of(ast.Assign), key=lambda n: n.lineno)

    def is_benchmark_loop(self, node: ast.While) -> bool:
        """google_benchmark's ``while state:`` (imported), or a time budget's ``while`` test."""
        named = isinstance(node.test, ast.Name) and node.test.id == "state"
        return (named and "google_benchmark" in self.imported) or budget_loop(node.test)

    def is_pytest_benchmark(self, call: ast.Call) -> bool:
        """pytest-benchmark's fixture called, not a ``benchmark`` the module defines or imports."""
        return is_benchmark(call) and "benchmark" not in self.defined

    def is_timeit(self, call: ast.Call) -> bool:
        """``timeit.timeit``, ``timeit.repeat``, or either imported from ``timeit``."""
        chain = dotted_parts(call.func)
        if callee_name(call.func) not in {"timeit", "repeat"}:
            return False
        if len(chain) == 1:  # timeit(...): imported from timeit, unless the module's own def
            return chain[0] in self.from_timeit
        return chain[:1] == ["timeit"]

    def bodies(self) -> Iterator[list[ast.stmt]]:
        for child in self.nodes:
            yield from statement_lists(child)

    def scope_of(self, line: int) -> int:
        """The first line of the innermost function around ``line`` (0: the module)."""
        inner = self.innermost(line)
        return inner.lineno if inner is not None else 0

    def innermost(self, line: int) -> Function | None:
        """The innermost of the module's functions that ``line`` is in (None: the module)."""
        return max(self.around(line), key=lambda d: d.lineno, default=None)

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

    def warms_up(self, line: int) -> bool:
        """The function around ``line`` is called twice (by one name, if others share its name)
        or speaks of warming up."""
        for definition in self.around(line):
            counts = [len(v) for k, v in self.called.items() if k.split(".")[-1] == definition.name]
            shared = len(self.functions.get(definition.name, [])) > 1
            if (max(counts, default=0) if shared else sum(counts)) > 1:
                return True
            names = (n.id for n in walk(definition) if isinstance(n, ast.Name))
            if any("warm" in name.lower() for name in names):
                return True
        return False

    def host_made(self, statement: ast.stmt, host: set[str]) -> None:
        """Add to ``host`` the names ``statement`` binds to what NumPy (or what NumPy made, a
        RandomState) returns; take out those it binds to what another call returns
        (``psi0 = to_tensor(psi0)``)."""
        for target, value in self.assignments(statement):
            chain = dotted_parts(value.func) if isinstance(value, ast.Call) else []
            if chain and chain[0] in host:
                host.update(bound_names(target))
            elif isinstance(value, ast.Call):
                host.difference_update(bound_names(target))
