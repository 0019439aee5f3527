"""A claim's standing in one build: did every snippet behind it run and pass here, or can this
backend not show it. The build passes what it ran (:class:`Ran`, plain data); nothing here knows
Sphinx."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jaxwaits.chain.verdicts import BACKEND_WORDS, Elsewhere, summary_elsewhere
from jaxwaits.claims.registry import Claim
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform


@dataclass(frozen=True)
class Ran:
    """One snippet cell a build executed, and how it was judged."""

    snippet: str
    outcome: Outcome


class Standing(enum.Enum):
    """What this build showed about a claim (values are the codes its CSS classes use)."""

    VERIFIED = "verified"
    FAILING = "failing"
    NEEDS_BACKEND = "needs"  # only another backend can show it, so never verified here


SHAPES = {Standing.VERIFIED: "✓", Standing.FAILING: "✗", Standing.NEEDS_BACKEND: "◇"}


@dataclass(frozen=True)
class ClaimStanding:
    """A claim's standing, with the words that say it: a headline and its detail."""

    standing: Standing
    headline: str  # "verified in this build", "failing", "needs gpu"
    detail: str
    backend: str = ""  # the backend it needs, for NEEDS_BACKEND

    @property
    def css(self) -> str:
        """The class of its status line: jaxwaits-verified, -failing, -needs-gpu."""
        needs = f"-{self.backend}" if self.standing is Standing.NEEDS_BACKEND else ""
        return f"jaxwaits-{self.standing.value}{needs}"

    @property
    def shape(self) -> str:
        return SHAPES[self.standing]

    @property
    def rest(self) -> str:
        """What follows the headline on the status line."""
        return f" {self.detail}" if self.standing is Standing.VERIFIED else f": {self.detail}"


def _failing(detail: str) -> ClaimStanding:
    return ClaimStanding(Standing.FAILING, "failing", detail)


def standing(
    claim: Claim, ran: Iterable[Ran], platform: Platform, others: Sequence[Elsewhere] = ()
) -> ClaimStanding:
    """What a build on ``platform`` that ran ``ran`` showed about ``claim``; for a claim only
    another backend can show, what the ledger's runs there (``others``) showed."""
    cells = [cell for cell in ran if cell.snippet in claim.evidence]
    if not claim.evidence:
        return _failing("it has no evidence")
    for name in claim.evidence:
        runs = [cell for cell in cells if cell.snippet == name]
        if not runs:
            return _failing(f"its evidence {name} did not run in this build")
        failed = next((cell for cell in runs if not cell.outcome.passed), None)
        if failed is not None:
            return _failing(f"its evidence {name}: {failed.outcome.words}")
    if claim.needs and claim.needs != platform.backend:
        there = [other for other in others if other.backend == claim.needs]
        said = (
            f"a recorded run {summary_elsewhere(there)}" if there else f"rests on {claim.rests_on}"
        )
        return ClaimStanding(
            Standing.NEEDS_BACKEND,
            f"needs {claim.needs}",
            f"cannot be shown on {BACKEND_WORDS.get(platform.backend, platform.backend)}, so not "
            f"verified here; {said}",
            claim.needs,
        )
    return ClaimStanding(Standing.VERIFIED, "verified in this build", f"on {platform.describe()}")
