"""The judge's pieces, on facts made in memory: no site is built."""

from __future__ import annotations

from jaxwaits.chain import columns
from jaxwaits.evidence.platform import Platform
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases.ledger import PieceEntry, Verification
from jaxwaits.releases.verdicts import ClaimVerdict, Verdict

HOLDS, FAILS = ClaimVerdict(Verdict.HOLDS), ClaimVerdict(Verdict.FAILS, "why")


def _verified(release: str, piece: PieceOutcome) -> Verification:
    platform = Platform(jax=release, jaxlib=release, python="3.13", backend="cpu")
    return Verification(platform, {}, {"api.f": PieceEntry(piece)})


def test_consecutive_releases_that_agree_on_everything_share_a_column() -> None:
    releases = ["0.4.30", "0.4.31", "0.5.0", "0.5.1"]
    verdicts = {
        "a": dict.fromkeys(releases, HOLDS),
        "b": {"0.4.30": HOLDS, "0.4.31": HOLDS, "0.5.0": FAILS, "0.5.1": FAILS},
    }
    ledger = [
        _verified("0.4.30", PieceOutcome.IDENTICAL),
        _verified("0.4.31", PieceOutcome.IDENTICAL),
        _verified("0.5.0", PieceOutcome.IDENTICAL),
        _verified("0.5.1", PieceOutcome.DIFFERS_AS_RECORDED),  # a piece alone tells it apart
    ]
    assert columns.folded(verdicts, ledger) == [("0.5.1",), ("0.5.0",), ("0.4.30", "0.4.31")]


def test_a_release_the_ledger_lacks_shows_no_piece_outcome() -> None:
    ledger = [_verified("0.4.30", PieceOutcome.IDENTICAL)]
    assert columns.pieces_on(ledger, "0.4.31") == {"api.f": None}
    assert columns.pieces_on(ledger, "0.4.30") == {"api.f": PieceOutcome.IDENTICAL}
