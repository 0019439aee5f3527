"""Python's scoping, where a name's kind depends on it: a function defined inside another is
seen only there (``loss_fn``, a JAX function nested in one function, is a torch loss in the
next), so that a call of the name elsewhere is not a call of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harnesscheck.model.syntax import spans_line

if TYPE_CHECKING:
    from harnesscheck.model.local import Local


def hidden(facts: Local, name: str, line: int) -> bool:
    """Every function of the module named ``name`` is nested in a function that ``line`` is
    not in: a call of ``name`` there is not a call of any of them."""
    if name not in facts.functions:
        return False
    if name not in facts.enclosing:
        facts.enclosing[name] = [
            max(
                (f for f in facts.around(d.lineno) if f is not d),
                key=lambda f: f.lineno,
                default=None,
            )
            for d in facts.functions[name]
        ]
    return all(f is not None and not spans_line(f, line) for f in facts.enclosing[name])
