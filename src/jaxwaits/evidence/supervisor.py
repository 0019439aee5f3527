"""The supervisor of one snippet run: the process that starts the snippet's process and, when it
ends, ends every process it left behind, however it started them.

Standard library only, and run by path (``python supervisor.py REPORT TIMEOUT SNIPPET``) or
loaded by path by the template server (:mod:`jaxwaits.evidence.template_server`), so it runs in
the environment of any JAX release. On Linux the supervisor is the *subreaper* of everything
below it: a process the snippet starts, even one that makes a session of its own (``setsid``)
or whose parent exits first, becomes the supervisor's child when orphaned rather than init's.
Once the snippet's process has ended, whatever is still running below the supervisor is named,
then killed and reaped, so nothing outlives the run. (Elsewhere only the snippet's own process
group is killed.)

Run by path it starts ``SNIPPET`` in a fresh interpreter (the one running the supervisor), with
the supervisor's working directory, environment, stdout and stderr; kills it and everything it
started after ``TIMEOUT`` seconds; and writes ``REPORT``: a JSON object with the snippet
process's wait ``status`` (null when killed at its timeout) and the processes ``left`` running.
"""

import ctypes
import json
import os
import signal
import sys
import time

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def become_subreaper() -> bool:
    """Make orphans below this process its children; False where the system cannot."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    """In a child: be killed if the supervisor is (a stopped run takes its snippet with it)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _children(parent: int) -> dict[int, tuple[str, str]]:
    """This machine's processes whose parent is ``parent``: pid -> (state, command line)."""
    found = {}
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return found
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as file:
                stat = file.read().decode(errors="replace")
            after_name = stat[stat.rindex(")") + 2 :].split()
            if int(after_name[1]) != parent:
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        found[pid] = (after_name[0], command or stat[stat.index("(") : stat.rindex(")") + 1])
    return found


def end_left_behind(group: int) -> list[str]:
    """Kill the snippet's process ``group`` and every process still below this one, until none
    is left; return those that were still running, as ``pid N: command``."""
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass  # the group is empty
    left: dict[int, str] = {}
    for _ in range(1000):  # each round kills what the last one orphaned
        children = _children(os.getpid())
        if not children:
            break
        for pid, (state, command) in children.items():
            if state != "Z" and pid not in left:
                left[pid] = f"pid {pid}: {command[:200]}"
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return list(left.values())


def _wait(pid: int, timeout: float) -> int | None:
    """``pid``'s wait status, or None once ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= deadline:
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def main(report: str, timeout: float, snippet: str) -> None:
    become_subreaper()
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)  # a group of its own: killed whole at its timeout
        die_with_parent()
        os.execv(sys.executable, [sys.executable, snippet])
    status = _wait(child, timeout)
    if status is None:
        os.killpg(child, signal.SIGKILL)
        _, _ = os.waitpid(child, 0)
    left = end_left_behind(child)
    written = f"{report}.part"
    with open(written, "w", encoding="utf-8") as file:
        json.dump({"status": status, "left": left}, file)
    os.replace(written, report)


if __name__ == "__main__":
    del sys.path[0]  # this file's folder: its platform.py would shadow the standard library's
    main(sys.argv[1], float(sys.argv[2]), sys.argv[3])
