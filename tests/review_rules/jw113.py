"""JW113 donated-then-used: an array donated to a jitted call is used after it: the call deleted it."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

update = jax.jit(lambda p, g: p - g, donate_argnums=0)
params = x + 1
new_params = update(params, x)
params.block_until_ready()  # <- JW113

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

update = jax.jit(lambda p, g: p - g, donate_argnums=0)
params = x + 1
params = update(params, x)
params.block_until_ready()
