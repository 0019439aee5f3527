"""Which parameters of a module's functions are handed JAX functions to run: ``bench(step, x)``,
``@timed``, ``profiler.phase(lambda: step(x))``, and a parameter handed on to another helper
(``profile_step(f)`` calling ``self.profile_phase(f)``). Inside such a function, a call of that
parameter dispatches JAX work. What a module hands to another module's functions is handed
there by the program (:meth:`~harnesscheck.model.program.Program.resolve`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harnesscheck.model.syntax import Function, callee_key, positional_params

if TYPE_CHECKING:
    from harnesscheck.model.module import Module

ROUNDS = 8  # of handing a parameter on through helpers: each round reaches one helper deeper
Position = int | str  # of a parameter handed: its place among the arguments, or its keyword


@dataclass
class Handed:
    """A function whose parameters are handed JAX functions (by its module's calls, or by
    another module's)."""

    first: int
    last: int
    params: set[str]


def find_scopes(module: Module) -> None:
    """Set ``module.scopes``, the parameters of its functions handed JAX functions (by its own
    calls and decorators, or by other modules: ``module.handed_here``), and ``module.handing``,
    the functions of other modules of the program it hands them to."""
    handed: dict[str, set[Position]] = {k: set(v) for k, v in module.handed_here.items()}
    elsewhere: list[tuple[Module, str, set[Position]]] = []  # what other modules' decorators make
    for node in module.of(ast.FunctionDef, ast.AsyncFunctionDef):
        if node.name in module.jax_functions or node.name in module.jitted:
            for decorator in node.decorator_list:
                if key := callee_key(decorator):
                    handed.setdefault(key, set()).add(0)
                elif isinstance(decorator, ast.Call) and (key := callee_key(decorator.func)):
                    # @timeit(logger): the function timeit returns is handed the decorated one
                    home, theirs = module.imported_functions.get(key, (module, key))
                    if made := returned_function(home, theirs):
                        if home is module:
                            handed.setdefault(made, set()).add(0)
                        else:
                            elsewhere.append((home, made, {0}))
    names: list[tuple[str, Position, str, int]] = []  # calls handed a name: (callee, position, ...)
    for node in module.of(ast.Call):
        if key := callee_key(node.func):
            arguments = [*enumerate(node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
            for i, argument in arguments:
                if module.jax_function(argument):
                    handed.setdefault(key, set()).add(i)
                elif isinstance(argument, ast.Name):
                    names.append((key, i, argument.id, node.lineno))
    for _ in range(ROUNDS):  # a parameter handed on: profile_step(f) -> profile_phase(f)
        module.scopes, module.handing, module.handed_attributes = [], list(elsewhere), set()
        for name, positions in handed.items():
            _hand_to(module, name, positions)
        more = [(key, i) for key, i, name, line in names if handed_at(module, name, line)]
        if all(i in handed.get(key, ()) for key, i in more):
            return
        for key, i in more:
            handed.setdefault(key, set()).add(i)


def hand(module: Module, handed: dict[str, set[Position]]) -> bool:
    """Take the positions of the module's functions' parameters that other modules hand JAX
    functions; whether that changed anything (its scopes, and what it hands on)."""
    more = {
        name: positions - module.handed_here.get(name, set()) for name, positions in handed.items()
    }
    if not any(more.values()):
        return False
    for name, positions in handed.items():
        module.handed_here.setdefault(name, set()).update(positions)
    find_scopes(module)
    return True


def handed_attribute(module: Module, node: ast.Call) -> bool:
    """``self.eval_step_fn(batch)``: a function the object was handed, kept in it."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and callee_key(func.value) == "self"
        and func.attr in module.handed_attributes
    )


def handed_at(module: Module, name: str, line: int) -> bool:
    """``name``, read at ``line``, is a parameter its function is handed JAX functions in."""
    return any(s.first <= line <= s.last and name in s.params for s in module.scopes)


def _hand_to(module: Module, name: str, positions: set[Position]) -> None:
    """The parameters at ``positions`` of the function the call of ``name`` runs are handed
    JAX functions: a scope of the module, or what another module of the program is handed.
    A class's are its ``__init__``'s (``Trainer(eval_step_fn=eval_step)``)."""
    if name in module.imported_functions:
        target, theirs = module.imported_functions[name]
        module.handing.append((target, theirs, positions))
    if name in module._imported_classes:
        target, theirs = module._imported_classes[name]
        module.handing.append((target, theirs, positions))
        return
    owner, dot, method = name.rpartition(".")
    if name in module._class_methods:
        owner, dot, method = "self", ".", "__init__"
        definitions = module.method_definitions(name, method)
    elif owner in module.instances:  # profiler.profile_step(...): a method of its class
        home, cls = module.instances[owner]
        if home is not module:
            module.handing.append((home, f"self.{method}", positions))
            return
        definitions = module.method_definitions(cls, method)
    elif owner in ("", "self"):
        definitions = module.functions.get(method, [])
    else:
        return
    shift = 1 if dot else 0  # self._embed(state, fn): fn is the third parameter
    for definition in definitions:
        params = positional_params(definition)
        chosen = {
            params[i + shift] if isinstance(i, int) else i
            for i in positions
            if (isinstance(i, int) and i + shift < len(params)) or i in params
        }
        if chosen:
            last = definition.end_lineno or definition.lineno
            module.scopes.append(Handed(definition.lineno, last, chosen))
            module.handed_attributes |= _kept(definition, chosen)


def _kept(definition: Function, params: set[str]) -> set[str]:
    """The attributes ``definition`` keeps handed functions in: ``self.eval_fn = eval_fn``
    (then ``self.eval_fn(batch)`` runs one)."""
    kept: set[str] = set()
    for node in ast.walk(definition):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and callee_key(node.value) in params:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            kept |= {
                t.attr
                for t in targets
                if isinstance(t, ast.Attribute) and callee_key(t.value) == "self"
            }
    return kept


def returned_function(module: Module, name: str) -> str:
    """The function the module's function ``name`` defines and returns (a decorator factory's
    decorator: ``def timeit(logger): def _factory(fn): ...; return _factory``), or ""."""
    for definition in module.functions.get(name, []):
        inner = {d.name for d in definition.body if isinstance(d, Function)}
        for statement in definition.body:
            if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
                if statement.value.id in inner:
                    return statement.value.id
    return ""
