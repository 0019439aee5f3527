"""Verify many JAX releases, several at once, each into the ledger: by default every release of
the universe but the ones ``[tool.jaxwaits] skip`` names. A release that cannot be installed is
saved as such; one that cannot be verified for another reason is reported as that release's
failure, and the others go on."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from packaging.version import Version

from jaxwaits.evidence.known import Known
from jaxwaits.evidence.snippets import Snippet, load_snippets
from jaxwaits.pieces import manifest
from jaxwaits.project import Project
from jaxwaits.releases import ledger, universe
from jaxwaits.releases.ledger import Verification
from jaxwaits.releases.verify import Verified, counts, verify_release


@dataclass(frozen=True)
class MatrixRun:
    """What a matrix run found: the releases verified, and why each other one was not."""

    verified: dict[Version, Verified]
    not_verified: dict[Version, str]

    @property
    def passed(self) -> bool:
        """Every release verified and passing, or recorded as not installable here (a fact about
        the package index, not a failure of the evidence)."""
        return not self.not_verified and all(
            v.verification.passed or v.verification.not_installable for v in self.verified.values()
        )


def run_matrix(
    project: Project,
    releases: Mapping[Version, Set[str] | None],
    backs: Mapping[str, Sequence[str]],
    say: Callable[[str], None] = print,
    record_known: Set[str] = frozenset(),
) -> MatrixRun:
    """Verify ``releases`` (each whole, or only the snippets named), as many at once as there are
    cores, each running its snippets one at a time; say a line per release as it finishes.
    Known differences of the snippets in ``record_known`` are recorded as they run
    (:func:`jaxwaits.releases.verify.verify`)."""
    versions = sorted(releases)
    workers = max(1, min(len(versions), os.cpu_count() or 1))
    started = time.perf_counter()
    verified: dict[Version, Verified] = {}
    not_verified: dict[Version, str] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(verify_release, project, v, backs, 1, releases[v], record_known, say): v
            for v in versions
        }
        for i, future in enumerate(as_completed(futures), start=1):
            version = futures[future]
            try:
                done = future.result()
            except Exception as error:  # one release's failure must not stop the others
                not_verified[version] = f"{type(error).__name__}: {error}"
                say(f"[{i}/{len(versions)}] jax {version}: NOT verified: {error}")
                continue
            verified[version] = done
            python = done.verification.platform.python
            where = f"jax {version} on Python {python}" if python else f"jax {version}"
            say(f"[{i}/{len(versions)}] {where}: {counts(done.verification)} ({done.took()})")
    seconds = time.perf_counter() - started
    unable = sum(1 for done in verified.values() if done.verification.not_installable)
    said = f" ({unable} not installable here)" if unable else ""
    say(f"{len(verified)} of {len(versions)} releases done{said} in {seconds:.0f} s")
    return MatrixRun(verified, not_verified)


def plan(
    project: Project, verifications: Sequence[Verification], *, stale: bool
) -> dict[str, frozenset[str] | None]:
    """What a matrix run verifies by default, release by release: every release of the universe
    but those skipped, each whole (None). With ``stale``, only releases with no ledger entry
    (whole) and, of the others, only the snippets whose entries are missing or judged other
    evidence than today's, and those whose vendored pieces were judged against another manifest
    than today's (with no snippet to run, the pieces alone are checked again)."""
    releases = [r for r in universe.load(project).releases if r not in project.skip]
    if not stale:
        return dict.fromkeys(releases)
    entries = {v.platform.jax: v for v in verifications if v.platform.backend == "cpu"}
    again = _Stale(project)
    found: dict[str, frozenset[str] | None] = {}
    for release in releases:
        if release not in entries:
            found[release] = None
        elif (names := again(entries[release])) is not None:
            found[release] = names
    return found


def stale(project: Project, verification: Verification) -> frozenset[str] | None:
    """What of one release's entry must be verified again: the snippets to run (none: only the
    vendored pieces, judged against another manifest than today's), or None if it is current."""
    return _Stale(project)(verification)


class _Stale:
    """Today's evidence and manifest, against which an entry is current or stale."""

    def __init__(self, project: Project) -> None:
        self.snippets = load_snippets(project.snippets)
        self.known = {snippet.name: snippet.known_differences() for snippet in self.snippets}
        folder = project.annotated_src
        self.manifest = manifest.load(folder) if (folder / manifest.FILE).exists() else None

    def __call__(self, verification: Verification) -> frozenset[str] | None:
        names = _stale(self.snippets, self.known, verification)
        pieces = self.manifest is not None and ledger.stale_pieces(self.manifest, verification)
        return names if names or pieces else None


def only(
    planned: Mapping[str, frozenset[str] | None], names: Set[str]
) -> dict[str, frozenset[str] | None]:
    """A plan cut down to the snippets named: each release runs those of them it ran (all of
    them where it ran every snippet), and a release left with none is dropped."""
    named = frozenset(names)
    cut = {release: named if ran is None else ran & named for release, ran in planned.items()}
    return {release: ran for release, ran in cut.items() if ran}


def _stale(
    snippets: Sequence[Snippet], known: Mapping[str, Known], verification: Verification
) -> frozenset[str]:
    """The snippets whose entries for this release are missing or stale."""
    if verification.not_installable:
        return frozenset()
    release = verification.platform.jax
    return frozenset(
        s.name
        for s in snippets
        if s.name not in verification.snippets
        or verification.snippets[s.name].fingerprint != s.fingerprint(release, known[s.name])
    )
