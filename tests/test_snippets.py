"""Each snippet prints exactly its recorded output, and the same in a template's child as in a
fresh interpreter."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from conftest import ROOT

from jaxwaits.claims import registry as claims
from jaxwaits.evidence import report
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Result, Via, run_snippets
from jaxwaits.evidence.snippets import load_snippets

pytestmark = pytest.mark.evidence  # every snippet, run under JAX

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


def test_a_fresh_interpreter_prints_what_a_templates_child_printed(
    project, snippet_run: tuple[dict[str, Result], Platform], progress: Callable[[str], None]
) -> None:
    results, _ = snippet_run
    ran = {name: result for name, result in results.items() if result.runs}
    assert ran, "no snippet ran"
    assert {r.runs[0].via for r in ran.values()} == {Via.TEMPLATE}
    snippets = [s for s in load_snippets(project.snippets) if s.name in ran]
    started = time.perf_counter()
    progress(f"snippets: running {len(snippets)} again, each in a fresh interpreter")
    fresh = run_snippets(snippets, fresh=True)
    progress(f"snippets: ran {len(snippets)} fresh in {time.perf_counter() - started:.0f} s")
    assert {r.runs[0].via for r in fresh} == {Via.FRESH}
    differ = {
        r.snippet.name: report.diff(
            ran[r.snippet.name].runs[0].stdout,
            r.runs[0].stdout,
            "in a template's child",
            "in a fresh interpreter",
        )
        for r in fresh
        if r.runs[0].stdout != ran[r.snippet.name].runs[0].stdout
    }
    assert not differ, "\n".join(differ.values())
