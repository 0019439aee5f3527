"""Templates: one interpreter per JAX environment and set of ``# env:`` settings that imports JAX
once and forks a child per snippet run (the server is
:mod:`jaxwaits.evidence.template_server`).

Most of a fresh run is interpreter start-up and ``import jax``; a child forked after the import
skips both, yet is a fresh process for everything a snippet can observe: JAX creates its backend,
devices, threads and effect tokens in the child, since the template never made any. Settings are
applied before the template imports JAX, so a snippet whose ``# env:`` lines differ gets a
template of its own. The child gets a session of its own, killed whole at its timeout, and its
stdout and stderr go to files, as they would to a fresh interpreter's pipes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import processes
from jaxwaits.evidence.processes import Exit
from jaxwaits.evidence.snippets import Snippet

SERVER = Path(__file__).with_name("template_server.py")
STARTUP_SECONDS = 300  # importing JAX, on a loaded machine


class TemplateFailed(JaxwaitsError):
    """A template that could not be started; its snippets run in fresh interpreters."""


@dataclass
class Template:
    """One running template: a Python with JAX imported, waiting on a Unix socket."""

    process: subprocess.Popen[bytes]
    folder: Path  # holds the socket and each run's output files

    @classmethod
    def start(cls, python: str, env: dict[str, str]) -> Template:
        folder = Path(tempfile.mkdtemp(prefix="jaxwaits-template-"))
        try:
            process = processes.CHILDREN.start(
                [python, str(SERVER), str(folder / "socket")],
                cwd=folder,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except processes.Stopped:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        except JaxwaitsError as error:
            shutil.rmtree(folder, ignore_errors=True)
            raise TemplateFailed(str(error)) from None
        template = cls(process, folder)
        ready = threading.Timer(STARTUP_SECONDS, processes.kill_group, (process.pid,))
        ready.start()
        try:
            line = process.stdout.readline() if process.stdout else b""
        finally:
            ready.cancel()
        if line.strip() != b"ready":
            template.close()
            said = process.stderr.read().decode(errors="replace") if process.stderr else ""
            last = said.strip().splitlines()[-1:] or [f"exit status {process.returncode}"]
            raise TemplateFailed(f"the template of {python} did not start: {last[0]}")
        return template

    def run(self, snippet: Snippet, cwd: Path, env: dict[str, str]) -> Exit:
        """Run ``snippet`` in a child of the template, as a fresh interpreter would run it."""
        started = time.perf_counter()
        try:
            out, err = _scratch_file(self.folder, ".out"), _scratch_file(self.folder, ".err")
        except OSError as error:
            raise TemplateFailed(f"no room for the run's output: {error}") from None
        request = {
            "path": str(snippet.path.absolute()),  # the child runs in a scratch folder
            "cwd": str(cwd),
            "env": env,
            "stdout": str(out),
            "stderr": str(err),
        }
        try:
            status, left = self._ask(request, snippet.timeout)
            stdout, stderr = out.read_bytes(), err.read_bytes()
        except (OSError, TemplateFailed) as error:
            raise TemplateFailed(self._died() or f"the run's output is lost: {error}") from None
        finally:
            out.unlink(missing_ok=True)
            err.unlink(missing_ok=True)
        return Exit(stdout, stderr, status, time.perf_counter() - started, left)

    def _died(self) -> str:
        """Why the template is gone ('' while it runs)."""
        try:
            code = self.process.wait(timeout=1)  # a template that dies closes its socket first
        except subprocess.TimeoutExpired:
            return ""
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        return f"the template died during the run ({how})"

    def _ask(
        self, request: dict[str, object], timeout: float
    ) -> tuple[int | None, tuple[str, ...]]:
        """The child's exit code (negative: the signal that ended it; None: killed at its
        timeout), and the processes it left running."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            try:
                connection.connect(str(self.folder / "socket"))
                connection.sendall((json.dumps(request) + "\n").encode())
            except OSError as error:
                raise TemplateFailed(f"the template is gone: {error}") from None
            replies = _Lines(connection)
            said = replies.next(None)
            if said[:1] != ["pid"]:
                raise TemplateFailed("the template did not start the run")
            child = int(said[1])
            processes.CHILDREN.track(child)
            try:
                said = replies.next(timeout)
                timed_out = not said
                if timed_out:
                    processes.kill_group(child)
                    said = replies.next(None)
            finally:
                processes.CHILDREN.untrack(child)
            left: tuple[str, ...] = ()
            if said[:1] == ["left"]:
                left = tuple(json.loads(said[1]))
                said = replies.next(None)
        if said[:1] != ["status"]:
            raise TemplateFailed("the template lost the run")
        return None if timed_out else os.waitstatus_to_exitcode(int(said[1])), left

    def let_go(self) -> None:
        """Tell the template to leave once its runs end (it reaps its children and exits)."""
        if self.process.poll() is None and self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()

    def close(self) -> None:
        """Let the template go and wait for it to leave; kill it if it does not."""
        self.let_go()
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                processes.kill_group(self.process.pid)
        if self.process.poll() is None:
            processes.kill_group(self.process.pid)
        self.process.wait()
        processes.CHILDREN.done(self.process)
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _scratch_file(folder: Path, suffix: str) -> Path:
    """A new empty file in ``folder`` for the child to write to (this process keeps no handle)."""
    handle, name = tempfile.mkstemp(dir=folder, suffix=suffix)
    os.close(handle)
    return Path(name)


class _Lines:
    """The template's replies on a connection, a line at a time."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.buffer = b""

    def next(self, timeout: float | None) -> list[str]:
        """The next line's first word and the rest of it; [] if ``timeout`` seconds pass first
        or the line never comes."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return []
            self.connection.settimeout(left)  # not select(): it fails on descriptors past 1023
            try:
                chunk = self.connection.recv(4096)
            except TimeoutError:
                return []
            if not chunk:
                return []
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode().split(" ", 1)


@dataclass
class Templates:
    """Templates made on first use, one per interpreter and set of settings, closed together.
    A template that cannot start is remembered with why, and its snippets run in fresh
    interpreters; one that was killed is started again when next asked for."""

    made: dict[tuple[str, tuple[tuple[str, str], ...]], Template | TemplateFailed] = field(
        default_factory=dict
    )
    lock: threading.Lock = field(default_factory=threading.Lock)
    starting: dict[tuple[str, tuple[tuple[str, str], ...]], threading.Lock] = field(
        default_factory=dict
    )  # one lock per template, so that two can start side by side

    def get(self, python: str, env: dict[str, str]) -> Template | TemplateFailed:
        key = (python, tuple(sorted(env.items())))
        with self.lock:
            starting = self.starting.setdefault(key, threading.Lock())
        with starting:
            with self.lock:
                made = self.made.get(key)
            if isinstance(made, Template) and made.process.poll() is not None:
                made.close()  # killed with the runs of an interrupted batch: start another
                made = None
            if made is None:
                try:
                    made = Template.start(python, env)
                except TemplateFailed as error:
                    made = error
                with self.lock:
                    self.made[key] = made
            return made

    def close(self) -> None:
        with self.lock:
            running = [made for made in self.made.values() if isinstance(made, Template)]
            for template in running:
                template.let_go()  # all at once: they leave side by side
            for template in running:
                template.close()
            self.made.clear()

    def __enter__(self) -> Templates:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
