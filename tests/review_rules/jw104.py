"""JW104 block-in-trace: a block inside a traced function waits for nothing."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

@jax.jit
def inner(a):
    return jax.block_until_ready(a * 2)  # <- JW104

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

@jax.jit
def inner(a):
    return a * 2

inner(x).block_until_ready()
