"""The runner survives a crash, a hang and an exception, and says which and where, whether a
snippet runs in a template's child (the default) or in a fresh interpreter."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jaxwaits.evidence import record, report, runner
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Result, Run, Via, run_snippets
from jaxwaits.evidence.snippets import Snippet, load_snippets
from jaxwaits.evidence.template import Templates

PLATFORM = Platform(jax="0.0", jaxlib="0.0", python="3", backend="cpu")
ENDS = """import atexit, threading, time
atexit.register(print, "atexit ran")
threading.Thread(target=lambda: (time.sleep(0.3), print("thread finished"))).start()
print("main done")
"""
SNIPPETS = {
    "fine": ('print("fine")\n', "fine\n"),
    "differs": ('print("two")\n', "one\n"),
    "segfault": ('import os, signal\nprint("before")\nos.kill(os.getpid(), signal.SIGSEGV)\n', ""),
    "hangs": ('# timeout: 2\nimport time\nprint("waiting")\ntime.sleep(60)\n', ""),
    "raises": ('raise ValueError("no")\n', ""),
    "unrecorded": ('print("new")\n', None),
    "env": ('# env: JAXWAITS_PROBE=set\nimport os\nprint(os.environ["JAXWAITS_PROBE"])\n', "set\n"),
    "ends": (ENDS, "main done\nthread finished\natexit ran\n"),
}


def _write(folder: Path) -> Path:
    for name, (code, out) in SNIPPETS.items():
        (folder / f"{name}.py").write_text(code)
        if out is not None:
            (folder / f"{name}.out").write_text(out)
    return folder


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return _write(tmp_path)


@pytest.fixture(scope="module", params=[False, True], ids=["template", "fresh"])
def results(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, templates: Templates
) -> dict[str, Result]:
    """Each snippet run once each way; the tests only read the results."""
    found = run_snippets(load_snippets(_write(tmp_path_factory.mktemp("run"))), fresh=request.param)
    way = Via.FRESH if request.param else Via.TEMPLATE
    assert {r.runs[0].via for r in found} == {way}, [r.runs[0].why_fresh for r in found]
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
        "ends": Outcome.MATCHED,  # an interpreter's end: threads joined, then atexit handlers
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
    message = report.describe(results["raises"], PLATFORM)
    assert "ValueError: no" in message and 'raises.py", line 1, in <module>' in message
    assert "runpy" not in message and "template_server" not in message  # the snippet's frames


def test_the_template_hands_each_run_a_process_of_its_own(
    tmp_path: Path, templates: Templates
) -> None:
    probe = (
        "import os, sys, jax\n"
        "print(os.getpid() == os.getsid(0), os.path.basename(sys.argv[0]))\n"
        "print(len(jax.devices()), os.environ.get('XLA_FLAGS', ''))\n"
    )
    (tmp_path / "probe.py").write_text(probe)
    (tmp_path / "probe4.py").write_text(
        "# env: XLA_FLAGS=--xla_force_host_platform_device_count=4\n" + probe
    )
    found = run_snippets(load_snippets(tmp_path), repeat=2, templates=templates)
    said = {r.snippet.name: {run.stdout for run in r.runs} for r in found}
    assert said == {
        "probe": {"True probe.py\n1\n"},
        "probe4": {"True probe4.py\n4 --xla_force_host_platform_device_count=4\n"},
    }
    assert all(run.via is Via.TEMPLATE for r in found for run in r.runs)


def test_record_writes_only_clean_runs(folder: Path, templates: Templates) -> None:
    found = run_snippets(
        load_snippets(folder, ["differs", "raises", "unrecorded"]), repeat=2, templates=templates
    )
    lines, ok = record.apply(found, PLATFORM)
    assert not ok
    assert (folder / "differs.out").read_text() == "two\n"
    assert (folder / "unrecorded.out").read_text() == "new\n"
    assert (folder / "raises.out").read_text() == ""  # as it was
    assert "raises: NOT recorded" in lines


def test_runs_leave_no_file_descriptor_open(folder: Path, templates: Templates) -> None:
    fine = load_snippets(folder, ["fine"])
    run_snippets(fine, templates=templates)  # the template is running from here on
    before = len(os.listdir("/proc/self/fd"))
    run_snippets(fine, repeat=20, templates=templates)
    assert len(os.listdir("/proc/self/fd")) == before


def test_an_error_in_one_batch_stops_no_other(
    folder: Path, templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = runner.run_once

    def run_once(snippet: Snippet, *args: object) -> Run:
        if snippet.name == "raises":
            raise OSError("a fault in the runner, not in the snippet")
        return real(snippet, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "run_once", run_once)
    slow = folder / "slow.py"
    slow.write_text('import time\ntime.sleep(1)\nprint("slow")\n')
    (folder / "slow.out").write_text("slow\n")
    with ThreadPoolExecutor(2) as pool:
        other = pool.submit(run_snippets, load_snippets(folder, ["slow"]), templates=templates)
        time.sleep(0.3)
        with pytest.raises(OSError, match="a fault in the runner"):
            run_snippets(load_snippets(folder, ["raises"]), templates=templates)
        assert other.result()[0].outcome is Outcome.MATCHED
    (after,) = run_snippets(load_snippets(folder, ["fine"]), templates=templates)
    assert after.outcome is Outcome.MATCHED


@pytest.mark.parametrize("fresh", [False, True], ids=["template", "fresh"])
def test_a_snippet_found_through_a_relative_folder_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, templates: Templates, fresh: bool
) -> None:
    """Each run has a scratch folder of its own as its working directory: the snippet's path
    must not depend on the caller's."""
    (tmp_path / "here.py").write_text("print('here')\n")
    (tmp_path / "here.out").write_text("here\n")
    monkeypatch.chdir(tmp_path)
    (found,) = run_snippets(load_snippets(Path(".")), fresh=fresh, templates=templates)
    assert found.outcome is Outcome.MATCHED, report.describe(found, None)
