"""A template: an interpreter of one JAX environment that imports JAX once, creates no backend,
and forks a child per snippet run (see :mod:`jaxwaits.evidence.template`).

Run by path with the environment's own interpreter (``python template_server.py SOCKET``), so it
uses the standard library and JAX only: the environments of other releases have no jaxwaits.

Each connection on the Unix socket asks for one run. A monitor process is forked for it; the
monitor, the subreaper of everything below it (:mod:`jaxwaits.evidence.supervisor`), forks the
snippet's process, which starts a session of its own (so that a timeout kills it and everything
it started), takes the files it was given as stdout and stderr, and runs the snippet as
``__main__``; it ends as an interpreter does, threads joined and atexit handlers run, short of
the teardown (see :func:`_end`). The monitor sends the snippet's pid, waits for it, ends and
names the processes it left running, sends them and its wait status, and exits. The template
reaps the monitors (so their CPU time counts towards its own) and leaves when its stdin closes:
when the runner is done with it, or gone.
"""

import gc
import importlib.util
import json
import os
import select
import signal
import socket
import sys
import traceback
from typing import NoReturn


def main(address: str) -> NoReturn:
    import jax  # noqa: F401  (the point: imported once, before any fork; no backend yet)
    import numpy  # noqa: F401

    # What was imported lives for the whole process, as in a fresh interpreter; frozen, it is
    # never traversed by a child's collections, which would copy every page it sits on.
    gc.freeze()
    supervisor = _supervisor()

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(address)
    server.listen(64)
    print("ready", flush=True)
    while True:
        readable, _, _ = select.select([server, sys.stdin], [], [], 1.0)
        _reap(block=False)
        if sys.stdin in readable and not sys.stdin.readline():
            server.close()
            _reap(block=True)
            os._exit(0)  # nothing left to say; JAX's teardown would only cost time
        if server not in readable:
            continue
        connection, _ = server.accept()
        sys.stdout.flush()
        sys.stderr.flush()
        if os.fork() == 0:
            server.close()
            _monitor(connection, supervisor)
        connection.close()


def _reap(*, block: bool) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _supervisor():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supervisor.py")
    spec = importlib.util.spec_from_file_location("jaxwaits_supervisor", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _monitor(connection: socket.socket, supervisor) -> NoReturn:
    """In the monitor: start the run, send the snippet's pid, wait for it, end what it left
    running, send those and its status."""
    try:
        request = json.loads(connection.makefile("r", encoding="utf-8").readline())
        supervisor.become_subreaper()
        child = os.fork()
    except BaseException:
        os._exit(1)
    if child == 0:
        connection.close()
        supervisor.die_with_parent()
        _snippet(request)
    try:
        connection.sendall(f"pid {child}\n".encode())
        _, status = os.waitpid(child, 0)
        left = supervisor.end_left_behind(child)
        connection.sendall(f"left {json.dumps(left)}\n".encode())
        connection.sendall(f"status {status}\n".encode())
    finally:
        os._exit(0)


def _snippet(request: dict) -> NoReturn:
    """In the snippet's process: become what ``python snippet.py`` would have been."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a fresh interpreter
    for number, name in ((0, os.devnull), (1, request["stdout"]), (2, request["stderr"])):
        fd = os.open(name, os.O_RDONLY if number == 0 else os.O_WRONLY | os.O_TRUNC)
        os.dup2(fd, number)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.update(request["env"])
    path = request["path"]
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(path))  # as ``python snippet.py`` has it
    import runpy

    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as done:
        _end(_exit_code(done.code))
    except BaseException as error:  # shown as a fresh interpreter shows it, from the snippet on
        frames = error.__traceback__
        while frames is not None and frames.tb_frame.f_code.co_filename != path:
            frames = frames.tb_next
        traceback.print_exception(type(error), error, frames or error.__traceback__)
        # An interpreter left by an uncaught KeyboardInterrupt ends by SIGINT, as if killed
        _end(1, signal.SIGINT if isinstance(error, KeyboardInterrupt) else None)
    _end(0)


def _exit_code(code: object) -> int:
    """The exit status ``sys.exit(code)`` gives an interpreter."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _end(code: int, by: int | None = None) -> NoReturn:
    """End as an interpreter ends, up to its teardown: wait for the snippet's non-daemon threads,
    run its atexit handlers, flush its output (a stream the snippet closed is left alone); then
    exit with ``code``, or by the signal ``by``. The teardown that follows in an interpreter (every
    module and object finalized: 0.1 s with JAX loaded) prints nothing a snippet means to print;
    that a fresh interpreter agrees is checked once per release by ``verify``."""
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter calls first
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if not stream.closed:
                stream.flush()
        except Exception:
            code = 120  # as an interpreter that cannot flush its output exits
    if by is not None:
        signal.signal(by, signal.SIG_DFL)
        os.kill(os.getpid(), by)
    os._exit(code)


if __name__ == "__main__":
    del sys.path[0]  # this file's folder: its platform.py would shadow the standard library's
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # the runner stops it with a signal
    main(sys.argv[1])
