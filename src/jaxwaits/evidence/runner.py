"""Run snippets, several at once, each in a process of its own, and judge what they printed.

By default a run is a child forked from a template that has imported JAX already
(:mod:`jaxwaits.evidence.template`); ``fresh=True`` starts a new interpreter per run instead
(:func:`jaxwaits.evidence.processes.run_fresh`). Either way the process is new for everything the
snippet can observe, its ``# env:`` settings were applied before JAX was imported, it runs in a
session of its own that is killed whole at its timeout, and a crash or a hang costs only its own
result. Each run says which way it ran.

Each run has a scratch folder of its own as its working directory, removed after it; a run that
changes the checkout (:mod:`jaxwaits.evidence.checkout`) or leaves a process running fails,
saying what it did (whatever it left running was killed when it ended).
"""

from __future__ import annotations

import enum
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from jaxwaits.evidence import checkout
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.output import canonical, decode
from jaxwaits.evidence.platform import PROBE, Platform, answer, probe
from jaxwaits.evidence.processes import Exit, children_die_with_us, environment, run_fresh
from jaxwaits.evidence.snippets import Snippet, read_snippet
from jaxwaits.evidence.template import Template, TemplateFailed, Templates


class Via(enum.Enum):
    """Which way a snippet ran."""

    TEMPLATE = "a template's child"
    FRESH = "a fresh interpreter"


@dataclass(frozen=True)
class Run:
    """One execution of a snippet; ``stdout`` is in canonical form
    (:mod:`jaxwaits.evidence.output`)."""

    stdout: str
    stderr: str
    returncode: int | None  # None when it was killed for running past its timeout
    seconds: float
    bad_byte: int | None = None  # the first byte of stdout that is not UTF-8
    via: Via = Via.FRESH
    why_fresh: str = ""  # why it did not run in a template when one was asked for
    left: tuple[str, ...] = ()  # the processes it left running (killed then)
    changed: tuple[str, ...] = ()  # what changed in the checkout while it ran

    @classmethod
    def of(cls, finished: Exit, via: Via, why_fresh: str = "") -> Run:
        printed = decode(finished.stdout)
        stderr = decode(finished.stderr).text
        return cls(
            canonical(printed.text),
            stderr,
            finished.returncode,
            finished.seconds,
            printed.bad_byte,
            via,
            why_fresh,
            finished.left,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Run:
        return cls(
            **{
                **data,
                "via": Via(data.get("via", Via.FRESH.value)),
                "left": tuple(data.get("left", ())),
                "changed": tuple(data.get("changed", ())),
            }
        )

    @property
    def failure(self) -> Outcome | None:
        """Why the run failed whatever it printed, or None if it exited cleanly with text."""
        if self.changed:
            return Outcome.CHANGED_CHECKOUT
        if self.left:
            return Outcome.LEFT_RUNNING
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
        return {**asdict(self), "via": self.via.value}


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


def run_once(
    snippet: Snippet,
    python: str = sys.executable,
    templates: Templates | None = None,
    watch: Watch | None = None,
) -> Run:
    """Run ``snippet`` once, in a scratch folder of its own: in a child of the template for
    ``python`` and its settings, if ``templates`` is given and that template could start; in a
    fresh ``python`` otherwise. ``watch`` lays what changed in the checkout meanwhile at it."""
    watch = watch or Watch(checkout.guarded_root(snippet.path.parent))
    scratch = Path(tempfile.mkdtemp(prefix=f"jaxwaits-{snippet.name}-"))
    (scratch / "work").mkdir()  # its working directory, with its parent removed with it too
    try:
        with watch.running(snippet.name) as seen:
            run = _run_in(snippet, python, templates, scratch / "work")
        return replace(run, changed=tuple(seen)) if seen else run
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run_in(snippet: Snippet, python: str, templates: Templates | None, where: Path) -> Run:
    if templates is None:
        return Run.of(run_fresh(snippet, python, where), Via.FRESH)
    template = templates.get(python, environment(snippet.env))
    if not isinstance(template, Template):
        return Run.of(run_fresh(snippet, python, where), Via.FRESH, str(template))
    try:
        return Run.of(template.run(snippet, where, snippet.env), Via.TEMPLATE)
    except TemplateFailed as error:  # the run is lost, not the snippet: run it afresh
        return Run.of(run_fresh(snippet, python, where), Via.FRESH, str(error))


class Watch:
    """The checkout under ``root`` while snippets run: each run is told what changed in it
    between its start and its end, and which other runs were running meanwhile."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._running: dict[int, tuple[str, set[str]]] = {}  # each run: its name, runs beside it

    @contextmanager
    def running(self, name: str) -> Iterator[list[str]]:
        """While a run lasts; the list it yields is filled, once it ends, with what changed."""
        seen: list[str] = []
        beside: set[str] = set()
        with self._lock:
            key = max(self._running, default=0) + 1
            for other, others_beside in self._running.values():
                beside.add(other)
                others_beside.add(name)
            self._running[key] = (name, beside)
        before = checkout.snapshot(self.root)
        try:
            yield seen
        finally:
            with self._lock:
                del self._running[key]
        found = checkout.changes(before, checkout.snapshot(self.root))
        beside.discard(name)
        if found and beside:
            found.append(f"(while {', '.join(sorted(beside))} also ran: any of them may have)")
        seen += found


def _execute(
    snippets: list[Snippet],
    repeat: int,
    jobs: int | None,
    python: str,
    templates: Templates | None,
) -> list[tuple[Run, ...]]:
    runnable = [snippet for snippet in snippets if not snippet.problems]
    tasks = [snippet for snippet in runnable for _ in range(repeat)]
    roots = {s.name: checkout.guarded_root(s.path.parent) for s in runnable}
    watches = {root: Watch(root) for root in set(roots.values())}
    pool = ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1)
    try:
        with children_die_with_us():  # an interruption kills the runs before anything waits
            if templates is not None:  # started side by side, before the first run needs one
                settings = {tuple(sorted(s.env.items())): s.env for s in runnable}
                for env in settings.values():
                    pool.submit(templates.get, python, environment(env))
            futures = [
                pool.submit(
                    run_once,
                    snippet,
                    python,
                    templates,
                    watches[roots[snippet.name]],
                )
                for snippet in tasks
            ]
            runs = [future.result() for future in futures]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
    by_snippet = {id(s): tuple(runs[i * repeat : (i + 1) * repeat]) for i, s in enumerate(runnable)}
    return [by_snippet.get(id(snippet), ()) for snippet in snippets]


def _platform(python: str, templates: Templates | None) -> Platform:
    """Which JAX ``python`` has, asked in a child of its template if there is one (sparing an
    interpreter and an ``import jax``), else in a fresh interpreter."""
    template = templates.get(python, environment({})) if templates else None
    if not isinstance(template, Template):
        return probe(python)
    with tempfile.TemporaryDirectory(prefix="jaxwaits-probe-") as folder:
        path = Path(folder, "probe.py")
        path.write_text(PROBE, encoding="utf-8")
        try:
            done = template.run(read_snippet(path), Path(folder), {})
        except TemplateFailed:
            return probe(python)
    return answer(python, done.returncode, decode(done.stdout).text, decode(done.stderr).text)


@contextmanager
def _templates(given: Templates | None, fresh: bool) -> Iterator[Templates | None]:
    """The templates to run through: none if ``fresh``; else those given, or some made for
    this batch and closed after it."""
    if fresh or given is not None:
        yield None if fresh else given
        return
    with Templates() as made:
        yield made


def judge(
    snippet: Snippet, runs: tuple[Run, ...], jax_version: str | None, backend: str = "cpu"
) -> Result:
    """Judge runs against the output expected of the snippet on ``jax_version`` and ``backend``
    (none for a snippet with invalid settings: it did not run, and its known differences may
    not read)."""
    if snippet.problems:
        return Result(snippet, None, snippet.recorded_path, runs)
    expected, expected_from = snippet.expected(jax_version, backend=backend)
    return Result(snippet, expected, expected_from, runs)


def run_snippets(
    snippets: Iterable[Snippet],
    jax_version: str | None = None,
    *,
    repeat: int = 1,
    jobs: int | None = None,
    python: str = sys.executable,
    fresh: bool = False,
    templates: Templates | None = None,
) -> list[Result]:
    """Run every snippet ``repeat`` times, ``jobs`` processes at once (default: one per core),
    through templates unless ``fresh``, and judge each against the output expected on
    ``jax_version`` (default: the recorded one). Pass ``templates`` to keep them for later
    batches; by default they last for this one.

    Results come back in the order the snippets were given; a snippet with invalid settings is
    judged without running.
    """
    snippets = list(snippets)
    with _templates(templates, fresh) as chosen:
        runs = _execute(snippets, repeat, jobs, python, chosen)
    return [judge(snippet, run, jax_version) for snippet, run in zip(snippets, runs, strict=True)]


def run_on(
    snippets: Iterable[Snippet],
    *,
    repeat: int = 1,
    jobs: int | None = None,
    python: str = sys.executable,
    fresh: bool = False,
    templates: Templates | None = None,
) -> tuple[list[Result], Platform]:
    """Run the snippets on ``python`` while asking it which JAX it has; judge them for that JAX."""
    snippets = list(snippets)
    with ThreadPoolExecutor(max_workers=1) as side, _templates(templates, fresh) as chosen:
        asked = side.submit(_platform, python, chosen)
        runs = _execute(snippets, repeat, jobs, python, chosen)
    platform = asked.result()
    results = [
        judge(snippet, run, platform.jax, platform.backend)
        for snippet, run in zip(snippets, runs, strict=True)
    ]
    return results, platform
