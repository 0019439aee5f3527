"""Verify one JAX release: run every snippet on it, check the vendored pieces against it, and
write what it showed into the ledger."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, replace

from packaging.version import Version

from jaxwaits.evidence import record
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.report import describe, diff
from jaxwaits.evidence.runner import Result, judge, run_on
from jaxwaits.evidence.snippets import load_snippets, read_snippet
from jaxwaits.pieces import drift
from jaxwaits.project import Project
from jaxwaits.releases import environments, ledger, universe
from jaxwaits.releases.ledger import PieceEntry, SnippetEntry, Verification
from jaxwaits.releases.observed import Observed, source_hash

Backs = Mapping[str, Sequence[str]]  # snippet name -> the claims it backs


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def snippet_entry(
    result: Result, release: str, backs: Sequence[str], fix: str | None, backend: str = "cpu"
) -> SnippetEntry:
    """The ledger's entry: the outcome, with the diff from the recorded output for a known
    difference and the full report for a failure; the fingerprint of what was judged; a hash of
    what was printed."""
    outcome = result.outcome
    run = result.failed_run
    printed = _hash(run.stdout) if run is not None and outcome.passed else ""
    fingerprint = result.snippet.fingerprint(release, backend=backend)
    if outcome is Outcome.MATCHED:
        return SnippetEntry(outcome, "", fingerprint, printed)
    if outcome is Outcome.MATCHED_KNOWN:
        recorded = result.snippet.recorded() or ""
        change = diff(recorded, result.runs[0].stdout, "recorded", "this release")
        return SnippetEntry(outcome, change, fingerprint, printed)
    return SnippetEntry(outcome, describe(result, None, backs, fix), fingerprint, printed)


def verify(
    project: Project,
    python: str,
    backs: Mapping[str, Sequence[str]],
    jobs: int | None = None,
    only: Set[str] | None = None,
    record_known: Set[str] = frozenset(),
    say: Callable[[str], None] = lambda line: None,
) -> Verification:
    """What every snippet printed on ``python``'s JAX, and how each vendored piece compares
    (``backs``: the claims of each snippet, for the reports). With ``only``, just those snippets
    run, and the others keep the entries the ledger holds for that release.

    Snippets run in children of templates; each is also run once in a fresh interpreter, unless
    the ledger already saw both ways agree on this release for what it prints now. A snippet
    that prints otherwise in a fresh interpreter fails, with the difference.

    A snippet named in ``record_known`` whose two runs, the template's child and the fresh
    interpreter, ran cleanly and printed the same has what it printed recorded as this
    release's known difference first (on any release but the pinned one), then judged against
    it; ``say`` is told what was recorded and what waits for a verdict."""
    snippets = [s for s in load_snippets(project.snippets) if only is None or s.name in only]
    results, platform = run_on(snippets, python=python, jobs=jobs)
    kept = ledger.read(project.verified)[0]
    before = next((v.snippets for v in kept if v.platform == platform), {})
    entries = {}
    if only is not None:
        names = {s.name for s in load_snippets(project.snippets)}
        entries = {n: e for n, e in before.items() if n in names and n not in only}
    now = {}
    for result in results:
        name = result.snippet.name
        fix = None
        if platform.jax != project.pinned_jax():
            fix = (
                f"record it as a known difference of jax {platform.jax}: "
                f"nox -s verify -- {platform.jax} --record-known {name}"
            )
        now[name] = snippet_entry(result, platform.jax, backs.get(name, ()), fix, platform.backend)
    unchecked = [
        r.snippet
        for r in results
        if not _seen_agreeing(before.get(r.snippet.name), now[r.snippet.name])
    ]
    recording = platform.jax != project.pinned_jax()
    if record_known and not recording:
        say(f"jax {platform.jax} is the pinned release: its outputs are recorded by `record`")
    unchecked += [r.snippet for r in results if recording and r.snippet.name in record_known]
    unchecked = list({s.name: s for s in unchecked}.values())
    again = run_on(unchecked, python=python, jobs=jobs, fresh=True)[0] if unchecked else []
    fresh = {result.snippet.name: result for result in again}
    for result in results:
        name = result.snippet.name
        if recording and name in record_known:
            result = _recorded(result, fresh[name], platform, backs, say)
            now[name] = snippet_entry(
                result, platform.jax, backs.get(name, ()), None, platform.backend
            )
        entries[name] = _both_ways(now[name], result, fresh.get(name))
    _, pieces_found = drift.check(project, python)
    pieces = {v.piece: PieceEntry(v.outcome, v.message) for v in pieces_found}
    yanked = platform.jax in universe.load(project).yanked
    return Verification(platform, entries, pieces, yanked=yanked)


def _recorded(
    result: Result,
    fresh: Result,
    platform: Platform,
    backs: Mapping[str, Sequence[str]],
    say: Callable[[str], None],
) -> Result:
    """The template's run, judged again once what it printed is recorded as a known difference
    of this release: only when the fresh run agrees with it, so two clean runs agree."""
    ours, theirs = result.runs[0], fresh.runs[0] if fresh.runs else None
    if theirs is None or ours.failure or theirs.failure or ours.stdout != theirs.stdout:
        say(f"{result.snippet.name}: jax {platform.jax}: NOT recorded (the two runs disagree)")
        return result
    both = judge(result.snippet, (ours, theirs), platform.jax, platform.backend)
    lines, _ = record.apply([both], platform, known=True, backs=backs)
    for line in lines:
        say(line)
    return judge(read_snippet(result.snippet.path), (ours,), platform.jax, platform.backend)


def _seen_agreeing(before: SnippetEntry | None, now: SnippetEntry) -> bool:
    """Whether the ledger saw both ways print, on this release, what the snippet printed now."""
    return (
        before is not None
        and before.same_when_fresh
        and bool(now.printed)
        and (before.fingerprint, before.printed) == (now.fingerprint, now.printed)
    )


def _both_ways(entry: SnippetEntry, result: Result, fresh: Result | None) -> SnippetEntry:
    """The entry, marked as seen the same in a fresh interpreter; or a failure saying how the
    fresh interpreter differed."""
    if fresh is None:  # seen agreeing before
        return replace(entry, same_when_fresh=True)
    ours, theirs = result.failed_run, fresh.failed_run
    if ours is None or theirs is None:
        return entry  # did not run (invalid settings): nothing to compare
    if (ours.stdout, ours.failure) == (theirs.stdout, theirs.failure):
        return replace(entry, same_when_fresh=True)
    change = diff(ours.stdout, theirs.stdout, "in a template's child", "in a fresh interpreter")
    said = f"in a template's child: {result.outcome.words}; fresh: {fresh.outcome.words}\n"
    fix = _SPLIT_FIX.format(name=result.snippet.name)
    return SnippetEntry(Outcome.SPLIT, said + change + fix, entry.fingerprint, "")


# No known output can be recorded while the two ways disagree: the fix is the snippet's.
_SPLIT_FIX = (
    "no known output can be recorded while the two ways disagree. Run it again both ways on "
    "this release (python -m jaxwaits run --python PYTHON --repeat 5 {name}, then with --fresh): "
    "a line that varies is a margin inside this machine's noise (widen it, keeping the "
    "snippet's mutant in tests/test_snippets_can_fail.py failing it); a line that differs every "
    "time depends on how the snippet runs, which its claim must say or the snippet remove\n"
)


def judge_observed(
    project: Project,
    observed: Observed,
    backs: Mapping[str, Sequence[str]],
    record_known: Set[str] = frozenset(),
    say: Callable[[str], None] = lambda line: None,
) -> Verification:
    """The ledger file of a release and backend the checks do not run on, judged from what was
    observed there (:mod:`jaxwaits.releases.observed`) against the snippets and known
    differences as they are now. A snippet whose text changed since it ran there has no entry
    (its claims are not verified there), and ``say`` names it. ``record_known``: as in
    :func:`verify`, from the two runs observed; on a backend other than CPU an output named
    there is kept even where it is the recorded text, for a maintainer to say what it means."""
    platform = observed.platform
    backend = platform.backend
    entries = {}
    for snippet in load_snippets(project.snippets):
        name = snippet.name
        runs = observed.runs.get(name)
        if not runs:
            say(f"{name}: not observed on {platform.describe()}")
            continue
        if observed.sources[name] != source_hash(snippet):
            say(f"{name}: changed since it ran on {platform.describe()}: run it there again")
            continue
        child, fresh = (judge(snippet, (run,), platform.jax, backend) for run in runs[:2])
        if name in record_known:
            child = _recorded(child, fresh, platform, backs, say)
            fresh = judge(read_snippet(snippet.path), runs[1:2], platform.jax, backend)
        entry = snippet_entry(child, platform.jax, backs.get(name, ()), None, backend)
        entries[name] = _both_ways(entry, child, fresh)
    pieces = {
        name: PieceEntry(outcome, detail) for name, (outcome, detail) in observed.pieces.items()
    }
    yanked = platform.jax in universe.load(project).yanked
    return Verification(platform, entries, pieces, yanked=yanked)


@dataclass(frozen=True)
class Verified:
    """A release verified and saved into the ledger, and how long each part took."""

    verification: Verification
    environment_seconds: float
    check_seconds: float

    def took(self) -> str:
        return f"env {self.environment_seconds:.0f} s, checks {self.check_seconds:.0f} s"


def verify_release(
    project: Project,
    version: Version,
    backs: Mapping[str, Sequence[str]],
    jobs: int | None,
    only: Set[str] | None = None,
    record_known: Set[str] = frozenset(),
    say: Callable[[str], None] = lambda line: None,
) -> Verified:
    """Make (or reuse) the release's environment, verify it there (recording the known
    differences of ``record_known``, as :func:`verify` does) and save the result. A release that
    cannot be installed is saved as such, with why."""
    started = time.perf_counter()
    try:
        python = environments.ensure(version, project.root)
    except environments.NotInstallable as reason:
        platform = Platform(jax=str(version), jaxlib="", python="", backend="cpu")
        yanked = str(version) in universe.load(project).yanked
        verification = Verification(platform, yanked=yanked, not_installable=str(reason))
        ledger.save(verification, project.verified)
        return Verified(verification, time.perf_counter() - started, 0.0)
    made = time.perf_counter()
    verification = verify(project, python, backs, jobs, only, record_known, say)
    ledger.save(verification, project.verified)
    return Verified(verification, made - started, time.perf_counter() - made)


def counts(verification: Verification) -> str:
    """``ok: 3 identical, 29 matched`` or ``FAILED: ...``: how many of each outcome."""
    if verification.not_installable:
        return f"not installable here: {verification.not_installable}"
    found: dict[str, int] = {}
    for entry in [*verification.snippets.values(), *verification.pieces.values()]:
        found[entry.outcome.words] = found.get(entry.outcome.words, 0) + 1
    told = ", ".join(f"{n} {outcome}" for outcome, n in sorted(found.items()))
    return f"{'ok' if verification.passed else 'FAILED'}: {told}"


def failures(verification: Verification) -> list[str]:
    """Each snippet or piece that failed on the release, with its report."""
    entries = [*verification.snippets.items(), *verification.pieces.items()]
    return [
        f"{name}: {entry.outcome.words}\n{entry.detail}"
        for name, entry in entries
        if not entry.outcome.passed
    ]
