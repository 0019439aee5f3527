"""Known differences: what a snippet prints on the releases where it does not print its recorded
output, and what each such output means for the claims the snippet backs.

One file per snippet, ``snippets/known/<name>.toml``; each distinct output once per backend,
with every release that printed it, so that one classification covers them all::

    [[output]]
    releases = ["0.4.18", "0.4.19"]      # where verify saw it: written by --record-known
    text = '''
    ready right after dispatch: True
    '''

    [output.verdicts.is-ready-never-waits]
    verdict = "not-observable"           # one of CLASSIFIED
    why = "CPU dispatch was synchronous up to jax 0.4.31."

An output printed on another backend than CPU says so (``backend = "gpu"``, before its
releases). There, an output may be the recorded text itself, kept because it was named when
recorded: what the same text means on that backend is a maintainer's to say (a snippet that runs
its work on CPU whatever the machine shows nothing of a GPU).

The releases and text are the tools'; each verdict and its ``why`` is a maintainer's, one per
claim the snippet backs, and kept while the text stays the same.
"""

from __future__ import annotations

import fcntl
import os
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from packaging.version import InvalidVersion, Version

from jaxwaits import toml_writer
from jaxwaits.errors import JaxwaitsError
from jaxwaits.files import remove, write_atomic

FOLDER = "known"
CPU = "cpu"  # the backend of an output that names none
UNCLASSIFIED = "unclassified"  # what --record-known writes until a maintainer decides
# What a maintainer may say a known output means for a claim: stored codes, and the values of
# the matching verdicts (jaxwaits.chain.verdicts.CLASSIFICATIONS).
CLASSIFIED = ("holds-output-differs", "does-not-hold", "not-observable", "absent")
BACKENDS = (CPU, "gpu", "tpu")  # the stored codes of the scope's backend axis
HEADER = """\
What the snippet prints on releases where it does not print its recorded output, and what each
output means for the claims it backs. `python -m jaxwaits record --known` writes the releases and
the text; a maintainer writes each verdict and its `why`."""


@dataclass(frozen=True)
class Classification:
    """What one known output means for one claim: a verdict (as text, checked against
    :class:`jaxwaits.chain.verdicts.Verdict`) and the reason shown to readers."""

    verdict: str
    why: str


@dataclass(frozen=True)
class KnownOutput:
    """One output the snippet printed instead of its recorded one, and where."""

    text: str
    releases: tuple[str, ...]
    verdicts: dict[str, Classification] = field(default_factory=dict)
    backend: str = CPU


@dataclass(frozen=True)
class Known:
    """A snippet's known differences."""

    path: Path
    outputs: tuple[KnownOutput, ...] = ()

    def for_release(self, release: str, backend: str = CPU) -> KnownOutput | None:
        return next(
            (o for o in self.outputs if o.backend == backend and release in o.releases), None
        )

    def releases(self) -> set[tuple[str, str]]:
        """Every (release, backend) an output is known for."""
        return {(release, o.backend) for o in self.outputs for release in o.releases}

    def recorded(self, release: str, text: str, backend: str = CPU) -> Known:
        """These known differences with ``text`` recorded as what ``release`` prints on
        ``backend`` (and the release taken out of any other output of that backend). Where
        several outputs have that text (each with verdicts of its own), the release stays in
        the one that holds it already, or else joins the first."""
        same = [o for o in self.outputs if o.backend == backend and o.text == text]
        home = next((o for o in same if release in o.releases), same[0] if same else None)
        outputs = []
        for output in self.outputs:
            others = output.releases
            if output.backend == backend:
                others = tuple(r for r in output.releases if r != release)
                if output is home:
                    others = _sorted((*others, release))
            if others:
                outputs.append(replace(output, releases=others))
        if home is None:
            outputs.append(KnownOutput(text, (release,), backend=backend))
        return replace(self, outputs=tuple(outputs))

    def without(self, release: str, backend: str = CPU) -> Known:
        """These known differences with ``release`` printing the recorded output again on
        ``backend``."""
        outputs = [
            replace(o, releases=tuple(r for r in o.releases if r != release))
            if o.backend == backend
            else o
            for o in self.outputs
        ]
        return replace(self, outputs=tuple(o for o in outputs if o.releases))


def _sorted(releases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(set(releases), key=Version))


def path_for(snippets: Path, name: str) -> Path:
    return snippets / FOLDER / f"{name}.toml"


def load(snippets: Path, name: str) -> Known:
    """The known differences of snippet ``name`` (none when it has no file)."""
    path = path_for(snippets, name)
    if not path.exists():
        return Known(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise JaxwaitsError(f"{path}: not readable: {error}") from None
    outputs = _outputs(path, data)
    seen: set[tuple[str, str]] = set()
    for output in outputs:
        for release in output.releases:
            if (release, output.backend) in seen:
                on = "" if output.backend == CPU else f" on {output.backend}"
                raise JaxwaitsError(f"{path}: jax {release}{on} is listed under two outputs")
            seen.add((release, output.backend))
    return Known(path, outputs)


def _outputs(path: Path, data: dict[str, object]) -> tuple[KnownOutput, ...]:
    """The outputs a parsed file lists, checked against the format above; the first thing that
    does not fit raises, naming the file and the key."""

    def wrong(key: str, message: str) -> JaxwaitsError:
        return JaxwaitsError(f"{path}: {key}: {message}")

    unknown = sorted(data.keys() - {"output"})
    if unknown:
        raise wrong(unknown[0], "unknown key (a known-differences file holds [[output]] tables)")
    entries = data.get("output", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise wrong("output", "must be [[output]] tables")
    outputs = []
    for number, entry in enumerate(entries, start=1):
        at = f"output {number}"
        unknown = sorted(entry.keys() - {"backend", "releases", "text", "verdicts"})
        if unknown:
            raise wrong(
                f"{at}.{unknown[0]}", "unknown key (backend, releases, text and verdicts are)"
            )
        backend = entry.get("backend", CPU)
        if backend not in BACKENDS:
            raise wrong(f"{at}.backend", f"{backend!r} is not one of: {' / '.join(BACKENDS)}")
        releases, text = entry.get("releases"), entry.get("text")
        if not isinstance(releases, list) or not releases:
            raise wrong(f"{at}.releases", f"must be a list of JAX releases, got {releases!r}")
        for release in releases:
            if not isinstance(release, str) or not _is_release(release):
                raise wrong(f"{at}.releases", f"{release!r} is not a JAX release number")
        if not isinstance(text, str):
            raise wrong(f"{at}.text", f"must be the text printed, a string, got {text!r}")
        verdicts = entry.get("verdicts", {})
        if not isinstance(verdicts, dict):
            raise wrong(f"{at}.verdicts", "must be a table of claim IDs")
        classified = {}
        for claim, given in verdicts.items():
            key = f"{at}.verdicts.{claim}"
            if not isinstance(given, dict) or given.keys() - {"verdict", "why"}:
                raise wrong(key, "must be a table with a verdict and a why")
            verdict, why = given.get("verdict"), given.get("why", "")
            if verdict not in (*CLASSIFIED, UNCLASSIFIED):
                words = " / ".join(CLASSIFIED)
                raise wrong(f"{key}.verdict", f"{verdict!r} is not one of: {words}")
            if not isinstance(why, str):
                raise wrong(f"{key}.why", f"must be a string, got {why!r}")
            classified[claim] = Classification(verdict, why)
        outputs.append(KnownOutput(text, _sorted(tuple(releases)), classified, backend))
    return tuple(outputs)


def _is_release(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def dumps(known: Known) -> str:
    entries = []
    for output in known.outputs:
        entry: dict[str, object] = {} if output.backend == CPU else {"backend": output.backend}
        entry |= {"releases": list(output.releases), "text": output.text}
        if output.verdicts:
            entry["verdicts"] = {
                claim: {"verdict": c.verdict, "why": c.why}
                for claim, c in sorted(output.verdicts.items())
            }
        entries.append(entry)
    return toml_writer.dumps({"output": entries}, HEADER)


@contextmanager
def updating(snippets: Path) -> Iterator[None]:
    """Hold the known-differences folder while a file in it is read, changed and written, so
    that releases recorded at the same time (a matrix run) do not undo each other's writes."""
    folder = snippets / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    handle = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # releases the lock


def save(known: Known) -> None:
    """Write the file (whole or not at all); a snippet with no known difference has none."""
    if known.outputs:
        write_atomic(known.path, dumps(known))
    else:
        remove(known.path)
