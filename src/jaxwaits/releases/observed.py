"""Observations made on a machine the checks do not run on (a GPU lent for a while): every
snippet's runs, a template's child and a fresh interpreter, kept as they came, with the platform
and the vendored pieces' outcomes there.

The file is committed beside the ledger (``docs/verified/observed/jax-<release>-<backend>.json``)
and the ledger file of that release and backend is judged from it, here or anywhere, with
:func:`jaxwaits.releases.verify.judge_observed`: a known difference recorded or classified later
changes the verdicts, never the observations. Each snippet's runs name the hash of the text that
ran, so a snippet changed since is never judged on them.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Run, run_on, run_snippets
from jaxwaits.evidence.snippets import Snippet, load_snippets
from jaxwaits.files import write_atomic
from jaxwaits.pieces import drift
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.project import Project

FOLDER = "observed"  # inside the ledger's folder
STDERR_KEPT = 4000  # the end of each run's stderr, enough for a traceback


def source_hash(snippet: Snippet) -> str:
    """The hash of the snippet's text as it is now."""
    return hashlib.sha256(snippet.path.read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class Observed:
    """What one machine showed: per snippet the hash of the text that ran and its runs (a
    template's child, then a fresh interpreter); per vendored piece its outcome and message."""

    platform: Platform
    sources: dict[str, str]
    runs: dict[str, tuple[Run, ...]]
    pieces: dict[str, tuple[PieceOutcome, str]]
    command: str = ""  # what made it
    made_on: str = ""  # when (UTC, to the second)
    seconds: float = 0.0  # how long the runs took there

    @property
    def filename(self) -> str:
        return f"jax-{self.platform.jax}-{self.platform.backend}.json"

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "platform": self.platform.as_dict(),
            "command": self.command,
            "made_on": self.made_on,
            "seconds": round(self.seconds, 1),
            "snippets": {
                name: {"source": self.sources[name], "runs": [run.as_dict() for run in runs]}
                for name, runs in sorted(self.runs.items())
            },
            "pieces": {
                name: {"status": outcome.value, "detail": detail}
                for name, (outcome, detail) in sorted(self.pieces.items())
            },
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Observed:
        data = json.loads(text)
        snippets = data["snippets"]
        return cls(
            Platform(**data["platform"]),
            {name: str(entry["source"]) for name, entry in snippets.items()},
            {
                name: tuple(Run.from_dict(run) for run in entry["runs"])
                for name, entry in snippets.items()
            },
            {
                name: (PieceOutcome(entry["status"]), str(entry["detail"]))
                for name, entry in data["pieces"].items()
            },
            str(data.get("command", "")),
            str(data.get("made_on", "")),
            float(data.get("seconds", 0.0)),
        )


def _kept(run: Run) -> Run:
    return Run.from_dict({**run.as_dict(), "stderr": run.stderr[-STDERR_KEPT:]})


def observe(
    project: Project, python: str, jobs: int | None, command: str, fresh: bool = False
) -> Observed:
    """Run every snippet on ``python``'s JAX in a template's child and again in a fresh
    interpreter (twice fresh with ``fresh``, where a template's children cannot run), and check
    the vendored pieces against it."""
    started = time.perf_counter()
    made_on = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    snippets = [s for s in load_snippets(project.snippets) if not s.problems]
    children, platform = run_on(snippets, python=python, jobs=jobs, fresh=fresh)
    again = run_snippets(snippets, platform.jax, python=python, jobs=jobs, fresh=True)
    runs = {
        child.snippet.name: tuple(_kept(run) for run in (*child.runs, *other.runs))
        for child, other in zip(children, again, strict=True)
    }
    _, checks = drift.check(project, python)
    return Observed(
        platform,
        {snippet.name: source_hash(snippet) for snippet in snippets},
        runs,
        {check.piece: (check.outcome, check.message) for check in checks},
        command,
        made_on,
        time.perf_counter() - started,
    )


def folder(project: Project) -> Path:
    return project.verified / FOLDER


def save(observed: Observed, path: Path) -> None:
    write_atomic(path, observed.to_json())


def read(path: Path) -> Observed:
    """One observations file; one that cannot be read as :func:`save` writes it raises, naming
    it."""
    try:
        observed = Observed.from_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is one
        raise JaxwaitsError(f"{path}: not a readable observations file: {error}") from None
    except (KeyError, TypeError, AttributeError) as error:
        raise JaxwaitsError(
            f"{path}: not an observations file as verify writes it: {error!r}"
        ) from None
    return observed


def load(project: Project) -> list[Observed]:
    """Every observations file of the project, each named as its platform says."""
    found = []
    for path in sorted(folder(project).glob("jax-*.json")):
        observed = read(path)
        if path.name != observed.filename:
            raise JaxwaitsError(f"{path}: holds {observed.filename}; rename it")
        found.append(observed)
    return found
