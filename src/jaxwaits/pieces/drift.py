"""The drift check: each vendored piece against the installed JAX, as the manifest expects.

The installed piece must be identical to the vendored text, or differ exactly as the manifest
records for that release (same upstream text), or be absent where the manifest says so. A release
the manifest does not know (a new one, or a development build) must be identical. Anything else
fails, with a unified diff and the notes whose sections changed, so a maintainer knows which
sentences to re-read.
"""

from __future__ import annotations

import difflib
import enum
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.report import diff
from jaxwaits.pieces import manifest, upstream, vendored
from jaxwaits.pieces.manifest import Entry, TextRun, TextState, sha256
from jaxwaits.project import Project

_FIND_JAX = """
import importlib.metadata, importlib.util, json, os
spec = importlib.util.find_spec("jax")  # finds the package without importing it
print("null" if spec is None else json.dumps({"version": importlib.metadata.version("jax"),
                  "root": os.path.dirname(spec.submodule_search_locations[0])}))
"""
RECORD_COMMAND = "python -m jaxwaits provenance"


class NoJax(JaxwaitsError):
    """The interpreter has no jax package to check the vendored pieces against."""


@dataclass(frozen=True)
class Installed:
    """The JAX an interpreter would import: its version and the folder holding ``jax/``."""

    version: str
    root: Path


class PieceOutcome(enum.Enum):
    """What a vendored piece showed against one JAX release: the one vocabulary for it, in the
    drift check, the ledger and the matrix. Only an unrecorded change fails. Each value is the
    stored code the ledger keeps, never reworded; :attr:`words` is what a person reads."""

    IDENTICAL = "identical"
    DIFFERS_AS_RECORDED = "differs-as-recorded"
    ABSENT_AS_RECORDED = "absent-as-recorded"
    UNRECORDED_CHANGE = "unrecorded-change"

    @property
    def words(self) -> str:
        return self.value.replace("-", " ")

    @property
    def passed(self) -> bool:
        return self is not PieceOutcome.UNRECORDED_CHANGE


AS_RECORDED = {
    TextState.IDENTICAL: PieceOutcome.IDENTICAL,
    TextState.DIFFERS: PieceOutcome.DIFFERS_AS_RECORDED,
    TextState.ABSENT: PieceOutcome.ABSENT_AS_RECORDED,
}


@dataclass(frozen=True)
class PieceCheck:
    piece: str
    outcome: PieceOutcome
    message: str

    @property
    def ok(self) -> bool:
        return self.outcome.passed


def installed(python: str) -> Installed:
    """Ask ``python`` where its ``jax`` package is, without importing it."""
    done = subprocess.run(
        [python, "-c", _FIND_JAX], capture_output=True, text=True, timeout=60, check=False
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["it exited with no message"])[-1]
        raise JaxwaitsError(f"{python} cannot say where its jax package is: {last}")
    found = json.loads(done.stdout)
    if found is None:
        raise NoJax(
            f"{python} has no jax package: install JAX there (pip install -e '.[jax]' in the "
            "checkout), or check with an interpreter that has it: python -m jaxwaits drift "
            "--python PATH"
        )
    return Installed(found["version"], Path(found["root"]))


def installed_text(jax: Installed, entry: Entry) -> str | None:
    """The piece's text in the installed JAX, or None if it is not there."""
    path = jax.root / entry.file
    if not path.exists():
        return None
    source = path.read_bytes().decode("utf-8")
    span = upstream.locate(upstream.parse(source, str(path)), entry.qualname)
    return span.text(source) if span else None


def changed_notes(piece: vendored.Piece, new: str) -> list[tuple[int, vendored.Note]]:
    """(piece line index, note) for each note whose section ``new`` changes, in order."""
    old_lines = piece.upstream.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old_lines, b=new.splitlines(keepends=True), autojunk=False)
    touched: set[int] = set()
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            touched.update(range(i1, i2))
        elif tag == "insert":
            touched.add(max(i1 - 1, 0))  # new lines join the section of the line before them
    found: dict[int, tuple[int, vendored.Note]] = {}
    for index in sorted(touched):
        note = piece.section_note(index)
        if note and note.at not in found:
            found[note.at] = (index, note)
    return list(found.values())


def _recorded(run: TextRun | None) -> str:
    if run is None:
        return "nothing (the manifest does not know this release)"
    return run.status.value + (f" ({run.change})" if run.change else "")


def _unknown_release(entry: Entry, version: str, text: str | None, newest: str) -> str:
    """Why a piece fails on a release the manifest does not list, and the fix: most often the
    manifest has simply not been brought to a new release."""
    last = entry.history[-1] if entry.history else None
    if last is None:
        return ""
    if text is None:
        same = last.status is TextState.ABSENT
    else:
        same = last.status is not TextState.ABSENT and last.sha256 == sha256(text)
    said = (
        f"{entry.name}: the manifest does not list jax {version} (its newest release is "
        f"{newest}), so the piece must be identical to its vendored text there, and it is not"
    )
    if same:
        return (
            f"{said}; but it is as the manifest records for jax {newest} ({_recorded(last)}): "
            f"nothing changed upstream. Record the release: {RECORD_COMMAND} --refresh, then "
            "verify it again (nox -s verify-latest)"
        )
    return ""


def _failure(
    entry: Entry,
    piece: vendored.Piece,
    version: str,
    text: str | None,
    run: TextRun | None,
    rel: str,
) -> str:
    lines = [
        f"{entry.name} ({rel}): jax {version} does not match what the manifest records "
        f"for it: {_recorded(run)}"
    ]
    if sha256(piece.upstream) != entry.sha256:
        lines.append(
            f"  {rel} without its notes is not the upstream text of jax {entry.release} "
            "it says it was copied from (was a code line edited?)"
        )
    if text is None:
        lines.append(f"  {entry.qualname} is not in {entry.file} of the installed jax {version}")
        return "\n".join(lines)
    lines.append(
        diff(
            piece.upstream,
            text,
            f"{rel} (notes removed; jax {entry.release})",
            f"{entry.file}:{entry.qualname} (installed jax {version})",
        ).rstrip("\n")
    )
    notes = changed_notes(piece, text)
    if notes:
        lines.append("notes on the changed lines; re-read them:")
        for index, note in notes:
            first = note.text.strip().splitlines()[0] if note.text.strip() else "(empty)"
            lines.append(f"  {rel}:{note.at} (upstream line {entry.lines[0] + index}): {first}")
    refresh = " --refresh" if run is None else ""
    lines.append(
        f"if the installed text is the new upstream one, record it with {RECORD_COMMAND}"
        f"{refresh} (and re-vendor the piece if it should follow), then verify the release again"
    )
    return "\n".join(lines)


def _as_recorded(entry: Entry, run: TextRun | None, version: str) -> str:
    why = f"; why: {' '.join(run.why.split())}" if run and run.why else ""
    if run is None or run.status == TextState.IDENTICAL:
        known = "" if run else f" (jax {version} is not in the manifest)"
        return f"identical to the vendored text of jax {entry.release}{known}"
    span = f"jax {run.first} to {run.last}"
    if run.status == TextState.ABSENT:
        successor = f"; succeeded by {run.succeeded_by}" if run.succeeded_by else ""
        return f"absent, as recorded for {span} ({run.change}{successor}){why}"
    return f"differs as recorded for {span} ({run.change} against jax {entry.release}){why}"


def check_piece(
    entry: Entry,
    piece: vendored.Piece,
    version: str,
    text: str | None,
    run: TextRun | None,
    rel: str,
    newest: str = "",
) -> PieceCheck:
    """Judge one piece: its installed ``text`` against the manifest's ``run`` for ``version``
    (``newest``: the manifest's newest release, named where ``version`` is not listed)."""
    intact = sha256(piece.upstream) == entry.sha256
    status = run.status if run else TextState.IDENTICAL
    if text is None:
        ok = intact and status == TextState.ABSENT
    elif status == TextState.DIFFERS:
        ok = intact and run is not None and sha256(text) == run.sha256
    else:
        ok = intact and status == TextState.IDENTICAL and text == piece.upstream
    if not ok:
        failure = ""
        if run is None and newest and intact:  # most often: a release not recorded yet
            failure = _unknown_release(entry, version, text, newest)
        failure = failure or _failure(entry, piece, version, text, run, rel)
        return PieceCheck(entry.name, PieceOutcome.UNRECORDED_CHANGE, failure)
    told = f"{entry.name}: {_as_recorded(entry, run, version)}"
    return PieceCheck(entry.name, AS_RECORDED[status], told)


def check(project: Project, python: str) -> tuple[Installed, list[PieceCheck]]:
    """Every piece in the manifest, against the JAX that ``python`` has (none in a checkout
    without vendored pieces)."""
    jax = installed(python)
    if not project.annotated_src.is_dir():
        return jax, []
    recorded = manifest.load(project.annotated_src)
    verdicts = []
    for name, entry in recorded.pieces.items():
        path = project.annotated_src / f"{name}{vendored.SUFFIX}"
        piece = vendored.read(path)
        run = entry.run_for(jax.version, recorded.releases)
        text = installed_text(jax, entry)
        rel = project.relative(path)
        newest = recorded.releases[-1] if recorded.releases else ""
        verdicts.append(check_piece(entry, piece, jax.version, text, run, rel, newest))
    return jax, verdicts


def audit(project: Project, python: str | None) -> list[str]:
    """Everything wrong with the vendored pieces, all of it at once: the manifest on its own
    terms, each piece's notes, and each piece against the JAX that ``python`` has (with None,
    against none: the caller says that this was not checked). Empty when all is well.
    (The manifest against what the ledger found is
    :func:`jaxwaits.releases.ledger.disagreements`.)"""
    folder = project.annotated_src
    if not folder.is_dir():
        return []  # a checkout without vendored pieces
    try:
        recorded = manifest.load(folder)
    except JaxwaitsError as error:
        return [str(error)]
    where = project.relative(folder / manifest.FILE)
    problems = [f"{where}: {problem}" for problem in manifest.problems(recorded)]
    files = {path.stem for path in folder.glob(f"*{vendored.SUFFIX}")}
    for name in sorted(files - set(recorded.pieces)):
        path = folder / f"{name}{vendored.SUFFIX}"
        problems.append(f"{project.relative(path)}: a piece the manifest does not list")
    for name, entry in recorded.pieces.items():
        path = folder / f"{name}{vendored.SUFFIX}"
        rel = project.relative(path)
        try:
            piece = vendored.read(path)
        except JaxwaitsError as error:
            problems.append(str(error))
            continue
        for index in vendored.unannotated(piece):
            line = piece.lines[index]
            problems.append(
                f"{rel}:{line.at}: upstream line {entry.lines[0] + index} has no note: "
                f"{line.text.strip()}"
            )
        if not vendored.citations(piece, entry.lines[0]):
            problems.append(f"{rel}: no note cites a claim")
    if python is None or any(
        not (folder / f"{name}{vendored.SUFFIX}").exists() for name in recorded.pieces
    ):
        return problems  # the drift check needs a JAX, and every piece
    try:
        _, verdicts = check(project, python)
    except JaxwaitsError as error:
        return [*problems, str(error)]
    return problems + [verdict.message for verdict in verdicts if not verdict.ok]
