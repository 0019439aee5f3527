# A training loop whose data loader makes a new NumPy batch every step (flax examples): the
# copy of each new batch is part of the step being measured, not a fixed input timed again.
import time

import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda w, x: w - 0.01 * jnp.tanh(x.T @ (x @ w)))
w = jnp.ones((128, 128))
rng = np.random.default_rng(0)
step(w, rng.normal(size=(64, 128))).block_until_ready()
for i in range(4):
    t0 = time.perf_counter()
    batch = rng.normal(size=(64, 128))
    w = step(w, batch)
    w.block_until_ready()
    step_time = time.perf_counter() - t0
print("trained:", w.shape)
