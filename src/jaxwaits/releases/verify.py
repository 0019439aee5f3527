"""Verify one JAX release: run every snippet on it and check the vendored pieces against it."""

from __future__ import annotations

from jaxwaits.claims import registry as claims
from jaxwaits.evidence.report import claims_by_snippet, describe, diff
from jaxwaits.evidence.runner import Result, Status, run_on
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.pieces import drift
from jaxwaits.project import Project
from jaxwaits.releases.ledger import KNOWN, MATCHED, Outcome, Verification


def snippet_outcome(result: Result, backs: list[str], fix: str | None) -> Outcome:
    """matched / known difference (with the diff from the recorded output) / what went wrong."""
    if result.status is Status.MATCHED:
        if result.expected_from == result.snippet.recorded_path:
            return Outcome(MATCHED)
        recorded = result.snippet.recorded() or ""
        return Outcome(KNOWN, diff(recorded, result.runs[0].stdout, "recorded", "this release"))
    return Outcome(result.status.value, describe(result, None, backs, fix))


def verify(project: Project, python: str, jobs: int | None = None) -> Verification:
    """What every snippet printed on ``python``'s JAX, and how each vendored piece compares."""
    results, platform = run_on(load_snippets(project.snippets), python=python, jobs=jobs)
    backs = claims_by_snippet(claims.scan(project).evidence())
    outcomes = {}
    for result in results:
        name = result.snippet.name
        fix = None
        if platform.jax != project.pinned_jax():
            fix = (
                f"record it as a known difference of jax {platform.jax}: "
                f"nox -s verify -- {platform.jax} --record-known {name}"
            )
        outcomes[name] = snippet_outcome(result, backs.get(name, []), fix)
    _, verdicts = drift.check(project, python)
    pieces = {v.piece: Outcome(v.status, v.message) for v in verdicts}
    return Verification(platform, outcomes, pieces)
