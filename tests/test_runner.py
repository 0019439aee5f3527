"""The runner survives a crash, a hang and an exception, and says which and where."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxwaits.evidence import record, report
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Outcome, Result, run_snippets
from jaxwaits.evidence.snippets import load_snippets

PLATFORM = Platform(jax="0.0", jaxlib="0.0", python="3", backend="cpu")
SNIPPETS = {
    "fine": ('print("fine")\n', "fine\n"),
    "differs": ('print("two")\n', "one\n"),
    "segfault": ('import os, signal\nprint("before")\nos.kill(os.getpid(), signal.SIGSEGV)\n', ""),
    "hangs": ('# timeout: 2\nimport time\nprint("waiting")\ntime.sleep(60)\n', ""),
    "raises": ('raise ValueError("no")\n', ""),
    "unrecorded": ('print("new")\n', None),
    "env": ('# env: JAXWAITS_PROBE=set\nimport os\nprint(os.environ["JAXWAITS_PROBE"])\n', "set\n"),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, (code, out) in SNIPPETS.items():
        (tmp_path / f"{name}.py").write_text(code)
        if out is not None:
            (tmp_path / f"{name}.out").write_text(out)
    return tmp_path


@pytest.fixture
def results(folder: Path) -> dict[str, Result]:
    found = run_snippets(load_snippets(folder))
    return {result.snippet.name: result for result in found}


def test_every_outcome_is_told_apart(results: dict[str, Result]) -> None:
    assert {name: r.outcome for name, r in results.items()} == {
        "fine": Outcome.MATCHED,
        "differs": Outcome.DIFFERS,
        "segfault": Outcome.CRASHED,
        "hangs": Outcome.TIMED_OUT,
        "raises": Outcome.RAISED,
        "unrecorded": Outcome.NO_RECORDING,
        "env": Outcome.MATCHED,
    }


def test_a_difference_is_shown_as_a_diff_with_the_fix(results: dict[str, Result]) -> None:
    message = report.describe(results["differs"], PLATFORM, ["some-claim"])
    assert "snippet differs" in message and "backs some-claim" in message
    assert "-one\n+two" in message
    assert "on jax 0.0, jaxlib 0.0" in message
    assert "nox -s record -- differs" in message


def test_a_crash_names_the_signal_and_keeps_what_was_printed(results: dict[str, Result]) -> None:
    message = report.describe(results["segfault"], PLATFORM)
    assert "killed by SIGSEGV" in message and "before" in message
    assert "Fatal Python error" in message  # faulthandler's traceback, from stderr


def test_a_hang_is_killed_at_its_timeout(results: dict[str, Result]) -> None:
    run = results["hangs"].runs[0]
    assert run.seconds < 30
    assert "timeout" in report.describe(results["hangs"], PLATFORM) and "waiting" in run.stdout


def test_an_exception_shows_its_traceback(results: dict[str, Result]) -> None:
    assert "ValueError: no" in report.describe(results["raises"], PLATFORM)


def test_record_writes_only_clean_runs(folder: Path) -> None:
    found = run_snippets(load_snippets(folder, ["differs", "raises", "unrecorded"]), repeat=2)
    lines, ok = record.apply(found, PLATFORM)
    assert not ok
    assert (folder / "differs.out").read_text() == "two\n"
    assert (folder / "unrecorded.out").read_text() == "new\n"
    assert (folder / "raises.out").read_text() == ""  # as it was
    assert "raises: NOT recorded" in lines
