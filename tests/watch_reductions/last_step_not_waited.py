# A loop that fetches the previous step's metrics while the next step runs (maxdiffusion's
# dreambooth write_metrics): the training time is read after the loop, and the last step was
# never waited on.
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w):
    return w - 0.01 * jnp.tanh(w @ w), jnp.mean(w)


w = jnp.ones((300, 300))
train_step(w)[1].block_until_ready()
start = time.time()
last = None
for step in range(5):
    w, loss = train_step(w)
    if last is not None:
        print(f"loss {float(last):.3f}")
    last = loss
training_time = time.time() - start  # <- JW101
print("trained:", training_time > 0)
