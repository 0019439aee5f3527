"""The backend axis, from what ran: a claim names, as ``:backend:``, exactly the backends on
which the ledger shows it holding (CPU on its newest verified release, any other backend on the
newest release verified there), and names no backend but CPU that the ledger has no run on, save
the one a claim only another backend can show is about (it then says what it rests on,
``:rests-on:``).
A claim that fails, or was judged on other evidence, on a backend verified elsewhere is a
problem there as on CPU."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jaxwaits.chain.verdicts import BACKEND_WORDS, HOLDING, ClaimVerdict, Elsewhere, Verdict
from jaxwaits.claims.registry import Claim
from jaxwaits.evidence.known import CPU

_BROKEN = (Verdict.FAILS, Verdict.STALE)


def newest(cpu: Mapping[str, ClaimVerdict], others: Sequence[Elsewhere]) -> dict[str, ClaimVerdict]:
    """Per backend that ran, the claim's verdict on the newest release verified there (CPU's
    newest that is verified at all)."""
    found = {}
    verified = [v for v in cpu.values() if v.verdict is not Verdict.NOT_VERIFIED]
    if verified:
        found[CPU] = verified[-1]
    for other in others:  # oldest release first: the newest stays
        found[other.backend] = other.verdict
    return found


def problems(
    claim: Claim, cpu: Mapping[str, ClaimVerdict], others: Sequence[Elsewhere]
) -> list[str]:
    """Where the claim's ``:backend:`` and the ledger disagree, each with what to do."""
    declared = set(claim.scope.of("backend"))
    ran = newest(cpu, others)
    found = []
    for other in others:
        if other.verdict.verdict in _BROKEN:
            found.append(
                f"claim {claim.id} {other.verdict.verdict.words} on {other.where}: "
                f"{other.verdict.why}; run it there again (.ci/observe-gpu), then "
                "python -m jaxwaits verify --observed"
            )
    for backend, verdict in sorted(ran.items()):
        shown = BACKEND_WORDS.get(backend, backend)
        if verdict.verdict in _BROKEN:
            continue  # said above, or by the CPU checks
        holds = verdict.verdict in HOLDING
        if backend in declared and not holds and backend != CPU:
            found.append(
                f"claim {claim.id} lists :backend: {backend}, but on {shown} it "
                f"{verdict.verdict.words} ({verdict.why}): take {backend} out, and say what "
                f"holds on {shown} beside it"
            )
        if backend not in declared and holds and claim.needs in (None, backend):
            found.append(
                f"claim {claim.id} holds on {shown} too: add {backend} to its :backend:, and "
                "say so where its sentence names a backend"
            )
    for backend in sorted(declared - set(ran) - {CPU}):  # CPU runs in every build
        if backend == claim.needs and claim.rests_on:
            continue  # about that backend alone, and says what it rests on meanwhile
        found.append(
            f"claim {claim.id} lists :backend: {backend}, where the ledger has no run: take it "
            "out, or run the snippets there"
            + ("" if backend != claim.needs else " (or say what it rests on: :rests-on:)")
        )
    return found
