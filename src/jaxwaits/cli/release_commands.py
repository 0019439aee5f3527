"""``verify``, ``matrix``, ``verify-latest``, ``release-note`` and ``summary``: the releases of
JAX verified, the ledger written, and what follows from it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from packaging.version import Version

from jaxwaits.chain import facts, notes, verdicts
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.project import Project
from jaxwaits.releases import environments, index, ledger, matrix, observed, universe, verify


def _unclassified(project: Project) -> list[str]:
    """Each known output still waiting for a maintainer's verdict (it fails verify and claims)."""
    judge = verdicts.judge_for(load_snippets(project.snippets))
    return verdicts.unclassified(judge, facts.registry(project).claims.values())


def _verify(project: Project, args: argparse.Namespace) -> int:
    backs = facts.registry(project).backs()
    if args.observed:
        return _verify_observed(project, args, backs)
    if args.python and args.version:
        raise JaxwaitsError("give a release or --python, not both")
    if args.observe and not args.python:
        raise JaxwaitsError("--observe runs on the interpreter given with --python")
    if args.fresh and not args.observe:
        raise JaxwaitsError("--fresh goes with --observe")
    if args.observe:
        return _observe(project, args, backs)
    if args.python:
        python = args.python
    else:
        version = index.require(args.version) if args.version else index.newest_jax()
        python = environments.ensure(version, project.root)
    started = time.perf_counter()
    verification = verify.verify(
        project, python, backs, args.jobs, record_known=set(args.record_known or ()), say=print
    )
    said = f"jax {verification.platform.jax}: verified in {time.perf_counter() - started:.0f} s"
    return _saved(project, verification, said)


def _saved(project: Project, verification: ledger.Verification, said: str) -> int:
    """Save a verification into the ledger and report it: its counts, each failure, and each
    known output still waiting for a verdict."""
    ledger.save(verification, project.verified)
    print(said)
    print(verify.counts(verification))
    unexplained = _unclassified(project)
    print("\n".join([*verify.failures(verification), *unexplained]))
    return 0 if verification.passed and not unexplained else 1


def _observe(project: Project, args: argparse.Namespace, backs: verify.Backs) -> int:
    """Run every snippet both ways on a machine the checks do not run on, and save what it
    showed; the ledger file is judged from that file (``verify --observed``)."""
    command = " ".join(["python -m jaxwaits", *sys.argv[1:]])
    found = observed.observe(project, args.python, args.jobs, command, fresh=args.fresh)
    observed.save(found, Path(args.observe))
    verification = verify.judge_observed(project, found, backs)
    print(
        f"{found.platform.describe()}: observed in {found.seconds:.0f} s, saved in {args.observe}"
    )
    print(verify.counts(verification))
    return 0


def _verify_observed(project: Project, args: argparse.Namespace, backs: verify.Backs) -> int:
    if args.python or args.version or args.observe:
        raise JaxwaitsError("--observed judges a file: give no release, --python or --observe")
    found = observed.read(Path(args.observed))
    verification = verify.judge_observed(
        project, found, backs, set(args.record_known or ()), say=print
    )
    said = f"{found.platform.describe()}: judged from {args.observed}, observed {found.made_on}"
    return _saved(project, verification, said)


def _matrix(project: Project, args: argparse.Namespace) -> int:
    if args.versions:
        asked: dict[str, frozenset[str] | None] = dict.fromkeys(args.versions)
    else:
        asked = matrix.plan(project, ledger.read(project.verified)[0], stale=args.stale)
    if args.record_known:
        named = {s.name for s in load_snippets(project.snippets, args.record_known)}
        asked = matrix.only(asked, named)
    releases = {index.require(v): names for v, names in asked.items()}
    if args.list:
        print(json.dumps([str(v) for v in sorted(releases)]))
        return 0
    found = matrix.run_matrix(
        project, releases, facts.registry(project).backs(), record_known=set(args.record_known)
    )
    unexplained = _unclassified(project)
    print("\n".join(unexplained))
    return 0 if found.passed and not unexplained else 1


def _verify_latest(project: Project, args: argparse.Namespace) -> int:
    """Verify the newest JAX on the index unless its ledger entry is current, then say what to
    do next: each failure's fix, the pin, and a draft release note."""
    newest = str(index.newest_jax())
    kept = next(
        (
            v
            for v in ledger.load(project.verified)
            if (v.platform.jax, v.platform.backend) == (newest, "cpu")
        ),
        None,
    )
    again = _to_verify_again(project, kept) if kept is not None else None
    found = facts.registry(project)
    if kept is not None and again is None:
        print(f"jax {newest}, the newest release, is in the ledger and current: nothing to verify")
        verification = kept
    else:
        if again is not None:
            what = f"{len(again)} snippet(s) and its" if again else "its"
            print(
                f"jax {newest} is in the ledger, but stale or failing: verifying {what} "
                "vendored pieces again",
                flush=True,
            )
        else:
            print(f"jax {newest}: verifying (an environment, then every snippet twice)", flush=True)
        done = verify.verify_release(project, Version(newest), found.backs(), None, again)
        print(f"jax {newest}: {verify.counts(done.verification)} ({done.took()})")
        verification = done.verification
    print("\n".join(verify.failures(verification)))
    print("\n".join(_next_steps(project, verification)))
    return 0 if verification.passed else 1


def _to_verify_again(project: Project, kept: ledger.Verification) -> frozenset[str] | None:
    """What of a release's entry to verify again: the stale snippets and the failed ones (a
    failure may have been mended, or may not happen again), with the pieces; None: nothing."""
    stale = matrix.stale(project, kept)
    failed = frozenset(n for n, e in kept.snippets.items() if not e.outcome.passed)
    failed_pieces = any(not e.outcome.passed for e in kept.pieces.values())
    if stale is None and not failed and not failed_pieces:
        return None
    return (stale or frozenset()) | failed


def _next_steps(project: Project, verification: ledger.Verification) -> list[str]:
    """What a maintainer does next with a verified release, each step its command."""
    release = verification.platform.jax
    if release not in universe.load(project).releases:
        mend = "" if verification.passed else "; then mend each snippet's failure as it says"
        return [
            f"next: first record jax {release} in the manifest (python -m jaxwaits provenance "
            f"--refresh), then run nox -s verify-latest again{mend} (README, 'When JAX "
            "releases', steps 2 and 3)"
        ]
    if not verification.passed:
        return [
            "next: mend each failure above as it says, then run nox -s verify-latest again (it "
            "verifies again only what is stale); the README's 'When JAX releases' has the rest"
        ]
    steps = []
    pinned = project.pinned_jax()
    if Version(release) > Version(pinned):
        outcomes = {entry.outcome for entry in verification.snippets.values()}
        if outcomes <= {Outcome.MATCHED}:
            steps.append(
                f"pin: every snippet printed its recorded output on jax {release}: move the pin "
                f"in pyproject.toml from jax=={pinned} to jax=={release} (and jaxlib); nothing "
                "to re-record"
            )
        else:
            steps.append(
                f"pin: some snippets print on jax {release} what is recorded as its known "
                "output: move the pin only if that output is right for the releases to come "
                "(README, 'When JAX releases')"
            )
    steps.append(notes.draft(facts.load(project), release))
    return steps


def _release_note(project: Project, args: argparse.Namespace) -> int:
    found = facts.load(project)
    if args.release not in found.releases:
        raise JaxwaitsError(
            f"{args.release!r} is not a release the manifest or the ledger knows (from "
            f"{found.releases[0]} to {found.releases[-1]}); python -m jaxwaits summary lists them"
        )
    print(notes.draft(found, args.release))
    return 0


def _summary(project: Project, args: argparse.Namespace) -> int:
    verifications = ledger.load(project.verified)
    for verification in verifications:
        backend = verification.platform.backend
        on = "" if backend == "cpu" else f" on {verification.platform.describe()}"
        print(f"- jax {verification.platform.jax}{on}: {verify.counts(verification)}")
    cpu = [v for v in verifications if v.platform.backend == "cpu"]
    if cpu:
        print(notes.release_note(project, facts.registry(project), cpu[-1]))
    return 0 if all(v.passed for v in verifications) else 1


HANDLERS: dict[str, Callable[..., int]] = {
    "verify": _verify,
    "matrix": _matrix,
    "verify-latest": _verify_latest,
    "release-note": _release_note,
    "summary": _summary,
}
