# Training loop with a per-step timer and `if step % N` logging (big_vision, vit train.py):
# the step time is read right after the jitted step is dispatched.
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.mean(jnp.tanh(x @ w) ** 2)
    return w - 0.01 * jnp.tanh(w), loss


w = jnp.ones((256, 256))
x = jnp.ones((256, 256))
w, loss = train_step(w, x)
loss.block_until_ready()
for step in range(6):
    t0 = time.time()
    w, loss = train_step(w, x)
    step_time = time.time() - t0  # <- JW101
    if step % 3 == 0:
        print(f"step {step}: loss {float(loss):.3f}")
