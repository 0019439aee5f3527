"""The ledger: what each verified JAX release showed, one JSON file per release and backend in
``docs/verified/``.

A file records, per snippet, its :class:`~jaxwaits.evidence.outcomes.Outcome` as its stored code
(``matched``, ``known-difference``: the output recorded for that release in ``snippets/known/``,
or a failure's code with its diff or reason), the fingerprint of the evidence it judged and a
hash of what it printed; per vendored piece, its :class:`~jaxwaits.pieces.drift.PieceOutcome`;
whether the release is yanked; and, for a release that cannot be installed here, why (and nothing
else); and the day those results were first recorded. Verifying again what has not changed
rewrites nothing, that day included. What follows for each claim is
:mod:`jaxwaits.chain.verdicts`."""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.files import write_atomic
from jaxwaits.pieces.drift import AS_RECORDED, PieceOutcome
from jaxwaits.pieces.manifest import Manifest


@dataclass(frozen=True)
class SnippetEntry:
    """What one snippet showed on one release: its outcome (with the diff or the report), the
    fingerprint of the snippet and outputs it was judged against, a hash of what it printed
    (so that two releases can be told to have printed the same or not), and whether a fresh
    interpreter was seen to print the same as a template's child."""

    outcome: Outcome
    detail: str = ""
    fingerprint: str = ""
    printed: str = ""
    same_when_fresh: bool = False  # a fresh interpreter printed what the template's child did


@dataclass(frozen=True)
class PieceEntry:
    """What one vendored piece showed on one release."""

    outcome: PieceOutcome
    detail: str = ""


@dataclass(frozen=True)
class Verification:
    """One release, one backend: every snippet's and every vendored piece's outcome."""

    platform: Platform
    snippets: dict[str, SnippetEntry] = field(default_factory=dict)
    pieces: dict[str, PieceEntry] = field(default_factory=dict)
    yanked: bool = False
    not_installable: str = ""  # why the release could not be installed here, if it could not
    recorded_on: str = ""  # the day (UTC, YYYY-MM-DD) these results were first recorded

    @property
    def passed(self) -> bool:
        entries = [*self.snippets.values(), *self.pieces.values()]
        return not self.not_installable and all(e.outcome.passed for e in entries)

    @property
    def filename(self) -> str:
        return f"jax-{self.platform.jax}-{self.platform.backend}.json"

    def to_json(self) -> str:
        data: dict[str, Any] = {"platform": self.platform.as_dict(), "yanked": self.yanked}
        if self.not_installable:
            data["not_installable"] = self.not_installable
        if self.recorded_on:
            data["recorded_on"] = self.recorded_on
        data["snippets"] = {
            name: {"status": e.outcome.value, "detail": e.detail}
            | {"fingerprint": e.fingerprint, "printed": e.printed}
            | {"same_when_fresh": e.same_when_fresh}
            for name, e in sorted(self.snippets.items())
        }
        data["pieces"] = {
            name: {"status": e.outcome.value, "detail": e.detail}
            for name, e in sorted(self.pieces.items())
        }
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Verification:
        data = json.loads(text)
        return cls(
            Platform(**data["platform"]),
            {
                k: SnippetEntry(
                    Outcome(v["status"]),
                    v["detail"],
                    v.get("fingerprint", ""),
                    v.get("printed", ""),
                    bool(v.get("same_when_fresh", False)),
                )
                for k, v in data["snippets"].items()
            },
            {
                k: PieceEntry(PieceOutcome(v["status"]), v["detail"])
                for k, v in data["pieces"].items()
            },
            bool(data.get("yanked", False)),
            str(data.get("not_installable", "")),
            str(data.get("recorded_on", "")),
        )


def read_file(path: Path) -> Verification:
    """One ledger file; one that cannot be read as written by ``save`` raises, naming it."""
    try:
        text = path.read_text(encoding="utf-8")
        verification = Verification.from_json(text)
        version = Version(verification.platform.jax)
    except (KeyError, TypeError, AttributeError, InvalidVersion) as error:
        raise JaxwaitsError(f"{path}: not a ledger file as verify writes it: {error!r}") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is one
        raise JaxwaitsError(f"{path}: not a readable ledger file: {error}") from None
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
    """Write one release's file (whole or not at all), dated today; a file that already says
    the same, but for its day, is left alone, so a re-run that found nothing new rewrites no file
    and the day stays the one on which these results were first recorded."""
    path = folder / verification.filename
    undated = replace(verification, recorded_on="")
    try:
        if replace(read_file(path), recorded_on="") == undated:
            return path
    except JaxwaitsError:
        pass  # no file yet, or one that is not readable: it is replaced
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    write_atomic(path, replace(undated, recorded_on=today).to_json())
    return path


def stale_pieces(
    recorded: Manifest, verification: Verification
) -> list[tuple[str, PieceOutcome, PieceOutcome]]:
    """Each vendored piece that the release's entry judged against another manifest than the
    one now: (piece, what the entry found, what the manifest now says). An unrecorded change on
    a release the manifest still does not list is not stale: it is the failure it was, and its
    fix is to record the release (``provenance --refresh``)."""
    version = verification.platform.jax
    listed = version in recorded.releases
    found = []
    for name, entry in sorted(verification.pieces.items()):
        piece = recorded.pieces.get(name)
        if piece is None:
            continue  # a piece no longer vendored: the ledger keeps what it found
        if entry.outcome is PieceOutcome.UNRECORDED_CHANGE and not listed:
            continue
        run = piece.run_for(version, recorded.releases)
        says = AS_RECORDED[run.status] if run else PieceOutcome.IDENTICAL
        if entry.outcome is not says:
            found.append((name, entry.outcome, says))
    return found


def disagreements(
    recorded: Manifest, verifications: Sequence[Verification], folder: str
) -> list[str]:
    """Where the manifest now says something else about a verified release than the drift check
    found there when it was verified (``folder`` names the ledger in messages)."""
    return [
        f"{folder}/{verification.filename}: found {name} {found.words} on jax "
        f"{verification.platform.jax}, but the manifest now says {says.words}: the entry is "
        f"stale; {_judge_again(verification)}"
        for verification in verifications
        for name, found, says in stale_pieces(recorded, verification)
    ]


def _judge_again(verification: Verification) -> str:
    """The command that judges a release's entry again."""
    release, backend = verification.platform.jax, verification.platform.backend
    if backend == "cpu":
        return f"verify the release again: nox -s verify -- {release}"
    observed = f"docs/verified/observed/jax-{release}-{backend}.json"
    return f"judge its observations again: python -m jaxwaits verify --observed {observed}"
