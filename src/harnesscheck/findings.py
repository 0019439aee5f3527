"""What a rule finds: a place in a module and a message; made from the syntax node it is at.
What every layer above the sources shares, the watch included, without the syntax model."""

from __future__ import annotations

import ast
import re
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
    ``words``: a comment describes the code, and may describe a mistake. "compiled" names
    what is compiled ("the compiled step"), not the compiling, unless it says in what time
    ("compiled in", "Compiled text embeddings in %.1fs")."""
    code = (COMPILED.sub("", line.lower().partition("#")[0]) for line in lines)
    return any(word in text for text in code for word in words)


COMPILED = re.compile(r"compiled(?!(?:\W+\w+){0,3}\W+in\b)")  # "compiled text embeddings in"


def finding(code: str, node: ast.AST, message: str) -> Finding:
    """A finding of rule ``code`` at ``node`` (its first line and column, and its last line)."""
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0) + 1
    end = getattr(node, "end_lineno", None) or line
    return Finding(code, line, col, message, end)
