"""Shared fixtures: the project, its manifest, the templates every test runs snippets through,
and one parallel run of every snippet per session.

Nothing is read at collection but file names, so one unreadable input fails the tests that need
it, naming it, and every other test still runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jaxwaits.chain import facts
from jaxwaits.claims import registry as claims
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import checkout
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Result, run_on
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.evidence.template import Templates
from jaxwaits.pieces import manifest
from jaxwaits.project import Project

ROOT = Path(__file__).resolve().parent.parent
PIECES = sorted(path.stem for path in (ROOT / "annotated_src").glob("*.py"))


@pytest.fixture(scope="session", autouse=True)
def checkout_unchanged() -> Iterator[None]:
    """No test changes the checkout: every fault is made on a copy (issue 23)."""
    before = checkout.snapshot(ROOT)
    yield
    changed = checkout.changes(before, checkout.snapshot(ROOT))
    assert not changed, "the tests changed the checkout: " + "; ".join(changed)


@pytest.fixture(scope="session")
def progress(pytestconfig: pytest.Config) -> Callable[[str], None]:
    """Say on the terminal, now, what a slow step is doing (even under ``-q`` and capture), so
    that nobody waits minutes in silence."""
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")
    reporter = pytestconfig.pluginmanager.getplugin("terminalreporter")

    def say(message: str) -> None:
        if capture is None or reporter is None:
            return
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"[jaxwaits] {message}")

    return say


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def recorded(project: Project) -> manifest.Manifest:
    """The manifest of the vendored pieces; an unreadable one fails each test that needs it."""
    try:
        return manifest.load(project.annotated_src)
    except JaxwaitsError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def registry(project: Project) -> claims.Registry:
    return facts.registry(project)


@pytest.fixture(scope="session")
def templates() -> Iterator[Templates]:
    """One template per set of settings for the whole session, as the docs kernel keeps them."""
    with Templates() as made:
        yield made


_WANTED = pytest.StashKey[set[str] | None]()  # the snippets the selected tests judge; None: all


def pytest_collection_finish(session: pytest.Session) -> None:
    """Note which snippets the selected tests judge (``pytest -k three_waits`` runs one)."""
    wanted: set[str] | None = set()
    for item in session.items:
        if "snippet_run" not in getattr(item, "fixturenames", ()):
            continue
        callspec = getattr(item, "callspec", None)
        if wanted is not None and callspec is not None and "name" in callspec.params:
            wanted.add(callspec.params["name"])
        else:
            wanted = None  # a test that looks at every snippet
    session.config.stash[_WANTED] = wanted


@pytest.fixture(scope="session")
def snippet_run(
    project: Project,
    templates: Templates,
    request: pytest.FixtureRequest,
    progress: Callable[[str], None],
) -> tuple[dict[str, Result], Platform]:
    """The snippets the selected tests judge (all of them in a whole run), each run once in a
    child of a template, all in parallel."""
    wanted = request.config.stash.get(_WANTED, None)
    snippets = load_snippets(project.snippets, sorted(wanted) if wanted else None)
    started = time.perf_counter()
    progress(f"snippets: running {len(snippets)}, each in a child of a template")
    results, platform = run_on(snippets, templates=templates)
    progress(f"snippets: ran {len(snippets)} in {time.perf_counter() - started:.0f} s")
    return {result.snippet.name: result for result in results}, platform
