# A harness that hands the jitted step itself to a worker pool, `pool.submit(step, w)` with no
# function of its own around it, and times the job until its future resolves: the future waits
# for the call, which returns once the step is dispatched, not for the step.
import time
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w @ w))
w0 = jnp.ones((400, 400)) * 0.01
step(w0).block_until_ready()

with ThreadPoolExecutor(max_workers=1) as pool:
    t0 = time.perf_counter()
    future = pool.submit(step, w0)
    w1 = future.result()
    elapsed = time.perf_counter() - t0  # <- JW101
    w1.block_until_ready()
print("timed:", elapsed > 0, "shape:", w1.shape)
