"""Verify many JAX releases, several at once, and write each result into the ledger."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed

from packaging.version import Version

from jaxwaits.project import Project
from jaxwaits.releases import environments as jaxenv
from jaxwaits.releases import ledger
from jaxwaits.releases.verify import verify


def verify_release(
    project: Project, version: Version, jobs: int
) -> tuple[ledger.Verification, str]:
    """Make (or reuse) the release's environment, verify it, save the result; say how long."""
    started = time.perf_counter()
    python = jaxenv.ensure(version, project.root)
    made = time.perf_counter()
    verification = verify(project, python, jobs=jobs)
    ledger.save(verification, project.verified)
    done = time.perf_counter()
    return verification, f"env {made - started:.0f} s, checks {done - made:.0f} s"


def describe(verification: ledger.Verification) -> str:
    counts: dict[str, int] = {}
    for outcome in [*verification.snippets.values(), *verification.pieces.values()]:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    told = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return f"{'ok' if verification.passed else 'FAILED'}: {told}"


def run_matrix(
    project: Project, versions: Sequence[Version], say: Callable[[str], None] = print
) -> list[ledger.Verification]:
    """Verify ``versions``, as many at once as there are cores, each running its snippets one at
    a time; print a line per release as it finishes."""
    workers = max(1, min(len(versions), os.cpu_count() or 1))
    started = time.perf_counter()
    found: list[ledger.Verification] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(verify_release, project, v, 1): v for v in versions}
        for i, future in enumerate(as_completed(futures), start=1):
            version = futures[future]
            try:
                verification, took = future.result()
            except Exception as error:  # one release's broken environment must not stop the rest
                say(f"[{i}/{len(versions)}] jax {version}: could not verify: {error}")
                continue
            found.append(verification)
            say(
                f"[{i}/{len(versions)}] jax {version} on Python {verification.platform.python}: "
                f"{describe(verification)} ({took})"
            )
    took = time.perf_counter() - started
    say(f"{len(found)} of {len(versions)} releases verified in {took:.0f} s")
    return found
