"""Issue 23: nothing a page, a snippet or a reviewed file does damages the checkout, hides
other results or outlives its run. One test (or more) per point, each on a temporary copy."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from copies import SCOPE, copy_project

from harnesscheck import sources
from harnesscheck.review import review_file
from harnesscheck.rules import RULES
from jaxwaits import cli, files
from jaxwaits.chain import facts, verdicts
from jaxwaits.claims import registry as claims
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import checkout, known, report
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.processes import environment, kill_group
from jaxwaits.evidence.runner import Via, run_once, run_snippets
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.evidence.template import Template, Templates
from jaxwaits.files import inside
from jaxwaits.project import Project

PLATFORM = Platform(jax="0.4.30", jaxlib="0.4.30", python="3", backend="cpu")


def problems_in(project: Project) -> list[str]:
    registry = facts.registry(project)
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
            found = review_file(path, set(RULES))
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
verdict = "not-observable"
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
        GOOD_KNOWN.replace('"not-observable"', '"maybe"'),
        "output 1.verdicts.some-claim.verdict: 'maybe' is not one of: holds-output-differs / "
        "does-not-hold / not-observable / absent",
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
    assert [v.words for v in verdicts.CLASSIFICATIONS] == [
        "holds, output differs",
        "does not hold",
        "cannot be shown",
        "absent",
    ]


# 2. A snippet runs in a scratch folder; one that changes the checkout fails, naming the change.
VANDAL = """\
import os
here = os.path.dirname(os.path.abspath(__file__))
os.chdir("..")
open("left_in_scratch.txt", "w").write("x")  # a relative path: lands in its scratch folder
os.remove(os.path.join(here, "..", "docs", "glossary.md"))
open(os.path.join(here, "innocent.out"), "w").write("tampered\\n")
with open(os.path.join(here, "third.out"), "a") as third:
    third.write("more\\n")
print("done")
"""


def _checkout(tmp_path: Path, snippets: dict[str, str]) -> Path:
    """A checkout (docs/conf.py, snippets/) holding ``snippets``, each recorded as printing its
    own name."""
    root = tmp_path / "checkout"
    (root / "docs").mkdir(parents=True)
    (root / "snippets").mkdir()
    (root / "docs" / "conf.py").write_text("")
    (root / "docs" / "glossary.md").write_text("# Glossary\n")
    for name, code in snippets.items():
        (root / "snippets" / f"{name}.py").write_text(code)
        (root / "snippets" / f"{name}.out").write_text(f"{name}\n")
    return root


@pytest.mark.parametrize("fresh", [False, True], ids=["template", "fresh"])
def test_2_a_snippet_that_changes_the_checkout_fails_naming_what_changed(
    tmp_path: Path, templates: Templates, fresh: bool
) -> None:
    root = _checkout(tmp_path, {"vandal": VANDAL, "innocent": 'print("innocent")\n'})
    (root / "snippets" / "third.out").write_text("third\n")
    (root / "snippets" / "third.py").write_text('print("third")\n')
    vandal = load_snippets(root / "snippets", ["vandal"])
    [result] = run_snippets(vandal, fresh=fresh, templates=None if fresh else templates)
    assert result.outcome is Outcome.CHANGED_CHECKOUT
    assert result.runs[0].changed == (
        "deleted docs/glossary.md",
        "changed snippets/innocent.out",
        "changed snippets/third.out",
    )
    message = report.describe(result, PLATFORM)
    assert "while it ran, the checkout changed" in message and "deleted docs/glossary.md" in message
    assert not list(root.rglob("left_in_scratch.txt"))  # its scratch folder went with it
    assert not list(Path(tempfile.gettempdir()).glob("left_in_scratch.txt"))


def test_2_a_clean_run_leaves_the_checkout_as_it_was(tmp_path: Path, templates: Templates) -> None:
    writes = 'open("scratch.txt", "w").write("x")\nprint("writes")\n'
    root = _checkout(tmp_path, {"writes": writes, "reads": 'print("reads")\n'})
    before = checkout.snapshot(root)
    results = run_snippets(load_snippets(root / "snippets"), templates=templates)
    assert [r.outcome for r in results] == [Outcome.MATCHED, Outcome.MATCHED]
    assert checkout.changes(before, checkout.snapshot(root)) == []


def test_2_the_tools_own_writes_are_not_a_change(tmp_path: Path) -> None:
    before = checkout.snapshot(tmp_path)
    files.write_atomic(tmp_path / "ledger.json", "{}")
    (tmp_path / "theirs.txt").write_text("x")
    assert checkout.changes(before, checkout.snapshot(tmp_path)) == ["added theirs.txt"]


def test_2_read_the_docs_output_in_the_checkout_is_not_a_change(tmp_path: Path) -> None:
    """Issue 38, point 12: Read the Docs builds into _readthedocs/ in the checkout it builds
    ($READTHEDOCS_OUTPUT): a simulated build failed on 542 "the checkout changed" warnings."""
    before = checkout.snapshot(tmp_path)
    (tmp_path / "_readthedocs" / "html").mkdir(parents=True)
    (tmp_path / "_readthedocs" / "html" / "index.html").write_text("x")
    assert checkout.changes(before, checkout.snapshot(tmp_path)) == []


def test_2_the_tools_writes_are_not_a_change_while_they_happen(tmp_path: Path) -> None:
    """A matrix writes one release's ledger while another release's snippets run: a snapshot
    taken in the middle of a write (its temporary file there, or the new file not yet known as
    ours) blamed the snippet that was running (seen in a matrix run)."""
    stop = threading.Event()

    def write() -> None:
        for i in range(100_000):
            if stop.is_set():
                return
            files.write_atomic(tmp_path / "ledger.json", str(i))

    writer = threading.Thread(target=write)
    writer.start()
    try:
        blamed = [
            change
            for _ in range(300)
            for change in checkout.changes(checkout.snapshot(tmp_path), checkout.snapshot(tmp_path))
        ]
    finally:
        stop.set()
        writer.join()
    assert blamed == []


# 4. Nothing a snippet starts outlives its run, in a template's child or a fresh interpreter.
FORKER = """\
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    time.sleep(60)
    os._exit(0)
print("forker")
"""


@pytest.mark.parametrize("fresh", [False, True], ids=["template", "fresh"])
def test_4_a_snippet_that_leaves_processes_running_fails_and_they_end(
    tmp_path: Path, templates: Templates, fresh: bool
) -> None:
    root = _checkout(tmp_path, {"forker": FORKER})
    snippets = load_snippets(root / "snippets")
    [result] = run_snippets(snippets, fresh=fresh, templates=None if fresh else templates)
    assert result.outcome is Outcome.LEFT_RUNNING
    left = result.runs[0].left
    assert len(left) == 2 and any("time.sleep(60)" in process for process in left), left
    for process in left:
        pid = int(process.split(":")[0].removeprefix("pid "))
        assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid), process
    assert "it left 2 processes running when it ended, killed then" in report.describe(
        result, PLATFORM
    )


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


# 7. The two ways to run a snippet agree on how it ended.
ENDINGS = {
    "closes_stdout": ('import sys\nprint("closes_stdout")\nsys.stdout.close()\n', Outcome.MATCHED),
    "interrupted": ('print("interrupted")\nraise KeyboardInterrupt\n', Outcome.CRASHED),
}


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_7_a_template_child_ends_as_a_fresh_interpreter_does(
    tmp_path: Path, templates: Templates, name: str
) -> None:
    code, outcome = ENDINGS[name]
    root = _checkout(tmp_path, {name: code})
    snippets = load_snippets(root / "snippets")
    [child] = run_snippets(snippets, templates=templates)
    [fresh] = run_snippets(snippets, fresh=True)
    assert child.runs[0].via is Via.TEMPLATE
    assert (child.outcome, child.runs[0].returncode) == (fresh.outcome, fresh.runs[0].returncode)
    assert child.outcome is outcome


def test_7_a_template_that_dies_during_a_run_is_named_as_dead(tmp_path: Path) -> None:
    root = _checkout(tmp_path, {"slow": 'import time\ntime.sleep(3)\nprint("slow")\n'})
    [snippet] = load_snippets(root / "snippets")
    with Templates() as own:
        template = own.get(sys.executable, environment({}))
        assert isinstance(template, Template)
        threading.Timer(1.0, kill_group, (template.process.pid,)).start()
        run = run_once(snippet, sys.executable, own)
    assert run.via is Via.FRESH and run.stdout == "slow\n"
    assert run.why_fresh == "the template died during the run (killed by SIGKILL)"


def test_2_pytest_runs_only_the_snippets_its_selected_tests_judge(tmp_path: Path) -> None:
    copy = copy_project(tmp_path / "copy", ("docs", "annotated_src", "tests"))
    (copy.root / "snippets").mkdir()
    marks = tmp_path / "ran.txt"  # outside the checkout, which a snippet must leave alone
    for i in range(3):
        code = f"import os\nopen(os.environ['RAN'], 'a').write('quick{i}\\n')\nprint({i})\n"
        (copy.root / "snippets" / f"quick{i}.py").write_text(code)
        (copy.root / "snippets" / f"quick{i}.out").write_text(f"{i}\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "quick1"],
        cwd=copy.root,
        env={**os.environ, "RAN": str(marks)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "1 passed" in done.stdout, done.stdout
    assert marks.read_text() == "quick1\n"


# 8. An environment whose JAX is not the pinned release says so.
def test_8_run_says_when_the_installed_jax_is_not_the_pinned_one(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    installed = project.pinned_jax()  # what the test environment has
    monkeypatch.setattr(Project, "pinned_jax", lambda self: "0.4.30")
    assert cli.main(["run", "method_returns_self"]) == 0
    said = capsys.readouterr().err
    assert f"has jax {installed}, not the pinned 0.4.30: each snippet was judged against" in said
