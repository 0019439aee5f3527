"""Run snippets, each in a fresh interpreter, several at once.

A fresh process per run means no runtime state leaks from one snippet to the next, a snippet's
``# env:`` settings apply before JAX starts, and a snippet that crashes the interpreter or hangs
costs only its own result.
"""

from __future__ import annotations

import enum
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from jaxwaits.platform import Platform, probe
from jaxwaits.snippets import Snippet


class Status(enum.Enum):
    """What became of a snippet. Only ``MATCHED`` passes."""

    MATCHED = "matched"
    DIFFERS = "differs"
    UNRECORDED = "unrecorded"
    RAISED = "raised"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    FLAKY = "flaky"

    @property
    def passed(self) -> bool:
        return self is Status.MATCHED


@dataclass(frozen=True)
class Run:
    """One execution of a snippet."""

    stdout: str
    stderr: str
    returncode: int | None  # None when it was killed for running past its timeout
    seconds: float

    @property
    def failure(self) -> Status | None:
        """RAISED, CRASHED or TIMED_OUT, or None if the interpreter exited cleanly."""
        if self.returncode is None:
            return Status.TIMED_OUT
        if self.returncode < 0:
            return Status.CRASHED
        if self.returncode > 0:
            return Status.RAISED
        return None

    @property
    def signal_name(self) -> str | None:
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"


@dataclass(frozen=True)
class Result:
    """All runs of one snippet, judged against the output expected of it."""

    snippet: Snippet
    expected: str | None
    expected_from: Path  # the recorded output, or the known difference for this release
    runs: tuple[Run, ...]

    @property
    def status(self) -> Status:
        for run in self.runs:
            if run.failure:
                return run.failure
        if len({run.stdout for run in self.runs}) > 1:
            return Status.FLAKY
        if self.expected is None:
            return Status.UNRECORDED
        return Status.MATCHED if self.runs[0].stdout == self.expected else Status.DIFFERS

    @property
    def failed_run(self) -> Run:
        """The run to show: the first that failed, or else the first one."""
        return next((run for run in self.runs if run.failure), self.runs[0])


def run_once(snippet: Snippet, python: str = sys.executable, cwd: Path | None = None) -> Run:
    """Run ``snippet`` in a fresh ``python``; kill it (and its children) past its timeout."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1", **snippet.env}
    started = time.perf_counter()
    with subprocess.Popen(
        [python, str(snippet.path)],
        cwd=cwd or snippet.path.parent,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, so a timeout kills all of it
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=snippet.timeout)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            returncode = None
    return Run(stdout, stderr, returncode, time.perf_counter() - started)


def _execute(
    snippets: list[Snippet], repeat: int, jobs: int | None, python: str
) -> list[tuple[Run, ...]]:
    tasks = [snippet for snippet in snippets for _ in range(repeat)]
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        runs = list(pool.map(lambda snippet: run_once(snippet, python), tasks))
    return [tuple(runs[i * repeat : (i + 1) * repeat]) for i in range(len(snippets))]


def judge(snippet: Snippet, runs: tuple[Run, ...], jax_version: str | None) -> Result:
    """Judge runs against the output expected of the snippet on ``jax_version``."""
    expected, expected_from = snippet.expected(jax_version)
    return Result(snippet, expected, expected_from, runs)


def run_snippets(
    snippets: Iterable[Snippet],
    jax_version: str | None = None,
    *,
    repeat: int = 1,
    jobs: int | None = None,
    python: str = sys.executable,
) -> list[Result]:
    """Run every snippet ``repeat`` times, ``jobs`` processes at once (default: one per core),
    and judge each against the output expected on ``jax_version`` (default: the recorded one).

    Results come back in the order the snippets were given.
    """
    snippets = list(snippets)
    runs = _execute(snippets, repeat, jobs, python)
    return [judge(snippet, run, jax_version) for snippet, run in zip(snippets, runs, strict=True)]


def run_on(
    snippets: Iterable[Snippet],
    *,
    repeat: int = 1,
    jobs: int | None = None,
    python: str = sys.executable,
) -> tuple[list[Result], Platform]:
    """Run the snippets on ``python`` while asking it which JAX it has; judge them for that JAX."""
    snippets = list(snippets)
    with ThreadPoolExecutor(max_workers=1) as side:
        asked = side.submit(probe, python)
        runs = _execute(snippets, repeat, jobs, python)
    platform = asked.result()
    results = [
        judge(snippet, run, platform.jax) for snippet, run in zip(snippets, runs, strict=True)
    ]
    return results, platform
