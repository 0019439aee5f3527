"""Every JAX release the site answers for: the manifest's list of releases since its first one
(yanked ones included, and marked), kept current by ``python -m jaxwaits provenance --refresh``
and read offline. The ledger is judged against it: a release in it with no ledger entry is "not
run", never skipped over."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from jaxwaits.pieces import manifest
from jaxwaits.project import Project


@dataclass(frozen=True)
class Universe:
    releases: tuple[str, ...]  # oldest first
    yanked: frozenset[str]

    def with_ledger(self, verified: list[str]) -> Universe:
        """Also the releases the ledger holds that the list lacks (a newer one, say)."""
        extra = sorted(set(verified) - set(self.releases), key=Version)
        merged = tuple(sorted({*self.releases, *extra}, key=Version))
        return Universe(merged, self.yanked)


def of(recorded: manifest.Manifest | None) -> Universe:
    """The releases since the manifest's first one (none without a manifest: then the ledger's
    releases are all it knows)."""
    if recorded is None:
        return Universe((), frozenset())
    return Universe(tuple(recorded.releases), frozenset(recorded.yanked))


def load(project: Project) -> Universe:
    """The universe of the committed manifest (none for a project that vendors nothing)."""
    if not (project.annotated_src / manifest.FILE).exists():
        return Universe((), frozenset())
    return of(manifest.load(project.annotated_src))
