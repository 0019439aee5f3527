"""``jaxwaits review``: every file under the paths given, reviewed as one project (imports
between its modules followed), on every core when there are many; one file's fault is that
file's error, and the others are still reviewed."""

from __future__ import annotations

import ast
import gc
import os
import tomllib
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from harnesscheck import rules as registry
from harnesscheck import sources
from harnesscheck.errors import ReviewError
from harnesscheck.model.facts import Module
from harnesscheck.model.project import Project
from harnesscheck.results import Located, Review
from harnesscheck.rules import RULES
from harnesscheck.sources import named


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
        raise ReviewError(f"{path}: [tool.jaxwaits.review] cannot be read: {e}") from None


def review(paths: list[Path], rules: set[str], jobs: int | None = None) -> Review:
    """Review every file under ``paths``, on every core when there are many, as one project:
    imports between its modules are followed. A path, folder or file that cannot be read is
    named, and the others are still reviewed."""
    collecting = gc.isenabled()
    gc.disable()  # syntax trees hold no cycles, and the collector's passes over them cost a third
    try:
        with warnings.catch_warnings():
            _quiet()
            return _review(paths, rules, jobs)
    finally:
        if collecting:
            gc.enable()


def _review(paths: list[Path], rules: set[str], jobs: int | None) -> Review:
    found, unlisted = sources.files(paths)
    done = Review(unreadable=unlisted, files=len(found))
    roots = [path if path.is_dir() else path.parent for path in paths]
    workers = min(jobs or os.cpu_count() or 1, max(1, len(found) // 64))
    if workers > 1:
        with ProcessPoolExecutor(workers, initializer=_start, initargs=(roots,)) as pool:
            outcomes = list(pool.map(_worker_outcome, found, [rules] * len(found), chunksize=16))
    else:
        project = Project(roots)
        outcomes = [_outcome(path, rules, project) for path in found]
    handed = _handed(found, [handing for *_, handing in outcomes])
    if handed:  # helpers other modules hand JAX functions: reviewed again, knowing it
        again = Project(roots, handed)
        for i, path in enumerate(found):
            if path.resolve() in handed:
                outcomes[i] = _outcome(path, rules, again)
    for located, problems, notes, _ in outcomes:
        done.findings += located
        done.unreadable += problems
        done.notes += notes
    return done


Handing = list[tuple[Path, str, set[int]]]  # (module, its function, the positions handed)
# a file's findings, what of it could not be read, what of it is not Python, what it hands
Outcome = tuple[list[Located], list[str], list[str], Handing]
_project: Project | None = None  # a worker process's


def _quiet() -> None:
    """A file's own SyntaxWarnings (an invalid escape sequence) are not the review's to print."""
    warnings.simplefilter("ignore", SyntaxWarning)


def _start(roots: list[Path]) -> None:
    global _project
    gc.disable()  # as in the parent: a worker may be started afresh, not forked
    _quiet()
    _project = Project(roots)


def _worker_outcome(path: Path, rules: set[str]) -> Outcome:
    assert _project is not None
    return _outcome(path, rules, _project)


def _handed(found: list[Path], handings: list[Handing]) -> dict[Path, dict[str, set[int]]]:
    """By reviewed module, the parameters of its functions that other modules hand JAX
    functions."""
    reviewed = {path.resolve() for path in found}
    handed: dict[Path, dict[str, set[int]]] = {}
    for target, name, positions in (one for handing in handings for one in handing):
        if target in reviewed:
            handed.setdefault(target, {}).setdefault(name, set()).update(positions)
    return handed


def _outcome(path: Path, rules: set[str], project: Project) -> Outcome:
    """One file's findings, or why it has none, and the helpers of other modules it hands
    JAX functions: whatever goes wrong in one file (it cannot be read, or it breaks the checks:
    an expression nested past Python's recursion limit) is that file's error, and the other
    files are still reviewed."""
    try:
        return _checked(path, rules, project)
    except ReviewError as error:
        return [], [str(error)], [], []
    except (RecursionError, MemoryError) as error:
        why = f"too deeply nested or too large to review ({type(error).__name__})"
    except Exception as error:  # a fault of the checks on this file: reported, not fatal
        why = f"the review failed on this file ({type(error).__name__}: {error})"
    return [], [f"{named(path)}: {why}"], [], []


def _line_of(error: Exception, source: str) -> int:
    """The line a parse error is on; for a NUL byte, which Python locates nowhere, its own."""
    line = getattr(error, "lineno", None)
    if line is None and "\0" in source:
        return source.count("\n", 0, source.index("\0")) + 1
    return line or 1


def review_file(
    path: Path, rules: set[str], project: Project | None = None
) -> tuple[list[Located], Handing]:
    """The findings in one file, and the helpers of other modules of ``project`` that it hands
    JAX functions."""
    found, _, _, handing = _checked(path, rules, project or Project([path.parent]))
    return found, handing


def _checked(path: Path, rules: set[str], project: Project) -> Outcome:
    """A file's findings, what of it could not be read or is not Python, and the helpers of
    other modules of ``project`` that it hands JAX functions."""
    found = []
    handing: Handing = []
    read = sources.read(path)
    for piece in read.pieces:
        worth = registry.worth_checking(piece.source)
        try:
            if not worth and path.suffix == ".py":
                # nothing to find, but a file that is not Python is said: compiling it (never
                # run) costs less than parsing it (0.84 on jax's files), and most files are these
                compile(piece.source, str(path), "exec", dont_inherit=True)
                continue
            tree = ast.parse(piece.source)
        except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte, before 3.12
            line = _line_of(error, piece.source)
            why = getattr(error, "msg", error)
            if path.suffix == ".py":
                raise ReviewError(f"{named(path)}:{line}: not Python: {why}") from None
            # each fence or cell is Python, but not all of them in a row (a __future__ import)
            where = f":{line}"
            if piece.cells:
                where = ": cell {}, line {}".format(*piece.cell_of(line))
            read.notes.append(
                f"{named(path)}{where}: its code, read as one program, is not Python ({why}); "
                "not reviewed"
            )
            continue
        if not worth:
            continue
        if path.suffix == ".py":
            facts = project.facts(path, tree, piece.source)
        else:
            facts = Module(tree, piece.source, project.importer(path), path=path.resolve())
        assert facts is not None
        if facts.imported_functions:  # what it hands them is known once its functions are
            facts.know()
        for finding in registry.check(facts, rules):
            if piece.cells:
                cell, line = piece.cell_of(finding.line)
                found.append(Located(path, replace(finding, line=line), cell=cell))
            else:
                found.append(Located(path, replace(finding, line=piece.line + finding.line - 1)))
        handing += [(m.path, name, at) for m, name, at in facts.handing if m.path is not None]
    return found, read.problems, read.notes, handing
