"""Shared fixtures: the project, and one parallel run of every snippet per test session."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jaxwaits import claims
from jaxwaits.platform import Platform, probe
from jaxwaits.project import Project
from jaxwaits.runner import Result, run_snippets
from jaxwaits.snippets import load_snippets

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def project() -> Project:
    return Project(ROOT)


@pytest.fixture(scope="session")
def registry(project: Project) -> claims.Registry:
    return claims.scan(project)


@pytest.fixture(scope="session")
def snippet_run(project: Project) -> tuple[dict[str, Result], Platform]:
    """Every snippet, run once in a fresh interpreter, all in parallel."""
    with ThreadPoolExecutor(max_workers=1) as side:
        platform = side.submit(probe)
        results = run_snippets(load_snippets(project.snippets))
    return {result.snippet.name: result for result in results}, platform.result()
