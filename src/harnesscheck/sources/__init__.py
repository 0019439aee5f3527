"""The code a review reads: Python files, notebooks' code cells and Markdown/MyST Python fences,
each as chunks of Python source with the line they start on."""

from __future__ import annotations

import ast
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from harnesscheck.errors import ReviewError

CELL_TIMER = "jaxwaits_timed_cell"  # what a `%%timeit` cell is made: a `with` block of this


def named(path: Path | str) -> str:
    """A file's name as a report shows it: as it is, or quoted as Python writes it when it holds
    a character that is not printable (a line break, an escape) or would make a line of a GitHub
    log a workflow command (``::`` at its start, ``##[`` anywhere; that one as ``#\\x23[``)."""
    name = str(path)
    if name.isprintable() and not name.lstrip().startswith("::") and "##[" not in name:
        return name
    return repr(name).replace("##[", "#\\x23[")


SUFFIXES = {".py", ".ipynb", ".md"}
FENCES = {"python", "py", "python3", "ipython", "ipython3", "{code-cell}"}
LARGEST = 10_000_000  # bytes: a file past it (generated code) is named, not read: 16 s a MB
SKIPPED_FOLDERS = {".git", ".nox", ".venv", "venv", "node_modules", "__pycache__", "_build"}
KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
}
# opening a FIFO does not wait for a writer, nor does a terminal become the review's
NOT_WAITING = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
# `%timeit -n10 -r 3 f(x)`: indent, magic, options, the timed expression
LINE_MAGIC = re.compile(r"^(\s*)%(timeit|time)((?:\s+-\w\s*\d*)*)\s+(.*)$")
CELL_MAGIC = re.compile(r"^\s*%%(timeit|time)\b((?:\s+-\w\s*\d*)*)\s*$")


@dataclass(frozen=True)
class Chunk:
    """Python source from a file, starting at ``line`` of it (1-based). A notebook is one chunk,
    its code cells one after the other as they run in one namespace; ``cells`` holds the line of
    the chunk each cell starts on, by cell number."""

    source: str
    line: int
    cells: tuple[tuple[int, int], ...] = ()

    def cell_of(self, line: int) -> tuple[int, int]:
        """The cell a line of a notebook's chunk is in, and its line in that cell."""
        start, number = max((s, n) for s, n in self.cells if s <= line)
        return number, line - start + 1


def files(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """The files to review, those named and the reviewable files under the folders named, and
    what is not read: a path that is not there, a folder that cannot be listed, and what is not
    a regular file (a FIFO would block the review, a link to /dev/zero never ends)."""
    found: list[Path] = []
    problems: list[str] = []
    for path in paths:
        for candidate in _walk(path, problems) if path.is_dir() else [path]:
            why = _not_regular(candidate)
            if why:
                problems.append(f"{named(candidate)}: {why}")
            else:
                found.append(candidate)
    return found, problems


def _walk(folder: Path, problems: list[str]) -> list[Path]:
    """The reviewable files under ``folder``, in order; each folder that cannot be listed is
    added to ``problems`` (``rglob`` passes over them in silence)."""

    def unlisted(error: OSError) -> None:
        problems.append(
            f"{named(error.filename or folder)}: folder cannot be read, nothing in it reviewed: "
            f"{error.strerror}"
        )

    found = []
    for top, folders, names in os.walk(folder, onerror=unlisted):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS]
        found += [Path(top, name) for name in names if Path(name).suffix in SUFFIXES]
    return sorted(found)


def _not_regular(path: Path) -> str:
    """Why a file is not read, or '' when it is a regular file (through a link or not)."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    return "" if stat.S_ISREG(mode) else _skipped(mode)


def _skipped(mode: int) -> str:
    kind = KINDS.get(stat.S_IFMT(mode))
    return f"skipped: {kind}, not a regular file" if kind else "skipped: not a regular file"


def chunks(path: Path) -> list[Chunk]:
    """The Python in one file; an unreadable file raises, naming it."""
    return read(path).chunks


@dataclass
class Read:
    """The Python in one file, and what of it is left out: ``notes`` for code that is not Python
    (a fence of pseudo-code, a notebook's shell cell), ``problems`` for a file at fault (a
    fence never closed)."""

    chunks: list[Chunk]
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read(path: Path) -> Read:
    """The Python in one file; an unreadable file raises, naming it. A Python file is decoded as
    Python decodes it (UTF-8, or the encoding its PEP 263 coding line names)."""
    try:
        data = _bytes(path)
        encoding = "utf-8"
        if path.suffix == ".py":
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (OSError, UnicodeDecodeError, LookupError, SyntaxError) as error:
        raise ReviewError(f"{named(path)}: cannot be read: {error}") from None
    if path.suffix == ".ipynb":
        return _notebook(path, text)
    if path.suffix == ".md":
        return _markdown(path, text)
    return Read([Chunk(text, 1)])


def _bytes(path: Path) -> bytes:
    """A regular file's bytes, checked on the file opened (a FIFO is opened without waiting for
    a writer, then refused) and read to no more than ``LARGEST`` (a file that grows as it is
    read, or one of /proc, whose size says 0, is read no further)."""
    descriptor = os.open(path, os.O_RDONLY | NOT_WAITING)
    with open(descriptor, "rb") as file:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise ReviewError(f"{named(path)}: {_skipped(status.st_mode)}")
        if status.st_size > LARGEST:
            raise _too_large(path, f"{status.st_size / 1e6:.0f} MB")
        data = file.read(LARGEST + 1)
    if len(data) > LARGEST:
        raise _too_large(path, f"over {LARGEST / 1e6:.0f} MB as it was read")
    return data


def _too_large(path: Path, size: str) -> ReviewError:
    return ReviewError(
        f"{named(path)}: too large to review ({size}; the review reads files up to "
        f"{LARGEST / 1e6:.0f} MB)"
    )


def _notebook(path: Path, text: str) -> Read:
    """The code cells as one chunk, their IPython magics made Python (``%timeit f(x)`` times
    ``f(x)``; other magics and shell lines are left out); a cell that is still not Python (a
    ``%%bash`` cell) is left out, in a note, and the others are read. A notebook must pass
    nbformat's schema: one that does not is named, never read as a notebook without code."""
    import nbformat  # only notebooks need it

    try:
        raw = nbformat.reader.reads(text)  # as it is, before any conversion fills gaps
        if "nbformat" not in raw:
            raise ValueError("it names no nbformat version")
        nbformat.validate(raw)
        notebook = nbformat.convert(raw, 4)
    except Exception as error:  # nbformat raises what the malformed JSON makes it raise
        why = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ReviewError(f"{named(path)}: not a valid notebook: {why}") from None
    lines: list[str] = []
    cells = []
    notes = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "code":
            cells.append((len(lines) + 1, number))
            code = without_magics(cell.source).splitlines() or [""]
            error = _not_python("\n".join(code))
            if error:
                notes.append(
                    f"{named(path)}: cell {number}, line {_line(error)}: a cell that is not "
                    f"Python is not reviewed ({_why(error)})"
                )
                code = [""] * len(code)
            lines += code
    return Read([Chunk("\n".join(lines) + "\n", 1, tuple(cells))] if cells else [], notes)


def _not_python(source: str) -> SyntaxError | ValueError | None:
    """Why ``source`` does not parse as Python, or None."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte, before 3.12
        return error
    return None


def _line(error: SyntaxError | ValueError) -> int:
    return getattr(error, "lineno", None) or 1


def _why(error: SyntaxError | ValueError) -> str:
    return str(getattr(error, "msg", error))


def without_magics(source: str) -> str:
    """IPython's timing magics as the Python they run, on the same lines: ``%timeit f(x)`` is
    ``timeit(lambda: f(x))`` (``number=10`` with ``-n 10``: no calibration run then absorbs the
    compilation), and a ``%%timeit`` cell is a ``with`` block around its body; other magics and
    shell lines are left out."""
    lines = source.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    cell = CELL_MAGIC.match(lines[first]) if lines else None
    if cell:
        body = [" " + line if line.strip() else line for line in lines[first + 1 :]]
        if any(line.strip() for line in body):
            header = f"with {CELL_TIMER}({_number(cell[1], cell[2])}):"
            return "\n".join([*lines[:first], header, *body])
        return "\n".join([*lines[:first], "", *body])
    converted = []
    for line in lines:
        timed = LINE_MAGIC.match(line)
        if timed:
            indent, magic, options, expression = timed.groups()
            expression, hash_, comment = expression.partition("  #")
            number = _number(magic, options)
            call = f"{indent}__import__('timeit').timeit(lambda: {expression.strip()}"
            call += f", {number})" if number else ")"
            converted.append(f"{call}{'  #' + comment if hash_ else ''}")
        elif line.lstrip().startswith(("%", "!")):
            converted.append("")  # keeps the line numbers
        else:
            converted.append(line)
    return "\n".join(converted)


def _number(magic: str, options: str) -> str:
    """The ``number=`` a timing magic fixes (``-n 10``: ten runs, no calibration round first),
    or ''; ``%time`` has none: it times a run end to end, compilation and all."""
    fixed = re.search(r"-n\s*(\d+)", options or "") if magic == "timeit" else None
    return f"number={fixed[1]}" if fixed else ""


def _markdown(path: Path, text: str) -> Read:
    """A page's Python fences as one chunk, each on the lines it has in the page, as they run in
    one namespace (a MyST page's code cells do; a step defined in one fence and timed in a later
    one is then known). A ``{code-cell}`` counts when its lexer is Python's or IPython's; its
    option lines are left out, its magics made Python. A fence that is not labelled Python (a
    console session) is left out; one labelled Python that does not parse (pseudo-code) is left
    out in a note, and the others are still read. A fence never closed runs to the end of the
    page, as CommonMark has it: it is read when that is Python, and is the page's fault when
    not."""
    from markdown_it import MarkdownIt  # only pages need it: a tenth of a second to import

    lines = [""] * len(text.splitlines())
    found = False
    done = Read([])
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "fence" or token.map is None:
            continue
        info = token.info.split()
        cell = info[:1] == ["{code-cell}"]
        if not info or info[0] not in FENCES or (cell and info[1:2] and info[1] not in FENCES):
            continue
        body = token.content.splitlines()
        if cell:
            body = [_without_option(line, body[:i]) for i, line in enumerate(body)]
            body = without_magics("\n".join(body)).splitlines()
        opened, closing = token.map
        start = opened + 1  # the fence's first line of code, counted from 0
        error = _not_python("\n".join(body))
        if error and closing - opened - 1 == token.content.count("\n"):  # none closes it
            done.problems.append(
                f"{named(path)}:{start}: a {info[0]} fence is never closed; not reviewed: "
                f"what follows it is not Python ({_why(error)}, line {start + _line(error)})"
            )
            continue
        if error:
            done.notes.append(
                f"{named(path)}:{start + _line(error)}: a {info[0]} fence that is not "
                f"Python is not reviewed ({_why(error)})"
            )
            continue
        lines[start : start + len(body)] = body
        found = True
    if found:
        done.chunks.append(Chunk("\n".join(lines) + "\n", 1))
    return done


def _without_option(line: str, before: list[str]) -> str:
    """A MyST code cell's option line (``:tags: [hide-input]``, at its top) as a blank line."""
    top = all(re.match(r"^\s*:\w[\w-]*:", earlier) for earlier in before)
    return "" if top and re.match(r"^\s*:\w[\w-]*:", line) else line
