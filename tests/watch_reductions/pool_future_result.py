# A harness that runs the steps on a worker pool and times the submitted job until its future
# resolves: future.result() waits for the Python function, which returns as soon as the
# steps are dispatched, not for the steps.
import time
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w @ w))
w0 = jnp.ones((400, 400)) * 0.01
step(w0).block_until_ready()


def run_steps(w, n):
    for _ in range(n):
        w = step(w)
    return w


pool = ThreadPoolExecutor(max_workers=1)
t0 = time.perf_counter()
future = pool.submit(run_steps, w0, 5)
w_final = future.result()
elapsed = time.perf_counter() - t0  # <- JW101
w_final.block_until_ready()
pool.shutdown()
print("timed:", elapsed > 0, "shape:", w_final.shape)
