"""Each snippet, run in a fresh interpreter, prints exactly its recorded output."""

from __future__ import annotations

import pytest
from conftest import ROOT

from jaxwaits.claims import registry as claims
from jaxwaits.evidence import report
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Result
from jaxwaits.evidence.snippets import load_snippets

NAMES = [snippet.name for snippet in load_snippets(ROOT / "snippets")]


def test_there_are_snippets() -> None:
    assert len(NAMES) >= 5, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_snippet_prints_its_recorded_output(
    name: str, snippet_run: tuple[dict[str, Result], Platform], registry: claims.Registry
) -> None:
    results, platform = snippet_run
    result = results[name]
    backs = registry.backs().get(name, [])
    if not result.outcome.passed:
        pytest.fail(report.describe(result, platform, backs), pytrace=False)
