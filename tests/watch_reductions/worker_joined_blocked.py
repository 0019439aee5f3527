# The worker waits on its last step before it ends, and the join then waits for the work too.
import threading
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w))
w = jnp.ones((256, 256))
step(w).block_until_ready()
results = []


def work():
    v = w
    for _ in range(5):
        v = step(v)
    results.append(v.block_until_ready())


t0 = time.perf_counter()
worker = threading.Thread(target=work)
worker.start()
worker.join()
elapsed = time.perf_counter() - t0
print("steps:", results[0].shape)
