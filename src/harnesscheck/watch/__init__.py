"""``jaxwaits watch``: runs a harness unchanged, with :mod:`observer` installed before its first
line, and reports the checklist's mistakes it saw happen, at the program line where each did,
with the same rules, formats and suppression comments as ``jaxwaits review``.

The program runs in a child process with its own standard streams and exit status; what the
observer saw comes back as JSON lines in a scratch folder that is removed afterwards. The program
stays in the watch's process group, so that the terminal's Ctrl-C and job control reach it as they
would without the watch; a SIGTERM or SIGHUP sent to the watch alone is passed on to it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from tempfile import TemporaryDirectory
from types import FrameType
from typing import Any

from harnesscheck.errors import ReviewError
from harnesscheck.findings import Finding, says
from harnesscheck.regions.intent import DISPATCH, WARM_UP
from harnesscheck.results import Located, Review, formats
from harnesscheck.rules import RULES, Seen
from harnesscheck.sources import suppressions

# What the observer cannot see on any release, said with every report.
UNOBSERVED = (
    "the dispatch of eager jax.numpy and lax operations (only jitted, pmapped and ahead-of-time "
    "compiled calls; their compilations are observed)",
    "programs the watched one starts (the observer is not passed on)",
    "intervals made from readings by NumPy (readings stored in an array, np.diff of them): "
    "only a subtraction of two readings in Python is an interval",
    "reads of what a host callback changes made in another function than the waiting one and "
    "those it returns to, more than 2000 lines after the wait, or through an object the "
    "callback's own code does not name",
)

GRACE = 5.0  # seconds a stopped program has to end before it is killed


@dataclass
class Watched:
    """One watched run: the program's exit status (negative: the signal that killed it), what
    the observer found, what it watched and what it could not; and the signal that stopped
    the watch, and the program with it, before the program ended on its own (its report is
    partial)."""

    returncode: int
    review: Review
    observed: list[str] = field(default_factory=list)
    not_observed: list[str] = field(default_factory=list)
    stopped: int | None = None

    @property
    def exit_status(self) -> int:
        """The watch's exit status where the program failed or the watch was stopped: as a
        shell gives it, 128 + n for signal n."""
        if self.stopped is not None:
            return 128 + self.stopped
        return 128 - self.returncode if self.returncode < 0 else self.returncode


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def ended(returncode: int) -> str:
    """How the program ended, in words."""
    if returncode < 0:
        return f"the program was killed by {signal_name(-returncode)}"
    return f"the program exited with status {returncode}"


class _Stop:
    """The watch's handler of SIGTERM, SIGHUP and SIGINT while the program runs: the first
    passes SIGTERM or SIGHUP on to the program (the terminal sent Ctrl-C's SIGINT to it
    already), gives it :data:`GRACE` seconds to end, then kills it; a second kills it at once."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._timer: threading.Timer | None = None

    def __call__(self, number: int, _frame: FrameType | None) -> None:
        if self.signal is not None:
            self._kill()
            return
        self.signal = number
        self._stop()

    def wait(self, process: subprocess.Popen[bytes]) -> int:
        """The program's exit status, once it ended or was stopped."""
        self._process = process
        self._stop()
        returncode = process.wait()
        if self._timer is not None:
            self._timer.cancel()
        return returncode

    def _stop(self) -> None:
        if self._process is None or self.signal is None or self._timer is not None:
            return
        if self.signal != signal.SIGINT:
            self._process.send_signal(self.signal)
        self._timer = threading.Timer(GRACE, self._kill)
        self._timer.daemon = True
        self._timer.start()

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()


@contextmanager
def _stopping() -> Iterator[_Stop]:
    """A :class:`_Stop` handling the signals that stop a run from outside, but those this
    process ignores (``nohup``, a background job's Ctrl-C), where it can (the main thread)."""
    stop = _Stop()
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, stop)
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def watch(command: list[str], rules: set[str]) -> Watched:
    """Run ``command`` under observation and judge what it did; a SIGTERM, SIGHUP or Ctrl-C
    meanwhile stops the program too, and is said in the (partial) result."""
    with _stopping() as stop, TemporaryDirectory(prefix="jaxwaits-watch-") as scratch:
        boot = Path(scratch, "boot")
        _boot(boot)
        log = Path(scratch, "log.jsonl")
        env = dict(os.environ, JAXWAITS_WATCH_LOG=str(log))
        if "PYTHONPATH" in env:
            env["JAXWAITS_WATCH_PYTHONPATH"] = env["PYTHONPATH"]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(boot), os.environ.get("PYTHONPATH")]))
        try:
            process = subprocess.Popen(command, env=env)
        except OSError as error:
            raise ReviewError(f"watch: cannot start {command[0]}: {error.strerror}") from None
        returncode = stop.wait(process)
        script = next((Path(word) for word in command if word.endswith(".ipy")), None)
        watched = judged(read_log(log), rules, returncode, script)
        watched.stopped = stop.signal
        return watched


# The observer's copy in the program: a package of its own name beside its sitecustomize, so
# that installing it imports nothing of harnesscheck.
BOOT = "jaxwaits_observer"
SITECUSTOMIZE = f"from {BOOT} import install\n\ninstall(chain=True)\n"


def _boot(boot: Path) -> None:
    """The folder put first on the program's path: the observer, and a ``sitecustomize`` that
    installs it and runs the program's own."""
    (boot / BOOT).mkdir(parents=True)
    for module in resources.files(__package__).joinpath("observer").iterdir():
        if module.name.endswith(".py"):
            (boot / BOOT / module.name).write_text(module.read_text("utf-8"), encoding="utf-8")
    (boot / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")


def judged(
    entries: list[dict[str, Any]], rules: set[str], returncode: int, script: Path | None = None
) -> Watched:
    """What the observer's lines say: one finding per rule and place, the column of the call
    that read the timer (or that is wrong in itself), whatever readings the intervals started at
    (the cells IPython runs from an ``.ipy`` ``script`` are that file's lines)."""
    watched = Watched(returncode, Review())
    seen: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for entry in entries:
        if "observed" in entry:
            watched.observed += entry["observed"]
        elif "not observed" in entry:
            watched.not_observed.append(f"{entry['not observed']}: {entry['why']}")
        elif entry.get("rule") in rules:
            if "site" in entry:  # a call that is wrong in itself, not an interval
                entry["start"] = entry["end"] = entry["site"]
            for place in (entry["start"], entry["end"]):
                if script is not None and place[0].startswith("<ipython-input-"):
                    place[0] = str(script.absolute())
            key = (entry["rule"], *entry["end"], entry.get("col", 1))
            seen.setdefault(key, []).append(entry)
    watched.not_observed += UNOBSERVED
    lines: dict[str, list[str]] = {}
    for (rule, *_), found in seen.items():
        located = _finding(rule, found, lines)
        if located is not None:
            watched.review.findings.append(located)
    watched.review.findings.sort(key=lambda f: (str(f.path), f.finding.line, f.finding.rule))
    watched.review.files = len({f.path for f in watched.review.findings})
    return watched


def read_log(log: Path) -> list[dict[str, Any]]:
    """The observer's lines; one the program cut short (it was killed mid-write) is left out."""
    if not log.is_file():
        return []
    entries = []
    for line in log.read_text(encoding="utf-8").splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


def _finding(rule: str, found: list[dict[str, Any]], lines: dict[str, list[str]]) -> Located | None:
    """One finding for every interval read at one place; None where a suppression comment on
    the reading's line, or the words around it or its starts, say it is meant."""
    end_file, end_line = found[0]["end"]
    starts = sorted({(f["start"][0], f["start"][1]) for f in found})
    if end_file not in lines:
        try:
            lines[end_file] = Path(end_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines[end_file] = []
    text = lines[end_file]
    said = text[end_line - 1 : end_line + 1]
    said += [text[line - 1] for path, line in starts if path == end_file and 0 < line <= len(text)]
    if says(said, {"JW101": DISPATCH, "JW102": WARM_UP}.get(rule, ())):
        return None
    watched = RULES[rule].watched
    if watched is None:  # a rule the watch does not report
        return None
    message = watched(Seen(found, end_file, starts))
    finding = Finding(rule, end_line, found[0].get("col", 1), message)
    comments = suppressions.comments("\n".join(text), set(RULES))
    if any(c.silences(finding) for c in comments):
        return None
    return Located(Path(end_file), finding)


def outcome(watched: Watched) -> str | None:
    """What the report says of the run beside its findings: how the program ended where it
    failed, and that the report is partial where the watch was stopped; None otherwise."""
    if watched.stopped is not None:
        return (
            f"partial report: the watch was stopped by {signal_name(watched.stopped)}, and "
            f"stopped the program: {ended(watched.returncode)}"
        )
    return ended(watched.returncode) if watched.returncode else None


def report(watched: Watched, form: formats.Format, root: Path) -> str:
    """The findings in one of review's formats, with how a failed program ended (and that the
    report is partial, where the watch was stopped), and what this run could not observe: after
    the text, as keys of the JSON (the other formats carry findings, and how it ended)."""
    shown = formats.render(watched.review, form, root)
    said = outcome(watched)
    if form is formats.Format.TEXT:
        lines = [f"not observed: {what}" for what in watched.not_observed]
        return "\n".join([shown, *filter(None, [said]), *lines])
    if form is formats.Format.JSON:
        data = json.loads(shown)
        data.update(
            program_exit=watched.returncode,
            program_ended=ended(watched.returncode) if watched.returncode else None,
            partial=watched.stopped is not None,
            stopped_by=None if watched.stopped is None else signal_name(watched.stopped),
            observed=watched.observed,
            not_observed=watched.not_observed,
        )
        return formats.dumps(data)
    if said is None:
        return shown
    if form is formats.Format.SARIF:
        data = json.loads(shown)
        invocation = data["runs"][0].setdefault("invocations", [{}])[0]
        invocation.update(
            executionSuccessful=False, exitCode=watched.exit_status, exitCodeDescription=said
        )
        invocation.setdefault("toolExecutionNotifications", []).append(
            {"level": "error", "message": {"text": said}}
        )
        return formats.dumps(data)
    if form is formats.Format.MARKDOWN:
        return f"{shown.rstrip()}\n\n**{said[0].upper()}{said[1:]}.**\n"
    return "\n".join(filter(None, [shown, f"::error::{said}"]))
