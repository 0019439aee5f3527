# A harness that runs the steps on a worker pool and times the submitted job until its future
# resolves, the job blocking on its last step before it returns: the result the future hands
# back is finished work.
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
    return w.block_until_ready()


with ThreadPoolExecutor(max_workers=1) as pool:
    t0 = time.perf_counter()
    w_final = pool.submit(run_steps, w0, 5).result()
    elapsed = time.perf_counter() - t0
    # the pool's thread goes on to other work, dispatched after the timed job
    pool.submit(run_steps, w_final, 1).result()
print("timed:", elapsed > 0, "shape:", w_final.shape)
