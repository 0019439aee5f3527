"""The release note of one verified release: each claim's verdict on it, linked, and the vendored
pieces that are not identical upstream."""

from __future__ import annotations

from jaxwaits.chain import cite, verdicts
from jaxwaits.claims.registry import Registry
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.project import Project
from jaxwaits.releases.ledger import Verification


def release_note(project: Project, registry: Registry, verification: Verification) -> str:
    """A Markdown summary of one release's verification, for a release note."""
    judge = verdicts.judge_for(load_snippets(project.snippets))
    by_verdict: dict[str, list[str]] = {}
    for claim in sorted(registry.claims.values(), key=lambda c: c.id):
        verdict = judge.verdict(verification, claim).verdict
        link = f"[`{claim.id}`]({cite.url(project, claim.id)})"
        by_verdict.setdefault(verdict.words, []).append(link)
    lines = [
        f"## jax-waits on jax {verification.platform.jax} ({verification.platform.describe()})"
    ]
    lines += [f"- {verdict} ({len(ids)}): {', '.join(ids)}" for verdict, ids in by_verdict.items()]
    changed = [
        f"`{name}`: {entry.outcome.words}"
        for name, entry in verification.pieces.items()
        if entry.outcome is not PieceOutcome.IDENTICAL
    ]
    lines.append(f"- vendored pieces not identical upstream: {', '.join(changed) or 'none'}")
    return "\n".join(lines)
