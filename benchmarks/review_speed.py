"""`jaxwaits review` against `ast.parse` alone, on the installed JAX's own `jax/` package: each
measured as a user meets it, in an interpreter of its own (startup and imports included; the
review as the command runs, printing its findings and exiting), the fastest of several runs of
each, side by side (the checks must stay cheap next to parsing)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

PARSE = """
import ast, sys
from pathlib import Path
for f in sorted(Path(sys.argv[1]).rglob("*.py")):
    ast.parse(f.read_text(encoding="utf-8"))
"""
REVIEW = """
import sys
from harnesscheck import review
from jaxwaits.cli import run
jobs = int(sys.argv.pop())
review.review.__defaults__ = (jobs,)  # the command's own run, on this many cores
sys.argv = ["jaxwaits", "review", sys.argv[1]]
run()  # as the command runs: it prints its findings (here, to /dev/null) and exits
"""


def run(program: str, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", program, *args], stdout=subprocess.DEVNULL)
    if done.returncode not in (0, 1):  # 1: the review found something, as it does in jax/
        raise SystemExit(f"exit status {done.returncode} from: {program}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spec = importlib.util.find_spec("jax")  # finds the package without importing it
    assert spec is not None and spec.origin is not None, "no jax installed"
    package = Path(spec.origin).parent
    files = sorted(package.rglob("*.py"))
    lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
    cores = os.cpu_count() or 1
    runs: dict[str, list[float]] = {"parse": [], "one": [], "every": []}
    for _ in range(args.repeat):  # in turn, so that a busy moment falls on each alike
        runs["parse"].append(run(PARSE, str(package)))
        runs["one"].append(run(REVIEW, str(package), "1"))
        runs["every"].append(run(REVIEW, str(package), str(cores)))
    parse, one, every = (min(times) for times in runs.values())
    print(f"{len(files)} files, {lines} lines in {package}")
    print(f"ast.parse alone:          {parse:.2f} s")
    print(f"review, one core:         {one:.2f} s ({one / parse:.2f}x parse)")
    print(f"review, {cores} cores:          {every:.2f} s ({every / parse:.2f}x parse)")


if __name__ == "__main__":
    main()
