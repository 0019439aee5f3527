"""``pytest --jaxwaits-watch``: a benchmark suite written as tests, watched as it runs. The
observer is installed into the test process when pytest starts (a JAX function jitted before
that, in a plugin or a conftest imported earlier, is not watched); the report follows pytest's
summary, and a run whose tests passed but in which the watch saw a mistake exits with 1."""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

# The review is imported only by a run that asks for the watch: every pytest run of a project
# with jaxwaits installed loads this plugin.
_LOG = pytest.StashKey[Path]()
_WATCHED = pytest.StashKey[Any]()


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
    handle, name = tempfile.mkstemp(prefix="jaxwaits-watch-", suffix=".jsonl")
    os.close(handle)
    config.stash[_LOG] = Path(name)
    os.environ["JAXWAITS_WATCH_LOG"] = name  # read, and taken out again, by the observer
    if "jaxwaits.review.watch.observer" not in sys.modules:
        importlib.import_module("jaxwaits.review.watch.observer")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Judge what the tests did; a passing run with a mistake seen exits with 1."""
    log = session.config.stash.get(_LOG, None)
    if log is None:
        return
    from jaxwaits.review import selected_rules, watch

    watched = watch.judged(watch.read_log(log), selected_rules(Path.cwd()), int(exitstatus))
    session.config.stash[_WATCHED] = watched
    if watched.review.findings and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    watched = config.stash.get(_WATCHED, None)
    if watched is not None:
        from jaxwaits.review import formats, watch

        terminalreporter.section("jaxwaits watch")
        terminalreporter.write_line(watch.report(watched, formats.Format.TEXT, Path.cwd()))


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.stash.get(_LOG, None)
    if log is not None:
        log.unlink(missing_ok=True)
