"""Vendored pieces: upstream JAX text with note lines interleaved, in ``annotated_src/``.

A note line starts, after any indentation, with ``#|``; consecutive note lines form one note, in
MyST, and the note attaches to the next upstream line. Removing every note line gives back the
upstream text byte for byte. A note's section is its line and the lines after it, up to the next
note: a change anywhere in a section is a reason to re-read its note.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from jaxwaits.claims.reader import role_targets
from jaxwaits.errors import JaxwaitsError

_NOTE = re.compile(r"^[ \t]*#\|[ ]?(?P<text>.*?)\r?\n?$")
SUFFIX = ".py"


@dataclass(frozen=True)
class Note:
    """One note: its MyST text and the line of the annotated file where it starts."""

    text: str
    at: int


@dataclass(frozen=True)
class Line:
    """One upstream line: its index in the piece (0-based), its text, the note on it, and the
    line of the annotated file where it stands."""

    index: int
    text: str
    note: Note | None
    at: int


@dataclass(frozen=True)
class Piece:
    """A vendored piece, read from ``annotated_src/<name>.py``."""

    name: str
    path: Path
    lines: tuple[Line, ...]

    @property
    def upstream(self) -> str:
        """The upstream text: the file without its note lines."""
        return "".join(line.text for line in self.lines)

    def notes(self) -> list[Note]:
        return [line.note for line in self.lines if line.note]

    def section_note(self, index: int) -> Note | None:
        """The note whose section holds upstream line ``index``: the nearest one at or above."""
        for line in reversed(self.lines[: index + 1]):
            if line.note:
                return line.note
        return None


def parse(name: str, path: Path, text: str) -> Piece:
    """Split annotated text into upstream lines, each with the note attached to it."""
    lines: list[Line] = []
    pending: list[str] = []
    starts_at = 0
    for number, raw in enumerate(text.splitlines(keepends=True), start=1):
        match = _NOTE.match(raw)
        if match:
            starts_at = starts_at or number
            pending.append(match["text"])
            continue
        note = Note("\n".join(pending), starts_at) if pending else None
        lines.append(Line(len(lines), raw, note, number))
        pending, starts_at = [], 0
    if pending:
        raise JaxwaitsError(f"{path}:{starts_at}: a note at the end of the file annotates no line")
    return Piece(name, path, tuple(lines))


def read(path: Path) -> Piece:
    """Read ``annotated_src/<name>.py`` (bytes decoded as UTF-8, line endings kept)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise JaxwaitsError(f"{path}: cannot be read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise JaxwaitsError(f"{path}: byte {error.start} is not UTF-8") from None
    return parse(path.name.removesuffix(SUFFIX), path, text)


def anchor(piece: str, number: int) -> str:
    """The permanent anchor of upstream line ``number`` on the piece's page."""
    return f"{piece}-L{number}"


@dataclass(frozen=True)
class NoteCitation:
    """A claim cited in a note: the upstream line the note sits on, and where the role is."""

    claim: str
    anchor: str  # anchor(piece, the upstream line number of the note's line)
    at: int  # the line of the annotated file that holds the role


def citations(piece: Piece, first_line: int) -> list[NoteCitation]:
    """Every claim the piece's notes cite; ``first_line`` is the upstream number of its line 0."""
    found = []
    for line in piece.lines:
        if line.note is None:
            continue
        place = anchor(piece.name, first_line + line.index)
        for offset, role, target in role_targets(line.note.text):
            if role == "claim":
                found.append(NoteCitation(target, place, line.note.at + offset))
    return found


def unannotated(piece: Piece) -> list[int]:
    """Indices of lines that start a statement, decorator or ``except`` and have no note.

    A note also covers a statement when only blank or comment lines lie between them, so a note
    may sit above an upstream comment.
    """
    tree = ast.parse(textwrap.dedent(piece.upstream))
    starts = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt | ast.ExceptHandler):
            starts.add(node.lineno - 1)
        for decorator in getattr(node, "decorator_list", []):
            starts.add(decorator.lineno - 1)
    missing = []
    for index in sorted(starts):
        above = index
        while not piece.lines[above].note and above > 0 and _is_filler(piece.lines[above - 1].text):
            above -= 1
        if not piece.lines[above].note:
            missing.append(index)
    return missing


def _is_filler(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped.startswith("#")
