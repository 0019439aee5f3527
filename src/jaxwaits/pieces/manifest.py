"""``annotated_src/manifest.toml``: where each vendored piece comes from, and its history.

Per piece, hand-written: the upstream ``file``, the ``qualname``, the ``release`` it was copied
from and, optionally, its ``successor`` (the piece that took over when it disappeared). Computed
by ``python -m jaxwaits provenance``: its ``lines`` and ``sha256`` at that release, and its
``history``, runs of consecutive releases over which the upstream text is the same. A run's
hand-written ``why`` is kept across regenerations for as long as its upstream text is the same.
"""

from __future__ import annotations

import enum
import hashlib
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from jaxwaits import toml_writer
from jaxwaits.errors import JaxwaitsError

FILE = "manifest.toml"


def sha256(text: str) -> str:
    """The hash the manifest records of an upstream text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TextState(enum.Enum):
    """How the upstream text of a run of releases compares with the vendored text."""

    IDENTICAL = "identical"
    DIFFERS = "differs"
    ABSENT = "absent"


HEADER = """\
Where each vendored piece in this folder comes from, and its history over every jax release.
Written by `python -m jaxwaits provenance`. Edit by hand only a piece's file, qualname, release
and successor, and a history entry's `why` (kept while that entry's upstream text is the same);
everything else is computed from the released wheels and rewritten on each run.
Upstream code: Copyright The JAX Authors, Apache License 2.0 (see LICENSE-JAX)."""


@dataclass(frozen=True)
class TextRun:
    """Consecutive releases over which the piece's upstream text is the same."""

    first: str
    last: str
    count: int
    status: TextState
    sha256: str = ""  # of the upstream text in these releases (empty when absent)
    change: str = ""  # how it differs from the vendored text, e.g. "+2/-1 lines"
    succeeded_by: str = ""  # for a piece absent after it had existed
    why: str = ""  # hand-written
    diff: str = ""  # unified diff from the vendored text to these releases' text

    def covers(self, version: str, releases: list[str]) -> bool:
        return releases.index(self.first) <= releases.index(version) <= releases.index(self.last)


@dataclass(frozen=True)
class Entry:
    """One vendored piece: where it was copied from, and its history."""

    name: str
    file: str
    qualname: str
    release: str
    successor: str = ""
    lines: tuple[int, int] = (0, 0)
    sha256: str = ""
    history: tuple[TextRun, ...] = ()

    def run_for(self, version: str, releases: list[str]) -> TextRun | None:
        if version not in releases:
            return None
        return next((run for run in self.history if run.covers(version, releases)), None)


@dataclass(frozen=True)
class Manifest:
    first: str
    releases: list[str] = field(default_factory=list)
    yanked: list[str] = field(default_factory=list)
    pieces: dict[str, Entry] = field(default_factory=dict)


_RUN_KEYS = {"from": "first", "to": "last", "releases": "count", "succeeded-by": "succeeded_by"}


def _run(table: dict) -> TextRun:
    fields = {_RUN_KEYS.get(key, key): value for key, value in table.items()}
    return TextRun(**{**fields, "status": TextState(fields.get("status"))})


def _entry(name: str, table: dict) -> Entry:
    fields = {key: value for key, value in table.items() if key != "history"}
    if "lines" in fields:
        fields["lines"] = tuple(fields["lines"])
    history = tuple(_run(run) for run in table.get("history", []))
    return Entry(name=name, history=history, **fields)


def load(folder: Path) -> Manifest:
    """Read ``folder/manifest.toml``; a file that cannot be read as a manifest raises an error
    naming it and saying why."""
    path = folder / FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise JaxwaitsError(f"{path}: not a readable manifest: {error}") from None
    try:
        pieces = {name: _entry(name, table) for name, table in data.get("pieces", {}).items()}
        return Manifest(data["first"], data.get("releases", []), data.get("yanked", []), pieces)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise JaxwaitsError(f"{path}: not a manifest as written by {WRITER}: {error!r}") from None


WRITER = "python -m jaxwaits provenance"


def problems(manifest: Manifest) -> list[str]:
    """What is inconsistent in a manifest on its own terms: each piece's history must cover its
    releases in order, with no gap or overlap, counts that match, and ``identical`` runs whose
    text is the vendored one. (Whether it matches the wheels is
    :mod:`jaxwaits.releases.provenance`'s.)"""
    releases = manifest.releases
    position = {version: i for i, version in enumerate(releases)}
    found = []
    for name, entry in manifest.pieces.items():
        expected_first = 0
        for run in entry.history:
            where = f"piece {name}, run {run.first} to {run.last}"
            if run.first not in position or run.last not in position:
                found.append(f"{where}: names a release the manifest does not list")
                break
            first, last = position[run.first], position[run.last]
            if first != expected_first:
                after = releases[expected_first - 1] if expected_first else "the first release"
                found.append(f"{where}: should start right after {after}")
            if run.count != last - first + 1:
                found.append(f"{where}: says {run.count} releases, spans {last - first + 1}")
            if (run.status == TextState.IDENTICAL) != (run.sha256 == entry.sha256):
                found.append(f"{where}: {run.status.value}, but its text hash says otherwise")
            expected_first = last + 1
        else:
            if releases and expected_first != len(releases):
                found.append(f"piece {name}: its history stops before {releases[-1]}")
        run = entry.run_for(entry.release, releases)
        if run is None or run.status != TextState.IDENTICAL:
            found.append(f"piece {name}: copied from {entry.release}, not an identical release")
    return found


def _run_table(run: TextRun) -> dict[str, object]:
    table: dict[str, object] = {"from": run.first, "to": run.last, "releases": run.count}
    table["status"] = run.status.value
    optional = {"sha256": run.sha256, "change": run.change, "succeeded-by": run.succeeded_by}
    table.update({key: value for key, value in optional.items() if value})
    if run.why:
        table["why"] = run.why
    if run.diff:
        table["diff"] = run.diff
    return table


def _entry_table(entry: Entry) -> dict[str, object]:
    table: dict[str, object] = {
        "file": entry.file,
        "qualname": entry.qualname,
        "release": entry.release,
    }
    if entry.successor:
        table["successor"] = entry.successor
    table["lines"] = list(entry.lines)
    table["sha256"] = entry.sha256
    table["history"] = [_run_table(run) for run in entry.history]
    return table


def dumps(manifest: Manifest) -> str:
    """The text of ``manifest.toml`` for ``manifest``."""
    data = {
        "first": manifest.first,
        "releases": manifest.releases,
        "yanked": manifest.yanked,
        "pieces": {name: _entry_table(entry) for name, entry in sorted(manifest.pieces.items())},
    }
    return toml_writer.dumps(data, HEADER)


def with_history(entry: Entry, lines: tuple[int, int], sha256: str, runs: list[TextRun]) -> Entry:
    """``entry`` with fresh computed fields, keeping each `why` whose upstream text is unchanged."""
    whys = {_why_key(run): run.why for run in entry.history if run.why}
    kept = [replace(run, why=whys.get(_why_key(run), "")) for run in runs]
    return replace(entry, lines=lines, sha256=sha256, history=tuple(kept))


def _why_key(run: TextRun) -> str:
    return run.sha256 or f"{run.status.value}:{run.succeeded_by}"
