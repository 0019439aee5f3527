"""`pytest --jaxwaits-watch` under pytest-xdist, the programs the watch is tried on kept out of
the project's own test run, and where the watch places a reading a helper of the program makes
(issue 37)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

UNWAITED = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: jnp.tanh(w @ w))


def test_{name}():
    w = jnp.ones((256, 256))
    step(w).block_until_ready()
    t0 = time.perf_counter()
    out = step(w)
    elapsed = time.perf_counter() - t0
    assert elapsed > 0 and out.shape == (256, 256)
"""


def _pytest(here: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in ``here``, its temporary files in ``here/tmp`` (to see that none is left)."""
    (here / "tmp").mkdir()
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=here, capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "TMPDIR": str(here / "tmp")},
    )  # fmt: skip


def _reported(out: str) -> list[tuple[str, str, str]]:
    return sorted(re.findall(r"^(test_\w+\.py):(\d+):\d+ (JW\d+)", out, re.MULTILINE))


@pytest.mark.parametrize("workers", [[], ["-n", "2", "--dist", "loadfile"]])
def test_the_findings_of_every_xdist_worker_are_reported(
    tmp_path: Path, workers: list[str]
) -> None:
    """Two files, each sent to its own worker: both findings are in the one report, and the run
    exits 1, as it does without xdist."""
    for name in ("one", "two"):
        (tmp_path / f"test_{name}.py").write_text(UNWAITED.format(name=name))
    done = _pytest(tmp_path, "--jaxwaits-watch", *workers)
    assert "2 passed" in done.stdout, done.stdout + done.stderr
    assert _reported(done.stdout) == [
        ("test_one.py", "14", "JW101"),
        ("test_two.py", "14", "JW101"),
    ]
    assert done.returncode == 1
    assert not list((tmp_path / "tmp").glob("jaxwaits-watch-*"))


def test_what_a_crashed_worker_saw_before_it_crashed_is_reported(tmp_path: Path) -> None:
    """A test that kills its worker: the finding of the test before it, in that worker, is
    still reported (from the log the worker left), and no log is left behind."""
    crashing = (
        UNWAITED.format(name="step") + "\n\ndef test_crash():\n    import os\n\n    os._exit(3)\n"
    )
    (tmp_path / "test_crash.py").write_text(crashing)
    done = _pytest(tmp_path, "--jaxwaits-watch", "-n", "1")
    assert "crashed" in done.stdout and "1 failed, 1 passed" in done.stdout, done.stdout
    assert _reported(done.stdout) == [("test_crash.py", "14", "JW101")]
    assert done.returncode == 1
    assert not list((tmp_path / "tmp").glob("jaxwaits-watch-*"))


def test_the_suite_collects_no_program_the_tools_are_tried_on(tmp_path: Path) -> None:
    """Only the project's tests are collected: a program under tests/ named as pytest collects
    (the watch's pytest-benchmark reductions, review's corpus) is run by path, not as a test.
    Checked on a copy of the tree, each such file a test of its own."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for path in (ROOT / "tests").rglob("*.py"):
        if re.fullmatch(r"test_.*\.py|.*_test\.py", path.name):
            copy = tmp_path / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text("def test_placeholder():\n    pass\n")
    done = _pytest(tmp_path, "--collect-only")
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    tests = [*(ROOT / "tests").glob("test_*.py"), *(ROOT / "tests" / "checker").glob("test_*.py")]
    assert collected == {p.relative_to(ROOT).as_posix() for p in tests}


HELPERS = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: jnp.tanh(w @ w))


def now():
    return time.perf_counter()


def clock():
    return now()


class Timer:
    def now(self):
        return time.perf_counter_ns()


stamp = lambda: time.monotonic()  # noqa: E731
w = jnp.ones((256, 256))
step(w).block_until_ready()
t0 = now()
step(w)
elapsed = now() - t0
t1 = clock()
step(w)
elapsed = clock() - t1
timer = Timer()
t2 = timer.now()
step(w)
elapsed = timer.now() - t2
t3 = stamp()
step(w)
elapsed = stamp() - t3
t4 = time.perf_counter()
step(w)
elapsed = time.perf_counter() - t4
"""


def test_a_reading_a_helper_returns_is_placed_where_the_helper_was_called(tmp_path: Path) -> None:
    """``def now(): return time.perf_counter()``, a helper calling it, a method, a lambda: each
    interval is reported at the line that read the time through the helper, each on its own
    (not all at the helper's line, as one); a direct reading stays where it is."""
    (tmp_path / "bench.py").write_text(HELPERS)
    report = tmp_path / "report.json"
    subprocess.run(
        [sys.executable, "-m", "jaxwaits", "watch", "--format", "json", "--output", str(report),
         "bench.py"],
        cwd=tmp_path, capture_output=True, check=False, timeout=300,
    )  # fmt: skip
    found = json.loads(report.read_text())["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("JW101", n) for n in (27, 30, 34, 37, 40)]
    said = [re.search(r"from line (\d+)\) in which the work dispatched at line (\d+)", f["message"])
            for f in found]  # fmt: skip
    assert [m.groups() for m in said if m] == [
        ("25", "26"),
        ("28", "29"),
        ("32", "33"),
        ("35", "36"),
        ("38", "39"),
    ]
