"""`jaxwaits watch` as a process among others: stopped by a signal it stops the program too and
removes its scratch folder, a report it could not write is checked before the program starts and
printed where writing fails at the end, and a program that cannot start, fails or is killed is
said to have. Every run is a small program in a temporary folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harnesscheck import watch
from harnesscheck.results import Review, formats

WATCH = [sys.executable, "-m", "jaxwaits", "watch"]

SLEEPS = """\
import os, signal, sys, time
{setup}
open("pid", "w").write(str(os.getpid()))
time.sleep(60)
"""

UNWAITED = """\
import os, sys, time
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((64, 64))
f(x).block_until_ready()
start = time.perf_counter()
y = f(x)
took = time.perf_counter() - start
open("pid", "w").write(str(os.getpid()))
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def programs() -> Iterator[list[int]]:
    """The pids the programs wrote; one left running (by the watch before the fix) is killed."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _start(tmp_path: Path, program: str, *options: str) -> subprocess.Popen[bytes]:
    """The watch of ``program`` (its scratch folder in tmp_path/tmp), in a session of its own:
    a signal to its group is what a terminal's Ctrl-C is."""
    (tmp_path / "prog.py").write_text(program)
    (tmp_path / "tmp").mkdir()
    with open(tmp_path / "stderr", "wb") as stderr:
        return subprocess.Popen(
            [*WATCH, *options, "--", sys.executable, "prog.py"],
            cwd=tmp_path,
            env=dict(os.environ, TMPDIR=str(tmp_path / "tmp")),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
            preexec_fn=_signals_by_default,
        )


def _signals_by_default() -> None:
    """A watch started from a terminal: run under ``nohup`` or as a background job, the tests
    would hand it SIGHUP or SIGINT ignored, and it rightly leaves an ignored signal ignored."""
    for number in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)


def _pid(tmp_path: Path, programs: list[int]) -> int:
    """The program's pid, once it has started."""
    deadline = time.monotonic() + 60
    while not (tmp_path / "pid").is_file() or not (tmp_path / "pid").read_text():
        assert time.monotonic() < deadline, "the program did not start"
        time.sleep(0.05)
    programs.append(int((tmp_path / "pid").read_text()))
    return programs[-1]


def _stopped(tmp_path: Path, process: subprocess.Popen[bytes], pid: int) -> tuple[int, str]:
    """The watch's exit status and standard error, once it ended; the program is gone and no
    scratch folder is left."""
    try:
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the program was left running"
    assert list((tmp_path / "tmp").iterdir()) == []
    return code, (tmp_path / "stderr").read_text()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_the_watch_stops_the_program(
    tmp_path: Path, programs: list[int], number: signal.Signals
) -> None:
    """What `timeout` or a closed terminal sends the watch alone is passed on to the program."""
    process = _start(tmp_path, SLEEPS.format(setup=""))
    pid = _pid(tmp_path, programs)
    process.send_signal(number)
    assert _stopped(tmp_path, process, pid) == (
        128 + number,
        f"jaxwaits: watch: stopped by {number.name}, and the program with it (the program was "
        f"killed by {number.name}); no mistake was seen until then\n",
    )


def test_ctrl_c_stops_the_watch_in_one_line(tmp_path: Path, programs: list[int]) -> None:
    """The terminal sends SIGINT to the whole group: the program gets it once, from there."""
    program = SLEEPS.format(setup="signal.signal(signal.SIGINT, signal.SIG_DFL)")
    process = _start(tmp_path, program)
    pid = _pid(tmp_path, programs)
    os.killpg(process.pid, signal.SIGINT)
    assert _stopped(tmp_path, process, pid) == (
        130,
        "jaxwaits: watch: stopped by SIGINT, and the program with it (the program was killed "
        "by SIGINT); no mistake was seen until then\n",
    )


def test_a_program_that_ignores_the_signal_is_killed_after_a_grace(
    tmp_path: Path, programs: list[int]
) -> None:
    program = SLEEPS.format(setup="signal.signal(signal.SIGTERM, signal.SIG_IGN)")
    process = _start(tmp_path, program)
    pid = _pid(tmp_path, programs)
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    code, said = _stopped(tmp_path, process, pid)
    assert (code, said) == (
        143,
        "jaxwaits: watch: stopped by SIGTERM, and the program with it (the program was killed "
        "by SIGKILL); no mistake was seen until then\n",
    )
    assert time.monotonic() - started >= watch.GRACE


def test_a_stopped_watch_reports_what_it_saw_as_partial(
    tmp_path: Path, programs: list[int]
) -> None:
    process = _start(tmp_path, UNWAITED, "--format", "json", "--output", "r.json")
    pid = _pid(tmp_path, programs)
    process.send_signal(signal.SIGTERM)
    code, said = _stopped(tmp_path, process, pid)
    assert (code, said) == (
        143,
        "jaxwaits: watch: stopped by SIGTERM, and the program with it (the program was killed "
        "by SIGTERM); what it saw until then (1 finding) is in the partial report in r.json\n",
    )
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("JW101", 10)]
    assert (report["partial"], report["stopped_by"], report["program_exit"]) == (
        True,
        "SIGTERM",
        -signal.SIGTERM,
    )


@pytest.mark.parametrize("form", list(formats.Format))
def test_a_partial_report_says_so_in_every_format(form: formats.Format, tmp_path: Path) -> None:
    watched = watch.judged([], set(), -signal.SIGKILL)
    watched.stopped = signal.SIGINT
    said = watch.report(watched, form, tmp_path)
    words = "partial report: the watch was stopped by SIGINT, and stopped the program"
    if form is formats.Format.JSON:
        assert json.loads(said)["partial"] is True
    else:
        assert f"{words}: the program was killed by SIGKILL" in said.replace("Partial", "partial")


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


@pytest.mark.parametrize("form", [formats.Format.JSON, formats.Format.SARIF])
def test_a_watch_report_in_json_forges_no_command_in_a_github_log(form: formats.Format) -> None:
    """The watch adds its own keys to review's JSON and SARIF and writes them again: still with
    ``##[`` (a command anywhere in a line of a GitHub log) escaped, as review writes them."""
    review = Review(unreadable=["bench/#" + "#[error]x.py: skipped: a FIFO, not a regular file"])
    watched = watch.Watched(1, review, not_observed=["the tests in #" + "#[group]a.py"])
    shown = watch.report(watched, form, Path.cwd())
    assert "#" + "#[" not in shown
    assert "#" + "#[error]x.py" in json.dumps(json.loads(shown), ensure_ascii=False)


SEES = """\
import os, sys, sitecustomize
print(sorted(m for m in sys.modules if m.split(".")[0] in ("harnesscheck", "jaxwaits")))
print(sitecustomize.OWN, os.environ["PYTHONPATH"] == os.environ["BEFORE"])
"""


def test_the_observer_imports_nothing_of_the_checker_and_runs_the_program_s_sitecustomize(
    tmp_path: Path,
) -> None:
    """Installed in the program, the observer is its own small package: the checker (its rules,
    formats, the watch that judges) is not imported there; the program's own ``sitecustomize``
    still runs, and the program is given back the ``PYTHONPATH`` it was started with."""
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "sitecustomize.py").write_text("OWN = 'the program s own'\n")
    (tmp_path / "prog.py").write_text(SEES)
    path = os.pathsep.join(filter(None, [str(tmp_path / "own"), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [*WATCH, "prog.py"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=path, BEFORE=path),
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\nthe program s own True\n"
