"""Re-record snippet outputs, only from runs that succeeded the same way twice.

On the pinned JAX release an output goes to ``snippets/<name>.out``; on another release, with
``known=True``, it is recorded in ``snippets/known/<name>.toml`` as a known difference of that
release (:mod:`jaxwaits.evidence.known`), and a release that prints the recorded output again is
taken out of it. A new known output needs a verdict for each claim the snippet backs: it is
written as ``unclassified``, and the report says where to classify it. Each file is written whole
or not at all, and one ``record`` at a time holds a checkout (:func:`holding`).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from jaxwaits import files
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known as known_differences
from jaxwaits.evidence.known import UNCLASSIFIED, Classification
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform, probe
from jaxwaits.evidence.report import describe, diff
from jaxwaits.evidence.runner import Result, run_snippets
from jaxwaits.evidence.snippets import Snippet
from jaxwaits.files import write_atomic

RECORD_RUNS = 2  # an output that varies between two runs is flaky, and is not written
HELD = Path(".cache") / "record.lock"  # in a folder git ignores and the snapshots skip

Backs = Mapping[str, Sequence[str]]  # snippet name -> the claims it backs


def apply(
    results: Sequence[Result],
    platform: Platform,
    *,
    known: bool = False,
    backs: Backs | None = None,
) -> tuple[list[str], bool]:
    """Write the new outputs of results that ran cleanly; return report lines and success
    (false if a run could not be recorded, or a known output waits for its verdicts).

    ``backs`` names the claims of each snippet: for reports, and for the verdicts a new known
    output needs.
    """
    lines: list[str] = []
    ok = True
    for result in results:
        snippet = result.snippet
        if not result.outcome.recordable:
            ok = False
            lines.append(f"{snippet.name}: NOT recorded")
            lines.append(describe(result, platform, (backs or {}).get(snippet.name, ())))
            continue
        printed = result.runs[0].stdout
        if known:
            claims = (backs or {}).get(snippet.name, ())
            told, classified = _record_known(snippet, platform, printed, claims)
            lines += told
            ok = ok and classified
        elif result.outcome is Outcome.MATCHED:
            lines.append(f"{snippet.name}: unchanged")
        else:
            before = snippet.recorded() or ""
            lines.append(f"{snippet.name}: recorded in snippets/{snippet.recorded_path.name}")
            lines.append(diff(before, printed, "recorded before", "recorded now"))
            write_atomic(snippet.recorded_path, printed)
    return lines, ok


def _record_known(
    snippet: Snippet, platform: Platform, printed: str, claims: Sequence[str]
) -> tuple[list[str], bool]:
    """Record what the platform's release prints as a known difference; say so, and whether
    every claim the snippet backs has a verdict for that output. On CPU the recorded text
    itself is no difference; on another backend it is kept, as what that backend printed."""
    with known_differences.updating(snippet.path.parent):
        return _record_known_held(snippet, platform, printed, claims)


def _record_known_held(
    snippet: Snippet, platform: Platform, printed: str, claims: Sequence[str]
) -> tuple[list[str], bool]:
    release, backend = platform.jax, platform.backend
    before = snippet.known_differences()
    if printed == snippet.recorded() and backend == known_differences.CPU:
        known_differences.save(before.without(release))
        return [f"{snippet.name}: prints its recorded output; no known difference kept"], True
    after = before.recorded(release, printed, backend)
    output = after.for_release(release, backend)
    assert output is not None
    joined = [r for r in output.releases if r != release]
    inherited = bool(
        joined
        and before.for_release(release, backend) is None
        and any(c.verdict != UNCLASSIFIED for c in output.verdicts.values())
    )
    missing = [claim for claim in claims if claim not in output.verdicts]
    if missing:
        filled = {c: Classification(UNCLASSIFIED, "") for c in missing}
        after = replace(
            after,
            outputs=tuple(
                replace(o, verdicts={**o.verdicts, **filled}) if o is output else o
                for o in after.outputs
            ),
        )
    known_differences.save(after)
    where = known_differences.path_for(snippet.path.parent, snippet.name)
    on = "" if backend == known_differences.CPU else f" on {backend}"
    lines = [f"{snippet.name}: jax {release}{on} recorded in snippets/known/{where.name}"]
    unclassified = sorted(
        claim
        for claim, c in (after.for_release(release, backend) or output).verdicts.items()
        if c.verdict == UNCLASSIFIED
    )
    if unclassified:
        lines.append(
            f"  classify this output for {', '.join(unclassified)}: in {where}, give each a "
            "verdict (holds, output differs / does not hold / not observable / absent) and why"
        )
    if inherited:
        span = joined[0] if len(joined) == 1 else f"{joined[0]} – {joined[-1]}"
        lines.append(
            f"  jax {release} printed what jax {span} printed, so that output's verdicts and whys, "
            f"written for those releases, now stand for {release} too: re-read them in {where}; "
            f"where one is not true of {release}, give it an output of its own (the same text, "
            "its own verdicts)"
        )
    return lines, not unclassified


def record_on(
    snippets: Sequence[Snippet],
    python: str,
    pinned: str,
    *,
    known: bool,
    backs: Backs | None = None,
    jobs: int | None = None,
) -> tuple[Platform, list[str], bool]:
    """Re-record ``snippets`` on ``python``'s JAX: the recorded outputs on the ``pinned``
    release, known differences (``known``) on any other."""
    platform = probe(python)
    if (platform.jax == pinned) == known:
        why = (
            "--known records differences on other releases only"
            if known
            else "to record what this release prints as a known difference, add --known"
        )
        raise JaxwaitsError(
            f"this interpreter has jax {platform.jax} and the recorded outputs hold for the "
            f"pinned jax {pinned}: {why}"
        )
    results = run_snippets(snippets, platform.jax, repeat=RECORD_RUNS, jobs=jobs, python=python)
    lines, ok = apply(results, platform, known=known, backs=backs)
    return platform, lines, ok


@contextmanager
def holding(root: Path) -> Iterator[None]:
    """Hold the checkout at ``root`` for one ``record``: a second one would see the first's
    writes as its own snippets changing the checkout, so it is refused, naming the first. The
    lock is the open file's, and ends with the process however it ends."""
    path = root / HELD
    try:
        path.parent.mkdir(exist_ok=True)
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise JaxwaitsError(f"cannot lock the checkout with {path}: {error.strerror}") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(handle, 20, 0).decode("ascii", "replace").strip()
            raise JaxwaitsError(
                f"another `jaxwaits record` (pid {pid if pid.isdigit() else 'unknown'}) holds "
                f"this checkout ({root}); wait for it or stop it"
            ) from None
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(handle)


def remove_left_behind(snippets: Path) -> list[str]:
    """Remove the temporary files that a ``record`` (or a known difference's writer) killed
    mid-write left in ``snippets``, with a line for each. Called holding the checkout
    (:func:`holding`); the known differences' folder is held too, so no writer is at work."""
    lines = _remove_left_behind(snippets, snippets)
    known = snippets / known_differences.FOLDER
    if known.is_dir():
        with known_differences.updating(snippets):
            lines += _remove_left_behind(known, snippets)
    return lines


def _remove_left_behind(folder: Path, snippets: Path) -> list[str]:
    lines = []
    for path in files.left_behind(folder):
        files.remove(path)
        where = path.relative_to(snippets.parent)
        lines.append(f"removed {where}: a writer stopped before it finished left it")
    return lines
