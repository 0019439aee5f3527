"""The labelled corpus of real timing code (``tests/review_corpus/``): each excerpt marks the line
of each mistake with ``# expect: <checklist anchor>`` (or the file ``# expect: clean``), and the
review is scored against the labels, rule by rule."""

from __future__ import annotations

import ast
import re
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from jaxwaits.review import checks, sources
from jaxwaits.review.rules import Rule

EXPECT = re.compile(r"#\s*expect:\s*(.+)$")
BY_ANCHOR = {rule.info.anchor: rule for rule in Rule}


@dataclass
class Score:
    """True and false positives and false negatives per rule, and what could not be scored."""

    hits: Counter[Rule] = field(default_factory=Counter)
    false_alarms: Counter[Rule] = field(default_factory=Counter)
    misses: Counter[Rule] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)  # "file:line CODE found|missed"
    unparsed: list[str] = field(default_factory=list)

    def precision(self, rule: Rule) -> float | None:
        said = self.hits[rule] + self.false_alarms[rule]
        return self.hits[rule] / said if said else None

    def recall(self, rule: Rule) -> float | None:
        there = self.hits[rule] + self.misses[rule]
        return self.hits[rule] / there if there else None


def labels(text: str) -> set[tuple[Rule, int]]:
    found = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT.search(line)
        if match and match[1].strip() != "clean":
            found |= {(BY_ANCHOR[a.strip()], number) for a in match[1].split(",")}
    return found


def excerpt_as_module(text: str) -> str:
    """An excerpt as a module, its lines where they were: the header's comment lines blanked and
    each `# ...` (lines left out) an `...` statement, so that a function body cut out of its
    file can be dedented; IPython magics are read as review reads them in notebooks."""
    lines = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped == "# ...":
            lines.append(line[: len(line) - len(stripped)] + "...")
        else:
            lines.append("" if stripped.startswith("#") else line)
    return sources.without_magics(textwrap.dedent("\n".join(lines)))


def score(folder: Path) -> Score:
    result = Score()
    for path in sorted(folder.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(excerpt_as_module(text))
        except SyntaxError as error:
            result.unparsed.append(f"{path.name}:{error.lineno}: {error.msg}")
            continue
        expected = labels(text)
        found = {(f.rule, f.line) for f in checks.check(tree)}
        for rule, line in found:
            if (rule, line) in expected:
                result.hits[rule] += 1
            else:
                result.false_alarms[rule] += 1
                result.wrong.append(f"{path.name}:{line} {rule.value} found, not labelled")
        for rule, line in expected - found:
            result.misses[rule] += 1
            result.wrong.append(f"{path.name}:{line} {rule.value} labelled, not found")
    return result
