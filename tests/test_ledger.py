"""What the ledger says about claims across releases."""

from __future__ import annotations

from pathlib import Path

from jaxwaits.evidence.platform import Platform
from jaxwaits.releases import ledger
from jaxwaits.releases.ledger import Outcome, Verification


def verification(jax: str, **snippets: str) -> Verification:
    platform = Platform(jax=jax, jaxlib=jax, python="3.12", backend="cpu")
    return Verification(platform, {name: Outcome(status) for name, status in snippets.items()})


LEDGER = [
    verification("0.4.30", a="known difference", b="matched"),
    verification("0.4.38", a="known difference", b="matched"),
    verification("0.5.3", a="matched", b="matched"),
    verification("0.6.2", a="matched", b="differs"),
    verification("0.7.2", a="matched"),
]


def test_each_release_is_holds_differs_fails_or_not_run() -> None:
    outcomes = [ledger.claim_outcome(v, ["a", "b"]) for v in LEDGER]
    assert outcomes == ["differs", "differs", "holds", "fails", "not run"]


def test_summary_groups_consecutive_releases() -> None:
    assert (
        ledger.summary(LEDGER, ["a"]) == "differs on 0.4.30 – 0.4.38, holds on 0.5.3 – 0.7.2 (cpu)"
    )
    assert ledger.summary(LEDGER, ["a", "b"]) == (
        "differs on 0.4.30 – 0.4.38, holds on 0.5.3, fails on 0.6.2, not run on 0.7.2 (cpu)"
    )
    assert ledger.summary([], ["a"]) == "not yet verified on any release"


def test_a_claim_needing_a_gpu_is_never_held_on_cpu() -> None:
    assert ledger.claim_outcome(LEDGER[2], ["a", "b"], needs="gpu") == "not observable"
    assert ledger.summary(LEDGER[2:3], ["a"], needs="gpu") == "not observable on 0.5.3 (cpu)"


def test_a_failure_fails_the_release() -> None:
    assert LEDGER[0].passed and not LEDGER[3].passed


def test_round_trip_through_the_folder(tmp_path: Path) -> None:
    for v in reversed(LEDGER):
        ledger.save(v, tmp_path)
    assert [v.platform.jax for v in ledger.load(tmp_path)] == [
        "0.4.30",
        "0.4.38",
        "0.5.3",
        "0.6.2",
        "0.7.2",
    ]
    assert ledger.load(tmp_path)[3] == LEDGER[3]
