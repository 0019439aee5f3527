"""What the ledger says about claims across releases."""

from __future__ import annotations

from pathlib import Path

from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Outcome
from jaxwaits.releases import ledger, verdicts
from jaxwaits.releases.ledger import SnippetEntry, Verification
from jaxwaits.releases.verdicts import Verdict


def verification(jax: str, **snippets: Outcome) -> Verification:
    platform = Platform(jax=jax, jaxlib=jax, python="3.12", backend="cpu")
    return Verification(platform, {name: SnippetEntry(o) for name, o in snippets.items()})


KNOWN, MATCHED = Outcome.MATCHED_KNOWN, Outcome.MATCHED
LEDGER = [
    verification("0.4.30", a=KNOWN, b=MATCHED),
    verification("0.4.38", a=KNOWN, b=MATCHED),
    verification("0.5.3", a=MATCHED, b=MATCHED),
    verification("0.6.2", a=MATCHED, b=Outcome.DIFFERS),
    verification("0.7.2", a=MATCHED),
]


def test_each_release_has_one_verdict() -> None:
    found = [verdicts.claim_verdict(v, ["a", "b"]) for v in LEDGER]
    assert found == [
        Verdict.KNOWN_DIFFERENCE,
        Verdict.KNOWN_DIFFERENCE,
        Verdict.HOLDS,
        Verdict.FAILS,
        Verdict.NOT_RUN,
    ]


def test_summary_groups_consecutive_releases() -> None:
    assert verdicts.summary(LEDGER, ["a"]) == (
        "differs as recorded on 0.4.30 – 0.4.38, holds on 0.5.3 – 0.7.2 (cpu)"
    )
    assert verdicts.summary(LEDGER, ["a", "b"]) == (
        "differs as recorded on 0.4.30 – 0.4.38, holds on 0.5.3, fails on 0.6.2, "
        "not run on 0.7.2 (cpu)"
    )
    assert verdicts.summary([], ["a"]) == "not yet verified on any release"


def test_a_claim_needing_a_gpu_is_never_held_on_cpu() -> None:
    assert verdicts.claim_verdict(LEDGER[2], ["a", "b"], needs="gpu") is Verdict.NOT_OBSERVABLE
    assert verdicts.summary(LEDGER[2:3], ["a"], needs="gpu") == "not observable on 0.5.3 (cpu)"


def test_a_failure_fails_the_release() -> None:
    assert LEDGER[0].passed and not LEDGER[3].passed


def test_round_trip_through_the_folder(tmp_path: Path) -> None:
    for v in reversed(LEDGER):
        ledger.save(v, tmp_path)
    found = ledger.load(tmp_path)
    assert [v.platform.jax for v in found] == ["0.4.30", "0.4.38", "0.5.3", "0.6.2", "0.7.2"]
    assert found[3] == LEDGER[3]


def test_an_unknown_outcome_in_a_file_is_named(tmp_path: Path) -> None:
    path = ledger.save(LEDGER[2], tmp_path)
    path.write_text(path.read_text().replace('"matched"', '"matchd"', 1))
    problems = ledger.read(tmp_path)[1]
    assert [str(p).split(": ", 1)[0] for p in problems] == [str(path)]
    assert "not a readable ledger file" in str(problems[0]) and "matchd" in str(problems[0])
