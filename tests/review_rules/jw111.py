"""JW111 copy-started-not-fetched: a timed copy to the host that `copy_to_host_async()` only started."""

import time
import timeit
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))
step(x).block_until_ready()

t0 = time.perf_counter()
y = step(x)
y.copy_to_host_async()
y.block_until_ready()
transfer = time.perf_counter() - t0  # <- JW111

per_copy = timeit.timeit(lambda: y.copy_to_host_async(), number=100)  # <- JW111

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))
step(x).block_until_ready()

t0 = time.perf_counter()
y = step(x)
y.copy_to_host_async()
values = np.asarray(y)
transfer = time.perf_counter() - t0

t0 = time.perf_counter()
leaves = jax.tree.leaves(step(x))
for leaf in leaves:
    leaf.copy_to_host_async()  # every copy started before any is waited for
values = jax.device_get(leaves)
transfer = time.perf_counter() - t0
