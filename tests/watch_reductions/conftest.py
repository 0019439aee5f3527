"""The programs here are what ``jaxwaits watch`` is tried on (``tests/test_watch.py`` runs a
copy of each outside the checkout, its pytest-benchmark suites under pytest), not tests of this
project: pytest collects nothing here, whether the folder or a file in it is named, or pytest is
run from inside it."""

from __future__ import annotations

from pathlib import Path

import pytest

collect_ignore_glob = ["*"]  # the folder named, or pytest run from inside it


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> None:
    """A file of this folder named on the command line, which no ignore stops."""
    raise pytest.UsageError(
        f"{module_path.name} is a program the watch is tried on (tests/test_watch.py), not a "
        "test of this project: run it from a copy outside the checkout, as the watch tests do"
    )
