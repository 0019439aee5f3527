"""What a review found: findings located in files, the files it could not read, and the Python
it left out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harnesscheck.findings import Finding


@dataclass(frozen=True)
class Located:
    """A finding in a file (in a notebook, in one of its cells; the line is the cell's)."""

    path: Path
    finding: Finding
    cell: int | None = None


@dataclass
class Review:
    """What a review found, file by file, what it could not read (``unreadable``: the review
    exits 2), and the code it left out as not Python (``notes``: a fence of pseudo-code)."""

    findings: list[Located] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    files: int = 0
    notes: list[str] = field(default_factory=list)
