"""Re-record snippet outputs, only from runs that succeeded the same way twice.

On the pinned JAX release an output goes to ``snippets/<name>.out``; on another release, with
``known=True``, it goes to ``snippets/known/<release>/<name>.out`` as a known difference (and a
known difference equal to the recorded output is dropped: it is not a difference).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.report import describe, diff
from jaxwaits.evidence.runner import Result, Status
from jaxwaits.files import write_atomic

RECORD_RUNS = 2  # an output that varies between two runs is flaky, and is not written
VERSIONS_FILE = "recorded.json"


def apply(
    results: Sequence[Result],
    platform: Platform,
    folder: Path,
    *,
    known: bool = False,
    backs: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[str], bool]:
    """Write the new outputs of results that ran cleanly; return report lines and success.

    ``backs`` maps a snippet to the claims it backs, for the report of one that was not recorded.
    Each file is written whole or not at all.
    """
    lines: list[str] = []
    ok = True
    versions_path = folder / VERSIONS_FILE
    versions = json.loads(versions_path.read_text()) if versions_path.exists() else {}
    for result in results:
        snippet = result.snippet
        if result.status not in (Status.MATCHED, Status.DIFFERS, Status.UNRECORDED):
            ok = False
            lines.append(f"{snippet.name}: NOT recorded")
            lines.append(describe(result, platform, (backs or {}).get(snippet.name, ())))
            continue
        printed = result.runs[0].stdout
        target = snippet.known_path(platform.jax) if known else snippet.recorded_path
        if known and printed == snippet.recorded():
            target.unlink(missing_ok=True)
            lines.append(f"{snippet.name}: prints its recorded output; no known difference kept")
        elif result.status is Status.MATCHED and target == result.expected_from:
            lines.append(f"{snippet.name}: unchanged")
        else:
            before = target.read_text(encoding="utf-8") if target.exists() else ""
            lines.append(f"{snippet.name}: recorded in {target.relative_to(folder.parent)}")
            lines.append(diff(before, printed, "recorded before", "recorded now"))
            write_atomic(target, printed)
        if not known:
            versions[snippet.name] = platform.as_dict()
    if not known:
        write_atomic(versions_path, json.dumps(dict(sorted(versions.items())), indent=2) + "\n")
    return lines, ok
