"""Each rule's fixture and its snapshot, as ruff keeps them: ``tests/review_rules/jwNNN.py`` holds
the mistake (each line the rule must find marked ``# <- JWNNN``) and, after ``# %% done right``,
the same harness done right, each part reviewed as a module of its own; ``jwNNN.snap`` holds what
the rule found there. A rule without a fixture, a fixture or snapshot that no rule has, and a
snapshot that differs from what the rule finds all fail.

Run ``python tests/checker/test_review_rules.py`` (with the package installed, as in the tests'
environment) to record the snapshots again (a test never writes
them); then read the difference before committing it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from harnesscheck import rules as registry
from harnesscheck.model.module import Module
from harnesscheck.rules import RULES

FIXTURES = Path(__file__).resolve().parents[1] / "review_rules"
RIGHT = "# %% done right\n"


def _parts(text: str) -> list[tuple[int, str]]:
    """The fixture's two parts, each with the line of the file it starts on."""
    if RIGHT not in text:
        raise AssertionError(f"no {RIGHT.strip()!r} line: the fixture needs the right code too")
    wrong, right = text.split(RIGHT)
    return [(1, wrong), (wrong.count("\n") + 2, right)]


def found(code: str) -> list[str]:
    """What rule ``code`` finds in its fixture: ``line:column message``, in line order."""
    lines = []
    text = (FIXTURES / f"{code.lower()}.py").read_text(encoding="utf-8")
    for start, part in _parts(text):
        padded = "\n" * (start - 1) + part  # keeps the file's line numbers
        for finding in registry.check(Module.alone(ast.parse(padded), padded), {code}):
            lines.append(f"{finding.line}:{finding.col} {finding.message}")
    return lines


def marked(code: str) -> list[int]:
    text = (FIXTURES / f"{code.lower()}.py").read_text(encoding="utf-8")
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if re.search(rf"# <- {code}\b", line)
    ]


@pytest.mark.parametrize("code", list(RULES))
def test_each_rule_finds_the_marked_lines_of_its_fixture_and_its_snapshot(code: str) -> None:
    fixture = FIXTURES / f"{code.lower()}.py"
    assert fixture.is_file(), f"rule {code} has no fixture: add {fixture}"
    result = found(code)
    assert [int(line.split(":")[0]) for line in result] == marked(code), result
    right_starts = _parts(fixture.read_text(encoding="utf-8"))[1][0]
    assert all(n < right_starts for n in marked(code)), "a mistake marked in the right code"
    snapshot = fixture.with_suffix(".snap")
    assert snapshot.is_file(), f"no {snapshot.name}: run python tests/checker/test_review_rules.py"
    recorded = snapshot.read_text(encoding="utf-8").splitlines()
    assert result == recorded, (
        f"{snapshot.name} differs: run python tests/checker/test_review_rules.py"
    )


def test_no_fixture_or_snapshot_without_its_rule() -> None:
    """Snapshots and fixtures of a rule that is gone are reported, as syrupy reports unused
    snapshots."""
    known = {f"{code.lower()}{suffix}" for code in RULES for suffix in (".py", ".snap")}
    assert {path.name for path in FIXTURES.iterdir()} - known == set()


def record() -> None:
    for code in RULES:
        (FIXTURES / f"{code.lower()}.snap").write_text(
            "".join(line + "\n" for line in found(code)), encoding="utf-8"
        )
        print(f"{code}: {len(found(code))} findings recorded")


if __name__ == "__main__":
    record()
