"""The processes that run snippets: started in sessions of their own, so that a timeout or a
stop kills a snippet and everything it started; and the fresh-interpreter way to run one, under
a supervisor (:mod:`jaxwaits.evidence.supervisor`) that ends whatever the snippet left running.

While :func:`children_die_with_us` holds, an interruption (Ctrl-C) or a SIGTERM or SIGHUP kills
every snippet running, in a fresh interpreter or in a template's child, and every template, and
no run starts after it. Any other error fails only the batch it happened in.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.snippets import Snippet


@dataclass(frozen=True)
class Exit:
    """How a snippet's process ended: what it wrote, its exit code (negative: the signal that
    killed it; None: killed at its timeout), how long it took, and the processes it left
    running (each killed then)."""

    stdout: bytes
    stderr: bytes
    returncode: int | None
    seconds: float
    left: tuple[str, ...] = ()


class Stopped(JaxwaitsError):
    """No new run starts: the user stopped the runner."""


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
        except (KeyboardInterrupt, SystemExit):  # stopped by the user: every run stops
            self.kill_all()
            raise
        finally:
            with self._lock:
                self._executions -= 1

    def start(self, command: list[str], **options: object) -> subprocess.Popen[bytes]:
        """Start a snippet in a group of its own, unless everything is being stopped."""
        with self._lock:
            if self._stopping:
                raise Stopped("the runner was stopped")
            try:
                process = subprocess.Popen(command, start_new_session=True, **options)  # type: ignore[call-overload]
            except OSError as error:
                raise JaxwaitsError(f"cannot start {command[0]}: {error.strerror}") from None
            self._groups.add(process.pid)
            return process

    def done(self, process: subprocess.Popen[bytes]) -> None:
        self.untrack(process.pid)

    def track(self, group: int) -> None:
        """A group started elsewhere (a template's child), to be killed with the rest."""
        with self._lock:
            self._groups.add(group)
            stopping = self._stopping
        if stopping:
            kill_group(group)

    def untrack(self, group: int) -> None:
        with self._lock:
            self._groups.discard(group)

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
    would have; so does Ctrl-C's KeyboardInterrupt."""
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


def environment(settings: dict[str, str]) -> dict[str, str]:
    """This process's environment for a snippet run, plain text forced, with its settings."""
    env = {key: value for key, value in os.environ.items() if key not in _COLOUR}
    return {**env, **_PLAIN, **settings}


SUPERVISOR = Path(__file__).with_name("supervisor.py")
_GRACE = 30  # seconds past a snippet's timeout before the supervisor itself is killed


def run_fresh(snippet: Snippet, python: str, cwd: Path) -> Exit:
    """Run ``snippet`` in a fresh ``python`` in ``cwd``, under a supervisor that kills it (and
    its children) past its timeout and ends whatever it left running."""
    started = time.perf_counter()
    handle, report = tempfile.mkstemp(prefix="jaxwaits-report-", suffix=".json")
    os.close(handle)
    os.unlink(report)  # the supervisor writes it whole, or not at all
    process = CHILDREN.start(
        [
            python,
            "-S",
            str(SUPERVISOR),
            report,
            f"{snippet.timeout:g}",
            str(snippet.path.absolute()),
        ],
        cwd=cwd,
        env=environment(snippet.env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killed = False
    with process:
        try:
            stdout, stderr = process.communicate(timeout=snippet.timeout + _GRACE)
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            killed = True
            stdout, stderr = process.communicate()
        finally:
            CHILDREN.done(process)
    try:
        with open(report, encoding="utf-8") as file:
            said = json.load(file)
        os.unlink(report)
    except (OSError, ValueError):  # no report: the supervisor was killed, or failed itself
        returncode = None if killed else process.returncode
        return Exit(stdout, stderr, returncode, time.perf_counter() - started)
    status = said["status"]
    returncode = None if status is None else os.waitstatus_to_exitcode(status)
    return Exit(stdout, stderr, returncode, time.perf_counter() - started, tuple(said["left"]))
