"""JW107 host-input-timed: a NumPy array is passed to a jitted function inside the timed region: it is copied to the device on every call, and the copy is timed as compute."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

batch = np.ones((10, 10))
step(batch).block_until_ready()
t0 = time.perf_counter()
step(batch).block_until_ready()  # <- JW107
elapsed = time.perf_counter() - t0

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

batch = jax.device_put(np.ones((10, 10)))
step(batch).block_until_ready()
t0 = time.perf_counter()
step(batch).block_until_ready()
elapsed = time.perf_counter() - t0
