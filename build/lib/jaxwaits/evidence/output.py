"""The one reading of what a snippet printed, shared by the runner, the tests and the build.

A snippet's stdout means its text in canonical form: UTF-8, lines ended by ``\\n`` (a ``\\r\\n``
or a lone ``\\r`` ends a line too), no whitespace at the end of a line, no blank lines at the
end, and a final newline unless nothing was printed. The recorded outputs are read the same way,
so a comparison never turns on how a line ended or on trailing blanks, and never on where a
process happened to flush.

Long texts are cut for people, never for comparisons: :func:`cap` keeps the head of a text and
says how much it left out.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINES = 100
MAX_CHARS = 10_000


@dataclass(frozen=True)
class Decoded:
    """Bytes read as UTF-8; ``bad_byte`` is the offset of the first byte that is not UTF-8."""

    text: str
    bad_byte: int | None = None


def decode(raw: bytes) -> Decoded:
    """Read ``raw`` as UTF-8; bytes that are not become ``\\xNN`` escapes and are reported."""
    try:
        return Decoded(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return Decoded(raw.decode("utf-8", errors="backslashreplace"), error.start)


def canonical(text: str) -> str:
    """``text`` in canonical form (see the module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept = [line.rstrip() for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    return "".join(line + "\n" for line in kept)


def cap(text: str, lines: int = MAX_LINES, chars: int = MAX_CHARS) -> str:
    """The head of ``text`` (at most ``lines`` lines and ``chars`` characters), followed by a line
    saying how many lines and characters were cut; ``text`` itself when it is short enough."""
    kept = "".join(text.splitlines(keepends=True)[:lines])[:chars]
    if kept == text:
        return text
    cut_lines = text.count("\n") - kept.count("\n")
    cut_chars = len(text) - len(kept)
    ending = "" if kept.endswith("\n") or not kept else "\n"
    return f"{kept}{ending}[... {cut_lines} more lines, {cut_chars} more characters cut ...]\n"
