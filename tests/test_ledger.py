"""The ledger, and the verdict on each claim on each release that follows from it."""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from jaxwaits.chain import verdicts
from jaxwaits.chain.verdicts import ClaimVerdict, Verdict
from jaxwaits.claims.registry import Claim
from jaxwaits.claims.scope import Scope
from jaxwaits.evidence import known
from jaxwaits.evidence.known import Classification, Known, KnownOutput
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases import ledger
from jaxwaits.releases.ledger import SnippetEntry, Verification
from jaxwaits.releases.universe import Universe

RELEASES = ("0.4.30", "0.4.31", "0.4.38", "0.5.3", "0.6.2", "0.7.2", "0.8.0")


GPU = Scope((("backend", ("gpu",)),))  # a claim about GPUs only


def claim(cid: str = "says-a", *evidence: str, **options: object) -> Claim:
    fields = {"rests_on": None, "renamed_from": (), "file": Path("x.md"), "line": 1}
    return Claim(cid, "It says.", evidence or ("a",), **{**fields, **options})


@pytest.fixture
def judge(tmp_path: Path) -> verdicts.Judge:
    (tmp_path / "a.py").write_text("print('a')\n")
    (tmp_path / "a.out").write_text("a\n")
    (tmp_path / "b.py").write_text("print('b')\n")
    (tmp_path / "b.out").write_text("b\n")
    said = {
        "says-a": Classification("holds-output-differs", "the error class had another name"),
        "says-ab": Classification("does-not-hold", "the product had not finished"),
    }
    output = KnownOutput("A\n", ("0.4.30", "0.4.31"), said)
    unexplained = KnownOutput("AA\n", ("0.4.38",), {"says-a": Classification("unclassified", "")})
    known.save(Known(known.path_for(tmp_path, "a"), (output, unexplained)))
    return verdicts.judge_for(load_snippets(tmp_path))


def verified(judge: verdicts.Judge, release: str, **outcomes: Outcome) -> Verification:
    platform = Platform(jax=release, jaxlib=release, python="3.12", backend="cpu")
    entries = {
        name: SnippetEntry(outcome, "", judge.fingerprint(name, release), "")
        for name, outcome in outcomes.items()
    }
    return Verification(platform, entries)


def test_a_known_difference_counts_as_what_it_was_classified(judge: verdicts.Judge) -> None:
    entry = verified(judge, "0.4.30", a=Outcome.MATCHED_KNOWN, b=Outcome.MATCHED)
    assert judge.verdict(entry, claim()) == ClaimVerdict(
        Verdict.HOLDS_OUTPUT_DIFFERS, "the error class had another name"
    )
    assert judge.verdict(entry, claim("says-ab", "a", "b")) == ClaimVerdict(
        Verdict.DOES_NOT_HOLD, "the product had not finished"
    )


def test_every_other_verdict(judge: verdicts.Judge) -> None:
    matched = verified(judge, "0.5.3", a=Outcome.MATCHED)
    assert judge.verdict(matched, claim()).verdict is Verdict.HOLDS
    assert judge.verdict(matched, claim(scope=GPU)).verdict is Verdict.NOT_OBSERVABLE
    assert judge.verdict(matched, claim("x", "a", "b")) == ClaimVerdict(
        Verdict.NOT_VERIFIED, "verified before b existed"
    )
    differs = verified(judge, "0.5.3", a=Outcome.DIFFERS)
    assert judge.verdict(differs, claim()) == ClaimVerdict(Verdict.FAILS, "a: differs")
    unexplained = verified(judge, "0.4.38", a=Outcome.MATCHED_KNOWN)
    assert judge.verdict(unexplained, claim()).verdict is Verdict.FAILS
    old = replace(matched, snippets={"a": replace(matched.snippets["a"], fingerprint="other")})
    assert judge.verdict(old, claim()) == ClaimVerdict(
        Verdict.STALE, "a changed since jax 0.5.3 was verified"
    )
    lost = Verification(matched.platform, not_installable="jax 0.5.3 does not install: no jaxlib")
    assert judge.verdict(lost, claim()) == ClaimVerdict(Verdict.NOT_VERIFIED, lost.not_installable)


def test_release_sets_are_exact_and_break_at_every_gap(judge: verdicts.Judge) -> None:
    ledger_ = [
        verified(judge, "0.4.30", a=Outcome.MATCHED_KNOWN),
        verified(judge, "0.4.31", a=Outcome.MATCHED_KNOWN),
        verified(judge, "0.5.3", a=Outcome.MATCHED),
        verified(judge, "0.6.2", a=Outcome.MATCHED),
        verified(judge, "0.8.0", a=Outcome.MATCHED),
    ]
    found = verdicts.per_release(judge, Universe(RELEASES, frozenset()), ledger_, claim())
    assert list(found) == list(RELEASES)
    assert verdicts.summary(found) == (
        "holds on CPU 0.8.0, 0.5.3 – 0.6.2; holds, output differs on CPU 0.4.30 – 0.4.31; "
        "not verified on CPU 0.7.2, 0.4.38"
    )


def test_the_declared_releases_must_agree_with_the_ledger() -> None:
    holds, fails = ClaimVerdict(Verdict.HOLDS), ClaimVerdict(Verdict.DOES_NOT_HOLD, "later")
    found = {"0.5.0": fails, "0.5.1": holds, "0.5.2": holds}
    assert verdicts.release_problems(claim(since="0.5.1"), found) == []
    assert verdicts.release_problems(claim(), found) == [
        "claim says-a does not hold on jax 0.5.0 (later), inside the releases it declares (every "
        "one: it declares no :since: or :until:): re-word it, or declare :since: / :until:"
    ]
    assert verdicts.release_problems(claim(since="0.5.2"), found) == [
        "claim says-a holds on jax 0.5.1, outside the releases it declares (from jax 0.5.2): the "
        "boundary is wrong",
        "claim says-a: its boundary at 0.5.2 rests on jax 0.5.1, whose verdict is 'holds', not "
        "verified not to hold",
    ]


def test_a_known_output_nobody_classified_is_named(judge: verdicts.Judge) -> None:
    problems = verdicts.unclassified(judge, [claim(), claim("says-ab", "a", "b")])
    assert [p.split(": ", 1)[1] for p in problems] == [
        "the output of jax 0.4.38 says 'unclassified' for claim says-a; give it a verdict "
        "(holds-output-differs / does-not-hold / not-observable / absent) and why",
        "the output of jax 0.4.38 says nothing for claim says-ab; give it a verdict "
        "(holds-output-differs / does-not-hold / not-observable / absent) and why",
    ]


def test_round_trip_through_the_folder(tmp_path: Path, judge: verdicts.Judge) -> None:
    entries = [verified(judge, r, a=Outcome.MATCHED) for r in ("0.5.3", "0.4.30", "0.10.2")]
    entries.append(Verification(Platform("0.4.16", "", "", "cpu"), not_installable="no jaxlib"))
    for entry in entries:
        ledger.save(entry, tmp_path / "ledger")
    found = ledger.load(tmp_path / "ledger")
    assert [v.platform.jax for v in found] == ["0.4.16", "0.4.30", "0.5.3", "0.10.2"]
    assert replace(found[2], recorded_on="") == entries[0]
    assert found[0].not_installable == "no jaxlib"
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    assert {v.recorded_on for v in found} == {today}


def test_saving_what_the_file_already_says_rewrites_nothing(
    tmp_path: Path, judge: verdicts.Judge
) -> None:
    path = ledger.save(verified(judge, "0.5.3", a=Outcome.MATCHED), tmp_path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(data | {"recorded_on": "2026-01-02"}, indent=2) + "\n")
    os.utime(path, ns=(1, 1))
    ledger.save(verified(judge, "0.5.3", a=Outcome.MATCHED), tmp_path)
    assert path.stat().st_mtime_ns == 1
    assert ledger.read_file(path).recorded_on == "2026-01-02"  # when they were first recorded
    ledger.save(verified(judge, "0.5.3", a=Outcome.DIFFERS), tmp_path)
    assert path.stat().st_mtime_ns != 1
    assert ledger.read_file(path).recorded_on == datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%d"
    )


def test_an_unknown_outcome_in_a_file_is_named(tmp_path: Path, judge: verdicts.Judge) -> None:
    path = ledger.save(verified(judge, "0.5.3", a=Outcome.MATCHED), tmp_path)
    path.write_text(path.read_text().replace('"matched"', '"matchd"', 1))
    problems = ledger.read(tmp_path)[1]
    assert [str(p).split(": ", 1)[0] for p in problems] == [str(path)]
    assert "not a readable ledger file" in str(problems[0]) and "matchd" in str(problems[0])


def test_the_stored_codes_never_change() -> None:
    """The ledger and the known-difference files store these codes; a new one may be added,
    none reworded or removed (the words shown for them are free to change)."""
    assert {o.value for o in Outcome} >= {
        "changed-checkout",
        "left-running",
        "matched",
        "known-difference",
        "differs",
        "no-recording",
        "raised",
        "crashed",
        "timed-out",
        "not-utf8",
        "flaky",
        "invalid",
        "fresh-differs",
        "env-mismatch",
        "not-run",
    }
    assert {o.value for o in PieceOutcome} >= {
        "identical",
        "differs-as-recorded",
        "absent-as-recorded",
        "unrecorded-change",
    }
    assert {v.value for v in Verdict} >= {
        "holds",
        "holds-output-differs",
        "does-not-hold",
        "not-observable",
        "absent",
        "not-verified",
        "stale",
        "fails",
    }  # the known-difference files store the classifications among them
    assert all(o.words for o in [*Outcome, *PieceOutcome, *Verdict])  # each has its shown words
