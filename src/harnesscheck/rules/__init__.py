"""The rules of ``jaxwaits review``, one module each (``jw101_timer_before_wait.py`` …), found
here by their names. A rule's module holds, as constants, its code, its name, the checklist item
that states it (an anchor of review.html), the claims whose snippets prove it, a one-line
summary and the words its mistake cannot be written without; its docstring is its
documentation, which the site's review-tool page shows; its ``check(source)`` yields what it
finds; and, where ``jaxwaits watch`` reports it, its ``watched(seen)`` says what the watch saw at
one place. Adding a rule is adding a module, and its fixture in ``tests/review_rules/``.

What they share is analysis, not rules: the module's facts (:mod:`harnesscheck.model.module`) and
its timed regions (:mod:`harnesscheck.regions`), given to every rule as a :class:`Source`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from harnesscheck.findings import Finding
from harnesscheck.model.module import Module
from harnesscheck.regions import Region, regions
from harnesscheck.sources.suppressions import Comment, comments


@dataclass(frozen=True)
class Source:
    """What every rule is given: the facts of one module, its timed regions and its
    suppression comments; a rule that runs after the others is also given what they found."""

    facts: Module
    regions: list[Region]
    comments: list[Comment]
    found: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class Seen:
    """What ``jaxwaits watch`` saw of one rule at one place: the observer's lines (one an
    interval, or a call wrong in itself), the file of the place, and the lines the intervals
    started at."""

    found: list[dict[str, Any]]
    here: str
    starts: list[tuple[str, int]]

    def lines(self, places: list[tuple[str, int]]) -> str:
        """``line 12, 14`` in the place's file, ``timing.py:8`` in another."""
        here = self.here
        said = [str(n) if path == here else f"{Path(path).name}:{n}" for path, n in places[:5]]
        return "line " + ", ".join(said) + (", …" if len(places) > 5 else "")

    @property
    def since(self) -> str:
        return self.lines(self.starts)

    @property
    def times(self) -> str:
        return f"in {len(self.found)} intervals" if len(self.found) > 1 else "once"

    @property
    def where(self) -> str:
        """The lines of the calls the lines name."""
        return self.lines(sorted({tuple(c) for f in self.found for c in f.get("calls", [])}))


# A word a mistake cannot be written without, words it needs all of, or a pattern its words
# must make (``except (ValueError, RuntimeError)``).
Word = str | tuple[str, ...] | re.Pattern[str]


@dataclass(frozen=True)
class Rule:
    """A mistake in code that times or waits on JAX work, as its module states it."""

    code: str  # JW101 …: what findings, suppressions and configuration name it by
    name: str
    anchor: str  # the checklist item on review.html that states the rule ('': none)
    claims: tuple[str, ...]
    summary: str
    words: tuple[Word, ...]  # a source without any of them cannot hold the mistake
    doc: str  # MyST: what it finds and why it is wrong, an example, what to write instead
    check: Callable[[Source], Iterator[Finding]] = field(compare=False, repr=False)
    after_others: bool = False  # it judges what the other rules found (JW100)
    # what the watch says where it saw the mistake happen (None: the watch does not report it)
    watched: Callable[[Seen], str] | None = field(default=None, compare=False, repr=False)


MODULE = re.compile(r"jw\d{3}_[a-z_]+")


def _found() -> dict[str, Rule]:
    """Every rule module of this package, by code, in the order of their codes."""
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not MODULE.fullmatch(info.name):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        rule = Rule(
            module.CODE,
            module.NAME,
            module.ANCHOR,
            tuple(module.CLAIMS),
            module.SUMMARY,
            tuple(module.WORDS),
            (module.__doc__ or "").strip(),
            module.check,
            getattr(module, "AFTER_OTHERS", False),
            getattr(module, "watched", None),
        )
        expected = f"{rule.code.lower()}_{rule.name.replace('-', '_')}"
        if info.name != expected:
            raise ImportError(
                f"{info.name}.py holds rule {rule.code} {rule.name}: name it {expected}.py"
            )
        found[rule.code] = rule
    return found


RULES: dict[str, Rule] = _found()
WORDS = tuple(dict.fromkeys(word for rule in RULES.values() for word in rule.words))


def parse_codes(text: str) -> set[str]:
    """Rule codes separated by commas (``JW101,JW104``); an unknown code raises ValueError."""
    found = set()
    for code in (part.strip().upper() for part in text.split(",")):
        if code and code not in RULES:
            raise ValueError(code)
        if code:
            found.add(code)
    return found


def worth_checking(source: str) -> bool:
    """Could any rule find anything in ``source``? (Most files have no timing, and are left.)"""
    return any(_holds(source, word) for word in WORDS)


def _holds(source: str, word: Word) -> bool:
    if isinstance(word, str):
        return word in source
    if isinstance(word, tuple):
        return all(part in source for part in word)
    return word.search(source) is not None


def check(facts: Module, codes: set[str] | None = None) -> list[Finding]:
    """Every finding of the rules ``codes`` (all, by default) in one module that its
    suppression comments do not silence, in the order of the lines. Every rule runs, whatever
    is chosen: a suppression is judged by what all of them find."""
    given = Source(facts, regions(facts), comments(facts.source, set(RULES)))
    first = [rule for rule in RULES.values() if not rule.after_others]
    found = {finding for rule in first for finding in rule.check(given)}
    after = replace(given, found=tuple(found))
    found |= {f for rule in RULES.values() if rule.after_others for f in rule.check(after)}
    kept = [
        finding
        for finding in found
        if (codes is None or finding.rule in codes)
        and not any(comment.silences(finding) for comment in given.comments)
    ]
    return sorted(kept, key=lambda f: (f.line, f.col, f.rule))
