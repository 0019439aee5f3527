"""Shared fixtures: the project, and one parallel run of every snippet per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxwaits import claims
from jaxwaits.platform import Platform
from jaxwaits.project import Project
from jaxwaits.runner import Result, run_on
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
    results, platform = run_on(load_snippets(project.snippets))
    return {result.snippet.name: result for result in results}, platform
