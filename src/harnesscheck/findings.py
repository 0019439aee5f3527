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


# A comment that says the code is wrong does not say it is meant (`# bug: forgot to block, not
# dispatch only`, `# TODO: warm up first, this times compilation by accident`).
NEGATING = ("not ", "n't", "forgot", "bug", "mistake", "accident", "todo", "fixme", "wrong")


def says(lines: list[str], words: tuple[str, ...]) -> bool:
    """Whether the lines say one of ``words``, in their code or in a comment that does not
    call the code wrong."""
    for line in lines:
        code, _, comment = line.lower().partition("#")
        said = code if any(word in comment for word in NEGATING) else f"{code}#{comment}"
        if any(word in said for word in words):
            return True
    return False


def finding(code: str, node: ast.AST, message: str) -> Finding:
    """A finding of rule ``code`` at ``node`` (its first line and column, and its last line)."""
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0) + 1
    end = getattr(node, "end_lineno", None) or line
    return Finding(code, line, col, message, end)
