"""The ledger: what each verified JAX release showed, one JSON file per release and backend in
``docs/verified/``, and what follows from it for each claim.

A file records, per snippet, ``matched`` (its recorded output), ``known difference`` (the output
recorded for that release in ``snippets/known/``), or a failure with its diff or reason; and per
vendored piece, what the drift check found.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from packaging.version import InvalidVersion, Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.platform import Platform
from jaxwaits.files import write_atomic

MATCHED = "matched"
KNOWN = "known difference"
# A vendored piece passes when upstream is identical or differs exactly as the manifest records.
IDENTICAL, AS_RECORDED, ABSENT = "identical", "differs as recorded", "absent as recorded"
UNRECORDED = "unrecorded change"
PASSING = {MATCHED, KNOWN, IDENTICAL, AS_RECORDED, ABSENT}


@dataclass(frozen=True)
class Outcome:
    """What one snippet or piece showed on one release."""

    status: str
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.status in PASSING


@dataclass(frozen=True)
class Verification:
    """One release, one backend: every snippet's and every vendored piece's outcome."""

    platform: Platform
    snippets: dict[str, Outcome] = field(default_factory=dict)
    pieces: dict[str, Outcome] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        outcomes = [*self.snippets.values(), *self.pieces.values()]
        return all(outcome.passed for outcome in outcomes)

    @property
    def filename(self) -> str:
        return f"jax-{self.platform.jax}-{self.platform.backend}.json"

    def to_json(self) -> str:
        data = {
            "platform": self.platform.as_dict(),
            "snippets": {k: vars(v) for k, v in sorted(self.snippets.items())},
            "pieces": {k: vars(v) for k, v in sorted(self.pieces.items())},
        }
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Verification:
        data = json.loads(text)
        return cls(
            Platform(**data["platform"]),
            {k: Outcome(**v) for k, v in data["snippets"].items()},
            {k: Outcome(**v) for k, v in data["pieces"].items()},
        )


def read_file(path: Path) -> Verification:
    """One ledger file; one that cannot be read as written by ``save`` raises, naming it."""
    try:
        verification = Verification.from_json(path.read_text(encoding="utf-8"))
        version = Version(verification.platform.jax)
    except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is one
        raise JaxwaitsError(f"{path}: not a readable ledger file: {error}") from None
    except (KeyError, TypeError, AttributeError, InvalidVersion) as error:
        raise JaxwaitsError(f"{path}: not a ledger file as verify writes it: {error!r}") from None
    if path.name != verification.filename:
        raise JaxwaitsError(
            f"{path}: holds jax {version}, so it should be named {verification.filename}"
        )
    return verification


def read(folder: Path) -> tuple[list[Verification], list[JaxwaitsError]]:
    """Every readable verification in the ledger, oldest JAX first, and an error for each file
    that could not be read: one bad file never hides the others."""
    found, problems = [], []
    for path in sorted(folder.glob("jax-*.json")):
        try:
            found.append(read_file(path))
        except JaxwaitsError as error:
            problems.append(error)
    found.sort(key=lambda v: (Version(v.platform.jax), v.platform.backend))
    return found, problems


def load(folder: Path) -> list[Verification]:
    """Every verification in the ledger, oldest JAX first; raises if any file is unreadable."""
    found, problems = read(folder)
    if problems:
        raise JaxwaitsError("\n".join(str(problem) for problem in problems))
    return found


def save(verification: Verification, folder: Path) -> Path:
    """Write one release's file (whole or not at all)."""
    path = folder / verification.filename
    write_atomic(path, verification.to_json())
    return path


HOLDS, DIFFERS, FAILS, NOT_RUN = "holds", "differs", "fails", "not run"
NOT_OBSERVABLE = "not observable"


def claim_outcome(
    verification: Verification, evidence: Sequence[str], needs: str | None = None
) -> str:
    """Whether a claim held on a release: every evidence snippet printed its recorded output
    (holds), one printed the output recorded as a known difference there (differs), one failed
    (fails), or the release was verified before a snippet existed (not run). A claim that needs
    another backend than the verification's is not observable there, whatever its snippets
    printed."""
    if needs and needs != verification.platform.backend:
        return NOT_OBSERVABLE
    outcomes = [verification.snippets.get(name) for name in evidence]
    if any(outcome is None for outcome in outcomes):
        return NOT_RUN
    if any(not outcome.passed for outcome in outcomes if outcome):
        return FAILS
    if any(outcome.status == KNOWN for outcome in outcomes if outcome):
        return DIFFERS
    return HOLDS


def summary(
    verifications: Sequence[Verification], evidence: Sequence[str], needs: str | None = None
) -> str:
    """E.g. "holds on 0.5.3 – 0.12.0.1, differs on 0.4.30 – 0.4.38 (cpu)": per backend, each
    outcome with its runs of consecutive verified releases."""
    if not verifications:
        return "not yet verified on any release"
    parts = []
    for backend in sorted({v.platform.backend for v in verifications}):
        runs: list[tuple[str, list[str]]] = []
        for verification in (v for v in verifications if v.platform.backend == backend):
            outcome = claim_outcome(verification, evidence, needs)
            if runs and runs[-1][0] == outcome:
                runs[-1][1].append(verification.platform.jax)
            else:
                runs.append((outcome, [verification.platform.jax]))
        spans: dict[str, list[str]] = {}
        for outcome, versions in runs:
            spans.setdefault(outcome, []).append(
                versions[0] if len(versions) == 1 else f"{versions[0]} – {versions[-1]}"
            )
        told = ", ".join(f"{outcome} on {', '.join(s)}" for outcome, s in spans.items())
        parts.append(f"{told} ({backend})")
    return "; ".join(parts)
