"""``jaxwaits review``: every file under the paths given, reviewed as one project (imports
between its modules followed), on every core when there are many; one file's fault is that
file's error, and the others are still reviewed."""

from __future__ import annotations

import ast
import gc
import multiprocessing
import os
import symtable
import threading
import time
import tomllib
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from harnesscheck import rules as registry
from harnesscheck import sources
from harnesscheck.errors import ReviewError
from harnesscheck.model.module import Module
from harnesscheck.model.program import Program
from harnesscheck.model.syntax import dotted_parts
from harnesscheck.regions import regions
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
    program = Program([path if path.is_dir() else path.parent for path in paths])
    workers = min(jobs or os.cpu_count() or 1, max(1, len(found) // 64))
    forked = multiprocessing.get_context("fork")
    pool = partial(
        ProcessPoolExecutor, mp_context=forked, initializer=_start, initargs=(os.getpid(),)
    )
    # Most files hold no word a mistake needs and are only compiled (to say one is not Python):
    # with cores to spare a scout reads every file first, says which to model, and compiles
    # the others, beside the model. What it did not say (it died) is done here.
    read: list[_File | None] = [None] * len(found)
    global _files  # what forked workers check: they inherit it, and the model, unpickled
    with ExitStack() as stack:
        scout = stack.enter_context(_Scout(found, forked)) if workers > 1 else None
        told = False
        if scout is not None:
            try:
                for i in scout.worth():
                    read[i] = _read(found[i], program, False)  # the model's first step
                told = True
            except (EOFError, OSError):
                pass
        left = [i for i, file in enumerate(read) if file is None]
        for i in left:
            read[i] = _File(found[i]) if told else _read(found[i], program, scout is None)
        files = [file for file in read if file is not None]
        failed = program.resolve()  # the model's second step, before any rule runs
        _files = [(file, rules, failed) for file in files]
        try:
            if workers > 1:
                with pool(workers) as workers_pool:
                    outcomes = list(workers_pool.map(_check_nth, range(len(files)), chunksize=16))
            else:
                outcomes = [_check_nth(i) for i in range(len(files))]
        finally:
            _files = []
        not_python = None
        if scout is not None and told:  # the files left to compile: the last ones taken here
            mine = scout.share(partial(_compile_nth, found))
            theirs = scout.not_python()
            not_python = None if theirs is None else theirs | mine
        if scout is not None and not_python is None:  # the scout died: compile here
            not_python = {}
            for i in range(len(found)):
                not_python |= _compile_nth(found, i)
    for i, (located, problems, notes) in enumerate(outcomes):
        done.findings += located
        done.unreadable += problems + (not_python or {}).get(i, [])
        done.notes += notes
    return done


@dataclass
class _File:
    """A file as the review read it: each chunk of its Python with the module the model made of
    it (None: a chunk with no word a mistake needs, only compiled), what of it could not be
    read, and what of it is not Python."""

    path: Path
    chunks: list[tuple[sources.Chunk, Module | None]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# a file's findings, what of it could not be read, what of it is not Python
Outcome = tuple[list[Located], list[str], list[str]]
_files: list[tuple[_File, set[str], dict[Module, BaseException]]] = []


def _quiet() -> None:
    """A file's own SyntaxWarnings (an invalid escape sequence) are not the review's to print."""
    warnings.simplefilter("ignore", SyntaxWarning)


def _start(parent: int) -> None:
    gc.disable()  # as in the parent
    _quiet()
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()


def _orphaned(parent: int) -> None:
    """End this worker once the review that forked it is gone (killed, or stopped by a signal
    before it could shut its workers down): nothing of a review outlives it."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def _read(path: Path, program: Program, compile_unworthy: bool) -> _File:
    """The file at ``path``, its chunks that may hold a mistake added to ``program``; whatever
    goes wrong in it (it cannot be read, it is nested past Python's recursion limit) is its
    error, and the other files are still reviewed. A Python file with no word a mistake needs
    is left to be compiled when checked, or not kept (the scout compiles it: :class:`_Scout`)."""
    file = _File(path)
    try:
        read = sources.read(path)
        file.problems, file.notes = read.problems, read.notes
        for chunk in read.chunks:
            worth = registry.worth_checking(chunk.source)
            if not worth and path.suffix == ".py":
                if compile_unworthy:
                    file.chunks.append((chunk, None))  # compiled when checked, on every core
                continue
            try:
                tree = ast.parse(chunk.source)
            except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte, before 3.12
                _not_python(file, chunk, error)
                continue
            if worth:
                module = (
                    program.add(path, tree, chunk.source)
                    if path.suffix == ".py"
                    else program.chunk(path, tree, chunk.source)
                )
                file.chunks.append((chunk, module))
    except ReviewError as error:
        return _File(path, problems=[str(error)])
    except Exception as error:
        return _File(path, problems=[_failed(path, error)])
    return file


class _Scout:
    """A process that reads every file beside the model: it says first, as it finds them, which
    files the review must read itself (Python that holds a word a mistake needs, a page, a
    notebook, a file it cannot read), then what the other files say when compiled."""

    def __init__(self, paths: list[Path], context: Any) -> None:
        self._said, told = context.Pipe(duplex=False)
        self._left = _Ends(len(paths), context)
        self._process = context.Process(target=_scout, args=(paths, told, self._left, os.getpid()))
        self._process.start()
        told.close()  # the scout's end: once it is gone, reading ours ends (EOFError)

    def __enter__(self) -> _Scout:
        return self

    def __exit__(self, *exc: object) -> None:
        self._process.kill()  # done by now, unless the review itself failed
        self._process.join()
        self._said.close()

    def worth(self) -> Iterator[int]:
        """The indices of the files to read here, in order."""
        while (i := self._said.recv()) is not None:
            yield i

    def share(self, compile_nth: Callable[[int], dict[int, list[str]]]) -> dict[int, list[str]]:
        """Compile here the files left to compile from the last, as the scout does from the
        first, until the two meet: what ``compile_nth`` says of each taken here."""
        said: dict[int, list[str]] = {}
        while (i := self._left.take(first=False, other=self._process)) is not None:
            said |= compile_nth(i)
        return said

    def not_python(self) -> dict[int, list[str]] | None:
        """By the index of its file, what a file it compiled says: that it is not Python;
        None if it died first."""
        try:
            said: dict[int, list[str]] = self._said.recv()
        except (EOFError, OSError):
            return None
        return said


class _Ends:
    """The files, by index, shared by two processes that each take the next from one end (the
    scout from the first, the review from the last) until they meet."""

    def __init__(self, count: int, context: Any) -> None:
        self._lock = context.Lock()
        self._first = context.RawValue("i", 0)
        self._last = context.RawValue("i", count)

    def take(self, first: bool, other: Any = None) -> int | None:
        """The next index from one end; None once the ends meet, or once ``other`` (the
        process that takes from the other end) has died holding the lock."""
        while not self._lock.acquire(timeout=0.2):
            if other is not None and not other.is_alive():
                return None
        try:
            if self._first.value >= self._last.value:
                return None
            if first:
                self._first.value += 1
                return int(self._first.value - 1)
            self._last.value -= 1
            return int(self._last.value)
        finally:
            self._lock.release()


def _scout(paths: list[Path], told: Connection, left: _Ends, parent: int) -> None:
    _start(parent)
    unworthy: dict[int, _File | None] = {}
    for i, path in enumerate(paths):
        needed, unworthy[i] = _sorted_out(path)
        if needed:
            told.send(i)
    told.send(None)
    said: dict[int, list[str]] = {}
    while (i := left.take(first=True)) is not None:  # one at a time: the review takes some
        said |= _compiled(i, unworthy[i])
    told.send(said)
    told.close()


def _sorted_out(path: Path) -> tuple[bool, _File | None]:
    """Whether the review must read ``path`` itself (Python that holds a word a mistake needs,
    a page, a notebook, a file that cannot be read), and the chunks of its Python that hold
    none, only to be compiled."""
    try:
        chunks = sources.read(path).chunks if path.suffix == ".py" else None
    except Exception:
        chunks = None  # the review reads it, and says why it cannot
    if chunks is None:
        return True, None
    worth = [registry.worth_checking(chunk.source) for chunk in chunks]
    left = [(chunk, None) for chunk, w in zip(chunks, worth, strict=True) if not w]
    return any(worth), _File(path, left) if left else None


def _compiled(i: int, file: _File | None) -> dict[int, list[str]]:
    """What the ``i``-th file's chunks to be only compiled say when compiled, by its index:
    that it is not Python."""
    problems = _check_outcome(file, set(), {})[1] if file is not None else []
    return {i: problems} if problems else {}


def _compile_nth(paths: list[Path], i: int) -> dict[int, list[str]]:
    """:func:`_compiled` of the ``i``-th path, read again (a page or notebook: nothing)."""
    return _compiled(i, _sorted_out(paths[i])[1]) if paths[i].suffix == ".py" else {}


def _failed(path: Path, error: BaseException) -> str:
    if isinstance(error, (RecursionError, MemoryError)):
        why = f"too deeply nested or too large to review ({type(error).__name__})"
    else:  # a fault of the checks on this file: reported, not fatal
        why = f"the review failed on this file ({type(error).__name__}: {error})"
    return f"{named(path)}: {why}"


def _not_python(file: _File, chunk: sources.Chunk, error: Exception) -> None:
    """Say that a chunk is not Python: a Python file's error, a fence's or a cell's note (each
    fence or cell is Python, but not all of them in a row: a __future__ import)."""
    line = _line_of(error, chunk.source)
    why = getattr(error, "msg", error)
    if file.path.suffix == ".py":
        raise ReviewError(f"{named(file.path)}:{line}: not Python: {why}")
    where = f":{line}"
    if chunk.cells:
        where = ": cell {}, line {}".format(*chunk.cell_of(line))
    file.notes.append(
        f"{named(file.path)}{where}: its code, read as one program, is not Python ({why}); "
        "not reviewed"
    )


def _line_of(error: Exception, source: str) -> int:
    """The line a parse error is on; for a NUL byte, which Python locates nowhere, its own."""
    line = getattr(error, "lineno", None)
    if line is None and "\0" in source:
        return source.count("\n", 0, source.index("\0")) + 1
    return line or 1


def _check_nth(i: int) -> Outcome:
    """The findings of the ``i``-th file read; a fault in one file is that file's error."""
    return _check_outcome(*_files[i])


def _check_outcome(file: _File, rules: set[str], failed: dict[Module, BaseException]) -> Outcome:
    try:
        return _check(file, rules, failed), file.problems, file.notes
    except ReviewError as error:
        return [], [*file.problems, str(error)], file.notes
    except Exception as error:
        return [], [*file.problems, _failed(file.path, error)], file.notes


def _check(file: _File, rules: set[str], failed: dict[Module, BaseException]) -> list[Located]:
    found = []
    for chunk, module in file.chunks:
        if module is None:
            try:  # nothing to find, but a file that is not Python is said, and most files are
                # these: its symbol table takes 0.61 of parsing's time on jax's files (compiling
                # it, 0.84), and holds it to all that ast.parse holds the files modelled to
                symtable.symtable(chunk.source, str(file.path), "exec")
            except (SyntaxError, ValueError) as error:
                _not_python(file, chunk, error)
            continue
        if module in failed:
            raise ReviewError(_failed(file.path, failed[module]))
        for finding in registry.check(module, rules):
            if chunk.cells:
                cell, line = chunk.cell_of(finding.line)
                found.append(Located(file.path, replace(finding, line=line), cell=cell))
            else:
                line = chunk.line + finding.line - 1
                found.append(Located(file.path, replace(finding, line=line)))
        file.notes += _not_followed(file.path, chunk, module)
    return found


def _not_followed(path: Path, chunk: sources.Chunk, module: Module) -> list[str]:
    """What the review could not follow, said rather than guessed: a timed region that hands
    its results to code imported from a module that is not among the files reviewed (a file
    reviewed without the rest of its project) is not judged."""
    if not module.unseen:
        return []
    said: dict[tuple[int, str], str] = {}
    for region in regions(module):
        for call in region.timed.handed_to:
            parts = dotted_parts(call.func)
            if parts and parts[0] in module.unseen:
                line = getattr(region.end, "lineno", region.start)
                at = f"{named(path)}:{chunk.line + line - 1}"
                if chunk.cells:
                    at = "{}: cell {}, line {}".format(named(path), *chunk.cell_of(line))
                said[(line, parts[0])] = (
                    f"{at}: the time read here is not judged: it hands timed results to "
                    f"{'.'.join(parts)}() of {module.unseen[parts[0]]}, whose code is not among "
                    "the files reviewed"
                )
    return [said[key] for key in sorted(said)]


def review_file(path: Path, rules: set[str]) -> list[Located]:
    """The findings in one file, reviewed as a program of its folder."""
    return review([path], rules, jobs=1).findings
