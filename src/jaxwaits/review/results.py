"""What a review found: findings located in files, and the files it could not read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jaxwaits.review.facts import Finding


@dataclass(frozen=True)
class Located:
    """A finding in a file (in a notebook, in one of its cells; the line is the cell's)."""

    path: Path
    finding: Finding
    cell: int | None = None


@dataclass
class Review:
    """What a review found, file by file, and the files it could not read."""

    findings: list[Located] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    files: int = 0
