"""What a timed region does, read statement by statement: its JAX work (each call's place, and
arithmetic on JAX arrays), whose results each name holds, and the waits on them."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from harnesscheck.model.handing import handed_attribute
from harnesscheck.model.library import APPENDING, WAITING_ATTRIBUTES
from harnesscheck.model.module import Module
from harnesscheck.model.syntax import (
    Place,
    bound_names,
    callee_key,
    callee_name,
    dotted_name,
    may_sync,
    names_read,
    param_names,
)

# What an array says of itself without waiting for its values
METADATA = {"shape", "dtype", "ndim", "size", "sharding", "aval", "weak_type"}


class Timed:
    """What a timed region does, read statement by statement: its JAX work, known by the place
    of each JAX call (the outputs of one call are ready together, so waiting on one of them
    waits for all), and the waits on it."""

    def __init__(self, module: Module, host: set[str] | None = None) -> None:
        self.module = module
        self.host = host or set()  # NumPy arrays made on the host before the region
        self.calls: list[ast.Call] = []  # the JAX work
        self.arithmetic: list[ast.BinOp] = []  # ... and arithmetic on JAX arrays: a + b
        self.every: list[ast.Call] = []  # every call, in order
        self.sources: dict[str, set[Place]] = {}  # name -> the timed work it holds results of
        self.made: dict[Place, str] = {}  # timed work -> what it is called in a message
        self.fed: set[Place] = set()  # timed work whose results later timed work takes
        self.steps: set[Place] = set()  # work of jitted or module functions, not bare jnp
        self.waited: set[Place] = set()
        self.last_wait: Place = (0, 0)  # the statement that waited last
        self.inputs: dict[Place, set[Place]] = {}  # timed work -> the timed work it takes
        self.maybe = False  # code this review cannot see is handed results of a step
        self.forgotten = False  # ... or of other work, all of whose work so far is then left
        self.handed_to: list[ast.Call] = []  # ... by these calls
        # results of code this review cannot see, handed timed arrays: it may have waited on
        # them, unless its results are only more input to timed work (preparing a batch)
        self.unseen: list[set[str]] = []
        self._jax_calls: set[int] = set()
        self.deferred: set[int] = set()  # calls in the lambdas it makes: run when those are

    def left(self) -> set[Place]:
        """The timed work not waited on, nor handed to work that was, nor bookkeeping on what
        was waited for: ``jnp.mean(jnp.array(losses))`` of losses each read back, a counter
        ``total += jnp.sum(info.accepted)`` (its cost is nothing next to the work's)."""
        left = self.made.keys() - self.waited - self.fed
        done = set(self.waited)
        while more := {p for p in left - done if self._bookkeeping(p, done)}:
            done |= more
        return left - done

    def _bookkeeping(self, place: Place, done: set[Place]) -> bool:
        """Work of no step of its own that takes only work waited for."""
        inputs = self.inputs.get(place)
        return place not in self.steps and bool(inputs) and inputs <= done  # type: ignore[operator]

    def inputs_waited(self) -> bool:
        """Only work whose results later timed work takes was waited on, before that work was
        dispatched (a batch made and read back, then the step it feeds): the work that came
        last was not waited on at all."""
        left = self.left()
        after = all(place > self.last_wait for place in left)
        return bool(self.waited) and self.waited <= self.fed and bool(left) and after

    def made_in(self, node: ast.AST) -> set[Place]:
        """The timed work an expression itself calls."""
        return {(n.lineno, n.col_offset) for n in ast.walk(node) if id(n) in self._jax_calls}

    def _steps_in(self, node: ast.AST) -> set[Place]:
        """The steps an expression calls itself: its calls are taken in after it, outermost
        first, so they are not among ``steps`` yet."""
        return {
            (n.lineno, n.col_offset)
            for n in ast.walk(node)
            if id(n) in self._jax_calls and isinstance(n, ast.Call) and self._a_step(n)
        }

    def _a_step(self, call: ast.Call) -> bool:
        """Work of a jitted or module function, not a bare jnp or lax call."""
        return not (isinstance(call.func, ast.Attribute) and self.module.from_jax(call.func))

    def held(self, node: ast.AST) -> set[Place]:
        """The timed work whose results an expression holds."""
        names = names_read(node)
        return self.made_in(node).union(*(self.sources.get(name, set()) for name in names))

    def reachable(self, call: ast.Call) -> set[Place]:
        """The timed work a method reaches through its object: ``self.run()`` may read
        ``self.state``."""
        if not isinstance(call.func, ast.Attribute):
            return set()
        owner = dotted_name(call.func.value) or callee_name(call.func.value)
        prefix = owner + "."
        return set().union(*(w for name, w in self.sources.items() if name.startswith(prefix)))

    def read(self, statement: ast.stmt, alternative: bool = False) -> None:
        """Take in one statement of the region; an ``alternative`` (an ``else`` branch's) binds
        its names to its work beside what the ``if`` branch bound them to."""
        module = self.module
        nodes = list(ast.walk(statement))
        waited = len(self.waited)
        inner: set[int] = set()  # the operands of arithmetic already counted
        self.deferred |= {
            id(n) for d in nodes if isinstance(d, ast.Lambda) for n in ast.walk(d.body)
        }
        for node in nodes:
            if isinstance(node, ast.Call) and module.jax_call(node):
                self._jax_calls.add(id(node))
            elif isinstance(node, ast.BinOp) and id(node) not in inner:
                inner |= {id(n) for n in ast.walk(node)}
                if module.computes(node):
                    self._jax_calls.add(id(node))
                    self.arithmetic.append(node)
                    place = (node.lineno, node.col_offset)
                    self.made.setdefault(place, "the arithmetic")
                    self.inputs[place] = self.held(node.left) | self.held(node.right)
        for node in nodes:  # [o.block_until_ready() for o in step(x)]: o holds step's results
            if isinstance(node, ast.comprehension) and (work := self.held(node.iter)):
                for name in bound_names(node.target):
                    self.sources[name] = self.sources.get(name, set()) | work
        for node in nodes:
            if isinstance(node, ast.Call):
                self._call(node, statement)
            elif isinstance(node, ast.FormattedValue):
                self.waited |= self.held(node.value)  # f"{loss}" reads the values
            elif isinstance(node, ast.Attribute) and node.attr in WAITING_ATTRIBUTES:
                self.waited |= self.held(node.value)  # loss._value (alpa's benchmarks)
            elif isinstance(node, ast.Assert):  # `if loss < best:` reads values, `x.shape` not
                self.waited |= self.made_in(node.test) | self.held(_values_in(node.test))
        for target, value in module.assignments(statement):
            if isinstance(target, ast.Subscript) and callee_key(target.value) in self.host:
                self.waited |= self.held(value)  # samples[i] = x copies x into NumPy's array
            if self._apart(target, value):
                continue
            work = self.held(value)
            if work:
                names = bound_names(target)
                for name in names:
                    self.sources[name] = (
                        work | self.sources.get(name, set()) if alternative else work
                    )
                for place in self.made_in(value) & self.made.keys():
                    if self.made[place].endswith("(...)") and names:
                        self.made[place] = ", ".join(names)
        if len(self.waited) > waited:
            where = (getattr(statement, "lineno", 0), getattr(statement, "col_offset", 0))
            self.last_wait = max(self.last_wait, where)

    def _apart(self, target: ast.AST, value: ast.AST) -> bool:
        """Results of a module function that dispatches several pieces of work, unpacked: each
        name is work of its own, waited on by itself (the call's place gives way to them)."""
        if not (
            isinstance(target, (ast.Tuple, ast.List))
            and isinstance(value, ast.Call)
            and (id(value) in self._jax_calls or self.module.is_wait(value))
            and len(parts := self.module.apart(value)) > 1
        ):
            return False
        place = (value.lineno, value.col_offset)
        self.made.pop(place, None)
        self.steps.discard(place)
        if value not in self.calls:
            self.calls.append(value)  # JAX work, even if it may wait on the way
        names = [bound_names(e) for e in target.elts]
        for k, name in ((k, n[0]) for k, n in enumerate(names) if k in parts and len(n) == 1):
            part = (value.lineno, -1 - k)  # not a column: one result of the call
            self.made[part] = name
            self.steps.add(part)
            self.sources[name] = {part}
        return True

    def _closed_over(self, node: ast.Call) -> set[Place]:
        """The timed work whose results a function of the module called here reads from
        around it (``def g(theta): return T_base + theta``): handed to it as if given."""
        if not isinstance(node.func, ast.Name):
            return set()
        held: set[Place] = set()
        for definition in self.module.functions.get(node.func.id, []):
            read = set().union(*(names_read(s) for s in definition.body)) - param_names(definition)
            held |= set().union(*(self.sources.get(name, set()) for name in read))
        return held

    def _call(self, node: ast.Call, statement: ast.stmt) -> None:
        module = self.module
        self.every.append(node)
        arguments = ast.Tuple([*node.args, *[k.value for k in node.keywords]])
        mapped = [a for a in node.args if isinstance(a, ast.Lambda)]
        if id(node) in self._jax_calls:
            place = (node.lineno, node.col_offset)
            self.calls.append(node)
            if callee_key(node.func) in module.blocking:
                self.waited.add(place)  # eqx.filter_jit returns with its work done
            self.inputs[place] = (self.held(arguments) | self._closed_over(node)) - {place}
            self.fed |= self.inputs[place]
            read = names_read(arguments)
            self.unseen = [names for names in self.unseen if not names & read]
            self.made.setdefault(place, callee_name(node.func) + "(...)")
            if self._a_step(node):
                self.steps.add(place)
            pure = callee_key(node.func) in module.pure
            if isinstance(statement, ast.Expr) and statement.value is node and not pure:
                for argument in node.args:  # nnx: train_step(model, batch) updates the model
                    if isinstance(argument, ast.Name):
                        self.sources.setdefault(argument.id, set()).add(place)
                kept = isinstance(node.func, ast.Attribute) and not handed_attribute(module, node)
                if kept:  # sim.step(n) keeps it in sim.data; self.step_fn(x), handed, does not
                    for name in bound_names(node.func.value):  # type: ignore[union-attr]
                        self.sources.setdefault(name, set()).add(place)
        elif module.is_wait(node):
            self.waited |= self.held(node)
        elif any(
            isinstance(n, ast.Call) and module.is_wait(n) for a in mapped for n in ast.walk(a)
        ):
            self.waited |= self.held(arguments)  # tree_map(lambda a: a.block_until_ready(), out)
        elif module.waits_for_effects_only(node):
            pass  # barrier-waits-on-tokens: a pure computation leaves no token to wait on
        elif may_sync(callee_name(node.func)):
            self.maybe = True
        elif callee_name(node.func) in APPENDING:
            if isinstance(node.func, ast.Attribute):  # results.append(out)
                for name in bound_names(node.func.value):
                    self.sources.setdefault(name, set()).update(self.held(arguments))
        elif module.might_wait(node, bool(reached := self.reachable(node))) and (
            handed := self.held(arguments) | reached
        ):
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if receiver is not None and self.held(receiver):
                return  # out.reshape(...) computes
            bound = isinstance(statement, ast.Assign) and node in spine(statement.value)
            runs = any(isinstance(a, ast.Lambda) for a in arguments.elts)
            steps = self.steps | self._steps_in(arguments)  # realise(step(x)): made right here
            if not bound and not handed & steps and not runs:
                # train_data.shuffle(key), handed results of earlier work, not a function to
                # run: it may have waited for what was dispatched before it, never after
                self.made.clear()
                self.forgotten = True
            elif handed & steps or not bound:
                self.maybe = True
                self.handed_to.append(node)
            else:  # batch = prepare(x): more input, or the work being timed?
                read = names_read(arguments)
                self.unseen = [names for names in self.unseen if not names & read]
                self.unseen.append({n for t in statement.targets for n in bound_names(t)})


def _values_in(test: ast.expr) -> ast.Tuple:
    """What a test reads the values of: its names, less those it reads only the metadata of
    (``x.shape``, ``x.dtype``: known without waiting for the array)."""
    metadata = {
        id(n.value) for n in ast.walk(test) if isinstance(n, ast.Attribute) and n.attr in METADATA
    }
    names = [n for n in ast.walk(test) if isinstance(n, ast.Name) and id(n) not in metadata]
    return ast.Tuple(names)


def spine(node: ast.AST) -> Iterator[ast.AST]:
    """An expression and what it is an attribute or item of: ``f(x).data[0]``, ``f(x).data``,
    ``f(x)``."""
    while True:
        yield node
        if not isinstance(node, (ast.Attribute, ast.Subscript)):
            return
        node = node.value
