"""`jaxwaits watch` on runnable reductions of real harnesses (tests/watch_reductions/, labelled
before the watch first ran on them), on the newest JAX and on 0.4.30: every labelled mistake is
reported at its line, nothing else is, and each program prints what it prints without the watch
and exits as it does."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from jaxwaits.releases import environments

ROOT = Path(__file__).parent.parent
REDUCTIONS = Path(__file__).parent / "watch_reductions"
PROGRAMS = sorted(
    [*REDUCTIONS.glob("*.py"), *(p / "main.py" for p in REDUCTIONS.iterdir() if p.is_dir())]
)
RELEASES = ["pinned", "0.4.30"]  # the release the tests run on (the newest), and an old one
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
    program: Path, python: str, watched: bool, tmp: Path
) -> tuple[int, str, list[dict[str, Any]]]:
    """Run a copy of the program with ``python`` (nothing it does can touch the checkout)."""
    name = f"{program.parent.name}-{program.stem}-{abs(hash(python))}-{watched}"
    here = tmp / name
    if program.name == "main.py":
        shutil.copytree(program.parent, here)
    else:
        here.mkdir()
        shutil.copy(program, here)
    report = tmp / f"{name}.json"
    command = [python, program.name]
    if watched:
        command = [sys.executable, "-m", "jaxwaits", "watch", "--format", "json",
                   "--output", str(report), "--", python, program.name]  # fmt: skip
    done = subprocess.run(
        command, cwd=here, capture_output=True, text=True, timeout=300, check=False
    )
    found = json.loads(report.read_text())["findings"] if report.exists() else []
    return done.returncode, done.stdout + done.stderr * (done.returncode not in (0, 1)), found


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[Path, str, bool], tuple[Any, ...]]:
    tmp = tmp_path_factory.mktemp("watch")
    old = environments.ensure(Version("0.4.30"), ROOT)
    pythons = {"pinned": sys.executable, "0.4.30": old}
    jobs = [(p, r, w) for p in PROGRAMS for r in pythons for w in (False, True)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda job: _run(job[0], pythons[job[1]], job[2], tmp), jobs)
        return dict(zip(jobs, results, strict=True))


def test_there_are_reductions_both_right_and_wrong() -> None:
    wrong = [p for p in PROGRAMS if _labels(p, "pinned")]
    assert len(PROGRAMS) >= 20 and len(wrong) >= 10 and len(PROGRAMS) - len(wrong) >= 10


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.relative_to(REDUCTIONS).as_posix())
def test_the_watch_reports_what_was_labelled(
    program: Path, release: str, runs: dict[tuple[Path, str, bool], tuple[Any, ...]]
) -> None:
    plain_code, plain_out, _ = runs[program, release, False]
    code, out, found = runs[program, release, True]
    assert plain_code == 0, f"the reduction itself fails: {plain_out}"
    assert out == plain_out, "the watch changed what the program printed"
    assert code == (1 if found else 0), out
    reported = sorted((Path(f["path"]).name, f["line"], f["code"]) for f in found)
    assert reported == _labels(program, release)
    for path in _files(program):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if (match := LABEL.search(line)) and "by chance" in match[1]:
                said = [f["message"] for f in found if f["line"] == number]
                assert said and all("by chance" in m for m in said)
