"""The drift check, against the installed jax and against the wheels of other releases."""

import shutil
import sys
from pathlib import Path

import pytest
from conftest import PIECES
from wheel_cache import piece_text

from jaxwaits.pieces import drift, vendored
from jaxwaits.pieces.manifest import sha256
from jaxwaits.project import Project, find_project

PROJECT = find_project(Path(__file__).parent)


def read(name: str, project: Project = PROJECT) -> vendored.Piece:
    return vendored.read(project.annotated_src / f"{name}.py")


def test_installed_jax_is_as_the_manifest_records():
    jax, verdicts = drift.check(PROJECT, sys.executable)
    failures = [v.message for v in verdicts if not v.ok]
    assert not failures, f"against the installed jax {jax.version}:\n" + "\n\n".join(failures)


@pytest.mark.parametrize("name", PIECES)
def test_stripping_the_notes_gives_the_upstream_text(name, recorded):
    entry = recorded.pieces[name]
    found = piece_text(PROJECT, entry, entry.release)
    assert found is not None, f"{entry.qualname} is not in {entry.file} of jax {entry.release}"
    span, text = found
    assert read(name).upstream == text, f"annotated_src/{name}.py is not jax {entry.release}'s text"
    assert ((span.start, span.end), sha256(text)) == (entry.lines, entry.sha256)


@pytest.mark.parametrize(
    ("name", "version"),
    [
        ("api.block_until_ready", "0.4.26"),  # differs: before the guard was dropped
        ("dispatch.RuntimeTokenSet.block_until_ready", "0.11.2"),  # differs
        ("core.Tracer.block_until_ready", "0.12.0"),  # absent, succeeded
        ("api.copy_to_host_async", "0.5.2"),  # absent, not yet written
        ("core.Tracer.__getattr__", "0.10.0"),  # identical
    ],
)
def test_an_older_release_passes_as_recorded(name, version, recorded):
    entry = recorded.pieces[name]
    found = piece_text(PROJECT, entry, version)
    run = entry.run_for(version, recorded.releases)
    verdict = drift.check_piece(entry, read(name), version, found and found[1], run, name)
    assert verdict.ok, verdict.message


def test_an_unknown_release_must_be_identical(recorded):
    entry = recorded.pieces["api.block_until_ready"]
    piece = read("api.block_until_ready")
    changed = piece.upstream.replace("  return x\n", "  return None\n")
    assert drift.check_piece(entry, piece, "9.9.9", piece.upstream, None, "p").ok
    verdict = drift.check_piece(entry, piece, "9.9.9", changed, None, "p")
    assert not verdict.ok
    assert "records for it: nothing (the manifest does not know this release)" in verdict.message


def test_an_edited_code_line_fails_with_a_diff_naming_its_note(tmp_path, recorded):
    """Edit one code line (not a note) of a copy of annotated_src: the check names its note."""
    copy = Project(tmp_path)
    shutil.copytree(PROJECT.annotated_src, copy.annotated_src)
    path = copy.annotated_src / "api.block_until_ready.py"
    original = "    xc.batched_block_until_ready(arrays)\n"
    edited = "    xc.batched_block_until_ready(arrays[:1])\n"
    text = path.read_text(encoding="utf-8")
    assert text.count(original) == 1
    path.write_text(text.replace(original, edited), encoding="utf-8")

    _, verdicts = drift.check(copy, sys.executable)
    failed = {v.piece: v.message for v in verdicts if not v.ok}
    assert list(failed) == ["api.block_until_ready"]
    message = failed["api.block_until_ready"]
    piece = read("api.block_until_ready")
    index = next(line.index for line in piece.lines if line.text == original)
    note = piece.section_note(index)
    assert f"-{edited}+{original}" in message  # the unified diff, edited -> installed
    assert "notes on the changed lines; re-read them:" in message
    line = recorded.pieces["api.block_until_ready"].lines[0] + index
    assert f"api.block_until_ready.py:{note.at} (upstream line {line}): " in message
    assert note.text.splitlines()[0] in message
    assert "was a code line edited?" in message
