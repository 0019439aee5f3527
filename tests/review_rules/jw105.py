"""JW105 nothing-to-block: jax.block_until_ready is given something that holds no JAX array: it waits for nothing."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

y = step(x)
jax.block_until_ready(np.asarray(y))  # <- JW105

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

y = step(x)
jax.block_until_ready(y)

carry, ys = jax.block_until_ready(jax.lax.scan(lambda c, _: (c + 1, c), x, length=3))
out = jax.block_until_ready(jax.vmap(jax.jit(lambda a: a * 2))(x))  # the vmapped call's result
