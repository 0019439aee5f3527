"""``jaxwaits review``: reads harness code (never imports or runs it) and reports the mistakes of
the site's review checklist, each linked to its checklist item and the claims that prove it.

- :mod:`~jaxwaits.review.sources`: files, notebooks and Markdown fences as Python.
- :mod:`~jaxwaits.review.suppressions`: the comments that silence rules.
- :mod:`~jaxwaits.review.facts`: what one module defines and does, as the rules see it.
- :mod:`~jaxwaits.review.regions`: its timed regions, and what each does.
- :mod:`~jaxwaits.review.rules`: the rules, one module each (code, anchor, claims, documentation
  and check), and the registry that finds them.
- :mod:`~jaxwaits.review.results`: what a review found.
- :mod:`~jaxwaits.review.formats`: text, markdown, github, sarif and json.
- :mod:`~jaxwaits.review.corpus`: scoring against the labelled corpus of real code.
"""

from __future__ import annotations

import ast
import os
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from jaxwaits.errors import JaxwaitsError
from jaxwaits.review import rules as registry
from jaxwaits.review import sources
from jaxwaits.review.results import Located, Review
from jaxwaits.review.rules import RULES


def selected_rules(root: Path) -> set[str]:
    """The rules ``[tool.jaxwaits.review]`` in ``root``'s pyproject.toml selects (``select``,
    then less ``ignore``); every rule when there is none."""
    path = root / "pyproject.toml"
    chosen = set(RULES)
    if not path.is_file():
        return chosen
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        config = table.get("tool", {}).get("jaxwaits", {}).get("review", {})
        if "select" in config:
            chosen = registry.parse_codes(",".join(config["select"]))
        return chosen - registry.parse_codes(",".join(config.get("ignore", [])))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, TypeError) as e:
        raise JaxwaitsError(f"{path}: [tool.jaxwaits.review] cannot be read: {e}") from None


def review(paths: list[Path], rules: set[str], jobs: int | None = None) -> Review:
    """Review every file under ``paths``, on every core when there are many; one that cannot
    be read is named, and the others are still reviewed."""
    done = Review()
    found = list(sources.files(paths))
    done.files = len(found)
    workers = min(jobs or os.cpu_count() or 1, max(1, len(found) // 64))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = list(pool.map(_outcome, found, [rules] * len(found), chunksize=16))
    else:
        outcomes = [_outcome(path, rules) for path in found]
    for located, problem in outcomes:
        done.findings += located
        if problem:
            done.unreadable.append(problem)
    return done


def _outcome(path: Path, rules: set[str]) -> tuple[list[Located], str]:
    """One file's findings, or why it has none: whatever goes wrong in one file (it cannot be
    read, or it breaks the checks: an expression nested past Python's recursion limit) is that
    file's error, and the other files are still reviewed."""
    try:
        return review_file(path, rules), ""
    except JaxwaitsError as error:
        return [], str(error)
    except (RecursionError, MemoryError) as error:
        return [], f"{path}: too deeply nested or too large to review ({type(error).__name__})"
    except Exception as error:  # a fault of the checks on this file: reported, not fatal
        return [], f"{path}: the review failed on this file ({type(error).__name__}: {error})"


def _line_of(error: Exception, source: str) -> int:
    """The line a parse error is on; for a NUL byte, which Python locates nowhere, its own."""
    line = getattr(error, "lineno", None)
    if line is None and "\0" in source:
        return source.count("\n", 0, source.index("\0")) + 1
    return line or 1


def review_file(path: Path, rules: set[str]) -> list[Located]:
    found = []
    for piece in sources.pieces(path):
        try:
            tree = ast.parse(piece.source)
        except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte, before 3.12
            if path.suffix == ".py":
                raise JaxwaitsError(
                    f"{path}:{_line_of(error, piece.source)}: not Python: "
                    f"{getattr(error, 'msg', error)}"
                ) from None
            continue  # a fence or cell that is not Python (a console session, pseudo-code)
        if not registry.worth_checking(piece.source):
            continue
        for finding in registry.check(tree, piece.source, rules):
            if piece.cells:
                cell, line = piece.cell_of(finding.line)
                found.append(Located(path, replace(finding, line=line), cell=cell))
            else:
                found.append(Located(path, replace(finding, line=piece.line + finding.line - 1)))
    return found
