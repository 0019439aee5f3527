"""What one module does in the program it is part of: the second step of the model. Every
module's own names are read first (:class:`~harnesscheck.model.local.Local`); then, in the order
of its imports, each takes what the modules it imports share (what they jit, dispatch, wait on
or time, under the names it binds them to), and its functions' calls are classified: which
dispatch JAX work and never wait, which wait. The rules ask only modules resolved so.

Precision comes first: the model ties work to JAX only where it can see it (a function jitted
in the program, a ``jax``/``jnp``/``lax`` call, a function of the program that computes with
them, or one handed such a function), and a call of code it cannot see is one that might wait.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from pathlib import Path

from harnesscheck.model.afresh import recompiling
from harnesscheck.model.classify import bound_to_lambdas, bound_to_names, classify_functions
from harnesscheck.model.handing import (
    Handed,
    Position,
    find_scopes,
    handed_at,
    handed_attribute,
)
from harnesscheck.model.instances import find_instances
from harnesscheck.model.library import (
    COMPUTES,
    LIBRARIES,
    LOOPS,
    MAPPING,
    MODEL_METHODS,
    MOVING,
    NOT_WORK,
    PASSING,
    TRACING,
    WAITING_FUNCTIONS,
    WAITING_METHODS,
    computes,
)
from harnesscheck.model.local import Local
from harnesscheck.model.scoping import hidden
from harnesscheck.model.syntax import (
    HOST_TYPES,
    Function,
    annotated_host,
    bound_names,
    callee_key,
    callee_name,
    dotted_name,
    dotted_parts,
    may_sync,
    names_read,
    of_the_host,
    walk,
)
from harnesscheck.model.tables import pick_from_tables

# What a module of the program shares with one that imports it: the names of each of these kinds.
SHARED = (
    "jitted", "compiled", "pure", "blocking", "jax_functions", "waiting_functions", "factories",
    "timing_contexts", "recompiling",
)  # fmt: skip

SKIPPED = TRACING | NOT_WORK | WAITING_FUNCTIONS  # imported from jax, but no work: jit, devices
NOT_WORK_OR_TRACING = NOT_WORK | TRACING


# Finds the module an import names, given its dotted name and relative level.
Imports = Callable[[str, int], "Module | None"]


class Module(Local):
    """What one module defines and does in its program: its own names (:class:`Local`), what
    the modules it imports share with it, and what its functions' calls do. Built in two steps:
    made (its names), then :meth:`resolve`; :meth:`alone` does both for a module on its own.

    ``imports`` finds the module an import names (None when it is not in the program);
    ``handing`` lists the functions of other modules this one hands JAX functions to, which
    the program hands back (:meth:`hand`) once every module is resolved."""

    def __init__(
        self,
        tree: ast.Module,
        source: str = "",
        imports: Imports | None = None,
        path: Path | None = None,
    ) -> None:
        self._imports = imports
        self.handed_here: dict[str, set[Position]] = {}
        self.handed_attributes: set[str] = set()  # self.step_fn = step_fn, handed a function
        # names bound to functions of other modules of the program: where they are defined
        self.imported_functions: dict[str, tuple[Module, str]] = {}
        self.inherited: dict[str, Module] = {}  # methods a class here inherits: where defined
        self.handing: list[tuple[Module, str, set[Position]]] = []  # (module, function, places)
        # classes imported from the program's modules, by the name bound here: (module, name)
        self._imported_classes: dict[str, tuple[Module, str]] = {}
        self.jax_values: set[str] = set()  # names bound to JAX arrays
        self.models: set[str] = set()  # what runs a library's model, outside jit: model(x)
        # names bound to instances of the program's classes: (the class's module, its name)
        self.instances: dict[str, tuple[Module, str]] = {}
        self.bound_modules: dict[str, Module] = {}  # the program's modules, by the name bound
        self._calls_unseen: dict[str, bool] = {}  # by function: it calls what might wait
        self.scopes: list[Handed] = []
        # names bound by imports the program could not follow (nor JAX's, NumPy's or the
        # standard library's): their code is not among the files reviewed; by name, the module
        self.unseen: dict[str, str] = {}
        self._step = 1  # 1: its names; 2: resolving (an import cycle back finds it so); 3: done
        super().__init__(tree, source, path)

    @classmethod
    def alone(cls, tree: ast.Module, source: str = "") -> Module:
        """A module resolved on its own, with no program around it (a test's source)."""
        module = cls(tree, source)
        module.resolve()
        return module

    def resolve(self) -> None:
        """The second step: take what the imported modules share (each resolved first), then
        classify its functions' calls. A module an import cycle leads back to gives what it has."""
        if self._step > 1:
            return
        self._step = 2
        self._adopt_imports()
        self.recompiling |= recompiling(self)
        find_instances(self)
        self._made()
        classify_functions(self)
        pick_from_tables(self)
        find_instances(self)  # again: what the module's own classes' methods do is known now
        bound_to_lambdas(self)
        bound_to_names(self)
        host: set[str] = set()  # names also bound to a constant or to what NumPy makes
        for node in self.of(ast.Assign):
            names = {n for target in node.targets for n in bound_names(target)}
            if self.jax_call(node.value):
                self.jax_values |= names
            elif isinstance(node.value, ast.Constant) or (
                isinstance(node.value, ast.Call)
                and set(dotted_parts(node.value.func)[:1]) & self.numpy_modules
            ):
                host |= names
        self.jax_values -= host
        find_scopes(self)
        self._step = 3

    def _made(self) -> None:
        """Names bound to what a factory makes, to a partial of a jitted function, to a
        timer's instance or to a model: ``step = make_step()``, ``partial(step, x)``, ``timer =
        Timer()``, ``model = FlaxBertModel.from_pretrained(...)``."""
        self.times = self.times or bool(self.timing_contexts)
        for node in self.assigned:
            call = node.value
            if not isinstance(call, ast.Call):
                continue
            bound = call.args[0] if callee_name(call.func) == "partial" and call.args else None
            if bound is not None:
                for target in node.targets:
                    self.partials.update(dict.fromkeys(bound_names(target), callee_key(bound)))
            made = callee_key(call.func) in self.factories or self.wraps_jitted(call)
            if made or (bound is not None and callee_key(bound) in self.jitted):
                for target in node.targets:
                    self.jitted.update(bound_names(target))
            elif callee_key(call.func) in self.timing_contexts:
                for target in node.targets:
                    self.timing_contexts.update(bound_names(target))
            elif self.makes_models(call.func) or self._imported_model(call.func):
                for name in (n for target in node.targets for n in bound_names(target)):
                    # model(x), model.apply(...), tx.update(grads, state)
                    runs = {name, *(f"{name}.{m}" for m in MODEL_METHODS)}
                    self.models |= runs
                    self.jax_functions |= runs

    def _imported_model(self, func: ast.AST) -> bool:
        """``func`` is a class of models another module of the program defines."""
        home, name = self._imported_classes.get(callee_key(func), (None, ""))
        return home is not None and name in home.model_classes

    def method_definitions(self, cls: str, method: str) -> list[Function]:
        """The definitions of ``method`` in the module's class ``cls``."""
        return [
            d for c in self.of(ast.ClassDef) if c.name == cls
            for d in c.body if isinstance(d, Function) and d.name == method
        ]  # fmt: skip

    def class_named(self, name: str) -> tuple[Module, str] | None:
        """The program's class ``name`` names here (``StacCore``, ``stac_core.StacCore`` of a
        module imported as ``stac_core``): its module, and its name there."""
        head, _, last = name.rpartition(".")
        home = self.bound_modules.get(head)
        if home is not None and last in home._class_methods:
            return home, last
        return (self, name) if name in self._class_methods else self._imported_classes.get(name)

    def methods_of(self, name: str) -> dict[str, set[str]]:
        """By kind, the methods of the class ``name`` names that time a block, are jitted,
        dispatch or wait, and the attributes its methods set to jitted functions
        (``self.v_step = jax.jit(...)``)."""
        if (found := self.class_named(name)) is None:
            return {}
        home, theirs = found
        methods = home._class_methods[theirs]
        kinds = {
            kind: methods & getattr(home, kind)
            for kind in ("jitted", "blocking", "jax_functions", "waiting_functions", "factories")
        }
        attributes = home._class_attributes.get(theirs, set())
        for kind in ("jitted", "blocking"):
            kinds[kind] |= {a for a in attributes if f"self.{a}" in getattr(home, kind)}
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
                        self.bound_modules[alias.asname or alias.name] = target
                    elif alias.name.partition(".")[0] not in LIBRARIES:
                        self.unseen[alias.asname or alias.name.partition(".")[0]] = alias.name
                continue
            base = node.module or ""
            found = self._imports(base, node.level) if base else None
            names = node.names
            if found is not None and [a.name for a in names] == ["*"]:  # from utils import *
                found.resolve()  # first: what it binds by its own "import *" is known then
                names = [ast.alias(name) for name in sorted(found.public)]
                self.defined.update(found.public)  # a package's __init__ exports them again
            for alias in names:
                bound = alias.asname or alias.name
                if found is None and (node.level or base.partition(".")[0] not in LIBRARIES):
                    if not self._imports(f"{base}.{alias.name}".lstrip("."), node.level):
                        self.unseen[bound] = "." * node.level + base
                        continue
                if found is not None and alias.name in found.defined:
                    self._share(found, bound, alias.name)
                    if alias.name in found._class_methods:
                        self._imported_classes[bound] = (found, alias.name)
                        self._inherit(bound)
                    elif alias.name in found._imported_classes:  # re-exported by a package
                        self._imported_classes[bound] = found._imported_classes[alias.name]
                elif inner := self._imports(f"{base}.{alias.name}".lstrip("."), node.level):
                    self._share(inner, f"{bound}.")  # from . import utils
                    self.bound_modules[bound] = inner
                    if found is None and alias.name in inner.functions:
                        # from utils import time_it, the package's __init__ not in the program:
                        # a call of it is time_it.py's time_it, which the __init__ exports
                        self._share(inner, bound, alias.name)

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
        target.resolve()
        self.effects = self.effects or target.effects
        names = {name: bound} if name else {n: bound + n for n in target.defined}

        def mine(theirs: str) -> str:  # chrono.log_timing there is u.chrono.log_timing here
            head, dot, rest = theirs.partition(".")
            return names[head] + dot + rest if head in names else ""

        # copies: a module may import itself (import pkg.cnc in pkg/cnc.py), sharing with itself
        for kind in SHARED:
            getattr(self, kind).update(filter(None, map(mine, list(getattr(target, kind)))))
        for kept, theirs_kept in ((self.donating, target.donating), (self.static, target.static)):
            kept.update({here: told for t, told in list(theirs_kept.items()) if (here := mine(t))})
        for theirs, defined_there in list(target.imported_functions.items()):  # re-exported
            if here := mine(theirs):
                self.imported_functions[here] = defined_there
        for theirs in target.functions:
            if theirs in target.defined and (here := mine(theirs)):
                self.imported_functions[here] = (target, theirs)

    def handed_names(self, call: ast.Call) -> set[str]:
        """The functions a call is handed, a ``partial`` of one as that function: it may run
        them (``pool.map(write, chunks)``)."""
        return {self.partials.get(n, n) for a in call.args for n in names_read(a)}

    def jax_function(self, node: ast.AST) -> bool:
        """A function that computes with JAX: jitted, of the module or the project, from jax
        itself, a ``partial`` of one, what a factory makes, or a lambda that calls one."""
        if isinstance(node, ast.Name):  # a partial of one: place = partial(device_put, ...)
            name = self.partials.get(node.id, node.id)
            return name in self.jitted or name in self.jax_functions
        if isinstance(node, ast.Attribute):
            if (dotted := dotted_name(node)) in self.jitted or dotted in self.jax_functions:
                return True
            chain = dotted_parts(node)
            return bool(chain) and chain[0] in self.jax_modules and not set(chain) & NOT_WORK
        if isinstance(node, ast.Call):
            if callee_name(node.func) == "partial" and node.args:
                return self.jax_function(node.args[0])
            return self.wrapper(node.func) in TRACING or callee_key(node.func) in self.factories
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
        func = node.func
        if self.library_computes(func):
            return True  # optax.apply_updates(params, updates)
        if isinstance(func, ast.Name):
            name = func.id
            if hidden(self, name, node.lineno):  # loss_fn nested in another benchmark
                return handed_at(self, name, node.lineno)
            if self._computing(name):
                return True
            if name in self.jax_names:
                original = self.jax_names[name]
                if original in LOOPS:
                    return True  # scan(body, ...) outside jit runs the loop
                return original not in SKIPPED and not original[:1].isupper()  # P(), Mesh()
            if name in self.functions and name not in self.waiting_functions:
                return any(names_read(arg) & self.jax_values for arg in node.args)
            return handed_at(self, name, node.lineno)  # bench(step): step(x) in bench
        if isinstance(func, ast.Call):  # jax.jit(f)(x), grad(f)(x), make_step()(x)
            return self.wrapper(func.func) in TRACING or callee_key(func.func) in self.factories
        if self._maps(func):  # tree_map(device_put_replicated, params, shardings)
            return bool(node.args) and self.jax_function(node.args[0])
        if self._computing(dotted_name(func)):
            return True  # self.step = jax.jit(f); train.step(x), train being of the project
        if dotted_parts(func)[:1] == ["self"] and len(dotted_parts(func)) == 2:  # self.evaluate()
            method = func.attr  # type: ignore[union-attr]
            return (
                method in self.jax_functions
                or method in self._jitted_methods
                or handed_attribute(self, node)
            )
        if isinstance(func, ast.Attribute) and func.attr not in WAITING_METHODS:
            if self.from_jax(func):
                if func.attr in LOOPS:
                    return True  # lax.scan(body, ...) outside jit runs the loop, compiled
                work = NOT_WORK_OR_TRACING.isdisjoint(dotted_parts(func))
                return work and not func.attr[:1].isupper()
        return False

    def library_computes(self, func: ast.AST) -> bool:
        """``func`` names a library's function that computes on the arrays it is given and
        never waits (``optax.apply_updates``)."""
        if callee_name(func) not in COMPUTES:
            return False  # most calls: no library's computing function goes by their name
        origin = self._origin(dotted_parts(func))
        return origin is not None and computes(origin)

    @functools.cached_property
    def _jitted_methods(self) -> set[str]:
        """The methods of the module's classes that a jit decorates (``self.step(x)``)."""
        methods = set().union(*self._class_methods.values())
        return {name for name in self.jitted if name in methods}

    def _computing(self, name: str) -> bool:
        """``name`` is bound to a function that computes: jitted, compiled, or one of JAX."""
        return name in self.jitted or name in self.compiled or name in self.jax_functions

    def computes(self, node: ast.BinOp) -> bool:
        """Arithmetic on JAX arrays (``a + b``, ``x @ w``): every name it reads is bound to
        one, and to no constant or NumPy array anywhere in the module, and it calls nothing."""
        names = [n.id for n in walk(node) if isinstance(n, ast.Name)]
        calls = [n for n in walk(node) if isinstance(n, ast.Call)]
        return bool(names) and not calls and all(n in self.jax_values for n in names)

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
        if name in self.jitted or name in self.compiled:
            return set()
        if name not in self.jax_functions and name not in self.waiting_functions:
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
        called = callee_name(node.func)
        if isinstance(node.func, ast.Attribute) and called in WAITING_METHODS:
            return True
        if not node.args or all(of_the_host(a) for a in node.args):
            return False  # bool(os.environ.get(...)), int("3"): a host value read
        if called in HOST_TYPES and annotated_host(self.innermost(node.lineno), node.args):
            return False  # int(nsteps), nsteps: int a parameter
        if called in MOVING and self.from_jax(node.func):
            return False  # jnp.asarray(x) copies to the device: NumPy's asarray waits
        if called in WAITING_FUNCTIONS or called in self.waiting_functions:
            return True
        if callee_key(node.func) in self.waiting_functions:  # utils.sync(x), of the project
            return True
        chain = dotted_parts(node.func)
        return bool(chain) and chain[0] in self.numpy_modules  # np.mean(x) fetches x

    def waits_for_effects_only(self, node: ast.Call) -> bool:
        """``jax.effects_barrier()`` in a module that neither calls a host callback or
        ``jax.debug.print`` nor imports one that does: it waits for no pure work before it."""
        return callee_name(node.func) == "effects_barrier" and not self.effects

    def might_wait(self, node: ast.Call, reaches: bool = False) -> bool:
        """A call of code this review cannot see, which might wait for what it is given (or,
        for a method, ``reaches`` through its object)."""
        called = callee_name(node.func)
        if may_sync(called):
            return True
        if self.jax_call(node) or self.is_wait(node) or called in PASSING or called in TRACING:
            return False
        if self.from_jax(node.func):
            return False  # jax's own code: its waits are known
        key = callee_key(node.func)
        seen = self.imported_functions.get(key) or ((self, key) if key in self.functions else None)
        if seen is not None:  # the program's own function: it may wait only through what it calls
            return seen[0].calls_unseen(seen[1])
        return bool(node.args or node.keywords) or reaches

    def calls_unseen(self, name: str) -> bool:
        """The module's function ``name`` calls code that might wait, other than the program's
        own functions (``wandb.log(metrics)``; not ``mjx_data.site_xpos[idx]``)."""
        if name not in self._calls_unseen:
            defined = self.functions.get(name, [])
            calls = [n for d in defined for n in walk(d) if isinstance(n, ast.Call)]
            self._calls_unseen[name] = False  # a function that calls itself: not through that
            self._calls_unseen[name] = any(
                callee_key(c.func) not in self.functions
                and callee_key(c.func) not in self.imported_functions
                and self.might_wait(c)
                for c in calls
            )
        return self._calls_unseen[name]
