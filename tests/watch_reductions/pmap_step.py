# A pmapped step timed per iteration (jaxline, older flax examples): the pmap returns before
# its work is done.
import time

import jax
import jax.numpy as jnp

p_step = jax.pmap(lambda w: w - 0.1 * jnp.tanh(w @ w))
w = jnp.ones((jax.local_device_count(), 200, 200))
w = p_step(w)
w.block_until_ready()
t0 = time.time()
w = p_step(w)
sps = 1 / (time.time() - t0)  # <- JW101 JW102 judged (JW102 not on 0.4.30)
print("rate is positive:", sps > 0)
