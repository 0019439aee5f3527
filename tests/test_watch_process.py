"""`jaxwaits watch` as a process among others: a report it could not write is checked before the
program starts and printed where writing fails at the end, and a program that cannot start,
fails or is killed is said to have. Every run is a small program in a temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxwaits.review import formats

WATCH = [sys.executable, "-m", "jaxwaits", "watch"]


def _watch(tmp_path: Path, *words: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return subprocess.run(
        [*WATCH, *words],
        cwd=tmp_path,
        env=dict(os.environ, TMPDIR=str(tmp_path / "tmp")),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("output", "why"), [("nosuchdir/r.txt", "No such file or directory"), (".", "Is a directory")]
)
def test_an_unwritable_output_is_found_before_the_program_starts(
    tmp_path: Path, output: str, why: str
) -> None:
    (tmp_path / "prog.py").write_text("open('ran', 'w')\n")
    done = _watch(tmp_path, "--output", output, "prog.py")
    assert (done.returncode, done.stderr) == (
        2,
        f"jaxwaits: watch: --output {output}: cannot write the report there ({why}); name a "
        "writable file in a folder that exists (the program was not started)\n",
    )
    assert not (tmp_path / "ran").exists()
    assert not (tmp_path / "nosuchdir").exists()


def test_a_report_that_cannot_be_written_at_the_end_is_printed(tmp_path: Path) -> None:
    """The program takes away the folder the report was to go to."""
    (tmp_path / "out").mkdir()
    (tmp_path / "prog.py").write_text("import shutil\nshutil.rmtree('out')\n")
    done = _watch(tmp_path, "--output", "out/r.txt", "prog.py")
    assert done.returncode == 2
    *report, last = done.stderr.splitlines()
    assert "0 findings in 0 files" in report
    assert last == (
        "jaxwaits: watch: --output out/r.txt: cannot write the report there (No such file or "
        "directory); it is printed above instead"
    )


@pytest.mark.parametrize("output", [[], ["--output", "r.txt"]])
def test_a_program_that_cannot_start_is_said_in_one_line(tmp_path: Path, output: list[str]) -> None:
    done = _watch(tmp_path, *output, "--", "nosuchprog")
    assert (done.returncode, done.stderr) == (
        2,
        "jaxwaits: watch: cannot start nosuchprog: No such file or directory\n",
    )
    assert not (tmp_path / "r.txt").exists()  # no empty report is left
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("form", list(formats.Format))
@pytest.mark.parametrize(
    ("program", "code", "words"),
    [
        ("import sys\nsys.exit(1)\n", 1, "the program exited with status 1"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", 137,
         "the program was killed by SIGKILL"),
    ],
)  # fmt: skip
def test_how_a_failed_program_ended_is_reported(
    tmp_path: Path, form: formats.Format, program: str, code: int, words: str
) -> None:
    (tmp_path / "prog.py").write_text(program)
    done = _watch(tmp_path, "--format", form.value, "--output", "r", "prog.py")
    assert done.returncode == code
    report = (tmp_path / "r").read_text()
    if form is formats.Format.JSON:
        assert json.loads(report)["program_ended"] == words
    elif form is formats.Format.SARIF:
        (invocation,) = json.loads(report)["runs"][0]["invocations"]
        assert (invocation["exitCode"], invocation["exitCodeDescription"]) == (code, words)
    else:
        assert words in report.replace("The program", "the program")  # markdown's sentence
