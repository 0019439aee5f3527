"""What the ledger says about each claim on each JAX release: one :class:`Verdict` per claim per
release and backend, with its reason, and exact release sets for readers.

A verdict is judged against the evidence as it is now: a ledger entry made with another snippet
or other outputs (another fingerprint) is *stale*; an output recorded as a known difference
counts as what a maintainer classified it as, for that claim; a release the ledger lacks is *not
verified*. Release sets are runs of consecutive releases in the universe of releases
(:mod:`jaxwaits.releases.universe`), so a release that was not verified always breaks a run.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from jaxwaits.claims.registry import Claim
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.known import BACKENDS, CLASSIFIED, CPU, Known
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.snippets import Snippet
from jaxwaits.releases.ledger import Verification
from jaxwaits.releases.universe import Universe


class Verdict(enum.Enum):
    """A claim on one release and backend: the one vocabulary for it, in the matrix, the status
    lines, the claim pages and ``cite``. Each value is a stored code (the known-difference files
    keep the classifications), never reworded; :attr:`words` is what a person reads."""

    HOLDS = "holds"  # every snippet behind it printed its recorded output
    HOLDS_OUTPUT_DIFFERS = "holds-output-differs"  # a known difference that leaves it true
    DOES_NOT_HOLD = "does-not-hold"  # a known difference that contradicts it
    NOT_OBSERVABLE = "not-observable"  # this release or backend cannot show whether it holds
    ABSENT = "absent"  # the API it is about does not exist in that release
    NOT_VERIFIED = "not-verified"  # no ledger entry, or the release does not install here
    STALE = "stale"  # the entry judged another snippet or other outputs than today's
    FAILS = "fails"  # the release printed what nobody has explained (or crashed)

    @property
    def words(self) -> str:
        """What the verdict is called where a person reads it (never "not observable", which
        reads as "does not apply": the claim may well apply, its snippets cannot tell)."""
        return _WORDS.get(self, self.value.replace("-", " "))


_WORDS = {
    Verdict.HOLDS_OUTPUT_DIFFERS: "holds, output differs",
    Verdict.NOT_OBSERVABLE: "cannot be shown",
}
# what a maintainer may say a known output means for a claim (the words the known files store)
CLASSIFICATIONS = tuple(Verdict(word) for word in CLASSIFIED)
HOLDING = (Verdict.HOLDS, Verdict.HOLDS_OUTPUT_DIFFERS)
_WORST_FIRST = (
    Verdict.FAILS,
    Verdict.STALE,
    Verdict.NOT_VERIFIED,
    Verdict.DOES_NOT_HOLD,
    Verdict.ABSENT,
    Verdict.NOT_OBSERVABLE,
    Verdict.HOLDS_OUTPUT_DIFFERS,
    Verdict.HOLDS,
)


@dataclass(frozen=True)
class ClaimVerdict:
    """A verdict, and the one line that says why (empty for a plain hold)."""

    verdict: Verdict
    why: str = ""


def classification(
    known: Known, release: str, claim_id: str, backend: str = CPU
) -> ClaimVerdict | None:
    """What a maintainer said the output ``release`` printed on ``backend`` means for the claim
    (None if nothing, or something that is not one of :data:`CLASSIFICATIONS`)."""
    output = known.for_release(release, backend)
    given = output.verdicts.get(claim_id) if output else None
    if given is None:
        return None
    verdict = next((v for v in CLASSIFICATIONS if v.value == given.verdict), None)
    return ClaimVerdict(verdict, given.why) if verdict else None


@dataclass
class Judge:
    """Verdicts on claims, from ledger entries and the snippets as they are now."""

    snippets: Mapping[str, Snippet]
    _fingerprints: dict[tuple[str, str, str], str] = field(default_factory=dict)
    _known: dict[str, Known] = field(default_factory=dict)

    def known(self, name: str) -> Known:
        if name not in self._known:
            self._known[name] = self.snippets[name].known_differences()
        return self._known[name]

    def fingerprint(self, name: str, release: str, backend: str = CPU) -> str:
        key = (name, release, backend)
        if key not in self._fingerprints:
            snippet = self.snippets[name]
            self._fingerprints[key] = snippet.fingerprint(release, self.known(name), backend)
        return self._fingerprints[key]

    def verdict(self, verification: Verification, claim: Claim) -> ClaimVerdict:
        """The claim on one verified release."""
        if verification.not_installable:
            return ClaimVerdict(Verdict.NOT_VERIFIED, verification.not_installable)
        if claim.needs and claim.needs != verification.platform.backend:
            needs, ran = (
                BACKEND_WORDS.get(b, b) for b in (claim.needs, verification.platform.backend)
            )
            return ClaimVerdict(
                Verdict.NOT_OBSERVABLE, f"only a {needs} can show it, and this run was on {ran}"
            )
        found = [self._snippet(verification, name, claim.id) for name in claim.evidence]
        if not found:
            return ClaimVerdict(Verdict.FAILS, "the claim has no evidence")
        worst = min(found, key=lambda v: _WORST_FIRST.index(v.verdict))
        reasons = [v.why for v in found if v.verdict is worst.verdict and v.why]
        return ClaimVerdict(worst.verdict, "; ".join(dict.fromkeys(reasons)))

    def _snippet(self, verification: Verification, name: str, claim_id: str) -> ClaimVerdict:
        release, backend = verification.platform.jax, verification.platform.backend
        entry = verification.snippets.get(name)
        if entry is None or name not in self.snippets:
            return ClaimVerdict(Verdict.NOT_VERIFIED, f"verified before {name} existed")
        try:
            fingerprint = self.fingerprint(name, release, backend)
            known = self.known(name)
        except JaxwaitsError as error:  # its known differences do not read: only it fails
            return ClaimVerdict(Verdict.FAILS, str(error))
        if entry.fingerprint != fingerprint:
            on = "" if backend == CPU else f" on {backend}"
            return ClaimVerdict(
                Verdict.STALE, f"{name} changed since jax {release}{on} was verified"
            )
        if not entry.outcome.passed:
            return ClaimVerdict(Verdict.FAILS, f"{name}: {entry.outcome.words}")
        if entry.outcome is Outcome.MATCHED:
            return ClaimVerdict(Verdict.HOLDS)
        given = classification(known, release, claim_id, backend)
        if given is None:
            return ClaimVerdict(Verdict.FAILS, f"{name}: a known difference nobody classified")
        return given


@dataclass(frozen=True)
class Span:
    """A run of consecutive releases (in the universe) with one verdict and reason."""

    first: str
    last: str
    verdict: ClaimVerdict
    count: int

    @property
    def releases(self) -> str:
        return self.first if self.first == self.last else f"{self.first} – {self.last}"


def per_release(
    judge: Judge, universe: Universe, verifications: Sequence[Verification], claim: Claim
) -> dict[str, ClaimVerdict]:
    """The claim's verdict on every release of the universe (CPU), verified or not."""
    by_release = {v.platform.jax: v for v in verifications if v.platform.backend == CPU}
    missing = ClaimVerdict(Verdict.NOT_VERIFIED, "no ledger entry")
    return {
        release: judge.verdict(by_release[release], claim) if release in by_release else missing
        for release in universe.with_ledger(list(by_release)).releases
    }


def spans(verdicts: Mapping[str, ClaimVerdict]) -> list[Span]:
    """Runs of consecutive releases with the same verdict and reason, oldest first."""
    found: list[Span] = []
    for release, verdict in verdicts.items():
        if found and found[-1].verdict == verdict:
            last = found[-1]
            found[-1] = Span(last.first, release, verdict, last.count + 1)
        else:
            found.append(Span(release, release, verdict, 1))
    return found


@dataclass(frozen=True)
class Elsewhere:
    """A claim's verdict on one release verified on a backend the checks do not run on (a GPU
    lent for a while, its runs judged from what was observed there)."""

    backend: str  # its stored code: "gpu"
    release: str
    device: str  # "NVIDIA H200"
    verdict: ClaimVerdict

    @property
    def where(self) -> str:
        """``GPU (NVIDIA H200, jax 0.11.2)``."""
        shown = BACKEND_WORDS.get(self.backend, self.backend)
        device = f"{self.device}, " if self.device else ""
        return f"{shown} ({device}jax {self.release})"


BACKEND_WORDS = {CPU: "CPU", "gpu": "GPU", "tpu": "TPU"}


def elsewhere(judge: Judge, verifications: Sequence[Verification], claim: Claim) -> list[Elsewhere]:
    """The claim's verdict on each release verified on another backend than CPU, by backend,
    then oldest release first."""
    return [
        Elsewhere(v.platform.backend, v.platform.jax, v.platform.device, judge.verdict(v, claim))
        for v in sorted(verifications, key=lambda v: v.platform.backend)
        if v.platform.backend != CPU and not v.not_installable
    ]


def summary(verdicts: Mapping[str, ClaimVerdict], others: Sequence[Elsewhere] = ()) -> str:
    """E.g. ``holds on CPU 0.5.1 – 0.12.0.1; does not hold on CPU 0.4.32 – 0.5.0; not verified on
    CPU 0.4.17, 0.4.16; on GPU (NVIDIA H200, jax 0.11.2): holds``: every CPU release, newest
    first, each run broken where the verdict changes and where a release was not verified (the
    reasons are the claim page's), then each release verified on another backend."""
    return "; ".join([_cpu_summary(verdicts), *([summary_elsewhere(others)] if others else [])])


def summary_elsewhere(others: Sequence[Elsewhere]) -> str:
    """E.g. ``on GPU (NVIDIA H200, jax 0.11.2): holds``."""
    return "; ".join(f"on {other.where}: {other.verdict.verdict.words}" for other in others)


def _cpu_summary(verdicts: Mapping[str, ClaimVerdict]) -> str:
    if not verdicts:
        return "not verified on any CPU release"
    runs = spans({release: ClaimVerdict(v.verdict) for release, v in verdicts.items()})
    by_verdict: dict[Verdict, list[str]] = {}
    for span in reversed(runs):
        by_verdict.setdefault(span.verdict.verdict, []).append(span.releases)
    order = sorted(by_verdict, key=lambda v: list(Verdict).index(v))
    return "; ".join(f"{v.words} on CPU {', '.join(by_verdict[v])}" for v in order)


def judge_for(snippets: Sequence[Snippet]) -> Judge:
    return Judge({snippet.name: snippet for snippet in snippets})


def unclassified(judge: Judge, claims: Iterable[Claim]) -> list[str]:
    """Each known output that lacks, for a claim its snippet backs, a verdict that is one of
    :data:`CLASSIFICATIONS` with a reason: a known difference nobody has explained yet. (A claim
    that only another backend can show needs none for an output of this one.)"""
    backs: dict[tuple[str, str], list[str]] = {}
    for claim in claims:
        for backend in BACKENDS:
            if claim.needs in (None, backend):
                for name in claim.evidence:
                    backs.setdefault((name, backend), []).append(claim.id)
    found = []
    allowed = " / ".join(v.value for v in CLASSIFICATIONS)
    for name in sorted(judge.snippets):
        try:
            known = judge.known(name)
        except JaxwaitsError as error:  # unreadable: named, and the others still looked at
            found.append(str(error))
            continue
        for output in known.outputs:
            first, backend = output.releases[0], output.backend
            on = "" if backend == CPU else f" on {backend}"
            of = f"the output of jax {', '.join(output.releases)}{on}"
            for claim_id in backs.get((name, backend), ()):
                given = output.verdicts.get(claim_id)
                if given is None or classification(known, first, claim_id, backend) is None:
                    said = f"{given.verdict!r}" if given else "nothing"
                    found.append(
                        f"{known.path}: {of} says {said} for claim {claim_id}; give it a verdict "
                        f"({allowed}) and why"
                    )
                elif not given.why.strip():
                    found.append(
                        f"{known.path}: {of} gives claim {claim_id} no why; readers are shown it"
                    )
    return found


def release_problems(claim: Claim, verdicts: Mapping[str, ClaimVerdict]) -> list[str]:
    """Where the ledger disagrees with the releases the claim declares it holds on: it must hold on
    every verified release from ``since`` to ``until`` (all of them when it declares neither),
    and not hold on the verified releases outside, the releases either side of each boundary
    verified; and each release where its evidence failed or was judged on other evidence than
    today's, which must be verified again."""
    releases = list(verdicts)
    problems = [
        f"claim {claim.id} {span.verdict.verdict.words} on jax {span.releases} "
        f"({span.verdict.why}): verify {'it' if span.count == 1 else 'them'} again "
        f"(nox -s matrix -- {span.first}{'' if span.count == 1 else ' …'}), or record what "
        "is printed there"
        for span in spans(verdicts)
        if span.verdict.verdict in (Verdict.FAILS, Verdict.STALE)
    ]
    for bound in (claim.since, claim.until):
        if bound is not None and bound not in verdicts:
            return [*problems, f"claim {claim.id}: {bound} is no release the site knows"]
    start = releases.index(claim.since) if claim.since else 0
    stop = releases.index(claim.until) if claim.until else len(releases) - 1
    for i, release in enumerate(releases):
        verdict = verdicts[release]
        inside = start <= i <= stop
        if inside and verdict.verdict in (Verdict.DOES_NOT_HOLD, Verdict.ABSENT):
            declared = _declared(claim)
            problems.append(
                f"claim {claim.id} {verdict.verdict.words} on jax {release} ({verdict.why}), "
                f"inside {declared}: re-word it, or declare :since: / :until:"
            )
        if not inside and verdict.verdict in HOLDING:
            problems.append(
                f"claim {claim.id} holds on jax {release}, outside {_declared(claim)}: the "
                "boundary is wrong"
            )
    for bound, neighbour in ((claim.since, start - 1), (claim.until, stop + 1)):
        if bound is None:
            continue
        if not 0 <= neighbour < len(releases):
            problems.append(f"claim {claim.id}: {bound} is no boundary, nothing lies beyond it")
            continue
        beyond = verdicts[releases[neighbour]].verdict
        if beyond not in (Verdict.DOES_NOT_HOLD, Verdict.ABSENT):
            problems.append(
                f"claim {claim.id}: its boundary at {bound} rests on jax {releases[neighbour]}, "
                f"whose verdict is {beyond.words!r}, not verified not to hold"
            )
    return problems


def _declared(claim: Claim) -> str:
    if claim.releases:
        return f"the releases it declares ({claim.releases})"
    return "the releases it declares (every one: it declares no :since: or :until:)"
