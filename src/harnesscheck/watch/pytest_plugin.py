"""``pytest --jaxwaits-watch``: a benchmark suite written as tests, watched as it runs. The
observer is installed into the test process when pytest starts (a JAX function jitted before
that, in a plugin or a conftest imported earlier, is not watched); the report follows pytest's
summary, and a run whose tests passed but in which the watch saw a mistake exits with 1.

Under pytest-xdist (``-n``) each worker runs its tests under its own observer and hands what it
saw to the controller as it finishes, which judges it all in one report; a worker that crashes
leaves its log, read up to the crash (one on another machine is named as not observed)."""

from __future__ import annotations

import importlib
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

# The review is imported only by a run that asks for the watch: every pytest run of a project
# with jaxwaits installed loads this plugin.
_LOG = pytest.StashKey[Path]()
_WATCHED = pytest.StashKey[Any]()
_GATHERED = pytest.StashKey[dict[str, list[dict[str, Any]]]]()  # an xdist worker's id -> its lines
_SEEN = "jaxwaits_watch"  # an xdist worker's log, and then its lines, in what it is handed


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jaxwaits")
    group.addoption(
        "--jaxwaits-watch",
        action="store_true",
        help="report the review checklist's mistakes the tests make as they run",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("jaxwaits_watch"):
        return
    named = getattr(config, "workerinput", {}).get(_SEEN)
    if named is not None and Path(named).parent.is_dir():  # a worker beside its controller
        log = Path(named)
        log.touch()
    else:
        handle, name = tempfile.mkstemp(prefix="jaxwaits-watch-", suffix=".jsonl")
        os.close(handle)
        log = Path(name)
    config.stash[_LOG] = log
    config.stash[_GATHERED] = {}
    os.environ["JAXWAITS_WATCH_LOG"] = str(log)  # read, and taken out again, by the observer
    importlib.import_module("harnesscheck.watch.observer").install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Judge what the tests did; a passing run with a mistake seen exits with 1."""
    log = session.config.stash.get(_LOG, None)
    if log is None:
        return
    from harnesscheck import watch
    from harnesscheck.review import selected_rules

    entries = watch.read_log(log)
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: its controller judges
        output[_SEEN] = entries
        return
    for lines in session.config.stash[_GATHERED].values():
        # each process writes what it could observe: said once
        entries += [e for e in lines if "rule" in e or e not in entries]
    watched = watch.judged(entries, selected_rules(Path.cwd()), int(exitstatus))
    session.config.stash[_WATCHED] = watched
    if watched.review.findings and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Name an xdist worker's log, beside the controller's: what a worker that crashes saw
    is read from it."""
    log = node.config.stash.get(_LOG, None)
    if log is not None:
        node.workerinput[_SEEN] = str(log.with_suffix(f".{node.gateway.id}.jsonl"))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """An xdist worker is done: keep what it saw (once: a worker told to stop goes down twice)."""
    gathered = node.config.stash.get(_GATHERED, None)
    if gathered is None or node.gateway.id in gathered:
        return
    named = Path(node.workerinput[_SEEN])
    entries = getattr(node, "workeroutput", {}).get(_SEEN)
    if entries is None and named.is_file():  # it crashed: its log up to then
        from harnesscheck import watch

        entries = watch.read_log(named)
    elif entries is None:
        why = f"it handed back no log and left none at {named} ({error or 'no error'})"
        entries = [{"not observed": f"the tests xdist's worker {node.gateway.id} ran", "why": why}]
    named.unlink(missing_ok=True)
    gathered[node.gateway.id] = entries


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    watched = config.stash.get(_WATCHED, None)
    if watched is not None:
        from harnesscheck import watch
        from harnesscheck.results import formats

        terminalreporter.section("jaxwaits watch")
        terminalreporter.write_line(watch.report(watched, formats.Format.TEXT, Path.cwd()))


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.stash.get(_LOG, None)
    if log is not None:
        log.unlink(missing_ok=True)
