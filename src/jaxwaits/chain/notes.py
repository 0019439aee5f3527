"""The release note of one verified release: each claim's verdict on it, linked, and the vendored
pieces that are not identical upstream."""

from __future__ import annotations

from jaxwaits.chain import changes, cite, verdicts
from jaxwaits.chain.facts import Facts
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


NOTES_PAGE = "changes.md"  # the page whose {release-changes} shows every release's note


def notes_place(project: Project) -> str:
    """Where a new release note goes: ``docs/changes.md:LINE``, the line of ``{release-changes}``
    (notes sit above it, oldest first)."""
    page = project.docs / NOTES_PAGE
    try:
        lines = page.read_text(encoding="utf-8").splitlines()
    except OSError:
        return project.relative(page)
    fences = ("```{release-changes}", ":::{release-changes}")
    line = next((i for i, text in enumerate(lines, 1) if text.lstrip().startswith(fences)), None)
    return f"{project.relative(page)}:{line}" if line else project.relative(page)


def draft(found: Facts, release: str) -> str:
    """A release note for ``release`` drafted from the ledger: a sentence per change against the
    release before it, each cited with ``{changed-in}`` as the build checks it, ready to be
    rewritten in words a harness writer needs; or why no note is wanted."""
    if release not in found.releases:
        return f"jax {release} is not a release the manifest or the ledger knows: no note to draft."
    change = next((c for c in changes.changes(found) if c.release == release), None)
    if change is None:
        return f"jax {release} is the first release the site answers for: no note to draft."
    where = notes_place(found.project)
    if not change:
        return (
            f"jax {release}: the ledger shows no change against jax {change.previous}, so no "
            f"release note is wanted (the build refuses one for a release where nothing changed)."
        )
    sentences = []
    for claim_id, before, after in change.claims:
        sentences.append(
            f'Claim `{claim_id}` went from "{before.words}" to "{after.words}"'
            f"{{changed-in}}`{release} <{claim_id}>`: say what holds now."
        )
    for name in change.snippets:
        sentences.append(
            f"The snippet `{name}` prints something else{{changed-in}}`{release} <{name}>`: "
            "say what a harness would see."
        )
    for piece, how in change.pieces:
        sentences.append(
            f"The source of `{piece}` changed{{changed-in}}`{release} <{piece}>`: {how}."
        )
    fence = "```"
    return "\n".join(
        [
            f"jax {release}: the ledger shows {len(sentences)} change(s) against jax "
            f"{change.previous}. A draft note, one sentence per change, for {where} (above "
            "{release-changes}, after the notes of older releases); rewrite each in words a "
            "harness writer needs, keeping its {changed-in} right after the phrase it backs:",
            "",
            f"{fence}{{release-note}} {release}",
            *sentences,
            fence,
        ]
    )
