"""Re-record snippet outputs, only from runs that succeeded the same way twice.

On the pinned JAX release an output goes to ``snippets/<name>.out``; on another release, with
``known=True``, it goes to ``snippets/known/<release>/<name>.out`` as a known difference (and a
known difference equal to the recorded output is dropped: it is not a difference). Each file is
written whole or not at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.platform import Platform, probe
from jaxwaits.evidence.report import describe, diff
from jaxwaits.evidence.runner import Result, run_snippets
from jaxwaits.evidence.snippets import Snippet
from jaxwaits.files import write_atomic

RECORD_RUNS = 2  # an output that varies between two runs is flaky, and is not written

Backs = Mapping[str, Sequence[str]]  # snippet name -> the claims it backs


def apply(
    results: Sequence[Result],
    platform: Platform,
    folder: Path,
    *,
    known: bool = False,
    backs: Backs | None = None,
) -> tuple[list[str], bool]:
    """Write the new outputs of results that ran cleanly; return report lines and success.

    ``backs`` names the claims of each snippet, for the report of one that was not recorded.
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
        target = snippet.known_path(platform.jax) if known else snippet.recorded_path
        if known and printed == snippet.recorded():
            target.unlink(missing_ok=True)
            lines.append(f"{snippet.name}: prints its recorded output; no known difference kept")
        elif result.outcome.passed and target == result.expected_from:
            lines.append(f"{snippet.name}: unchanged")
        else:
            before = target.read_text(encoding="utf-8") if target.exists() else ""
            lines.append(f"{snippet.name}: recorded in {target.relative_to(folder.parent)}")
            lines.append(diff(before, printed, "recorded before", "recorded now"))
            write_atomic(target, printed)
    return lines, ok


def record_on(
    snippets: Sequence[Snippet],
    folder: Path,
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
    lines, ok = apply(results, platform, folder, known=known, backs=backs)
    return platform, lines, ok
