# Steps dispatched by a worker thread and joined before the timer is read (found by a blind
# attack on the watch): the join waits for the thread, not for the work it dispatched.
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
    results.append(v)


t0 = time.perf_counter()
worker = threading.Thread(target=work)
worker.start()
worker.join()
elapsed = time.perf_counter() - t0  # <- JW101
print("steps:", results[0].shape)
