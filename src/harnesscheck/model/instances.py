"""Names bound to instances of the program's classes, and what their methods are: ``chrono =
Chrono()`` (then ``chrono.log_timing(...)`` times a block), ``env = RolloutManager(...)`` of
another module (then ``env.batch_step`` is jitted), a parameter annotated with one of its classes
(``stac_core_obj: stac_core.StacCore``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from harnesscheck.model.syntax import bound_names, callee_key, callee_name

if TYPE_CHECKING:
    from harnesscheck.model.module import Module


def find_instances(module: Module) -> None:
    """Bind each name made an instance of the program's classes to its class, and take its
    methods' kinds under the name (``env.batch_step`` jitted)."""
    for names, made in _made(module):
        kinds = module.methods_of(made)
        for name in names:
            for kind, methods in kinds.items():
                getattr(module, kind).update(f"{name}.{m}" for m in methods)
                if "__call__" in methods:  # opart(params, f): its __call__ runs
                    getattr(module, kind).add(name)
            if (found := module.class_named(made)) is not None:
                module.instances[name] = found


def _made(module: Module) -> Iterator[tuple[list[str], str]]:
    """The names each assignment of a call binds, with the callee (a class, or a classmethod
    that builds one: ``Net.from_config(...)`` makes a Net), and each parameter annotated with
    a class of the program, with that class."""
    for node in module.assigned:
        made = callee_key(node.value.func) if isinstance(node.value, ast.Call) else ""
        cls, _, method = made.rpartition(".")
        if module.methods_of(cls) and _builds(module, cls, method):
            made = cls
        yield [n for target in node.targets for n in bound_names(target)], made
    for definition in module.of(ast.FunctionDef, ast.AsyncFunctionDef):
        for arg in [*definition.args.posonlyargs, *definition.args.args]:
            named = callee_key(arg.annotation) if arg.annotation is not None else ""
            if named and module.class_named(named) is not None:
                yield [arg.arg], named


def _builds(module: Module, cls: str, method: str) -> bool:
    """``cls.method`` is a classmethod of the program's class ``cls``."""
    home, theirs = module.class_named(cls) or (module, cls)
    return any(
        callee_name(d) == "classmethod"
        for definition in home.method_definitions(theirs, method)
        for d in definition.decorator_list
    )
