"""What a jit is told of its arguments by name or position: those it donates
(``donate_argnums``, ``donate_argnames``) and those it takes as static (``static_argnums``,
``static_argnames``), each a set of positions and a set of names."""

from __future__ import annotations

import ast

from harnesscheck.model.syntax import Function, positional_params

Told = tuple[set[int], set[str]]


def told(wrapper: ast.Call, definition: Function | None, kind: str) -> Told:
    """The positions and names ``jax.jit(f, {kind}_argnums=..., {kind}_argnames=...)`` names,
    ``kind`` being "donate" or "static"; a name is also its position where the definition
    is known."""
    positions: set[int] = set()
    names: set[str] = set()
    for keyword in wrapper.keywords:
        values = keyword.value.elts if isinstance(keyword.value, ast.Tuple) else [keyword.value]
        constants = [v.value for v in values if isinstance(v, ast.Constant)]
        if keyword.arg == f"{kind}_argnums":
            positions |= {c for c in constants if isinstance(c, int)}
        elif keyword.arg == f"{kind}_argnames":
            names |= {c for c in constants if isinstance(c, str)}
    if definition is not None:
        params = positional_params(definition)
        positions |= {i for i, param in enumerate(params) if param in names}
        names |= {params[i] for i in positions if i < len(params)}
    return positions, names
