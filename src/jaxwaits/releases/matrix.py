"""Verify many JAX releases, several at once, each into the ledger; a release that cannot be
verified (its environment cannot be made, say) is reported as that release's failure and the
others go on."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from packaging.version import Version

from jaxwaits.project import Project
from jaxwaits.releases.verify import Verified, counts, verify_release


@dataclass(frozen=True)
class MatrixRun:
    """What a matrix run found: the releases verified, and why each other one was not."""

    verified: dict[Version, Verified]
    not_verified: dict[Version, str]

    @property
    def passed(self) -> bool:
        return not self.not_verified and all(v.verification.passed for v in self.verified.values())


def run_matrix(
    project: Project,
    versions: Sequence[Version],
    backs: Mapping[str, Sequence[str]],
    say: Callable[[str], None] = print,
) -> MatrixRun:
    """Verify ``versions``, as many at once as there are cores, each running its snippets one at
    a time; say a line per release as it finishes."""
    workers = max(1, min(len(versions), os.cpu_count() or 1))
    started = time.perf_counter()
    verified: dict[Version, Verified] = {}
    not_verified: dict[Version, str] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(verify_release, project, v, backs, 1): v for v in versions}
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
            say(
                f"[{i}/{len(versions)}] jax {version} on Python {python}: "
                f"{counts(done.verification)} ({done.took()})"
            )
    seconds = time.perf_counter() - started
    say(f"{len(verified)} of {len(versions)} releases verified in {seconds:.0f} s")
    return MatrixRun(verified, not_verified)
