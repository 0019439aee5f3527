"""What the ledger says about each claim on each verified release: one :class:`Verdict` per claim
per release and backend, and a summary across releases."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from jaxwaits.evidence.runner import Outcome
from jaxwaits.releases.ledger import Verification


class Verdict(enum.Enum):
    """A claim on one release and backend: the one vocabulary for it, in the matrix, the status
    lines and ``cite``."""

    HOLDS = "holds"  # every snippet behind it printed its recorded output
    KNOWN_DIFFERENCE = "differs as recorded"  # one printed the output recorded for that release
    FAILS = "fails"  # one did not print what was expected of it there
    NOT_RUN = "not run"  # the release was verified before one of its snippets existed
    NOT_OBSERVABLE = "not observable"  # the claim needs another backend


def claim_verdict(
    verification: Verification, evidence: Sequence[str], needs: str | None = None
) -> Verdict:
    """The verdict on one claim from one release's verification. A claim that needs another
    backend than the verification's is not observable there, whatever its snippets printed."""
    if needs and needs != verification.platform.backend:
        return Verdict.NOT_OBSERVABLE
    entries = [verification.snippets.get(name) for name in evidence]
    if any(entry is None for entry in entries):
        return Verdict.NOT_RUN
    outcomes = [entry.outcome for entry in entries if entry]
    if not all(outcome.passed for outcome in outcomes):
        return Verdict.FAILS
    if Outcome.MATCHED_KNOWN in outcomes:
        return Verdict.KNOWN_DIFFERENCE
    return Verdict.HOLDS


def summary(
    verifications: Sequence[Verification], evidence: Sequence[str], needs: str | None = None
) -> str:
    """E.g. "holds on 0.5.3 – 0.12.0.1, differs as recorded on 0.4.30 – 0.4.38 (cpu)": per
    backend, each verdict with its runs of consecutive verified releases."""
    if not verifications:
        return "not yet verified on any release"
    parts = []
    for backend in sorted({v.platform.backend for v in verifications}):
        runs: list[tuple[Verdict, list[str]]] = []
        for verification in (v for v in verifications if v.platform.backend == backend):
            verdict = claim_verdict(verification, evidence, needs)
            if runs and runs[-1][0] is verdict:
                runs[-1][1].append(verification.platform.jax)
            else:
                runs.append((verdict, [verification.platform.jax]))
        spans: dict[Verdict, list[str]] = {}
        for verdict, versions in runs:
            spans.setdefault(verdict, []).append(
                versions[0] if len(versions) == 1 else f"{versions[0]} – {versions[-1]}"
            )
        told = ", ".join(f"{verdict.value} on {', '.join(s)}" for verdict, s in spans.items())
        parts.append(f"{told} ({backend})")
    return "; ".join(parts)
