"""The claims index a wheel carries, so that ``cite`` and ``claims`` answer where there is no
checkout (``pip install jaxwaits``): the claims, each one's verdict on every release (CPU) and on
each release verified on another backend, and where the site release is published. ``setup.py``
writes it from the checkout a wheel is built from; in a checkout the command line makes the same
index from the checkout itself, so both print from one kind of value, and a test builds the
wheel and compares what each prints."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from jaxwaits import files
from jaxwaits.chain import facts, verdicts
from jaxwaits.chain.verdicts import ClaimVerdict, Elsewhere, Verdict
from jaxwaits.claims.registry import Claim, Registry
from jaxwaits.claims.scope import Scope
from jaxwaits.errors import JaxwaitsError
from jaxwaits.project import Project

FILE = "claims.json"  # beside this module in the wheel
FORMAT = 2  # what a reader of the file expects; the writer and the reader are one release


@dataclass(frozen=True)
class Index:
    """What ``cite`` and ``claims`` print from; claims' files are relative to the checkout."""

    version: str  # the site release it was made from ([project] version)
    site_url: str
    release_url: str
    registry: Registry  # the claims alone
    releases: list[str]  # the universe's, oldest first
    verdicts: dict[str, dict[str, ClaimVerdict]]  # claim ID -> release -> verdict (CPU)
    elsewhere: dict[str, list[Elsewhere]]  # claim ID -> its verdicts on other backends

    def site(self, *, latest: bool) -> str:
        """Where links point: this site release, or with ``latest`` the newest build."""
        return self.site_url if latest else self.release_url


def of(found: facts.Facts) -> Index:
    """The index of a checkout's facts."""
    project = found.project
    claims = {
        claim.id: replace(claim, file=Path(project.relative(claim.file)))
        for claim in found.registry.claims.values()
    }
    return Index(
        project.version,
        project.site_url,
        project.release_url,
        Registry(claims, (), (), ()),
        found.releases,
        found.verdicts,
        found.elsewhere,
    )


def dumps(index: Index) -> str:
    claims = {
        claim.id: {
            "statement": claim.statement,
            "evidence": list(claim.evidence),
            "rests-on": claim.rests_on,
            "renamed-from": list(claim.renamed_from),
            "file": claim.file.as_posix(),
            "line": claim.line,
            "sources": list(claim.sources),
            "since": claim.since,
            "until": claim.until,
            "scope": {axis: list(values) for axis, values in claim.scope.values},
            "verdicts": [
                [run.first, run.last, run.verdict.verdict.value, run.verdict.why]
                for run in verdicts.spans(index.verdicts[claim.id])
            ],
            "elsewhere": [
                [e.backend, e.release, e.device, e.verdict.verdict.value, e.verdict.why]
                for e in index.elsewhere[claim.id]
            ],
        }
        for claim in sorted(index.registry.claims.values(), key=lambda c: c.id)
    }
    top = {
        "format": FORMAT,
        "version": index.version,
        "site-url": index.site_url,
        "release-url": index.release_url,
        "releases": index.releases,
        "claims": claims,
    }
    return json.dumps(top, ensure_ascii=False, indent=1) + "\n"


def loads(text: str) -> Index:
    """The index in ``text``; an error if it is not one this release writes."""
    try:
        top = json.loads(text)
        if top["format"] != FORMAT:
            raise ValueError(f"format {top['format']!r}, not {FORMAT}")
        releases = [str(release) for release in top["releases"]]
        claims = {key: _claim(key, value) for key, value in top["claims"].items()}
        found = {
            key: _verdicts(releases, value["verdicts"]) for key, value in top["claims"].items()
        }
        others = {key: _elsewhere(value["elsewhere"]) for key, value in top["claims"].items()}
        return Index(
            str(top["version"]),
            str(top["site-url"]),
            str(top["release-url"]),
            Registry(claims, (), (), ()),
            releases,
            found,
            others,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise JaxwaitsError(f"the packaged claims index cannot be read: {error!r}") from None


def _claim(claim_id: str, value: dict[str, Any]) -> Claim:
    return Claim(
        id=claim_id,
        statement=str(value["statement"]),
        evidence=tuple(value["evidence"]),
        rests_on=value["rests-on"],
        renamed_from=tuple(value["renamed-from"]),
        file=Path(value["file"]),
        line=int(value["line"]),
        sources=tuple(value["sources"]),
        since=value["since"],
        until=value["until"],
        scope=Scope(tuple((axis, tuple(values)) for axis, values in value["scope"].items())),
    )


def _verdicts(releases: list[str], runs: list[list[str]]) -> dict[str, ClaimVerdict]:
    """Runs of releases with one verdict (first, last, code, why) as a verdict per release."""
    found = {}
    for first, last, code, why in runs:
        verdict = ClaimVerdict(Verdict(code), why)
        found |= dict.fromkeys(releases[releases.index(first) : releases.index(last) + 1], verdict)
    if list(found) != releases:
        raise ValueError("the verdicts' runs do not cover the releases, in order")
    return found


def _elsewhere(rows: list[list[str]]) -> list[Elsewhere]:
    """Verdicts on other backends (backend, release, device, code, why)."""
    return [
        Elsewhere(str(backend), str(release), str(device), ClaimVerdict(Verdict(code), str(why)))
        for backend, release, device, code, why in rows
    ]


def write(project: Project, package: Path) -> Path:
    """Write the checkout's index into the ``jaxwaits`` package below ``package`` (a wheel's
    build folder, an sdist's ``src``)."""
    path = package / "jaxwaits" / "chain" / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_atomic(path, dumps(of(facts.load(project))))
    return path


def carried() -> Index | None:
    """The index this installed jaxwaits carries (None where it carries none: a checkout's
    source, an editable install)."""
    try:
        text = (resources.files(__package__) / FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return loads(text)
