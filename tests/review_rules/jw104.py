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


def rollout(v):  # called as it is below, so its block waits there; jitted too, elsewhere
    return jax.block_until_ready(jax.lax.scan(lambda c, _: (c + 1, c), v, length=3))


rollout(x)
jax.jit(rollout)(x)
