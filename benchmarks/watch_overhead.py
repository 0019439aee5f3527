"""What `jaxwaits watch` costs the program it watches: a small training loop and a dispatch-bound
micro-benchmark, each run plainly and watched, in alternation; each program times its own loop
(not the interpreter's start or JAX's import), and the figure is the fastest of the repeats.
Nothing here is asserted: timings belong in benchmarks, not tests.

    python benchmarks/watch_overhead.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

PROGRAMS = {
    "training loop (MLP, 10 parameter arrays, 200 steps, blocked, logged every 20)": """\
import time
import jax
import jax.numpy as jnp

def loss(params, x):
    for w, b in params:
        x = jnp.tanh(x @ w + b)
    return jnp.mean(x ** 2)

@jax.jit
def step(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    return [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)], value

params = [(jnp.ones((256, 256)) * 0.01, jnp.zeros(256)) for _ in range(5)]
x = jnp.ones((128, 256))
params, value = step(params, x)
value.block_until_ready()
start = time.perf_counter()
for i in range(200):
    t0 = time.perf_counter()
    params, value = step(params, x)
    value.block_until_ready()
    step_time = time.perf_counter() - t0
    if i % 20 == 0:
        logged = (float(value), step_time)
print(time.perf_counter() - start)
""",
    "dispatch-bound micro-benchmark (20000 calls of a jitted a + 1 on 4 numbers)": """\
import time
import jax
import jax.numpy as jnp

add = jax.jit(lambda a: a + 1)
x = jnp.ones(4)
add(x).block_until_ready()
start = time.perf_counter()
for _ in range(20000):
    y = add(x)
y.block_until_ready()
print(time.perf_counter() - start)
""",
}


def _seconds(command: list[str], cwd: Path) -> float:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as scratch:
        for name, code in PROGRAMS.items():
            Path(scratch, "bench.py").write_text(code)
            plain = [sys.executable, "bench.py"]
            watched = [sys.executable, "-m", "jaxwaits", "watch", "--output", "report.txt"]
            runs: dict[str, list[float]] = {"plain": [], "watched": []}
            for _ in range(repeat):
                runs["plain"].append(_seconds(plain, Path(scratch)))
                runs["watched"].append(_seconds([*watched, *plain], Path(scratch)))
            fastest = {k: min(v) for k, v in runs.items()}
            print(
                f"{name}: plain {fastest['plain']:.3f} s, watched {fastest['watched']:.3f} s "
                f"({fastest['watched'] / fastest['plain']:.2f}x)"
            )


if __name__ == "__main__":
    main()
