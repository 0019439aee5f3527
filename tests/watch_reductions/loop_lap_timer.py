# A loop that logs each step's time as the time since the previous reading (a lap timer, as
# progress bars and many training scripts keep one): the first lap starts before the loop, the
# others at the reading of the lap before, and no step is waited on. One mistake, at one line.
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w))
w = jnp.ones((256, 256))
step(w).block_until_ready()
last = time.perf_counter()
for i in range(4):
    w = step(w)
    now = time.perf_counter()  # <- JW101
    print(f"step {i} timed: {now - last > 0}")
    last = now
w.block_until_ready()
