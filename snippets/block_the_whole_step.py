"""A step's outputs from separate dispatches get ready separately; block the whole pytree."""

import jax
import jax.numpy as jnp

update = jax.jit(lambda p: p @ p)  # expensive
metric = jax.jit(lambda p: p.sum())  # cheap


def step(params):
    loss = metric(params)  # dispatched first
    return loss, update(params)


# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
params = jnp.ones((n, n))
jax.block_until_ready(step(params))  # warm-up: compile both

loss, new_params = step(params)
loss.block_until_ready()
print("after blocking the loss, new params ready:", new_params.is_ready())
jax.block_until_ready((loss, new_params))
print("after blocking the whole output, all ready:", loss.is_ready() and new_params.is_ready())

# The outputs of one jitted computation share one completion: blocking one waits for all.
fused = jax.jit(lambda p: (p.sum(), p @ p))
jax.block_until_ready(fused(params))
cheap, expensive = fused(params)
cheap.block_until_ready()
print("one jitted call: expensive output ready after blocking the cheap one:", expensive.is_ready())
