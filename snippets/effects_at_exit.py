# timeout: 90
"""At exit JAX waits for the main thread's pending effects only: effects still running from a
thread that did not wait for them are lost.

Each case runs in a fresh interpreter that dispatches one slow callback (it sleeps, then prints)
behind a large product, so that the callback is still pending when the interpreter exits.
"""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

CHILD = r"""
import sys, threading, time
import jax, jax.numpy as jnp
from jax.experimental import io_callback

kind, where = sys.argv[1], sys.argv[2]

def slow(v):
    if threading.current_thread() is dispatcher:
        print("ran during the call", flush=True)  # not pending at exit: the parent retries
    time.sleep(0.5)
    print("callback ran", flush=True)

effect = {
    "jax.debug.callback": lambda a: jax.debug.callback(slow, a[0, 0]),
    "io_callback(ordered=True)": lambda a: io_callback(slow, None, a[0, 0], ordered=True),
}[kind]
busy = jax.jit(lambda a: a @ a)
f = jax.jit(lambda a: (effect(a), a[0] + 1)[1])

def run():
    f(busy(jnp.ones((2000, 2000))))  # the callback waits for the product: still pending
    print("dispatched", flush=True)
    if where == "a thread that calls effects_barrier()":
        jax.effects_barrier()

if where == "the main thread":
    dispatcher = threading.main_thread()
    run()
else:
    dispatcher = threading.Thread(target=run)
    dispatcher.start()
    dispatcher.join()
"""

KINDS = ("jax.debug.callback", "io_callback(ordered=True)")
WHERE = ("the main thread", "a thread that calls effects_barrier()", "a thread that does not wait")


def case(kind_where):
    """Whether the callback ran before the process ended, and how the process ended."""
    for _ in range(3):
        child = subprocess.run(
            [sys.executable, "-c", CHILD, *kind_where], capture_output=True, text=True, timeout=60
        )
        if "dispatched" not in child.stdout:
            return "the child failed: " + (child.stderr.strip().splitlines() or ["?"])[-1]
        if "ran during the call" not in child.stdout:
            ended = "exited normally" if child.returncode == 0 else "exited with an error"
            ended = "was killed by a signal" if child.returncode < 0 else ended
            return f"{'callback ran' in child.stdout}; the process {ended}"
    return "the callback always ran during the call"


cases = [
    (kind, where) for kind in KINDS for where in WHERE if kind == KINDS[0] or where != WHERE[1]
]
with ThreadPoolExecutor(3) as pool:
    for (kind, where), ran in zip(cases, pool.map(case, cases), strict=True):
        print(f"{kind} dispatched from {where}: the callback ran before the process ended:", ran)
