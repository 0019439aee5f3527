# Ahead-of-time compilation, then timing the compiled executable, blocked on before the timer
# is read.
import time

import jax
import jax.numpy as jnp


def step(w, x):
    return w - 0.01 * jnp.tanh(x @ w)


w = jnp.ones((512, 512))
x = jnp.ones((512, 512))
compiled = jax.jit(step).lower(w, x).compile()
compiled(w, x).block_until_ready()
times = []
for _ in range(5):
    t0 = time.perf_counter()
    w = compiled(w, x).block_until_ready()
    times.append(time.perf_counter() - t0)
print("timed", len(times), "calls")
