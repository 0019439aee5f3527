"""The command line on a scratch checkout: each handler does its job and exits as documented
(0 all is well, 1 a check failed, 2 bad input)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from copies import SCOPE

from jaxwaits import cli
from jaxwaits.chain import facts, packaged
from jaxwaits.evidence import known as known_differences
from jaxwaits.evidence import report
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import probe
from jaxwaits.evidence.runner import run_snippets
from jaxwaits.evidence.snippets import load_snippets, orphans, read_snippet
from jaxwaits.evidence.template import Templates
from jaxwaits.project import Project
from jaxwaits.releases import ledger

PAGE = f"""# Scratch

```{{claim}} says-one
:evidence: one
{SCOPE}It says one.
```

```{{code-cell}}
:load: ../snippets/one.py
```
"""


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout pinned to a JAX other than the installed one, with one quick snippet."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("")
    (tmp_path / "docs" / "index.md").write_text(PAGE)
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "one.py").write_text("print(1)\n")
    (tmp_path / "snippets" / "one.out").write_text("one\n")
    pyproject = (ROOT / "pyproject.toml").read_text()
    pinned = pyproject.split('jax = ["jax==')[1].split('"')[0]
    (tmp_path / "pyproject.toml").write_text(pyproject.replace(f"=={pinned}", "==0.0.1"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_claims_lists_them_and_fails_on_a_broken_link(checkout: Path, capsys) -> None:
    assert cli.main(["claims"]) == 0
    assert "says-one: It says one." in capsys.readouterr().out
    (checkout / "snippets" / "two.py").write_text("print(2)\n")
    assert cli.main(["claims"]) == 1
    assert "snippet 'two' backs no claim" in capsys.readouterr().err


def test_claims_fails_on_a_claim_that_leaves_an_axis_unaddressed(checkout: Path, capsys) -> None:
    page = checkout / "docs" / "index.md"
    page.write_text(page.read_text().replace(":context: eager\n", ""))
    assert cli.main(["claims"]) == 1
    assert "index.md:3: claim 'says-one' does not address the context axis" in (
        capsys.readouterr().err
    )


def test_cite_prints_a_link_and_names_an_unknown_claim(checkout: Path, capsys) -> None:
    assert cli.main(["cite", "says-one"]) == 0
    limits = (
        "CPU, one dispatching thread, single-device arrays, no failure pending, numeric dtypes of 8"
    )
    said = (
        f"[`says-one`: It says one. (limited to {limits} bits and wider, eager calls; not verified"
    )
    assert f"{said} on any CPU release)](" in capsys.readouterr().out
    assert cli.main(["cite", "says-two"]) == 2
    assert "no claim 'says-two'" in capsys.readouterr().err


def test_outside_a_checkout_cite_and_claims_print_the_packaged_index(
    checkout: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch, capsys
) -> None:
    """As from ``pip install jaxwaits``: the index a wheel of this checkout carries (the wheel
    itself is built in test_wheel.py)."""
    assert cli.main(["claims"]) == 0
    assert cli.main(["cite", "says-one"]) == 0
    said = capsys.readouterr().out
    index = packaged.of(facts.load(Project(checkout)))
    monkeypatch.setattr(packaged, "carried", lambda: index)
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    assert cli.main(["claims"]) == 0
    assert cli.main(["cite", "says-one"]) == 0
    out, err = capsys.readouterr()
    assert out == said
    assert f"from the claims index packaged with jaxwaits {index.version}: no checkout" in err
    assert cli.main(["cite", "says-two"]) == 2
    assert "no claim 'says-two'" in capsys.readouterr().err
    monkeypatch.setattr(packaged, "carried", lambda: None)
    assert cli.main(["cite", "says-one"]) == 2
    err = capsys.readouterr().err
    assert "no jax-waits checkout (snippets/ and docs/conf.py) above" in err
    assert "and this jaxwaits carries no claims index" in err


def test_run_reports_each_snippet_and_fails_on_a_difference(checkout: Path, capsys) -> None:
    assert cli.main(["run"]) == 1
    out = capsys.readouterr().out
    assert "snippet one (snippets/one.py; backs says-one): differs" in out
    assert "1 snippet: 1 differs in" in out


CLASSIFIED = """
[[output]]
releases = ["{release}"]
text = "1\\n"

[output.verdicts.says-one]
verdict = "holds-output-differs"
why = "it says it in digits"
"""


def test_record_known_writes_the_difference_of_this_release(checkout: Path, capsys) -> None:
    installed = probe(sys.executable).jax
    assert cli.main(["record", "one"]) == 2  # this is not the pinned release
    assert "add --known" in capsys.readouterr().err
    assert cli.main(["record", "--known", "one"]) == 1  # recorded, but nobody classified it
    assert "classify this output for says-one" in capsys.readouterr().out
    known = known_differences.load(checkout / "snippets", "one")
    (output,) = known.outputs
    assert (output.text, output.releases) == ("1\n", (installed,))
    assert output.verdicts["says-one"].verdict == known_differences.UNCLASSIFIED
    assert (checkout / "snippets" / "one.out").read_text() == "one\n"  # the recorded one stays


def test_verify_records_a_known_difference_as_such(checkout: Path, capsys) -> None:
    installed = probe(sys.executable).jax
    assert cli.main(["verify", "--python", sys.executable]) == 1  # it differs, unrecorded
    assert cli.main(["verify", "--python", sys.executable, "--record-known", "one"]) == 1
    said = capsys.readouterr()
    assert "classify this output for says-one" in said.out + said.err  # recorded, unclassified
    path = known_differences.path_for(checkout / "snippets", "one")
    path.write_text(CLASSIFIED.replace("{release}", installed))
    assert cli.main(["verify", "--python", sys.executable]) == 0
    (verification,) = ledger.load(checkout / "docs" / "verified")
    entry = verification.snippets["one"]
    assert entry.outcome is Outcome.MATCHED_KNOWN
    assert "-one\n+1\n" in entry.detail  # the diff from the recorded output
    assert cli.main(["summary"]) == 0
    summary = capsys.readouterr().out
    assert f"- jax {installed}: ok: 1 known difference" in summary
    assert "- holds, output differs (1): [`says-one`]" in summary


def test_verify_records_only_what_both_runs_printed_alike(checkout: Path, capsys) -> None:
    (checkout / "snippets" / "one.py").write_text("import os\nprint(os.getpid())\n")
    assert cli.main(["verify", "--python", sys.executable, "--record-known", "one"]) == 1
    assert "NOT recorded (the two runs disagree)" in capsys.readouterr().out
    assert not known_differences.path_for(checkout / "snippets", "one").exists()


def test_bad_arguments_are_usage_errors(checkout: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["run", "--python", "/no/such/python"])
    assert exited.value.code == 2
    assert "no interpreter '/no/such/python'" in capsys.readouterr().err
    assert cli.main(["run", "nothing_by_that_name"]) == 2
    assert "no snippet named nothing_by_that_name" in capsys.readouterr().err


def test_a_varying_output_is_flaky(tmp_path: Path, templates: Templates) -> None:
    counter = (
        tmp_path / "elsewhere" / "count"
    )  # outside the snippets' folder, which must not change
    counter.parent.mkdir()
    counting = (
        "import pathlib\n"
        f"count = pathlib.Path({str(counter)!r})\n"
        "n = int(count.read_text()) if count.exists() else 0\n"
        "count.write_text(str(n + 1))\n"
        "print(n)\n"
    )
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "counts.py").write_text(counting)
    (tmp_path / "snippets" / "counts.out").write_text("0\n")
    (result,) = run_snippets(
        [read_snippet(tmp_path / "snippets" / "counts.py")], repeat=3, jobs=1, templates=templates
    )
    assert result.outcome is Outcome.FLAKY
    assert [run.stdout for run in result.runs] == ["0\n", "1\n", "2\n"]
    assert "its output varied over 3 runs (3 versions)" in report.describe(result, None)


def test_files_nothing_uses_are_named(tmp_path: Path) -> None:
    (tmp_path / "one.py").write_text("print(1)\n")
    (tmp_path / "one.out").write_text("1\n")
    (tmp_path / "gone.out").write_text("1\n")
    (tmp_path / "notes.txt").write_text("a note\n")
    (tmp_path / "known").mkdir()
    (tmp_path / "known" / "one.toml").write_text(CLASSIFIED.replace("{release}", "9.9.9"))
    (tmp_path / "known" / "gone.toml").write_text(CLASSIFIED.replace("{release}", "0.1.0"))
    (tmp_path / "known" / "0.1.0").mkdir()  # the old layout's folder of a release
    found = orphans(tmp_path, {("0.1.0", "cpu")})
    assert [line.split(": ", 1)[0].removeprefix(str(tmp_path) + "/") for line in found] == [
        "gone.out",
        "known/0.1.0",
        "known/gone.toml",
        "known/one.toml",
        "notes.txt",
    ]
    assert "lists jax 9.9.9, which the ledger does not hold" in found[3]
    assert load_snippets(tmp_path)[0].name == "one"


def test_the_project_has_no_orphans(project) -> None:
    releases = {(v.platform.jax, v.platform.backend) for v in ledger.load(project.verified)}
    assert orphans(project.snippets, releases) == []


def test_the_review_command_writes_its_whole_report_before_it_exits(tmp_path: Path) -> None:
    """`jaxwaits review` ends without tearing its model down (:func:`jaxwaits.cli.run`): the
    report, larger than a pipe holds, still reaches a file whole, and the exit status says."""
    harness = "import time\nimport jax\nstep = jax.jit(abs)\nt0 = time.perf_counter()\n"
    harness += "y = step(1)\nelapsed = time.perf_counter() - t0\n"
    for i in range(400):
        (tmp_path / f"bench_{i}.py").write_text(harness, encoding="utf-8")
    report = tmp_path / "report.txt"
    with report.open("w", encoding="utf-8") as out:
        command = [sys.executable, "-m", "jaxwaits", "review", str(tmp_path)]
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, timeout=120)
    lines = report.read_text(encoding="utf-8").splitlines()
    assert (done.returncode, done.stderr, lines[-1]) == (1, b"", "800 findings in 400 files")


def test_a_reader_that_stops_reading_ends_the_review_without_a_traceback(tmp_path: Path) -> None:
    """`jaxwaits review … | head`: the reader goes away before the report is written."""
    harness = "import time\nimport jax\nstep = jax.jit(abs)\nt0 = time.perf_counter()\n"
    harness += "y = step(1)\nelapsed = time.perf_counter() - t0\n"
    for i in range(400):  # a report larger than a pipe holds
        (tmp_path / f"bench_{i}.py").write_text(harness, encoding="utf-8")
    command = [sys.executable, "-m", "jaxwaits", "review", str(tmp_path)]
    review = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert review.stdout is not None and review.stderr is not None
    review.stdout.readline()
    review.stdout.close()
    said = review.stderr.read().decode()
    assert (review.wait(timeout=120), said) == (141, "")
