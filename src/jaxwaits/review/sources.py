"""The code a review reads: Python files, notebooks' code cells and Markdown/MyST Python fences,
each as pieces of Python source with the line they start on."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from jaxwaits.errors import JaxwaitsError
from jaxwaits.review.facts import CELL_TIMER

SUFFIXES = {".py", ".ipynb", ".md"}
FENCES = {"python", "py", "python3", "ipython", "ipython3", "{code-cell}"}
LARGEST = 10_000_000  # bytes: a file past it (generated code) is named, not read: 16 s a MB
SKIPPED_FOLDERS = {".git", ".nox", ".venv", "venv", "node_modules", "__pycache__", "_build"}
# `%timeit -n10 -r 3 f(x)`: indent, magic, options, the timed expression
LINE_MAGIC = re.compile(r"^(\s*)%(timeit|time)((?:\s+-\w\s*\d*)*)\s+(.*)$")
CELL_MAGIC = re.compile(r"^\s*%%(timeit|time)\b((?:\s+-\w\s*\d*)*)\s*$")


@dataclass(frozen=True)
class Piece:
    """Python source from a file, starting at ``line`` of it (1-based). A notebook is one piece,
    its code cells one after the other as they run in one namespace; ``cells`` holds the line of
    the piece each cell starts on, by cell number."""

    source: str
    line: int
    cells: tuple[tuple[int, int], ...] = ()

    def cell_of(self, line: int) -> tuple[int, int]:
        """The cell a line of a notebook's piece is in, and its line in that cell."""
        start, number = max((s, n) for s, n in self.cells if s <= line)
        return number, line - start + 1


def files(paths: list[Path]) -> Iterator[Path]:
    """The files to review: those named, and the reviewable files under the folders named."""
    for path in paths:
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.suffix in SUFFIXES and not SKIPPED_FOLDERS & set(
                    found.relative_to(path).parts
                ):
                    yield found
        else:
            yield path


def pieces(path: Path) -> list[Piece]:
    """The Python in one file; an unreadable file raises, naming it. A Python file is decoded as
    Python decodes it (UTF-8, or the encoding its PEP 263 coding line names)."""
    try:
        if path.stat().st_size > LARGEST:
            size = path.stat().st_size / 1e6
            raise JaxwaitsError(
                f"{path}: too large to review ({size:.0f} MB; the review reads files up to "
                f"{LARGEST / 1e6:.0f} MB)"
            )
        data = path.read_bytes()
        encoding = "utf-8"
        if path.suffix == ".py":
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (OSError, UnicodeDecodeError, LookupError, SyntaxError) as error:
        raise JaxwaitsError(f"{path}: cannot be read: {error}") from None
    if path.suffix == ".ipynb":
        return _notebook(path, text)
    if path.suffix == ".md":
        return _markdown(text)
    return [Piece(text, 1)]


def _notebook(path: Path, text: str) -> list[Piece]:
    """The code cells as one piece, their IPython magics made Python (``%timeit f(x)`` times
    ``f(x)``; other magics and shell lines are left out). A notebook must pass nbformat's schema:
    one that does not is named, never read as a notebook without code."""
    import nbformat  # only notebooks need it

    try:
        raw = nbformat.reader.reads(text)  # as it is, before any conversion fills gaps
        if "nbformat" not in raw:
            raise ValueError("it names no nbformat version")
        nbformat.validate(raw)
        notebook = nbformat.convert(raw, 4)
    except Exception as error:  # nbformat raises what the malformed JSON makes it raise
        why = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise JaxwaitsError(f"{path}: not a valid notebook: {why}") from None
    lines: list[str] = []
    cells = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "code":
            cells.append((len(lines) + 1, number))
            lines += without_magics(cell.source).splitlines() or [""]
    return [Piece("\n".join(lines) + "\n", 1, tuple(cells))] if cells else []


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


def _markdown(text: str) -> list[Piece]:
    """A page's Python fences as one piece, each on the lines it has in the page, as they run in
    one namespace (a MyST page's code cells do; a step defined in one fence and timed in a later
    one is then known). A ``{code-cell}`` counts when its lexer is Python's or IPython's; its
    option lines are left out, its magics made Python. A fence that is not Python (a console
    session, pseudo-code) is left out, and the others are still read."""
    lines = [""] * len(text.splitlines())
    found = False
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
        try:
            ast.parse("\n".join(body))
        except (SyntaxError, ValueError):
            continue
        start = token.map[0] + 1  # the fence's first line of code, counted from 0
        lines[start : start + len(body)] = body
        found = True
    return [Piece("\n".join(lines) + "\n", 1)] if found else []


def _without_option(line: str, before: list[str]) -> str:
    """A MyST code cell's option line (``:tags: [hide-input]``, at its top) as a blank line."""
    top = all(re.match(r"^\s*:\w[\w-]*:", earlier) for earlier in before)
    return "" if top and re.match(r"^\s*:\w[\w-]*:", line) else line
