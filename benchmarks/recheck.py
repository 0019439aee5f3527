"""Benchmark: the full re-check against running each snippet alone, and a warm docs rebuild.

Run with ``nox -s bench`` (or ``python benchmarks/recheck.py`` in an environment with the docs
extras). Prints wall times; nothing here is asserted: timings belong in benchmarks, not tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.project import find_project

SPHINX = [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html"]


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return time.perf_counter() - started


def main() -> None:
    project = find_project()
    snippets = load_snippets(project.snippets)
    alone = {
        s.name: timed([sys.executable, str(s.path)], {**os.environ, **s.env}) for s in snippets
    }
    recheck = timed([sys.executable, "-m", "jaxwaits", "run"])
    html = project.docs / "_build" / "html"
    timed([*SPHINX, str(project.docs), str(html)])  # make sure the build is warm
    rebuild = timed([*SPHINX, str(project.docs), str(html)])
    total = sum(alone.values())
    print(f"{len(snippets)} snippets on {os.cpu_count()} cores")
    for name, seconds in sorted(alone.items(), key=lambda item: -item[1]):
        print(f"  {name:40s} {seconds:6.2f} s alone")
    print(f"sum of each snippet run alone:    {total:6.1f} s")
    ratio = recheck / total
    print(f"full re-check (jaxwaits run):     {recheck:6.1f} s = {ratio:.2f} x the sum")
    print(f"warm no-change docs rebuild:       {rebuild:6.1f} s")


if __name__ == "__main__":
    main()
