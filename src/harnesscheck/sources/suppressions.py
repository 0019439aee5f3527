"""The comments that silence rules: ``# jaxwaits: ignore[JW101, JW104] why`` on a finding's line,
``# jaxwaits: ignore`` (every rule) there, and the same with ``ignore-file`` for the whole chunk;
read once per chunk (rule JW100 reports those that silence nothing)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harnesscheck.findings import Finding

SUPPRESSION = re.compile(r"#\s*jaxwaits:\s*(ignore-file|ignore)\b(?:\[([A-Za-z0-9_,\s]*)\])?")


@dataclass(frozen=True)
class Comment:
    """One suppression comment: its line and column, the codes it names (None: every rule),
    and whether it is for the whole chunk."""

    line: int
    col: int
    codes: frozenset[str] | None
    whole: bool

    def silences(self, finding: Finding) -> bool:
        here = self.whole or finding.line == self.line
        return here and (self.codes is None or finding.rule in self.codes)


def comments(source: str, known: set[str]) -> list[Comment]:
    """The suppression comments of a chunk of source; codes that name no rule are left out."""
    found: list[Comment] = []
    if "jaxwaits:" not in source:
        return found  # most chunks: no line to search
    for number, line in enumerate(source.splitlines(), start=1):
        match = SUPPRESSION.search(line)
        if not match:
            continue
        codes = None
        if match[2] is not None:
            named = {c.strip().upper() for c in match[2].split(",") if c.strip()}
            codes = frozenset(named & known)
        found.append(Comment(number, match.start() + 1, codes, match[1] == "ignore-file"))
    return found
