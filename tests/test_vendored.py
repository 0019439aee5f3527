"""The vendored pieces' format: notes attach to lines, stripping them is exact, none is missing."""

from pathlib import Path

import pytest
from conftest import PIECES

from jaxwaits.errors import JaxwaitsError
from jaxwaits.pieces import vendored
from jaxwaits.project import find_project

PROJECT = find_project(Path(__file__).parent)


def test_notes_attach_to_the_next_line_and_strip_exactly():
    text = "  #| Says what.\n  #|\n  #| More.\n  x = 1\r\n  y = 2\n  #| Why.\n  return x\n"
    piece = vendored.parse("demo", Path("demo.py"), text)
    assert piece.upstream == "  x = 1\r\n  y = 2\n  return x\n"
    assert [line.note.text if line.note else None for line in piece.lines] == [
        "Says what.\n\nMore.",
        None,
        "Why.",
    ]
    assert piece.lines[0].note.at == 1 and piece.lines[2].note.at == 6
    assert piece.section_note(1) is piece.lines[0].note  # y = 2 sits in the first note's section


def test_a_note_at_the_end_annotates_nothing_and_fails():
    with pytest.raises(JaxwaitsError, match=r"demo.py:2: a note at the end"):
        vendored.parse("demo", Path("demo.py"), "x = 1\n#| dangling\n")


def test_a_statement_without_a_note_is_found():
    text = "#| The def.\ndef f(x):\n  # upstream comment\n  y = x\n  return y\n"
    piece = vendored.parse("demo", Path("demo.py"), text)
    assert vendored.unannotated(piece) == [2, 3]  # a comment line is not a note


@pytest.mark.parametrize("name", PIECES)
def test_every_statement_has_a_note(name, recorded):
    piece = vendored.read(PROJECT.annotated_src / f"{name}.py")
    entry = recorded.pieces[name]
    missing = [
        f"upstream line {entry.lines[0] + index}: {piece.lines[index].text.strip()}"
        for index in vendored.unannotated(piece)
    ]
    assert not missing, f"annotated_src/{name}.py: statements without a note:\n" + "\n".join(
        missing
    )


@pytest.mark.parametrize("name", PIECES)
def test_every_piece_cites_a_claim(name):
    piece = vendored.read(PROJECT.annotated_src / f"{name}.py")
    assert any("{claim}`" in note.text for note in piece.notes()), f"{name} cites no claim"
