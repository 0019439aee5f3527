"""Functions picked out of a table: ``for name, fn in [("jit", f_jit), ("eager", f)]``, ``for
name, fn in methods.items()``, ``fn = info["function"]`` of ``for key, info in
strategies.items()``. A name bound only so, to functions of one kind, is of that kind: a call
of it runs one of them."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from harnesscheck.model.syntax import callee_key

if TYPE_CHECKING:
    from harnesscheck.model.module import Module

KINDS = ("recompiling", "jitted", "jax_functions")  # the first the functions all share


def pick_from_tables(module: Module) -> None:
    """Give each name bound only to what a table holds the kind its functions all share."""
    literals = _literals(module)
    picked: dict[str, list[list[ast.expr]]] = {}  # name -> what each binding may pick
    picks: set[int] = set()  # the assignments that pick a field of a row
    for loop in module.of(ast.For):
        rows = _rows(loop.iter, literals)
        chosen = [(t, v) for t, v in _picks(rows, loop.target) if all(map(_named, v))]
        if not chosen:
            continue
        for target, values in chosen:
            picked.setdefault(target, []).append(values)
        for node in ast.walk(loop):  # fn = info["function"], info a row of dicts
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript):
                row = callee_key(node.value.value)
                key = node.value.slice
                for target, values in chosen:
                    if target == row and isinstance(key, ast.Constant):
                        fields = [_field(v, key.value) for v in values]
                        picks.add(id(node))
                        for name in (t.id for t in node.targets if isinstance(t, ast.Name)):
                            picked.setdefault(name, []).append(fields)
    if not picked:
        return
    other = {n for a in module.assigned if id(a) not in picks for t in a.targets for n in _names(t)}
    for name, bindings in picked.items():
        values = [v for binding in bindings for v in binding]
        if name in other or not values or any(v is None for v in values):
            continue
        for kind in KINDS:
            if all(callee_key(v) in getattr(module, kind) for v in values):
                getattr(module, kind).add(name)
                break


def _literals(module: Module) -> dict[str, ast.expr]:
    """Names bound once, at the module's top or in a function, to a list, tuple or dict."""
    bound: dict[str, list[ast.expr]] = {}
    for node in module.assigned:
        for target in node.targets:
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(node.value)
    containers = (ast.List, ast.Tuple, ast.Dict)
    return {n: v[0] for n, v in bound.items() if len(v) == 1 and isinstance(v[0], containers)}


def _rows(iterated: ast.expr, literals: dict[str, ast.expr]) -> list[ast.expr] | None:
    """What a loop over ``iterated`` takes, row by row: the items of a list or tuple, the
    pairs of ``dict.items()``, the values of ``dict.values()`` (a dict named or written)."""
    method = ""
    if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute):
        method, iterated = iterated.func.attr, iterated.func.value
    table = literals.get(iterated.id) if isinstance(iterated, ast.Name) else iterated
    if isinstance(table, (ast.List, ast.Tuple)) and not method:
        return list(table.elts)
    if isinstance(table, ast.Dict) and None not in table.keys:
        if method == "items":
            return [ast.Tuple([k, v]) for k, v in zip(table.keys, table.values, strict=True)]
        if method == "values":
            return list(table.values)
    return None


def _picks(rows: list[ast.expr] | None, target: ast.expr) -> list[tuple[str, list[ast.expr]]]:
    """For each name the loop's target binds, what it is bound to on each row."""
    if rows is None:
        return []
    if isinstance(target, ast.Name):
        return [(target.id, rows)]
    if not isinstance(target, ast.Tuple):
        return []
    found = []
    for k, part in enumerate(target.elts):
        if isinstance(part, ast.Name) and all(
            isinstance(r, ast.Tuple) and len(r.elts) == len(target.elts) for r in rows
        ):
            found.append((part.id, [r.elts[k] for r in rows]))  # type: ignore[attr-defined]
    return found


def _field(row: ast.expr, key: object) -> ast.expr | None:
    """``row[key]`` of a dict written out: ``{"function": f}["function"]`` is ``f``."""
    if not isinstance(row, ast.Dict):
        return None
    for k, v in zip(row.keys, row.values, strict=True):
        if isinstance(k, ast.Constant) and k.value == key:
            return v
    return None


def _named(value: ast.expr) -> bool:
    """What a table may hold a function as: a name, an attribute, a row of fields."""
    return isinstance(value, (ast.Name, ast.Attribute, ast.Dict))


def _names(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
