"""Issue 23: nothing a page, a snippet or a reviewed file does damages the checkout, hides
other results or outlives its run. One test (or more) per point, each on a temporary copy."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest
from copies import SCOPE

from jaxwaits import cli
from jaxwaits.claims import registry as claims
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known, report
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Outcome, run_snippets
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.evidence.template import Templates
from jaxwaits.files import inside
from jaxwaits.project import Project
from jaxwaits.releases import verdicts
from jaxwaits.review import review_file, sources
from jaxwaits.review.rules import Rule

PLATFORM = Platform(jax="0.4.30", jaxlib="0.4.30", python="3", backend="cpu")


def problems_in(project: Project) -> list[str]:
    registry = claims.scan(project)
    names = {snippet.name for snippet in load_snippets(project.snippets)}
    return [str(problem) for problem in claims.check(registry, names)]


@pytest.fixture
def copy(project: Project, tmp_path: Path) -> Project:
    for room in ("docs", "snippets", "annotated_src"):
        shutil.copytree(
            project.root / room, tmp_path / room, ignore=shutil.ignore_patterns("_build", "claim")
        )
    return Project(tmp_path)


# 1. A claim ID is checked where it is read, before any path is made from it.
@pytest.mark.parametrize("bad", ["../glossary", "../../zz-escaped", "UPPER-Case", "ünïcode-claim"])
def test_1_an_id_that_is_not_kebab_case_is_named_and_not_read(copy: Project, bad: str) -> None:
    options = f":evidence: method_returns_self\n:renamed-from: ../old\n{SCOPE}"
    (copy.docs / "scratch.md").write_text(f"# Scratch\n\n```{{claim}} {bad}\n{options}It.\n```\n")
    registry = claims.scan(copy)
    assert bad not in registry.claims  # so no page, link or file is made from it
    found = problems_in(copy)
    assert f"docs/scratch.md:3: claim ID {bad!r} is not kebab-case" in "\n".join(found), found


def test_1_an_old_id_that_is_not_kebab_case_is_named_and_ignored(copy: Project) -> None:
    options = f":evidence: method_returns_self\n:renamed-from: ../../old-escaped kept-old\n{SCOPE}"
    (copy.docs / "scratch.md").write_text(
        f"# Scratch\n\n```{{claim}} fresh-one\n{options}It.\n```\n"
    )
    claim = claims.scan(copy).claims["fresh-one"]
    assert claim.renamed_from == ("kept-old",)
    found = "\n".join(problems_in(copy))
    assert "docs/scratch.md:3: claim 'fresh-one': old ID '../../old-escaped' in :renamed-from:" in (
        found
    )


@pytest.mark.parametrize("name", ["../glossary.md", "../../x.md", "a/b.md", "..", "", "."])
def test_1_a_generated_file_stays_in_its_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(JaxwaitsError, match="not a file name inside"):
        inside(tmp_path / "claim", name)
    assert inside(tmp_path / "claim", "ok-id.md") == tmp_path / "claim" / "ok-id.md"


# 3. One reviewed file that breaks the review is that file's error; the others are still reported.
GOOD = "import time, jax\nt0 = time.time()\ny = jax.jit(lambda a: a)(1)\nprint(time.time() - t0)\n"
CELL = {"cell_type": "code", "id": "c1", "metadata": {}, "outputs": [], "execution_count": None}
NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}}
BROKEN = {
    "deep.py": ("x = " + "+".join(["1"] * 200_000) + "\n", "too deeply nested or too large"),
    "ints.ipynb": (
        json.dumps({**NOTEBOOK, "cells": [{**CELL, "source": [1, 2]}]}),
        "not a valid notebook",
    ),
    "list.ipynb": ("[1, 2]", "not a valid notebook"),
    # 8. a notebook that leaves out what nbformat requires is named, not read as empty
    "bare.ipynb": (json.dumps({"cells": [{**CELL, "source": GOOD}]}), "not a valid notebook"),
    "nul.py": ("x = 1\ny = 2\0\n", "nul.py:2: not Python"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_3_a_file_that_breaks_the_review_hides_no_other_result(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, says = BROKEN[name]
    (tmp_path / name).write_text(text)
    (tmp_path / "harness.py").write_text(GOOD)
    assert cli.main(["review", str(tmp_path / name), str(tmp_path / "harness.py")]) == 2
    out = capsys.readouterr().out
    assert f"{name}" in out and says in out, out
    assert "harness.py:4:1 JW101" in out, out
    assert "Traceback" not in out


def test_8_a_coding_line_is_honoured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "# -*- coding: latin-1 -*-\n# café\n" + GOOD
    (tmp_path / "latin.py").write_bytes(text.encode("latin-1"))
    assert cli.main(["review", str(tmp_path / "latin.py")]) == 1
    assert "latin.py:6:1 JW101" in capsys.readouterr().out


# 5. The review is linear in the size of a file, timed regions at module level included.
def test_5_four_times_the_module_level_regions_take_about_four_times_as_long(
    tmp_path: Path,
) -> None:
    block = "t0 = time.time()\ny = f(x)\nprint(time.time() - t0)\n"
    head = "import time, jax\nf = jax.jit(lambda a: a)\nx = np.ones(3)\n"

    def seconds(regions: int) -> float:
        path = tmp_path / f"bench_{regions}.py"
        path.write_text(head + block * regions)
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            found = review_file(path, set(Rule))
            best = min(best, time.perf_counter() - started)
        assert len(found) == 2 * regions + 1  # unblocked, NumPy input; the first call compiles
        return best

    ratio = seconds(2000) / seconds(500)
    assert ratio < 8, f"4x the regions took {ratio:.1f}x as long (quadratic: about 16x)"


def test_5_a_file_too_large_to_review_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "LARGEST", 1000)
    (tmp_path / "generated.py").write_text("x = 1\n" * 200)
    (tmp_path / "harness.py").write_text(GOOD)
    assert cli.main(["review", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "generated.py: too large to review (0 MB; the review reads files up to 0 MB)" in out
    assert "harness.py:4:1 JW101" in out


# 6. A known-differences file is checked against its format; a bad one fails only its snippet.
GOOD_KNOWN = """\
[[output]]
releases = ["0.4.30"]
text = '''
1
'''

[output.verdicts.some-claim]
verdict = "not observable"
why = "because"
"""
BAD_KNOWN = {
    "not TOML": ("this is [not toml\n", "not readable: Expected '='"),
    "releases a string": (
        GOOD_KNOWN.replace('["0.4.30"]', '"0.4.30"'),
        "output 1.releases: must be a list of JAX releases, got '0.4.30'",
    ),
    "a release that is no number": (
        GOOD_KNOWN.replace('"0.4.30"', '"banana"'),
        "output 1.releases: 'banana' is not a JAX release number",
    ),
    "text a number": (
        GOOD_KNOWN.replace("text = '''\n1\n'''", "text = 5"),
        "output 1.text: must be the text printed, a string, got 5",
    ),
    "an unknown verdict word": (
        GOOD_KNOWN.replace('"not observable"', '"maybe"'),
        "output 1.verdicts.some-claim.verdict: 'maybe' is not one of: holds, output differs / "
        "does not hold / not observable / absent",
    ),
    "a misspelt key": (GOOD_KNOWN.replace("text =", "txt ="), "output 1.txt: unknown key"),
}


@pytest.mark.parametrize("fault", sorted(BAD_KNOWN))
def test_6_a_bad_known_file_fails_only_its_snippet_naming_file_and_key(
    tmp_path: Path, fault: str, templates: Templates
) -> None:
    text, says = BAD_KNOWN[fault]
    for name in ("bad", "fine"):
        (tmp_path / f"{name}.py").write_text("print(1)\n")
        (tmp_path / f"{name}.out").write_text("1\n")
    (tmp_path / "known").mkdir()
    (tmp_path / "known" / "bad.toml").write_text(text)
    with pytest.raises(JaxwaitsError, match=re.escape(says)):
        known.load(tmp_path, "bad")
    snippets = load_snippets(tmp_path)
    results = {r.snippet.name: r for r in run_snippets(snippets, "0.4.30", templates=templates)}
    assert results["fine"].outcome is Outcome.MATCHED
    assert results["bad"].outcome is Outcome.INVALID
    message = report.describe(results["bad"], PLATFORM)
    assert f"bad.py:1: its known differences: {tmp_path / 'known' / 'bad.toml'}: {says}" in message
    judge = verdicts.judge_for(snippets)
    named = verdicts.unclassified(judge, [])
    named = [line for line in named if "bad.toml" in line]
    assert len(named) == 1 and named[0].startswith(f"{tmp_path}/known/bad.toml: {says}"), named


def test_6_the_verdict_words_a_known_file_stores_are_the_classifications() -> None:
    assert [v.value for v in verdicts.CLASSIFICATIONS] == list(known.CLASSIFIED)
