# An Equinox training step under eqx.filter_jit (equinox's examples), timed with no explicit
# block: since Equinox 0.11.8 filter_jit waits for its own results before returning, so the
# step time is right. Needs equinox (the pinned release's test environment).
import time

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(w, x):
    return w - 0.01 * jnp.tanh(x @ w)


w = jnp.ones((256, 256))
x = jnp.ones((256, 256))
w = step(w, x)
for i in range(3):
    t0 = time.perf_counter()
    w = step(w, x)
    step_time = time.perf_counter() - t0
print("trained:", w.shape)
