"""The labelled corpus of real timing code (``tests/review_corpus/``): each excerpt marks the line
of each mistake with ``# expect: <checklist anchor>`` (or the file ``# expect: clean``), and the
review is scored against the labels, rule by rule."""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from harnesscheck import rules, sources
from harnesscheck.model.module import Module
from harnesscheck.regions import regions
from harnesscheck.rules import RULES

EXPECT = re.compile(r"#\s*expect:\s*(.+)$")
# Rules the corpus was not labelled for (INDEX.md says why): their findings are not scored.
NOT_LABELLED = {"JW112"}  # review-many-arrays was not among the anchors to label
# Rules that report a timed region once, at its first call of what they find there, naming the
# others (JW102: "'private_update', 'update' are first called inside the timed region").
ONE_A_REGION = {"JW102"}
CELL = re.compile(r"^#\s*\[cell \d+\]")  # where a notebook's cell starts in an excerpt


def _labelled(name: str) -> str:
    """The rule's code a label names: a checklist anchor, or a rule's code where one item has
    several rules (an anchor stands for the first of them)."""
    name = name.strip()
    if name.upper() in RULES:
        return name.upper()
    return next(rule.code for rule in RULES.values() if rule.anchor == name)


@dataclass
class CorpusScore:
    """True and false positives and false negatives per rule, and what could not be scored."""

    hits: Counter[str] = field(default_factory=Counter)
    false_alarms: Counter[str] = field(default_factory=Counter)
    misses: Counter[str] = field(default_factory=Counter)
    unscored: Counter[str] = field(default_factory=Counter)  # findings of NOT_LABELLED rules
    wrong: list[str] = field(default_factory=list)  # "file:line CODE found|missed"
    unparsed: list[str] = field(default_factory=list)

    def precision(self, rule: str) -> float | None:
        said = self.hits[rule] + self.false_alarms[rule]
        return self.hits[rule] / said if said else None

    def recall(self, rule: str) -> float | None:
        there = self.hits[rule] + self.misses[rule]
        return self.hits[rule] / there if there else None


def labels(text: str) -> set[tuple[str, int]]:
    found = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT.search(line)
        if match and match[1].strip() != "clean":
            found |= {(_labelled(name), number) for name in match[1].split(",")}
    return found


def excerpt_as_module(text: str) -> str:
    """An excerpt as a module, its lines where they were. The header's comment lines are blank;
    each ``# ...`` (lines left out) is blank, or ``...`` where a block would otherwise be empty;
    a cut that starts deeper than it goes on is opened with ``if True:`` lines put in the blank
    header; each notebook cell's IPython magics are read as review reads them."""
    raw = text.splitlines()
    lines: list[str | None] = []  # None: lines left out
    for line in raw:
        stripped = line.strip()
        lines.append(None if stripped == "# ..." else "" if stripped.startswith("#") else line)
    code = [i for i, line in enumerate(lines) if line and line.strip()]
    for i, line in enumerate(lines):
        if line is None:
            lines[i] = _left_out(lines, code, i)
    body = textwrap.dedent("\n".join(line or "" for line in lines)).splitlines()
    _open_blocks(body)
    starts = [i for i, line in enumerate(raw) if CELL.match(line)]
    bounds = [0, *starts, len(body)]
    module: list[str] = []
    for a, b in itertools.pairwise(bounds):
        cell = sources.without_magics("\n".join(body[a:b])).split("\n") if b > a else []
        module += cell + [""] * (b - a - len(cell))  # each line where it was
    return "\n".join(module)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _left_out(lines: list[str | None], code: list[int], i: int) -> str:
    """``...`` under a block header that is left without a body, else nothing."""
    before = [j for j in code if j < i]
    after = [j for j in code if j > i]
    if not before:
        return ""
    header = lines[before[-1]] or ""
    if not header.split("#")[0].rstrip().endswith(":"):
        return ""
    if after and _indent(lines[after[0]] or "") > _indent(header):
        return ""
    return " " * (_indent(header) + 4) + "..."


def _open_blocks(body: list[str]) -> None:
    """An excerpt cut from inside a block comes back out of it: each level it comes back to
    is opened with ``if True:`` on a blank line above its first line."""
    code = [line for line in body if line.strip()]
    if not code:
        return
    levels, lowest = [], _indent(code[0])
    for line in code:
        if _indent(line) < lowest:
            lowest = _indent(line)
            levels.append(lowest)
    first = body.index(code[0])
    if len(levels) > first:
        return  # not enough blank header lines: left as it is, and reported as not Python
    for k, level in enumerate(reversed(levels)):
        body[first - len(levels) + k] = " " * level + "if True:"


def score(folder: Path) -> CorpusScore:
    result = CorpusScore()
    for path in sorted(folder.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        module = excerpt_as_module(text)
        try:
            tree = ast.parse(module)
        except SyntaxError as error:
            result.unparsed.append(f"{path.name}:{error.lineno}: {error.msg}")
            continue
        expected = labels(text)
        unlabelled = "\n".join(EXPECT.sub("", line) for line in module.splitlines())
        matched = set()  # a label anywhere in the statement or call found matches it
        module = Module.alone(tree, unlabelled)
        timed = [(r.start, getattr(r.end, "end_lineno", None) or r.start) for r in regions(module)]
        for finding in rules.check(module):
            if finding.rule in NOT_LABELLED:
                result.unscored[finding.rule] += 1
                continue
            span = range(finding.line, max(finding.line, finding.end_line) + 1)
            hit = {(finding.rule, line) for line in span} & expected
            if finding.rule in ONE_A_REGION:  # it names every call of its region it is about
                around = [(a, b) for a, b in timed if a <= finding.line <= b]
                hit |= {
                    (rule, line)
                    for rule, line in expected
                    if rule == finding.rule and any(a <= line <= b for a, b in around)
                }
            if hit:
                result.hits[finding.rule] += 1
                matched |= hit
            else:
                result.false_alarms[finding.rule] += 1
                where = f"{path.name}:{finding.line}"
                result.wrong.append(f"{where} {finding.rule} found, not labelled")
        for rule, line in sorted(expected - matched):
            result.misses[rule] += 1
            result.wrong.append(f"{path.name}:{line} {rule} labelled, not found")
    return result
