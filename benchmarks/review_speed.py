"""`jaxwaits review` against `ast.parse` alone, on the installed JAX's own `jax/` package: the
fastest of several runs of each, side by side (the checks must stay cheap next to parsing)."""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import time
from pathlib import Path

from jaxwaits import review
from jaxwaits.review.rules import RULES


def fastest(repeat: int, work: object) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spec = importlib.util.find_spec("jax")  # finds the package without importing it
    assert spec is not None and spec.origin is not None, "no jax installed"
    package = Path(spec.origin).parent
    files = sorted(package.rglob("*.py"))
    lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
    parse = fastest(args.repeat, lambda: [ast.parse(f.read_text(encoding="utf-8")) for f in files])
    one = fastest(args.repeat, lambda: review.review([package], set(RULES), jobs=1))
    every = fastest(args.repeat, lambda: review.review([package], set(RULES)))
    cores = os.cpu_count()
    print(f"{len(files)} files, {lines} lines in {package}")
    print(f"ast.parse alone:          {parse:.2f} s")
    print(f"review, one core:         {one:.2f} s ({one / parse:.2f}x parse)")
    print(f"review, {cores} cores:          {every:.2f} s ({every / parse:.2f}x parse)")


if __name__ == "__main__":
    main()
