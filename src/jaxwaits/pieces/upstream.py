"""Find a function in an upstream JAX source file by its qualified name, by parsing the file.

A piece's text is whole lines: from its first decorator to the last line of its body, exactly as
the file has them (indentation and line endings included).
"""

from __future__ import annotations

import ast
import platform
from dataclasses import dataclass

from jaxwaits.errors import JaxwaitsError

_SCOPES = (ast.If, ast.Try, ast.With)  # definitions inside these still belong to the scope
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class UnreadableSource(JaxwaitsError):
    """This interpreter cannot parse the file (newer syntax than it knows)."""


@dataclass(frozen=True)
class LineSpan:
    """Lines ``start`` to ``end`` of a file, 1-based and inclusive."""

    start: int
    end: int

    def text(self, source: str) -> str:
        """These lines of ``source``, byte for byte."""
        return "".join(source.splitlines(keepends=True)[self.start - 1 : self.end])


def _definitions(body: list[ast.stmt]) -> list[ast.stmt]:
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, _DEFS):
            found.append(node)
        elif isinstance(node, _SCOPES):
            for block in ("body", "orelse", "finalbody"):
                found += _definitions(getattr(node, block, []))
            for handler in getattr(node, "handlers", []):
                found += _definitions(handler.body)
    return found


def parse(source: str, filename: str) -> ast.Module:
    """Parse ``source``, saying clearly when this interpreter is too old for its syntax."""
    try:
        return ast.parse(source, filename)
    except SyntaxError as error:
        raise UnreadableSource(
            f"{filename}:{error.lineno}: Python {platform.python_version()} cannot parse this "
            f"file ({error.msg}): it uses newer syntax. Run this command with a newer Python, "
            "at least the one the JAX release requires (jax 0.11.0 and later: Python >= 3.12)"
        ) from error


def locate(tree: ast.Module, qualname: str) -> LineSpan | None:
    """The span of the definition named ``qualname`` (``Class.method``), or None if absent.

    Two definitions of the same name in one scope (a getter and a setter, say) are ambiguous and
    raise, rather than guess which one is meant.
    """
    body: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for part in qualname.split("."):
        matches = [d for d in _definitions(body) if getattr(d, "name", None) == part]
        if not matches:
            return None
        if len(matches) > 1:
            lines = ", ".join(str(m.lineno) for m in matches)
            raise ValueError(f"{qualname}: {part!r} is defined more than once (lines {lines})")
        node = matches[0]
        body = getattr(node, "body", [])
    assert node is not None and node.end_lineno is not None
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])
    return LineSpan(start, node.end_lineno)
