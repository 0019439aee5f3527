"""Re-record snippet outputs, only from runs that succeeded the same way twice."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from jaxwaits.platform import Platform
from jaxwaits.report import describe, diff
from jaxwaits.runner import Result, Status

RECORD_RUNS = 2  # an output that varies between two runs is flaky, and is not written
VERSIONS_FILE = "recorded.json"


def apply(results: Sequence[Result], platform: Platform, folder: Path) -> tuple[list[str], bool]:
    """Write the new outputs of results that ran cleanly; return report lines and success."""
    lines: list[str] = []
    ok = True
    versions_path = folder / VERSIONS_FILE
    versions = json.loads(versions_path.read_text()) if versions_path.exists() else {}
    for result in results:
        snippet = result.snippet
        status = result.status
        if status in (Status.MATCHED, Status.DIFFERS, Status.UNRECORDED):
            printed = result.runs[0].stdout
            if status is Status.MATCHED:
                lines.append(f"{snippet.name}: unchanged")
            else:
                lines.append(f"{snippet.name}: re-recorded")
                lines.append(
                    diff(result.expected or "", printed, "recorded before", "recorded now")
                )
                snippet.recorded_path.write_text(printed, encoding="utf-8")
            versions[snippet.name] = platform.as_dict()
        else:
            ok = False
            lines.append(f"{snippet.name}: NOT recorded")
            lines.append(describe(result, platform))
    versions_path.write_text(json.dumps(dict(sorted(versions.items())), indent=2) + "\n")
    return lines, ok
