"""The version matrix's columns: the releases of the universe, folded where consecutive ones
agree on every claim's verdict and every vendored piece's outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jaxwaits.chain.verdicts import ClaimVerdict
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases.ledger import Verification


def pieces_on(ledger: Sequence[Verification], release: str) -> dict[str, PieceOutcome | None]:
    """Every vendored piece the ledger knows, and its outcome on ``release`` (CPU), or None."""
    verification = next(
        (v for v in ledger if v.platform.jax == release and v.platform.backend == "cpu"), None
    )
    names = sorted({name for v in ledger for name in v.pieces})
    found = verification.pieces if verification else {}
    return {name: found[name].outcome if name in found else None for name in names}


def folded(
    verdicts: Mapping[str, Mapping[str, ClaimVerdict]], ledger: Sequence[Verification]
) -> list[tuple[str, ...]]:
    """Runs of consecutive releases (oldest first within a run) on which every claim has the
    same verdict and every piece the same outcome; the newest run first, as readers look for
    theirs. ``verdicts``: claim ID -> release -> verdict, over the universe's releases."""
    releases = list(next(iter(verdicts.values()), {}))
    runs: list[list[str]] = []
    previous = None
    for release in releases:
        column = (
            tuple((cid, verdicts[cid][release]) for cid in sorted(verdicts)),
            tuple(pieces_on(ledger, release).items()),
        )
        if runs and column == previous:
            runs[-1].append(release)
        else:
            runs.append([release])
        previous = column
    return [tuple(run) for run in reversed(runs)]
