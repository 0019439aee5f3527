# The same loop done right: the loss is waited on before the step time is read.
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
    loss.block_until_ready()
    step_time = time.time() - t0
    if step % 3 == 0:
        print(f"step {step}: loss {float(loss):.3f}")
