"""`jaxwaits watch` on runnable reductions of real harnesses (tests/watch_reductions/, labelled
before the watch first ran on them), on the newest JAX and on 0.4.30: every labelled mistake is
reported at its line, nothing else is, and each program prints what it prints without the watch
and exits as it does."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from harnesscheck import review, watch
from harnesscheck.rules import RULES
from jaxwaits.evidence.processes import environment
from jaxwaits.evidence.snippets import Snippet
from jaxwaits.evidence.template import Template, TemplateFailed, Templates
from jaxwaits.releases import environments

ROOT = Path(__file__).parent.parent
REDUCTIONS = Path(__file__).parent / "watch_reductions"
INDEX = (REDUCTIONS / "INDEX.md").read_text(encoding="utf-8")
PROGRAMS = sorted(
    [
        *(p for p in REDUCTIONS.glob("*.py") if p.name != "conftest.py"),  # keeps pytest out
        *REDUCTIONS.glob("*.ipy"),
        *(p / "main.py" for p in REDUCTIONS.iterdir() if (p / "main.py").is_file()),
    ]
)
RELEASES = ["pinned", "0.4.30"]  # the release the tests run on (the newest), and an old one


def _framed(program: Path) -> bool:
    """An IPython script, a pytest-benchmark suite, an Equinox or a Flax program: IPython,
    pytest-benchmark, Equinox and Flax are in the pinned release's test environment only."""
    return program.suffix == ".ipy" or program.name.startswith(("test_", "equinox_", "flax_"))


CASES = [(p, r) for p in PROGRAMS for r in RELEASES if r == "pinned" or not _framed(p)]


def _command(program: Path, python: str, tmp: Path) -> list[str]:
    if program.suffix == ".ipy":  # IPython's own folder in the scratch one, history off
        return [python, "-m", "IPython", "--no-banner", f"--ipython-dir={tmp / 'ipython'}",
                "--HistoryManager.enabled=False", program.name]  # fmt: skip
    if program.name.startswith("test_"):
        return [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", program.name]
    return [python, program.name]


def _said(program: Path, out: str) -> str:
    """What a run printed that does not vary: all of it, but a benchmark suite's table of times
    (its last line, the count of tests passed)."""
    return (
        out.strip().splitlines()[-1].split(" in ")[0] if program.name.startswith("test_") else out
    )


LABEL = re.compile(r"# <- (JW\d+.*)$")


def _files(program: Path) -> list[Path]:
    return [program] if program.name != "main.py" else sorted(program.parent.glob("*.py"))


def _labels(program: Path, release: str) -> list[tuple[str, int, str]]:
    """The labelled (file, line, code), less those a label says this release does not make."""
    found = []
    for path in _files(program):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if match := LABEL.search(line):
                label = match[1]
                spared = set(re.findall(rf"(JW\d+) not on {re.escape(release)}\b", label))
                codes = re.findall(r"JW\d+", label.split("(")[0])
                found += [(path.name, number, c) for c in codes if c not in spared]
    return sorted(found)


def _run(
    program: Path, python: str, watched: bool, tmp: Path, template: Template | None = None
) -> tuple[int | None, str, list[dict[str, Any]]]:
    """Run a copy of the program with ``python`` (nothing it does can touch the checkout); an
    unwatched script in a child of ``template``, where one is given, which imported JAX once
    for all of them (the watch's observer must be there before JAX: a watched run is fresh)."""
    name = f"{program.parent.name}-{program.stem}-{abs(hash(python))}-{watched}"
    here = tmp / name
    if program.name == "main.py":
        shutil.copytree(program.parent, here)
    else:
        here.mkdir(parents=True)
        shutil.copy(program, here)
    report = tmp / f"{name}.json"
    (here / "ipython").mkdir()
    command = _command(program, python, here)
    if watched:
        command = [sys.executable, "-m", "jaxwaits", "watch", "--format", "json",
                   "--output", str(report), "--", *command]  # fmt: skip
    # As a user's shell would start it: not as a worker of this run's xdist, whose variables
    # (PYTEST_XDIST_WORKER) make pytest-benchmark turn itself off, and time nothing.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    if template is not None and command == [python, program.name]:
        try:
            ran = template.run(Snippet(here / program.name, timeout=300), here, {})
            code, out, err = ran.returncode, ran.stdout.decode(), ran.stderr.decode()
        except TemplateFailed:  # the run is lost, not the program: run it afresh
            return _run(program, python, watched, tmp / "fresh")
    else:
        done = subprocess.run(
            command, cwd=here, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        code, out, err = done.returncode, done.stdout, done.stderr
    found = json.loads(report.read_text())["findings"] if report.exists() else []
    return code, out + err * (code not in (0, 1)), found


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory, templates: Templates
) -> dict[tuple[Path, str, bool], tuple[Any, ...]]:
    """Each program plain and watched on each release; the plain runs in the session's
    templates (the snippets' own), which spares each the import of JAX."""
    tmp = tmp_path_factory.mktemp("watch")
    old = environments.ensure(Version("0.4.30"), ROOT)
    pythons = {"pinned": sys.executable, "0.4.30": old}
    jobs = [(p, r, w) for p, r in CASES for w in (False, True)]

    def run(program: Path, release: str, watched: bool) -> tuple[Any, ...]:
        made = None if watched else templates.get(pythons[release], environment({}))
        template = made if isinstance(made, Template) else None
        return _run(program, pythons[release], watched, tmp, template)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda job: run(*job), jobs)
        return dict(zip(jobs, results, strict=True))


def test_there_are_reductions_both_right_and_wrong() -> None:
    wrong = [p for p in PROGRAMS if _labels(p, "pinned")]
    assert len(PROGRAMS) >= 20 and len(wrong) >= 10 and len(PROGRAMS) - len(wrong) >= 10


@pytest.mark.parametrize(
    ("program", "release"),
    CASES,
    ids=[f"{p.relative_to(REDUCTIONS).as_posix()}-{r}" for p, r in CASES],
)
def test_the_watch_reports_what_was_labelled(
    program: Path, release: str, runs: dict[tuple[Path, str, bool], tuple[Any, ...]]
) -> None:
    plain_code, plain_out, _ = runs[program, release, False]
    code, out, found = runs[program, release, True]
    assert plain_code == 0, f"the reduction itself fails: {plain_out}"
    assert _said(program, out) == _said(program, plain_out), "the watch changed what it printed"
    assert code == (1 if found else 0), out
    reported = sorted((Path(f["path"]).name, f["line"], f["code"]) for f in found)
    assert reported == _labels(program, release)
    for path in _files(program):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if not (match := LABEL.search(line)):
                continue
            for state in ("by chance", "not known"):  # what the label says of the work
                if state in match[1]:
                    said = [f["message"] for f in found if f["line"] == number]
                    assert said and all(state in m for m in said)


# Where the call that read the timer (or that is wrong in itself) starts on its line, 1-based.
COLUMNS = {
    "loop_step_timer.py": (22, 17),  # step_time = time.time() - t0
    "test_pytest_benchmark.py": (12, 11),  # out = benchmark(step, w): pytest-benchmark reads
    "block_inside_jit.py": (10, 5),  # jax.block_until_ready(b), inside the traced function
    "host_input_timed.py": (16, 12),  # runtime = (time.perf_counter() - t0) / 10
}


def test_a_finding_is_at_the_column_of_the_reading(
    runs: dict[tuple[Path, str, bool], tuple[Any, ...]],
) -> None:
    """The column of the call that read the timer, as review gives columns."""
    found = {
        name: {(f["line"], f["column"]) for f in runs[REDUCTIONS / name, "pinned", True][2]}
        for name in COLUMNS
    }
    assert found == {name: {place} for name, place in COLUMNS.items()}


# Where the watch sees a mistake review cannot, program by program, as INDEX.md lists them;
# everywhere else they find the same mistakes.
WATCH_ONLY: dict[str, set[str]] = {}
for _entry in re.finditer(r"^- `(\S+)` (JW\d+): ", INDEX.split("## Where the watch sees")[1], re.M):
    WATCH_ONLY.setdefault(_entry[1], set()).add(_entry[2])


REVIEWED = [p for p in PROGRAMS if p.suffix == ".py"]  # review reads no IPython script


@pytest.mark.parametrize("program", REVIEWED, ids=lambda p: p.relative_to(REDUCTIONS).as_posix())
def test_review_and_watch_agree_where_review_sees(
    program: Path, runs: dict[tuple[Path, str, bool], tuple[Any, ...]]
) -> None:
    target = program if program.name != "main.py" else program.parent
    reviewed = review.review([target], set(RULES) - {"JW100"})  # JW100 is review's own
    by_review = {f.finding.rule for f in reviewed.findings}
    by_watch = {f["code"] for f in runs[program, "pinned", True][2]}
    assert by_review <= by_watch
    assert by_watch - by_review == WATCH_ONLY.get(program.relative_to(REDUCTIONS).as_posix(), set())


SUPPRESSED = """\
import time
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((200, 200))
f(x).block_until_ready()
start = time.perf_counter()
y = f(x)
{name} = time.perf_counter() - start{comment}
y.block_until_ready()
"""


@pytest.mark.parametrize(
    ("name", "comment", "silent"),
    [
        ("took", "", False),
        ("took", "  # jaxwaits: ignore[JW101] on purpose", True),
        ("dispatch_time", "", True),  # the code's own word: the dispatch is timed on purpose
        ("took", "  # the dispatch only", False),  # a comment describes the code, says nothing
        ("took", "  # bug: forgot to block, not dispatch only", False),  # the blind attack's
        ("took", "  # TODO: this times the dispatch by accident", False),
    ],
)
def test_a_suppression_or_the_code_s_own_words_silence_the_watch_and_review_alike(
    tmp_path: Path, name: str, comment: str, silent: bool
) -> None:
    """A suppression, or the code's own words (a name, a logged string) that say the dispatch
    is timed on purpose; never a comment, which describes the code and may describe a mistake."""
    (tmp_path / "bench.py").write_text(SUPPRESSED.format(name=name, comment=comment))
    code, _, found = _run(tmp_path / "bench.py", sys.executable, True, tmp_path / "run")
    assert [(f["code"], f["line"]) for f in found] == ([] if silent else [("JW101", 10)])
    assert code == (0 if silent else 1)
    reviewed = review.review([tmp_path / "bench.py"], set(RULES) - {"JW100"})
    assert [(f.finding.rule, f.finding.line) for f in reviewed.findings] == (
        [] if silent else [("JW101", 10)]
    )


def test_the_program_s_exit_status_passes_through(tmp_path: Path) -> None:
    (tmp_path / "fails.py").write_text("import sys\nprint('ran')\nsys.exit(3)\n")
    code, out, found = _run(tmp_path / "fails.py", sys.executable, True, tmp_path / "run")
    assert (code, found) == (3, [])
    assert out.startswith("ran\n")


def test_the_page_shows_a_report_the_watch_printed(tmp_path: Path) -> None:
    """docs/watch_report.txt, shown on the watch page, is what the watch prints for jaxline's
    loop (but whether the work was still running at each read, which the machine decides)."""
    shutil.copytree(REDUCTIONS / "periodic_action", tmp_path / "periodic_action")
    report = tmp_path / "report.txt"
    subprocess.run(
        [sys.executable, "-m", "jaxwaits", "watch", "--output", str(report),
         "periodic_action/main.py"],
        cwd=tmp_path, capture_output=True, check=False, timeout=300,
    )  # fmt: skip
    state = re.compile(r"it was (still running[^:]*|finished before the read by chance): [^.]*\.")
    recorded = (ROOT / "docs" / "watch_report.txt").read_text()
    assert state.sub("<state>", report.read_text()) == state.sub("<state>", recorded), (
        "re-record it: cd tests/watch_reductions && python -m jaxwaits watch "
        "--output ../../docs/watch_report.txt periodic_action/main.py"
    )


BENCHMARK_TESTS = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: jnp.tanh(w @ w))


def test_step_time():
    w = jnp.ones((256, 256))
    step(w).block_until_ready()
    t0 = time.perf_counter()
    out = step(w)
    elapsed = time.perf_counter() - t0
    assert elapsed > 0 and out.shape == (256, 256)


def test_step_time_blocked():
    w = jnp.ones((256, 256))
    step(w).block_until_ready()
    t0 = time.perf_counter()
    step(w).block_until_ready()
    assert time.perf_counter() - t0 > 0
"""


@pytest.mark.parametrize("option", [[], ["--jaxwaits-watch"]])
def test_the_pytest_option_watches_a_benchmark_suite(tmp_path: Path, option: list[str]) -> None:
    """Both tests pass; with the option the unwaited one is reported and the run exits 1."""
    (tmp_path / "test_bench.py").write_text(BENCHMARK_TESTS)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *option],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert "2 passed" in done.stdout
    reported = re.findall(r"^test_bench.py:(\d+):\d+ (JW\d+)", done.stdout, re.MULTILINE)
    assert reported == ([("14", "JW101")] if option else [])
    assert done.returncode == (1 if option else 0)


@pytest.mark.parametrize(
    "named", [["bench.py"], ["-m", "bench"], ["--", sys.executable, "bench.py"]]
)
def test_the_program_is_named_as_python_names_it(tmp_path: Path, named: list[str]) -> None:
    (tmp_path / "bench.py").write_text(SUPPRESSED.format(name="took", comment=""))
    done = subprocess.run(
        [sys.executable, "-m", "jaxwaits", "watch", *named],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1
    assert re.findall(r"^bench.py:(\d+):\d+ (JW\d+)", done.stderr, re.MULTILINE) == [
        ("10", "JW101")
    ]


LOOKS = """\
import pickle
import time

t, n = time.perf_counter(), time.time_ns()
print(type(t), type(n), isinstance(t, float), f"{t:.0f}" == f"{float(t):.0f}")
print(type(pickle.loads(pickle.dumps(t))), type(pickle.loads(pickle.dumps(n))))
print(type(time.perf_counter() - t), type(time.time_ns() - n))
"""


def test_a_reading_looks_to_the_program_as_the_builtin_does(tmp_path: Path) -> None:
    (tmp_path / "looks.py").write_text(LOOKS)
    plain = _run(tmp_path / "looks.py", sys.executable, False, tmp_path / "plain")
    watched = _run(tmp_path / "looks.py", sys.executable, True, tmp_path / "watched")
    assert plain[1] == watched[1] and "<class 'float'> <class 'int'> True True" in plain[1]
    assert (plain[0], watched[0]) == (0, 0)


BARRIER_ELSEWHERE = """\
import threading

import jax
import jax.numpy as jnp

seen = []


@jax.jit
def step(x):
    jax.debug.callback(seen.append, x)
    return x + 1


out = step(jnp.ones(4))
out.block_until_ready()
worker = threading.Thread(target=jax.effects_barrier)
worker.start()
worker.join()
print(len(seen))
{tail}"""


@pytest.mark.parametrize(
    ("tail", "reported"),
    [("", [("JW108", 20)]), ("jax.effects_barrier()\nprint(len(seen))\n", [("JW108", 20)])],
)
def test_an_effects_barrier_counts_in_the_thread_that_calls_it(
    tmp_path: Path, tail: str, reported: list[tuple[str, int]]
) -> None:
    """A barrier another thread calls waits for that thread's effects, not the reader's: the
    read after it is reported; after the reader's own barrier, nothing more is."""
    (tmp_path / "bench.py").write_text(BARRIER_ELSEWHERE.format(tail=tail))
    code, out, found = _run(tmp_path / "bench.py", sys.executable, True, tmp_path / "run")
    assert [(f["code"], f["line"]) for f in found] == reported
    assert code == 1 and out.startswith("1\n")


def test_a_program_that_traces_itself_is_not_followed_for_reads(tmp_path: Path) -> None:
    """With a trace function of the program's own (a debugger's, coverage's) the watch does
    not follow the lines after a wait: it says so rather than staying silent, and the program
    prints what it prints unwatched."""
    traced = "import sys\nsys.settrace(lambda *a: None)\n" + BARRIER_ELSEWHERE.format(tail="")
    (tmp_path / "bench.py").write_text(traced)
    plain = _run(tmp_path / "bench.py", sys.executable, False, tmp_path / "plain")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "jaxwaits", "watch", "--format", "json", "--output", str(report),
         "bench.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    data = json.loads(report.read_text())
    assert done.stdout == plain[1] and data["findings"] == []
    assert any("JW108" in line and "traces itself" in line for line in data["not_observed"])


def test_a_callback_still_pending_at_the_read_is_said_to_be(tmp_path: Path) -> None:
    """On a CPU the callback has always run when the block returns, so the other state, what an
    accelerator can show, is judged here from the observer's line as it would write it."""
    (tmp_path / "bench.py").write_text("print(len(seen))\n")
    here = str(tmp_path / "bench.py")
    entry = {"rule": "JW108", "site": [here, 1], "name": "seen", "wait": [here, 1],
             "calls": [[here, 1]], "callbacks": [[here, 1]]}  # fmt: skip
    for ran, said in ((True, "by chance"), (False, "had not run yet")):
        watched = watch.judged([{**entry, "ran": ran}], {"JW108"}, 0)
        [located] = watched.review.findings
        assert said in located.finding.message and "`seen`" in located.finding.message
