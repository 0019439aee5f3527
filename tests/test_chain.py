"""The judge's pieces, on facts made in memory: no site is built."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from jaxwaits.chain import changes, columns, links_out, marks, problems, standing
from jaxwaits.chain.facts import Facts
from jaxwaits.chain.standing import Ran, Standing
from jaxwaits.chain.verdicts import ClaimVerdict, Verdict, judge_for
from jaxwaits.claims import scope
from jaxwaits.claims.registry import Claim, Registry
from jaxwaits.claims.scope import Scope
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.pieces import manifest
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.project import Project
from jaxwaits.releases.ledger import PieceEntry, SnippetEntry, Verification
from jaxwaits.releases.universe import Universe
from jaxwaits.sphinxext.changes import noticed

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


# --- release boundaries, a claim's standing, what a build saw: on facts made in memory ---

SCOPE = Scope((("backend", ("cpu",)),))


def _claim(cid: str, statement: str, *evidence: str, **options: object) -> Claim:
    fields = {"rests_on": None, "renamed_from": (), "file": Path("docs/x.md"), "line": 7}
    return Claim(cid, statement, evidence, **{**fields, "scope": SCOPE, **options})


def _release(jax: str, **printed: str) -> Verification:
    """A verified release on which each snippet matched, having printed what it is given."""
    platform = Platform(jax=jax, jaxlib=jax, python="3.13", backend="cpu")
    snippets = {name: SnippetEntry(Outcome.MATCHED, printed=text) for name, text in printed.items()}
    return Verification(platform, snippets)


def _facts(
    verdicts: dict[str, dict[str, ClaimVerdict]],
    ledger: list[Verification],
    claims: tuple[Claim, ...] = (),
    recorded: manifest.Manifest | None = None,
) -> Facts:
    registry = Registry({c.id: c for c in claims}, (), (), ())
    releases = Universe(tuple(next(iter(verdicts.values()), {})), frozenset())
    judge = judge_for([])
    others = {claim.id: [] for claim in claims}
    return Facts(
        Project(Path("/no/such")), registry, ledger, [], releases, judge, verdicts, recorded, others
    )


DIFFERS = ClaimVerdict(Verdict.HOLDS_OUTPUT_DIFFERS, "it said bye in Italian")
BYE = _claim("says-bye", "It says bye.", "bye")
# bye printed something else on 0.5.3 than on 0.4.30; hello printed the same
LEDGER = [_release("0.4.30", bye="c1a0", hello="4e11"), _release("0.5.3", bye="b7e0", hello="4e11")]
FACTS = _facts({"says-bye": {"0.4.30": DIFFERS, "0.5.3": HOLDS}}, LEDGER, (BYE,))


def test_a_boundary_holds_where_the_ledger_shows_its_target_changing() -> None:
    assert changes.boundary_problem(FACTS, "0.5.3", "says-bye") is None  # its verdict changed
    assert changes.boundary_problem(FACTS, "0.5.3", "bye") is None  # what it printed changed
    assert changes.boundary_problem(FACTS, "0.5.3", "hello") == (
        "hello printed the same on jax 0.4.30 and 0.5.3"
    )
    assert changes.boundary_problem(FACTS, "0.4.30", "bye") == (
        "0.4.30 is no release with one before it"
    )
    assert changes.boundary_problem(FACTS, "0.5.3", "").startswith("name what changed")
    assert changes.boundary_problem(FACTS, "0.5.3", "gone") == (
        "the ledger cannot tell whether gone changed between jax 0.4.30 and 0.5.3"
    )


def test_a_claim_whose_verdict_is_unsure_on_either_side_establishes_no_change() -> None:
    stale = ClaimVerdict(Verdict.STALE, "bye changed since jax 0.5.3 was verified")
    facts = _facts({"says-bye": {"0.4.30": DIFFERS, "0.5.3": stale}}, LEDGER, (BYE,))
    assert changes.boundary_problem(facts, "0.5.3", "says-bye") == (
        "claim says-bye is holds, output differs on jax 0.4.30 and stale on 0.5.3: the ledger "
        "does not establish a change"
    )
    same = _facts({"says-bye": {"0.4.30": HOLDS, "0.5.3": HOLDS}}, LEDGER, (BYE,))
    assert changes.boundary_problem(same, "0.5.3", "says-bye") == (
        "claim says-bye is holds on both jax 0.4.30 and 0.5.3"
    )


def test_a_vendored_piece_changes_where_its_manifest_history_does() -> None:
    runs = (
        manifest.TextRun("0.4.30", "0.4.30", 1, manifest.TextState.DIFFERS, change="+1/-0 lines"),
        manifest.TextRun("0.5.3", "0.5.3", 1, manifest.TextState.IDENTICAL),
    )
    entry = manifest.Entry("api.f", "jax/_src/api.py", "f", "0.5.3", history=runs)
    recorded = manifest.Manifest("0.4.30", ["0.4.30", "0.5.3"], [], {"api.f": entry})
    facts = replace(FACTS, manifest=recorded)
    assert changes.piece_changes(facts) == {
        "0.5.3": [("api.f", "its upstream text became the vendored one")]
    }
    assert changes.boundary_problem(facts, "0.5.3", "api.f") is None
    (change,) = changes.changes(facts)
    assert change.pieces == (("api.f", "its upstream text became the vendored one"),)
    assert change.claims == (("says-bye", Verdict.HOLDS_OUTPUT_DIFFERS, Verdict.HOLDS),)
    assert change.snippets == ("bye",)


def test_a_boundary_in_a_claims_own_sentence_must_be_in_its_evidence() -> None:
    ends = _claim("says-bye", "It says bye.\nIt said ciao up to jax 0.4.30.", "bye")
    assert changes.statement_problems(FACTS, ends) == []  # the release after 0.4.30 changed
    wrong = _claim("says-bye", "It says bye since jax 0.5.0.", "bye")
    assert changes.statement_problems(FACTS, wrong) == [
        "claim says-bye says 'since jax 0.5.0', but the ledger shows no change at jax 0.5.0 in "
        "its verdict or in what bye printed"
    ]
    declared = _claim("says-bye", "It says bye since jax 0.5.0.", "bye", since="0.5.0")
    assert changes.statement_problems(FACTS, declared) == []  # its declared scope says so


def test_named_boundaries_are_the_first_release_on_the_new_side() -> None:
    releases = ["0.4.30", "0.4.31", "0.5.3"]
    assert changes.named_boundaries("up to jax 0.4.30, from 0.5.3", releases) == [
        ("up to jax 0.4.30", "0.4.31"),
        ("from 0.5.3", "0.5.3"),
    ]
    assert changes.named_boundaries("every release since 0.4.30", releases) == []


def _ran(*cells: tuple[str, Outcome]) -> tuple[Ran, ...]:
    return tuple(Ran(name, outcome) for name, outcome in cells)


CPU = Platform(jax="0.12.0", jaxlib="0.12.0", python="3.13", backend="cpu")


def test_a_claim_stands_verified_only_when_every_snippet_behind_it_ran_and_passed() -> None:
    both = _claim("says-both", "It says.", "bye", "hello")
    seen = standing.standing(both, _ran(("bye", Outcome.MATCHED), ("hello", Outcome.MATCHED)), CPU)
    assert (seen.standing, seen.css, seen.shape) == (Standing.VERIFIED, "jaxwaits-verified", "✓")
    assert seen.rest == " on " + CPU.describe()
    one = standing.standing(both, _ran(("bye", Outcome.MATCHED)), CPU)
    assert one.detail == "its evidence hello did not run in this build"
    failed = _ran(("bye", Outcome.MATCHED), ("bye", Outcome.DIFFERS), ("hello", Outcome.MATCHED))
    seen = standing.standing(both, failed, CPU)  # one of two cells of bye failed
    assert (seen.standing, seen.css) == (Standing.FAILING, "jaxwaits-failing")
    assert seen.rest == ": its evidence bye: differs"
    assert standing.standing(_claim("bare", "It."), (), CPU).detail == "it has no evidence"


def test_a_claim_about_another_backend_needs_it_even_when_its_snippets_pass() -> None:
    gpu = _claim(
        "on-gpu", "It.", "bye", rests_on="the notes", scope=Scope((("backend", ("gpu",)),))
    )
    seen = standing.standing(gpu, _ran(("bye", Outcome.MATCHED)), CPU)
    assert (seen.standing, seen.headline, seen.css) == (
        Standing.NEEDS_BACKEND,
        "needs gpu",
        "jaxwaits-needs-gpu",
    )
    assert seen.detail == ("cannot be shown on CPU, so not verified here; rests on the notes")
    failing = standing.standing(gpu, _ran(("bye", Outcome.CRASHED)), CPU)
    assert failing.standing is Standing.FAILING  # a failing snippet fails it all the same


def test_what_a_build_saw_is_judged_with_the_facts() -> None:
    seen = problems.Built(
        CPU,
        _ran(("bye", Outcome.DIFFERS)),
        frozenset(),
        (
            problems.Boundary("docs/b.md:3", "0.5.3", "hello"),
            problems.Boundary("docs/b.md:3", "0.5.3", "bye"),
            problems.Boundary("docs/b.md:4", words="up to jax 0.4.30"),
            problems.Boundary("docs/b.md:5", words="every release since 0.4.30"),
        ),
    )
    assert [str(p) for p in problems.built(FACTS, seen)] == [
        "docs/x.md:7: claim says-bye is failing: its evidence bye: differs, so this site must not "
        "be published",
        "docs/x.md:7: claim says-bye was read from its page, but no page of this build rendered it",
        "docs/b.md:3: {changed-in}`0.5.3 <hello>`: hello printed the same on jax 0.4.30 and 0.5.3",
        "docs/b.md:4: 'up to jax 0.4.30' names a release boundary in plain words: cite what "
        "changed there with {changed-in}`<release> <snippet, claim or piece>`",
    ]
    passing = replace(seen, ran=_ran(("bye", Outcome.MATCHED)), rendered=frozenset({"says-bye"}))
    assert [p.kind for p in problems.built(FACTS, passing)] == ["boundary", "boundary"]


def test_every_verdict_outcome_and_standing_has_a_mark_a_meaning_and_an_anchor() -> None:
    assert set(marks.MARKS) == set(marks.MEANING) == set(Verdict)
    assert set(marks.PIECE_MARKS) == set(marks.PIECE_MEANING) == set(PieceOutcome)
    assert set(standing.SHAPES) == set(marks.STANDING_MEANING) == set(Standing)
    values = {(axis.name, value) for axis in scope.AXES for value in axis.values}
    assert set(marks.SCOPE_MEANING) == values  # every word a status line shows is defined
    assert len(set(marks.MARKS.values())) == len(Verdict)  # no two verdicts look alike
    anchors = [
        *map(marks.verdict_id, Verdict),
        *map(marks.piece_id, PieceOutcome),
        *map(marks.standing_id, Standing),
        *(marks.scope_id(axis, value) for axis, value in values),
    ]
    assert len(set(anchors)) == len(anchors)
    assert marks.verdict_id(Verdict.NOT_VERIFIED) == "verdict-not-verified"  # from the code


def test_a_verdict_is_shown_in_words_that_cannot_read_as_does_not_apply() -> None:
    """Issue 38, point 5: "not observable" read as "does not apply"; the stored code stays."""
    assert Verdict.NOT_OBSERVABLE.value == "not-observable"
    assert Verdict.NOT_OBSERVABLE.words == "cannot be shown"
    assert "not to say that the claim does not apply" in marks.MEANING[Verdict.NOT_OBSERVABLE]
    assert [v.words for v in Verdict if "observable" in v.words] == []


def test_a_release_where_only_the_source_changed_is_folded_away() -> None:
    """Issue 38, point 7: a release where no verdict changed and no snippet printed otherwise
    is one line of a list at the end of the changes page, not an entry of its own."""
    source = (("array.ArrayImpl.copy_to_host_async", "its upstream text changed"),)
    only_source = changes.Change("0.7.2", "0.7.1", (), (), source)
    assert only_source and not noticed(only_source)
    assert noticed(changes.Change("0.7.2", "0.7.1", (), ("bye",), source))
    verdict = (("says-bye", Verdict.HOLDS_OUTPUT_DIFFERS, Verdict.HOLDS),)
    assert noticed(changes.Change("0.7.2", "0.7.1", verdict, (), ()))


def test_a_release_note_must_say_a_change_of_its_own_release() -> None:
    def said(*notes: problems.ReleaseNote) -> list[str]:
        ran = _ran(("bye", Outcome.MATCHED))
        seen = problems.Built(CPU, ran, frozenset({"says-bye"}), (), notes)
        return [str(p) for p in problems.built(FACTS, seen)]

    assert said() == []  # a site without notes is not held to them
    assert said(problems.ReleaseNote("docs/changes.md:9", "0.5.3", ("0.5.3",))) == []
    assert said(problems.ReleaseNote("docs/changes.md:9", "0.5.3", ())) == [
        "docs/changes.md:9: the release note for jax 0.5.3 cites nothing that changed there: "
        "cite each change with {changed-in}`0.5.3 <snippet, claim or piece>`"
    ]
    assert said(problems.ReleaseNote("docs/changes.md:3", "0.4.30", ("0.4.30",))) == [
        "docs/changes.md:3: a release note for jax 0.4.30, where the ledger shows no change",
        "docs/changes.md: jax 0.5.3: the ledger shows changes against jax 0.4.30 that no release "
        "note says in words (claim says-bye holds, output differs → holds; snippet bye prints "
        "something else): write a {release-note} 0.5.3 above {release-changes} here; python -m "
        "jaxwaits release-note 0.5.3 drafts one",
    ]


def test_a_link_to_jaxs_documentation_must_be_on_the_checked_list(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(
        "See [dispatch](https://docs.jax.dev/en/latest/async_dispatch.html).\n"
        "And [the guard](https://docs.jax.dev/en/latest/transfer_guard.html#levels), too.\n"
    )
    (tmp_path / "docs" / links_out.FILE).write_text(
        '[[link]]\nurl = "https://docs.jax.dev/en/latest/async_dispatch.html"\n'
        '[[link]]\nurl = "https://docs.jax.dev/en/latest/faq.html"\n'
    )
    assert links_out.problems(Project(tmp_path)) == [
        (
            "docs/page.md:2",
            "links https://docs.jax.dev/en/latest/transfer_guard.html#levels, which "
            "links-out.toml does not list: check it by hand and list it",
        ),
        (
            "docs/links-out.toml",
            "https://docs.jax.dev/en/latest/faq.html is linked from no page: take it out of "
            "the list",
        ),
    ]
    (tmp_path / "docs" / links_out.FILE).write_text("link = 3\n")
    ((where, message),) = links_out.problems(Project(tmp_path))
    assert where == "docs/links-out.toml" and message.startswith("not a list of [[link]] tables")
