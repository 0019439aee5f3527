"""What a rule finds: a place in a module and a message; made from the syntax node it is at.
What every layer above the sources shares, the watch included, without the syntax model."""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    rule: str  # the rule's code, JW101 …
    line: int
    col: int
    message: str
    end_line: int = 0  # the last line of the statement or call found (0: ``line``)


def says(lines: list[str], words: tuple[str, ...]) -> bool:
    """Whether the code of the lines (its names and strings, never a comment) says one of
    ``words``: a comment describes the code, and may describe a mistake."""
    return any(word in line.lower().partition("#")[0] for line in lines for word in words)


def finding(code: str, node: ast.AST, message: str) -> Finding:
    """A finding of rule ``code`` at ``node`` (its first line and column, and its last line)."""
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0) + 1
    end = getattr(node, "end_lineno", None) or line
    return Finding(code, line, col, message, end)
