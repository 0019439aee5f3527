"""Benchmarks: how long the re-checks and builds take, wall and CPU, median of repeated runs.

Run with ``nox -s bench`` (``-- --repeat 5``, ``-- --matrix`` to also time ``nox -s matrix``
over every release in the ledger, which takes minutes). Each figure is the median over the
repeats of one whole measurement, with the CPU seconds of every process it started (children
and their children, as the kernel accounts them). Nothing here is asserted: timings belong in
benchmarks, not tests.

- the sum of each snippet run alone in a fresh interpreter (``python snippet.py``);
- the full re-check through templates (``jaxwaits run``) and with ``--fresh``;
- a warm docs rebuild (nothing changed) and a clean build that executes every page;
- with ``--matrix``: ``jaxwaits matrix`` over every release in the ledger.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

from jaxwaits.evidence.processes import environment
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.project import Project, find_project

SPHINX = [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-j", "auto", "-b", "html"]
JAXWAITS = [sys.executable, "-m", "jaxwaits"]


@dataclass(frozen=True)
class Cost:
    wall: float
    cpu: float

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.wall + other.wall, self.cpu + other.cpu)


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str], env: dict[str, str] | None = None) -> Cost:
    """One command's wall time and the CPU time of everything it ran (it must succeed)."""
    cpu, started = _cpu(), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return Cost(time.perf_counter() - started, _cpu() - cpu)


def median(measure: Callable[[], Cost], repeat: int) -> Cost:
    costs = [measure() for _ in range(repeat)]
    return Cost(statistics.median(c.wall for c in costs), statistics.median(c.cpu for c in costs))


def solo_sum(project: Project) -> Cost:
    total = Cost(0.0, 0.0)
    for snippet in load_snippets(project.snippets):
        total += timed([sys.executable, str(snippet.path)], environment(snippet.env))
    return total


def clean_build(project: Project) -> Cost:
    """Every page read and executed anew, into a scratch folder."""
    scratch = tempfile.mkdtemp(prefix="jaxwaits-bench-")
    try:
        options = ["-E", "-D", "nb_execution_mode=force", "-d", f"{scratch}/doctrees"]
        return timed([*SPHINX, *options, str(project.docs), f"{scratch}/html"])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--matrix", action="store_true", help="also time the full matrix")
    args = parser.parse_args()
    project = find_project()
    html = str(project.docs / "_build" / "html")
    count = len(load_snippets(project.snippets))
    print(f"{count} snippets, {os.cpu_count()} cores, median of {args.repeat} runs each")
    solo = median(lambda: solo_sum(project), args.repeat)
    figures = {
        "sum of each snippet alone, fresh": solo,
        "re-check, templates (jaxwaits run)": median(
            lambda: timed([*JAXWAITS, "run"]), args.repeat
        ),
        "re-check, fresh (jaxwaits run --fresh)": median(
            lambda: timed([*JAXWAITS, "run", "--fresh"]), args.repeat
        ),
    }
    timed([*SPHINX, str(project.docs), html])  # make sure the build is warm
    figures["warm docs rebuild, nothing changed"] = median(
        lambda: timed([*SPHINX, str(project.docs), html]), args.repeat
    )
    figures["clean docs build, every page executed"] = median(
        lambda: clean_build(project), args.repeat
    )
    if args.matrix:
        figures["matrix over every release in the ledger"] = median(
            lambda: timed([*JAXWAITS, "matrix"]), args.repeat
        )
    for name, cost in figures.items():
        ratio = f"  ({cost.wall / solo.wall:.2f} x / {cost.cpu / solo.cpu:.2f} x the solo sum)"
        shown = ratio if name.startswith("re-check") else ""
        print(f"{name:42s} wall {cost.wall:7.1f} s   CPU {cost.cpu:7.1f} s{shown}")


if __name__ == "__main__":
    main()
