"""Run snippets, each in a fresh interpreter, several at once.

A fresh process per run means no runtime state leaks from one snippet to the next, a snippet's
``# env:`` settings apply before JAX starts, and a snippet that crashes the interpreter or hangs
costs only its own result. Each run has its own process group, killed whole at its timeout; if
the runner is interrupted (Ctrl-C) or told to stop (SIGTERM, SIGHUP), every running snippet is
killed with it.
"""

from __future__ import annotations

import enum
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.output import canonical, decode
from jaxwaits.evidence.platform import Platform, probe
from jaxwaits.evidence.snippets import Snippet


class Outcome(enum.Enum):
    """What a snippet's runs showed: the one vocabulary for it, in the runner, the tests, the
    build and the ledger. Only the two ``MATCHED`` outcomes pass."""

    MATCHED = "matched"  # printed its recorded output
    MATCHED_KNOWN = "known difference"  # printed the output recorded for this release
    DIFFERS = "differs"
    NO_RECORDING = "no recorded output"
    RAISED = "raised"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    NOT_UTF8 = "printed bytes that are not UTF-8"
    FLAKY = "flaky"
    INVALID = "invalid settings"
    ENV_MISMATCH = "environment mismatch"  # the build only: the page's kernel sets another env
    NOT_RUN = "not run in this build"  # the build only: the cell did not run the snippet

    @property
    def passed(self) -> bool:
        return self in (Outcome.MATCHED, Outcome.MATCHED_KNOWN)

    @property
    def recordable(self) -> bool:
        """Whether a run with this outcome may be recorded: it ran cleanly and steadily."""
        return self.passed or self in (Outcome.DIFFERS, Outcome.NO_RECORDING)


@dataclass(frozen=True)
class Run:
    """One execution of a snippet; ``stdout`` is in canonical form
    (:mod:`jaxwaits.evidence.output`)."""

    stdout: str
    stderr: str
    returncode: int | None  # None when it was killed for running past its timeout
    seconds: float
    bad_byte: int | None = None  # the first byte of stdout that is not UTF-8

    @property
    def failure(self) -> Outcome | None:
        """Why the run failed whatever it printed, or None if it exited cleanly with text."""
        if self.returncode is None:
            return Outcome.TIMED_OUT
        if self.returncode < 0:
            return Outcome.CRASHED
        if self.returncode > 0:
            return Outcome.RAISED
        if self.bad_byte is not None:
            return Outcome.NOT_UTF8
        return None

    @property
    def signal_name(self) -> str | None:
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Result:
    """All runs of one snippet, judged against the output expected of it."""

    snippet: Snippet
    expected: str | None
    expected_from: Path  # the recorded output, or the known difference for this release
    runs: tuple[Run, ...]

    @property
    def outcome(self) -> Outcome:
        if self.snippet.problems:
            return Outcome.INVALID
        for run in self.runs:
            if run.failure:
                return run.failure
        if len({run.stdout for run in self.runs}) > 1:
            return Outcome.FLAKY
        if self.expected is None:
            return Outcome.NO_RECORDING
        if self.runs[0].stdout != self.expected:
            return Outcome.DIFFERS
        known = self.expected_from != self.snippet.recorded_path
        return Outcome.MATCHED_KNOWN if known else Outcome.MATCHED

    @property
    def failed_run(self) -> Run | None:
        """The run to show: the first that failed, or else the first one (None if none ran)."""
        return next((run for run in self.runs if run.failure), self.runs[0] if self.runs else None)


class _Children:
    """The process groups of the snippets running now, so that they can be killed together."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self._executions = 0
        self._stopping = False

    @contextmanager
    def execution(self) -> Iterator[None]:
        with self._lock:
            if self._executions == 0:
                self._stopping = False
            self._executions += 1
        try:
            yield
        except BaseException:
            self.kill_all()
            raise
        finally:
            with self._lock:
                self._executions -= 1

    def start(self, command: list[str], **options: object) -> subprocess.Popen[bytes] | None:
        """Start a snippet in a group of its own, unless everything is being stopped."""
        with self._lock:
            if self._stopping:
                return None
            try:
                process = subprocess.Popen(command, start_new_session=True, **options)  # type: ignore[call-overload]
            except OSError as error:
                raise JaxwaitsError(f"cannot start {command[0]}: {error.strerror}") from None
            self._groups.add(process.pid)
            return process

    def done(self, process: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._groups.discard(process.pid)

    def kill_all(self) -> None:
        with self._lock:
            self._stopping = True
            groups = list(self._groups)
        for group in groups:
            kill_group(group)


CHILDREN = _Children()


def kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone


@contextmanager
def children_die_with_us() -> Iterator[None]:
    """While this holds, a SIGTERM or SIGHUP first kills every running snippet, then acts as it
    would have; an exception (Ctrl-C's KeyboardInterrupt included) kills them too."""
    previous: dict[int, object] = {}

    def stop(signum: int, _frame: FrameType | None) -> None:
        CHILDREN.kill_all()
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        os.kill(os.getpid(), signum)

    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGTERM, signal.SIGHUP):
            previous[number] = signal.signal(number, stop)
    try:
        with CHILDREN.execution():
            yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]


_COLOUR = {"FORCE_COLOR", "CLICOLOR_FORCE", "PY_COLORS"}  # dropped: tracebacks stay plain text
_PLAIN = {"PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1", "PYTHON_COLORS": "0", "NO_COLOR": "1"}


def _environment(snippet: Snippet) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _COLOUR}
    return {**env, **_PLAIN, **snippet.env}


def run_once(snippet: Snippet, python: str = sys.executable, cwd: Path | None = None) -> Run:
    """Run ``snippet`` in a fresh ``python``; kill it (and its children) past its timeout."""
    started = time.perf_counter()
    process = CHILDREN.start(
        [python, str(snippet.path)],
        cwd=cwd or snippet.path.parent,
        env=_environment(snippet),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if process is None:
        return Run("", "not started: the runner was stopped\n", None, 0.0)
    with process:
        try:
            stdout, stderr = process.communicate(timeout=snippet.timeout)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            stdout, stderr = process.communicate()
            returncode = None
        finally:
            CHILDREN.done(process)
    printed = decode(stdout)
    return Run(
        canonical(printed.text),
        decode(stderr).text,
        returncode,
        time.perf_counter() - started,
        printed.bad_byte,
    )


def _execute(
    snippets: list[Snippet], repeat: int, jobs: int | None, python: str
) -> list[tuple[Run, ...]]:
    runnable = [snippet for snippet in snippets if not snippet.problems]
    tasks = [snippet for snippet in runnable for _ in range(repeat)]
    pool = ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1)
    try:
        with children_die_with_us():
            futures = [pool.submit(run_once, snippet, python) for snippet in tasks]
            runs = [future.result() for future in futures]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
    by_snippet = {id(s): tuple(runs[i * repeat : (i + 1) * repeat]) for i, s in enumerate(runnable)}
    return [by_snippet.get(id(snippet), ()) for snippet in snippets]


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

    Results come back in the order the snippets were given; a snippet with invalid settings is
    judged without running.
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
